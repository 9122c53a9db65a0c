// The one door for every file treebench writes that a person or a later run will read: run
// folders (manifest, records, summary, reports), comparisons, gate summaries, exports, caches.
// Whatever goes through it gets the same two passes, so no writer can forget either:
//   1. redaction (harness/models/secrets.ts): the keys in use, key-shaped strings, bearer tokens,
//      URL passwords become [REDACTED];
//   2. the sanitiser for its kind of text (harness/text/terminal.ts): control characters and bidi
//      controls neutralised in documents (Markdown, CSV, HTML, XML, text), escaped in JSON.
// Files are written atomically (temporary file, fsync, rename: old or new, never half), or
// appended a whole line at a time (records). The ingestion cache (copies of the user's own
// documents, gzipped) and binary embedding packs do not come through here: see docs/security.md.
import { appendFileSync, closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import { redactSecrets } from '../models/secrets.ts';
import { forDocument, forJsonText } from '../text/terminal.ts';
import { fsyncDir, writeFileAtomicSync } from './atomicFile.ts';
import { tempPathFor } from './tempFiles.ts';
import { makeDirectory } from './makeDirectory.ts';

/** How a file's text is sanitised: `json` (and JSON lines) by escaping, `document` by replacement. */
export type OutputKind = 'json' | 'document';

/** The kind of a file by its name: .json/.jsonl/.ndjson are JSON, everything else a document. */
export function outputKind(path: string): OutputKind {
  const ext = extname(path).toLowerCase();
  return ext === '.json' || ext === '.jsonl' || ext === '.ndjson' ? 'json' : 'document';
}

/** Both passes, for text about to be written (or printed in a file format). */
export function safeOutput(text: string, kind: OutputKind): string {
  const redacted = redactSecrets(text);
  return kind === 'json' ? forJsonText(redacted) : forDocument(redacted);
}

/** One JSON line (records.jsonl): serialised, redacted, escaped, with its newline. */
export function outputLine(value: unknown): string {
  return safeOutput(JSON.stringify(value), 'json') + '\n';
}

/** Writes `text` to `path` atomically, after both passes. */
export function writeOutputFile(path: string, text: string, kind: OutputKind = outputKind(path)): void {
  writeFileAtomicSync(path, safeOutput(text, kind));
}

/** Appends `text` (whole lines) to `path`, after both passes. */
export function appendOutputFile(path: string, text: string, kind: OutputKind = outputKind(path)): void {
  appendFileSync(path, safeOutput(text, kind));
}

export interface OutputStream {
  /** Text: redacted and sanitised, then written. */
  write(text: string): void;
  /** Bytes that are already safe and carry no text a reader sees raw (e.g. base64 of compressed, sanitised data). */
  writeRaw(ascii: string): void;
}

/**
 * Writes a large file piece by piece (the HTML report streams its records), atomically: pieces go
 * to a temporary file beside `path`, which is fsynced and renamed over `path` once `produce`
 * returns. A failure or a kill leaves the old file (and, after a kill, a temporary file that
 * sweepStaleTemps removes). Each piece must be whole text (a secret is redacted within a piece).
 */
export async function writeOutputStream(path: string, produce: (out: OutputStream) => Promise<void> | void, kind: OutputKind = outputKind(path)): Promise<void> {
  makeDirectory(dirname(path));
  const tmp = tempPathFor(path);
  const fd = openSync(tmp, 'w');
  let ok = false;
  try {
    // Small pieces are gathered into one write: a write per table cell would cost more than the cell.
    let pending: string[] = [];
    let pendingChars = 0;
    const flush = () => {
      if (!pendingChars) return;
      writeSync(fd, pending.join(''));
      pending = [];
      pendingChars = 0;
    };
    const push = (s: string) => {
      pending.push(s);
      pendingChars += s.length;
      if (pendingChars >= 1 << 16) flush();
    };
    await produce({ write: (text) => push(safeOutput(text, kind)), writeRaw: push });
    flush();
    fsyncSync(fd);
    ok = true;
  } finally {
    closeSync(fd);
    if (!ok) {
      try {
        unlinkSync(tmp);
      } catch {
        // already gone
      }
    }
  }
  renameSync(tmp, path);
  fsyncDir(dirname(path));
}
