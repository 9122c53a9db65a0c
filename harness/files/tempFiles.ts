// Temporary files that become cache entries and reports by rename. Each is named
// `<target>.<pid>.<random hex>.tmp`, so that whoever finds one later can tell which process wrote
// it: a process killed between writing and renaming (kill -9, OOM, power cut) leaves its
// temporary file behind, and the next process to open that cache folder removes it
// (sweepStaleTemps) once its writer is gone. Nobody reads a temporary file, so a leftover never
// corrupts anything; sweeping only stops the folder from growing with every kill.
import { randomBytes } from 'node:crypto';
import { readdirSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync, writevSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeDirectory } from './makeDirectory.ts';

const TEMP = /\.(\d+)\.[0-9a-f]+\.tmp$/;

/** A temporary file left longer than this is swept whoever wrote it (its pid may have been reused). */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/** True when `pid` is a live process on this machine (EPERM: alive, owned by someone else). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A fresh temporary name beside `target`. */
export function tempPathFor(target: string): string {
  return `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/** Writes `data` to `target` through a temporary file and a rename: readers see the old file or the new one. */
export function writeViaTemp(target: string, data: string | Buffer): void {
  makeDirectory(dirname(target));
  const tmp = tempPathFor(target);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, target);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // never created, or already renamed
    }
    throw err;
  }
}

/** Buffers per writev call (below every system's IOV_MAX). */
const WRITEV_BATCH = 1024;

/**
 * Appends the buffers, in order, to an open file: a batch per writev (no joined copy of them is
 * made); a short write is finished piecewise.
 */
export function writeBuffers(fd: number, parts: readonly Uint8Array[]): void {
  for (let i = 0; i < parts.length; i += WRITEV_BATCH) {
    const batch = parts.slice(i, i + WRITEV_BATCH);
    let written = writevSync(fd, batch);
    for (const part of batch) {
      if (written >= part.length) {
        written -= part.length;
        continue;
      }
      for (let at = written; at < part.length; ) at += writeSync(fd, part, at, part.length - at);
      written = 0;
    }
  }
}

/** True for a name tempPathFor made, whose writer is gone (or that is older than a day). */
function isStale(path: string, name: string, now: number): boolean {
  const m = TEMP.exec(name);
  if (!m) return false;
  const pid = Number(m[1]);
  if (pid !== process.pid && !processAlive(pid)) return true;
  try {
    return now - statSync(path).mtimeMs > STALE_AFTER_MS;
  } catch {
    return false;
  }
}

/**
 * Removes the temporary files killed writers left in `dir` and its subfolders down to `depth`
 * levels (cache folders shard entries into subfolders). A folder that does not exist (yet) has
 * nothing to sweep. Returns how many were removed.
 */
export function sweepStaleTemps(dir: string, depth = 1): number {
  const now = Date.now();
  let removed = 0;
  const walk = (d: string, level: number) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = join(d, e.name);
      if (e.isDirectory()) {
        if (level < depth) walk(full, level + 1);
      } else if (isStale(full, e.name, now)) {
        try {
          unlinkSync(full);
          removed++;
        } catch {
          // another process swept it first
        }
      }
    }
  };
  walk(dir, 0);
  return removed;
}
