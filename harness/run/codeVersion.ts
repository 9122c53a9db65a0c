// The code a run ran, for its manifest: the package version and, in a git checkout of treebench
// itself, the commit and whether tracked files differed from it.
//
// Without starting a process on a run's path (a `git` child cost ~90 ms of a one-question run):
// the commit is read from the repository's own files (HEAD, the branch's ref or packed-refs, a
// worktree's gitdir), and the dirty flag from the build stamp (`npm run build` records the
// commit and `git status` of the sources it built) when the running code is that build of that
// commit; a build whose commit is no longer HEAD (committed after building) leaves it unknown
// (null) rather than start git. Only code run from its TypeScript sources (tests, tsx) asks
// `git status`, once per process. The repository must be treebench's own
// (`.git` in the package root): an installed copy inside a user's project records no commit
// rather than the project's.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { RunManifest } from './store.ts';

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** The git directory of the checkout at `root` (a worktree's `.git` is a file naming it), or null. */
function gitDir(root: string): string | null {
  const dotGit = join(root, '.git');
  if (!existsSync(dotGit)) return null;
  if (statSync(dotGit).isDirectory()) return dotGit;
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(read(dotGit) ?? '');
  return m ? resolve(root, m[1]!) : null;
}

/** The commit HEAD names in the checkout at `root`, read from its files; null when it cannot be read. */
export function headCommit(root: string): string | null {
  const dir = gitDir(root);
  if (!dir) return null;
  const head = read(join(dir, 'HEAD'))?.trim();
  if (!head) return null;
  if (/^[0-9a-f]{40,64}$/.test(head)) return head;
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  if (!ref) return null;
  // A worktree keeps its HEAD; branches live in the main repository's directory (`commondir`).
  const common = read(join(dir, 'commondir'))?.trim();
  const commonDir = common ? (isAbsolute(common) ? common : resolve(dir, common)) : dir;
  for (const d of [dir, commonDir]) {
    const loose = read(join(d, ref))?.trim();
    if (loose && /^[0-9a-f]{40,64}$/.test(loose)) return loose;
  }
  for (const line of (read(join(commonDir, 'packed-refs')) ?? '').split('\n')) {
    const [sha, name] = line.split(' ');
    if (name === ref && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
  }
  return null;
}

/** What bin/build.mjs wrote into .build-stamp; null for a stamp of an older build (a bare date). */
function buildStamp(root: string): { commit: string | null; dirty: boolean | null } | null {
  try {
    const s = JSON.parse(read(join(root, '.build-stamp')) ?? '') as { commit?: unknown; dirty?: unknown };
    return { commit: typeof s.commit === 'string' ? s.commit : null, dirty: typeof s.dirty === 'boolean' ? s.dirty : null };
  } catch {
    return null;
  }
}

function gitStatusDirty(root: string): boolean | null {
  try {
    return execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() !== '';
  } catch {
    return null;
  }
}

const cache = new Map<string, RunManifest['code']>();

/**
 * The manifest's `code` for the package at `root`. `compiled`: the running code is the build's
 * JavaScript (not the TypeScript sources), so the build stamp describes it.
 */
export function codeVersion(root: string, compiled: boolean): RunManifest['code'] {
  const key = `${root}\0${compiled}`;
  const known = cache.get(key);
  if (known) return { ...known };
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const commit = headCommit(root);
  let dirty: boolean | null = null;
  if (commit) {
    if (!compiled) dirty = gitStatusDirty(root);
    else {
      const stamp = buildStamp(root);
      dirty = stamp && stamp.commit === commit ? stamp.dirty : null;
    }
  }
  const code = { version: pkg.version, commit, dirty, node: process.version };
  cache.set(key, code);
  return { ...code };
}
