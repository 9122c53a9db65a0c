// One writer per run folder. `run` and `--resume` hold `<runDir>/.lock` while they write; a second
// writer is refused with a message naming the holder (pid, host, start time).
//
// The lock file is created whole or not at all: its content goes to a private temporary file that
// is then hard-linked to `.lock` (link fails if `.lock` exists), so nobody ever reads a half-written
// lock. A lock left by a process that no longer runs on this host (kill -9, power cut) is stale:
// the next writer says so and takes it over. Process ids are reused (a container restarts its
// processes with the same small pids), so on Linux the lock also records the holder's start time
// and boot id: a live pid that started at another time is not the holder. A lock from another host
// cannot be checked and is never taken over silently: remove it by hand if that run is gone.
import { hostname } from 'node:os';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { UsageError } from '../errors.ts';
import { processAlive } from '../files/tempFiles.ts';

export { processAlive };

export const LOCK_FILE = '.lock';

export interface LockInfo {
  pid: number;
  host: string;
  startedAt: string;
  /** Unique per holder, so a takeover can tell its own lock from a newer one. */
  token: string;
  /** Linux: boot id and start time of the holder process, to see through pid reuse. */
  identity?: string;
  command?: string;
}

export interface HeldLock {
  readonly path: string;
  readonly info: LockInfo;
  /** Set when a stale lock was taken over: who held it. */
  readonly tookOver: LockInfo | null;
  release(): void;
}

/** Locks this process holds (by token): its own pid in a lock file is only alive if listed here. */
const heldHere = new Set<string>();

/** `<boot id>:<start time>` of a process from /proc (Linux), or null where that is not available. */
export function processIdentity(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3; starttime is field 22.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return start ? `${boot}:${start}` : null;
  } catch {
    return null;
  }
}

/** True when the process that wrote `holder` (on this host) still runs. */
function holderAlive(holder: LockInfo): boolean {
  if (holder.pid === process.pid) return heldHere.has(holder.token);
  if (!processAlive(holder.pid)) return false;
  const now = holder.identity ? processIdentity(holder.pid) : null;
  return now === null || now === holder.identity;
}

function readLock(path: string): LockInfo | null | 'missing' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  try {
    const info = JSON.parse(text) as LockInfo;
    return typeof info.pid === 'number' && typeof info.host === 'string' ? info : null;
  } catch {
    return null;
  }
}

export function describeHolder(info: LockInfo): string {
  return `pid ${info.pid} on ${info.host}, since ${info.startedAt}`;
}

/**
 * Takes the lock of `dir` (which must exist) or throws a UsageError naming the holder.
 * `onTakeover` hears about a stale lock that was taken over.
 */
export function acquireRunLock(dir: string, opts: { command?: string; onTakeover?: (stale: LockInfo | null) => void } = {}): HeldLock {
  const path = join(dir, LOCK_FILE);
  const identity = processIdentity(process.pid);
  const info: LockInfo = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    token: randomUUID(),
    ...(identity ? { identity } : {}),
    ...(opts.command ? { command: opts.command } : {}),
  };
  const tmp = join(dir, `${LOCK_FILE}.${info.token}`);
  writeFileSync(tmp, JSON.stringify(info) + '\n');
  let tookOver: LockInfo | null = null;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(tmp, path);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw err;
      }
      const holder = readLock(path);
      if (holder === 'missing') continue; // released meanwhile: try again
      if (holder && (holder.host !== info.host || holderAlive(holder))) {
        throw new UsageError(
          `run folder ${dir} is in use by another treebench (${describeHolder(holder)}${holder.command ? `: ${holder.command}` : ''}); ` +
            `wait for it to finish${holder.host !== info.host ? `, or delete ${path} if that run is gone` : ''}`,
        );
      }
      // Stale (holder dead on this host) or unreadable. Move it aside under a private name, then
      // check that what was moved is the lock judged stale: if another writer took it over in
      // between, put theirs back and give way to them.
      const aside = join(dir, `${LOCK_FILE}.stale.${info.token}`);
      try {
        renameSync(path, aside);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      const moved = readLock(aside);
      const same = holder === null ? moved === null : moved !== null && moved !== 'missing' && moved.token === holder.token;
      if (!same) {
        try {
          linkSync(aside, path);
        } catch {
          // Someone else holds it now; the next round reports them.
        }
        unlinkSync(aside);
        continue;
      }
      unlinkSync(aside);
      tookOver = holder ?? { pid: 0, host: '?', startedAt: '?', token: '' };
      opts.onTakeover?.(holder);
    }
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
  }
  heldHere.add(info.token);
  let released = false;
  return {
    path,
    info,
    tookOver,
    release() {
      if (released) return;
      released = true;
      heldHere.delete(info.token);
      // Only remove our own lock (a takeover may have replaced it if we were presumed dead).
      const now = readLock(path);
      if (now && now !== 'missing' && now.token === info.token) unlinkSync(path);
    },
  };
}
