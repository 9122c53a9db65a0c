// The folders (and the root's index.ts) that hold treebench's TypeScript sources: tsconfig.json's
// `include` without tests, benchmarks and examples (a new source folder counts as soon as it is
// listed there). Shared by the build (bin/build.mjs) and the command's stale-build check
// (bin/treebench.mjs).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
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

/**
 * Whether the compiled JavaScript is at least as new as every TypeScript source (`npm run build`).
 * Runs at every start of the command in a checkout, so it stats only the .ts sources and builds
 * their paths by concatenation (path.join over every entry cost ~50 ms of a start).
 */
export function buildIsCurrent(root) {
  const stamp = join(root, '.build-stamp');
  if (!existsSync(join(root, 'dist', 'main.js')) || !existsSync(join(root, 'cli', 'main.js')) || !existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  const base = root.endsWith('/') || root.endsWith('\\') ? root : root + '/';
  for (const entry of sourceDirs(root)) {
    if (entry.endsWith('.ts')) {
      if (statSync(base + entry).mtimeMs > built) return false;
      continue;
    }
    const dir = base + entry + '/';
    for (const f of readdirSync(dir, { recursive: true })) {
      if (typeof f === 'string' && f.endsWith('.ts') && !f.endsWith('.d.ts') && statSync(dir + f).mtimeMs > built) return false;
    }
  }
  return true;
}
