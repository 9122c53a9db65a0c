// What treebench agrees to read as input (configs, datasets, corpora, run folders): a regular file
// of a bounded size. A FIFO would block the read forever, a device (/dev/zero, /dev/urandom) has
// no end, a file of /proc or /sys is the kernel's (and /proc/self/environ holds the secrets of
// the environment), and a file bigger than a JavaScript string can hold crashes the reader: each
// is refused before a byte is read, with what it is, so the caller's error can name the file
// (and exit 2) instead of hanging, growing without bound or printing a stack.
import { realpathSync, statSync } from 'node:fs';

/** Longest JSON Lines record treebench parses (a real FinanceBench line is 14 KB). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** Largest text file read whole: a JavaScript string holds at most 2^29 - 24 UTF-16 units. */
export const MAX_TEXT_FILE_BYTES = 512 * 1024 * 1024;
/** Largest config (YAML parsing takes about fifty times the text in memory; configs are written by hand). */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

const PSEUDO_FILE_SYSTEMS = ['/proc', '/sys', '/dev'];

export function formatBytes(n: number): string {
  return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MB` : n >= 1 << 10 ? `${(n / 1024).toFixed(1)} KB` : `${n} bytes`;
}

/**
 * Why `path` is not a file treebench reads (null when it is one): not found, a folder, a FIFO,
 * socket or device, a file of /proc, /sys or /dev, or bigger than `maxBytes`.
 */
export function inputFileProblem(path: string, maxBytes = MAX_TEXT_FILE_BYTES): string | null {
  let st;
  try {
    st = statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'file not found' : code === 'ENOTDIR' ? 'a path component is a file, not a folder' : `cannot read (${code ?? (err as Error).message})`;
  }
  if (st.isDirectory()) return 'is a folder, expected a file';
  if (st.isFIFO()) return 'is a FIFO (named pipe), not a regular file; reading it could wait forever';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'is a device, not a regular file';
  if (st.isSocket()) return 'is a socket, not a regular file';
  if (!st.isFile()) return 'is not a regular file';
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // stat succeeded: keep the path as given
  }
  const fs = PSEUDO_FILE_SYSTEMS.find((p) => real === p || real.startsWith(`${p}/`));
  if (fs) return `is a file of ${fs}, a kernel file system, not data`;
  if (st.size > maxBytes) return `is ${formatBytes(st.size)}, more than the ${formatBytes(maxBytes)} treebench reads`;
  return null;
}

/** Why one line of a JSON Lines file is refused (null when it is fine): longer than MAX_LINE_BYTES. */
export function lineProblem(line: string): string | null {
  // A UTF-16 unit is at most 3 UTF-8 bytes: only a long line needs measuring.
  if (line.length * 3 <= MAX_LINE_BYTES) return null;
  const bytes = Buffer.byteLength(line);
  return bytes > MAX_LINE_BYTES ? `the line is ${formatBytes(bytes)} long, more than the ${formatBytes(MAX_LINE_BYTES)} of one record treebench reads` : null;
}
