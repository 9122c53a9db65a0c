// Atomic file writes for run folders: write-file-atomic writes a temporary file beside the
// target, fsyncs it and renames it over the target, so a reader (or a kill) sees the old file or
// the new one, never a half-written or empty one. The folder is fsynced too where the OS allows,
// so the rename itself survives a power cut.
import { close, fsync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { makeDirectory } from './makeDirectory.ts';

export function writeFileAtomicSync(path: string, content: string | Buffer): void {
  makeDirectory(dirname(path));
  writeFileAtomic.sync(path, content, { fsync: true });
  fsyncDir(dirname(path));
}

/**
 * Makes the folder's entries (the renames into it) durable, best effort: some file systems (and
 * Windows) refuse to open or fsync a directory. The fsync runs on one of libuv's threads, and
 * the process does not exit before it is done; this thread goes on meanwhile. Why: a folder's
 * fsync waits for the file system's journal (~4 ms on this project's machine), and a run's end
 * renames four files into its folder one after another. What a kill can leave is unchanged (a
 * rename is atomic when it returns); only a power cut in the next few milliseconds could undo it.
 */
export function fsyncDir(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return; // not supported here: the rename is still atomic, only its durability is weaker
  }
  fsync(fd, () => close(fd, () => {}));
}
