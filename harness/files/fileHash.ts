// SHA-256 of a file's bytes, read through one reused 64 KiB buffer. A run's manifest hashes every
// file of its dataset (a Markdown corpus: every page); reading each whole (readFileSync) left a
// buffer per file for the collector, and those buffers held the whole corpus's bytes at once
// (+8.6 MB of peak RSS for 640 pages, 9 MB, growing with the corpus: `npm run bench:scale`).
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

const CHUNK = Buffer.allocUnsafe(64 * 1024);

/** The SHA-256 of a string (as UTF-8) or of bytes, hex. */
export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** The file's SHA-256, hex. Synchronous, so the one buffer is never shared by two reads. */
export function fileSha256(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const h = createHash('sha256');
    for (let n = readSync(fd, CHUNK, 0, CHUNK.length, null); n > 0; n = readSync(fd, CHUNK, 0, CHUNK.length, null)) h.update(CHUNK.subarray(0, n));
    return h.digest('hex');
  } finally {
    closeSync(fd);
  }
}
