// Atomic file writes for run folders: write-file-atomic writes a temporary file beside the
// target, fsyncs it and renames it over the target, so a reader (or a kill) sees the old file or
// the new one, never a half-written or empty one. The folder is fsynced too where the OS allows,
// so the rename itself survives a power cut.
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { makeDirectory } from './makeDirectory.ts';

export function writeFileAtomicSync(path: string, content: string | Buffer): void {
  makeDirectory(dirname(path));
  writeFileAtomic.sync(path, content, { fsync: true });
  fsyncDir(dirname(path));
}

/** Best effort: some file systems (and Windows) refuse to open or fsync a directory. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Not supported here; the rename is still atomic, only its durability is weaker.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
