// Errors a user can cause with their data (a bad JSONL line, a missing field, a duplicate node id).
// The message names the place first, compiler style, so editors and CI logs can jump to it:
//   datasets/foo.jsonl:12: field "answers": expected a string or array of strings
// The CLI maps DataError to exit code 2.
import path from 'node:path';

export interface DataLocation {
  file?: string;
  line?: number;
  field?: string;
}

export class DataError extends Error {
  file?: string;
  line?: number;
  field?: string;
  /** The message without the location prefix. */
  readonly detail: string;

  constructor(detail: string, loc: DataLocation = {}, options?: { cause?: unknown }) {
    super(formatLocated(detail, loc), options);
    this.name = 'DataError';
    this.detail = detail;
    if (loc.file !== undefined) this.file = loc.file;
    if (loc.line !== undefined) this.line = loc.line;
    if (loc.field !== undefined) this.field = loc.field;
  }
}

export function isDataError(err: unknown): err is DataError {
  return err instanceof DataError;
}

/** `file:line: field "x": detail`, leaving out the parts that are unknown. */
export function formatLocated(detail: string, loc: DataLocation): string {
  let where = '';
  if (loc.file) where = displayPath(loc.file) + (loc.line !== undefined ? `:${loc.line}` : '') + ': ';
  else if (loc.line !== undefined) where = `line ${loc.line}: `;
  const field = loc.field ? `field "${loc.field}": ` : '';
  return where + field + detail;
}

/** Paths under the working directory are shown relative to it (shorter, clickable), others as given. */
export function displayPath(file: string): string {
  if (!path.isAbsolute(file)) return file;
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

/** JSON path of a nested field, e.g. `nodes[2].children[0].title`. */
export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return base ? `${base}.${key}` : key;
}

/** Short JSON preview of a bad value for error messages. */
export function preview(value: unknown, max = 60): string {
  let s: string;
  try {
    s = value === undefined ? 'undefined' : JSON.stringify(value);
  } catch {
    s = String(value);
  }
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}
