// File helpers shared by the loaders: reading with located errors, JSON with line numbers,
// deterministic recursive listings (sorted by code unit, not locale, so ids and hashes are
// the same on every machine).
import fs from 'node:fs';
import path from 'node:path';
import { DataError } from './errors.ts';
import { inputFileProblem, lineProblem } from '../harness/files/inputFile.ts';

export function readText(file: string, field?: string): string {
  // A FIFO, a device, a kernel file or a file too big for a string is refused before any read.
  const problem = inputFileProblem(file);
  if (problem) throw new DataError(problem, { file, field });
  let text: string;
  try {
    text = decodeUtf8(fs.readFileSync(file), file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a folder, expected a file' : `cannot read (${code ?? String(err)})`;
    throw new DataError(why, { file, field }, { cause: err });
  }
  // A UTF-8 byte order mark is common in files saved by spreadsheet tools; it is not content.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const pendingWarnings: string[] = [];

/**
 * Text of a file that is expected to be UTF-8. Bytes that are not UTF-8 still become U+FFFD (the
 * file stays usable), but never silently: a warning naming the file and the first bad byte is
 * queued for the run's warnings (see drainTextWarnings).
 */
function decodeUtf8(buf: Buffer, file: string): string {
  try {
    return strictUtf8.decode(buf);
  } catch {
    const text = buf.toString('utf8');
    const at = Buffer.byteLength(text.slice(0, text.indexOf('\uFFFD')));
    pendingWarnings.push(`${file}: not valid UTF-8 (first bad byte near offset ${at}); undecodable bytes were replaced with U+FFFD`);
    return text;
  }
}

/** Warnings queued by the readers since the last call (loadBenchmarkData reports them). */
export function drainTextWarnings(): string[] {
  return pendingWarnings.splice(0);
}

/** JSON nested deeper than this is refused: no real outline is, and deeper input overflows the stack. */
export const MAX_JSON_DEPTH = 400;

/** Nesting depth of a parsed JSON value, measured without recursion. */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > MAX_JSON_DEPTH) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v as object)) if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
  }
  return max;
}

/** Parses JSON; a syntax error names the file and the line where the text stops being JSON. */
export function parseJson(text: string, file: string, lineOffset = 0): unknown {
  try {
    const value: unknown = JSON.parse(text);
    // Each level of nesting takes at least two characters ("[]"): a shorter text cannot be too
    // deep, and a JSON Lines record seldom is longer (the depth walk cost a run ~5 µs a line).
    if (text.length > 2 * MAX_JSON_DEPTH && jsonDepth(value) > MAX_JSON_DEPTH) {
      throw new DataError(`nested more than ${MAX_JSON_DEPTH} levels deep; no real document outline is, so this file is refused`, { file, line: lineOffset + 1 });
    }
    return value;
  } catch (err) {
    if (err instanceof DataError) throw err;
    const msg = (err as Error).message;
    // V8 reports a position for some errors only ("Unexpected token 'o', ..." has none), so find it.
    const m = /position (\d+)/.exec(msg);
    const offset = m ? Number(m[1]) : jsonErrorOffset(text);
    const line = lineOffset + text.slice(0, Math.min(offset, text.length)).split('\n').length;
    throw new DataError(`invalid JSON: ${msg}`, { file, line }, { cause: err });
  }
}

/**
 * Offset of the first character that makes `text` invalid JSON (text.length when it ends early).
 * A small recursive-descent scanner, used only after JSON.parse has failed.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const lit = (word: string) => {
    for (const ch of word) if (text[i++] !== ch) (i--, fail());
  };
  const str = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text[i];
      if (c === '"') return void i++;
      if (c === '\\') {
        i++;
        if (text[i] === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) ((i += k), fail());
          i += 5;
        } else if ('"\\/bfnrt'.includes(text[i] ?? '')) i++;
        else fail();
      } else if (c < ' ') fail();
      else i++;
    }
    fail();
  };
  const num = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail();
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        str();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    } else if (c === '"') str();
    else if (c === 't') lit('true');
    else if (c === 'f') lit('false');
    else if (c === 'n') lit('null');
    else if (c === '-' || (c >= '0' && c <= '9')) num();
    else fail();
  };
  try {
    value();
    ws();
    return i < text.length ? i : text.length;
  } catch (at) {
    return typeof at === 'number' ? at : 0;
  }
}

/**
 * One line of a JSON Lines file (`lineIndex` 0-based): refused when longer than a record can be
 * (harness/files/inputFile.ts, MAX_LINE_BYTES), before JSON.parse builds it in memory.
 */
export function parseJsonLine(raw: string, file: string, lineIndex: number): unknown {
  const problem = lineProblem(raw);
  if (problem) throw new DataError(problem, { file, line: lineIndex + 1 });
  return parseJson(raw, file, lineIndex);
}

export function readJson(file: string): unknown {
  return parseJson(readText(file), file);
}

export function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function exists(p: string): boolean {
  return fs.existsSync(p);
}

/**
 * Files under `dir` (recursively) whose names end with one of `exts` (lower-case, with dot),
 * sorted by their path relative to `dir`. Hidden files and folders are left out.
 */
export function listFiles(dir: string, exts: string[]): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    const entries = fs.readdirSync(d, { withFileTypes: true });
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if ((e.isFile() || e.isSymbolicLink()) && exts.some((x) => e.name.toLowerCase().endsWith(x))) out.push(full);
    }
  };
  walk(dir);
  return out.sort(byCodeUnit);
}

export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** File name without its last extension (`a/b/File.md` -> `File`). */
export function stem(file: string): string {
  const base = path.basename(file);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** Relative path with forward slashes, whatever the platform. */
export function posixRelative(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join('/');
}
