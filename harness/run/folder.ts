// Opening a run folder for writing: where `run` and `--resume` decide whether the folder's state
// lets them write, under the folder's one-writer lock (runLock.ts).
//
// The states a kill can leave, oldest step first, and what each writer does with them:
//   1. no folder, an empty folder, or only a lock / temporary files   -> a new run starts there;
//      `--resume` starts it afresh too (nothing had been done) and says so
//   2. manifest.json, no records.jsonl (killed while indexing)        -> `--resume` continues
//   3. manifest.json + records.jsonl, maybe a last line cut short      -> `--resume` continues
//      (the cut line is dropped: it was never a finished record)
// A new run is refused over states 2 and 3 (it would mix two runs); a folder with records but
// no readable manifest cannot come from this version of treebench and is refused with exit 2.
import { existsSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { makeDirectory } from '../files/makeDirectory.ts';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.ts';
import { acquireRunLock, describeHolder, LOCK_FILE, type HeldLock } from './lock.ts';
import { recordKey, RunStore, type RunManifest } from './store.ts';

export interface WritableRunFolder {
  store: RunStore;
  lock: HeldLock;
  /** The manifest to continue (resume of a started run), or null: write a new one. */
  manifest: RunManifest | null;
  /**
   * What the folder already holds (resume), per strategy × question × repeat (`recordKey`):
   * whether its latest record succeeded (no error). Only this is kept, not the records.
   */
  previous: Map<string, boolean>;
  /** Things the user should hear about (a stale lock taken over, a resume that starts afresh). */
  notes: string[];
}

/** A run id is one folder name: letters, digits, dot, dash, underscore; not `.` or `..`. */
export function checkRunId(runId: string, label = '--run-id'): void {
  if (!/^[A-Za-z0-9._-]+$/.test(runId) || runId === '.' || runId === '..' || runId.length > 200) {
    throw new UsageError(`${label} "${runId.replace(/[^\x20-\x7e]/g, '?')}" must be a plain folder name (letters, digits, dot, dash, underscore; not "." or "..")`);
  }
}

/**
 * `outDir/runId`, refusing anything that would land outside `outDir`. `label` names where the id
 * came from in messages (`--run-id`, or the id made from the config's name).
 */
/**
 * A default run id: the config name and the UTC time to the second (`nightly-20260101-020000Z`),
 * with `-2`, `-3`, … when `outDir` already has that folder (two runs started in one second).
 */
export function timestampRunId(outDir: string, name: string, infix = ''): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z').replace('T', '-');
  // No leading dot or dash: a hidden folder is skipped by listings, and `-x` reads as a flag.
  const base = `${name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '') || 'run'}${infix}-${stamp}`;
  let id = base;
  for (let n = 2; existsSync(join(outDir, id)); n++) id = `${base}-${n}`;
  return id;
}

export function runFolderPath(outDir: string, runId: string, label = '--run-id'): string {
  checkRunId(runId, label);
  const dir = resolve(outDir, runId);
  const rel = relative(resolve(outDir), dir);
  // `..hidden` is a name inside outDir; only `..` itself, or a path through it, leads out.
  if (!rel || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new UsageError(`${label} "${runId}" would write outside ${outDir}`);
  return join(outDir, runId);
}

export function makeFolder(dir: string, what: string): void {
  try {
    makeDirectory(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot create run folder ${dir} (${what}): ${code === 'ENOTDIR' || code === 'EEXIST' ? 'a file is in the way' : code ?? (err as Error).message}`);
  }
  if (!statSync(dir).isDirectory()) throw new UsageError(`cannot create run folder ${dir} (${what}): a file is in the way`);
}

/**
 * Temporary files of a run folder's own files (write-file-atomic's `<file>.<hex>`, or
 * harness/files/tempFiles.ts's `<file>.<pid>.<hex>.tmp`): a kill between write and rename leaves
 * one; its target is intact.
 */
const LEFTOVER = /^(?:manifest\.json|summary\.json|records\.jsonl|report\.\w+|\.merge\.json)\.(?:[0-9a-f]+|\d+\.[0-9a-f]+\.tmp)$/;

/** Removes the temporary files killed writers left in `dir` (whoever opens it holds its lock, so none is live). */
export function removeLeftovers(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (LEFTOVER.test(name)) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // another process cleaned it
      }
    }
  }
}

export function openRunFolder(dir: string, mode: 'new' | 'resume', opts: { outDirLabel?: string; command?: string } = {}): WritableRunFolder {
  if (mode === 'resume' && !existsSync(dir)) throw new UsageError(`--resume ${dir}: no such run folder`);
  if (mode === 'resume' && !statSync(dir).isDirectory()) throw new UsageError(`--resume ${dir}: not a folder`);
  makeFolder(dir, opts.outDirLabel ?? 'run.outDir / --out');
  const notes: string[] = [];
  const lock = acquireRunLock(dir, {
    ...(opts.command ? { command: opts.command } : {}),
    onTakeover: (stale) =>
      notes.push(`took over a stale lock in ${dir}${stale ? ` (${describeHolder(stale)}: that process is gone)` : ' (unreadable lock file)'}`),
  });
  try {
    const store = RunStore.at(dir);
    const hasManifest = existsSync(store.manifestPath);
    const hasRecords = existsSync(store.recordsPath);
    if (mode === 'new') {
      if (hasManifest || hasRecords) {
        throw new UsageError(`run folder ${dir} already holds a run; resume it with --resume ${dir} or choose another --run-id`);
      }
      removeLeftovers(dir);
      return { store, lock, manifest: null, previous: new Map(), notes };
    }
    if (!hasManifest) {
      if (hasRecords) throw new UsageError(`${dir} has records but no manifest.json: it cannot be resumed (start a new run with another --run-id)`);
      removeLeftovers(dir);
      notes.push(`${dir} had not started (no manifest): starting it afresh as run "${basename(dir)}"`);
      return { store, lock, manifest: null, previous: new Map(), notes };
    }
    const manifest = store.readManifest();
    const previous = new Map<string, boolean>();
    store.forEachRecord((r) => void previous.set(recordKey(r), r.error === null), { repair: true });
    removeLeftovers(dir);
    return { store, lock, manifest, previous, notes };
  } catch (err) {
    lock.release();
    throw err;
  }
}

export { LOCK_FILE };
