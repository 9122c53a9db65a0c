// The folders (and the root's index.ts) that hold treebench's TypeScript sources: tsconfig.json's
// `include` without tests, benchmarks and examples (a new source folder counts as soon as it is
// listed there). Shared by the build (bin/build.mjs) and the command's stale-build check
// (bin/treebench.mjs).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export function sourceDirs(root) {
  try {
    const text = readFileSync(join(root, 'tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    return JSON.parse(text).include.filter((d) => !['test', 'bench', 'examples'].includes(d) && existsSync(join(root, d)));
  } catch {
    return ['index.ts', 'harness', 'strategies', 'datasets', 'reports', 'cli'];
  }
}

/** The files of each source entry, as paths relative to the root (an entry may be a single file). */
export function sourceFiles(root) {
  const out = [];
  for (const entry of sourceDirs(root)) {
    if (!statSync(join(root, entry)).isDirectory()) out.push(entry);
    else for (const f of readdirSync(join(root, entry), { recursive: true })) out.push(join(entry, String(f)));
  }
  return out;
}

/** The build stamp's time, or null when there is no complete build to compare with. */
function builtAt(root) {
  const stamp = join(root, '.build-stamp');
  if (!existsSync(join(root, 'dist', 'main.js')) || !existsSync(join(root, 'cli', 'main.js')) || !existsSync(stamp)) return null;
  return statSync(stamp).mtimeMs;
}

const isTsSource = (f) => f.endsWith('.ts') && !f.endsWith('.d.ts');

/**
 * What the build records of the sources it compiled (bin/build.mjs puts it in .build-stamp), for
 * buildIsCurrent's quick check: the source entries, every folder under them, and every .ts
 * source, as paths relative to the root.
 */
export function sourceListing(root) {
  const entries = sourceDirs(root);
  const dirs = [];
  const files = [];
  for (const entry of entries) {
    if (!statSync(join(root, entry)).isDirectory()) {
      if (isTsSource(entry)) files.push(entry);
      continue;
    }
    dirs.push(entry);
    for (const name of readdirSync(join(root, entry), { recursive: true })) {
      const rel = join(entry, String(name));
      if (statSync(join(root, rel)).isDirectory()) dirs.push(rel);
      else if (isTsSource(rel)) files.push(rel);
    }
  }
  return { entries, dirs, files };
}

/**
 * The quick answer from the build's listing: when no source folder has changed since the build,
 * no source was added, removed or renamed, so the listed files are the sources and their times
 * decide. Null when it cannot tell (an older stamp, a folder changed, a file gone): the full
 * check then lists the folders again. A stat per folder and per source on this thread (~5 ms),
 * where listing every folder through libuv's threads took ~40 ms and queued the bundle's own
 * file reads behind its stats.
 */
function quickCheck(root, base, built) {
  let listing;
  try {
    listing = JSON.parse(readFileSync(join(root, '.build-stamp'), 'utf8')).sources;
  } catch {
    return null;
  }
  if (!listing || !Array.isArray(listing.entries) || !Array.isArray(listing.dirs) || !Array.isArray(listing.files)) return null;
  if (JSON.stringify(listing.entries) !== JSON.stringify(sourceDirs(root))) return null;
  try {
    for (const d of listing.dirs) if (statSync(base + d).mtimeMs > built) return null;
    for (const f of listing.files) if (statSync(base + f).mtimeMs > built) return false;
  } catch {
    return null;
  }
  return true;
}

/** The .ts sources (not .d.ts) among an entry's listed files, as absolute paths built by concatenation. */
function tsPaths(dir, names) {
  const out = [];
  for (const f of names) if (typeof f === 'string' && isTsSource(f)) out.push(dir + f);
  return out;
}

/**
 * Whether the compiled JavaScript is at least as new as every TypeScript source (`npm run build`).
 * The build's listing answers first (quickCheck); otherwise it stats only the .ts sources, builds their paths by concatenation (path.join over every entry
 * cost ~50 ms of a start), and leaves the listing and the stats to libuv's threads: the command
 * checks its build this way at every start in a checkout while its thread compiles the bundle
 * (done one file after another, the check took ~20 ms of a start).
 */
export async function buildIsCurrent(root) {
  const built = builtAt(root);
  if (built === null) return false;
  const base = root.endsWith('/') || root.endsWith('\\') ? root : root + '/';
  const quick = quickCheck(root, base, built);
  if (quick !== null) return quick;
  const lists = await Promise.all(
    sourceDirs(root).map(async (entry) => (entry.endsWith('.ts') ? [base + entry] : tsPaths(base + entry + '/', await readdir(base + entry + '/', { recursive: true })))),
  );
  const stats = await Promise.all(lists.flat().map((f) => stat(f)));
  return stats.every((st) => st.mtimeMs <= built);
}
