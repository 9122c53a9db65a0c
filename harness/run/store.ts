// The run folder: runs/<runId>/{manifest.json, records.jsonl, summary.json, report files}.
// Records are appended one line at a time as they finish, so an interrupted run keeps every
// finished record and can resume without repeating or duplicating work. Records are never
// rewritten in place; every other file (manifest, summary, reports) is written atomically
// (temporary file, fsync, rename), so a kill at any moment leaves the old file or the new one.
// The manifest is written before the first record: a folder with records always has one.
import type { ScorerInfo } from '../scoring/scorer.ts';
import { closeSync, existsSync, openSync, readFileSync, readSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { appendOutputFile, outputLine, writeOutputFile } from '../files/output.ts';
import { formatBytes, inputFileProblem, MAX_LINE_BYTES } from '../files/inputFile.ts';
import { jsonTextDepth, MAX_RECORD_DEPTH, recordProblem } from './recordShape.ts';
import { UsageError } from '../errors.ts';
import type { RunRecord } from '../types.ts';
import { makeDirectory } from '../files/makeDirectory.ts';

export interface FileHash {
  path: string;
  sha256: string;
}

export interface RunManifest {
  runId: string;
  name: string;
  configPath: string;
  config: unknown;
  configHash: string;
  dataset: { name: string; questions: number; questionsHash: string; files: FileHash[] };
  corpus: {
    name: string;
    docs: number;
    nodes: number;
    hash: string;
    /** Per document, how its tree was made (present when any tree was built from a PDF). */
    trees?: Array<{ docId: string; source: string | null; nodes: number; depth: number; summaries?: string; reason?: string; unlocated?: number }>;
  };
  /** Ingestion work, kept apart from per-question cost: PDF extraction, trees the model built and model-written summaries. */
  ingestion?: {
    /** Trees built by the configured model (corpus.tree: model, or auto on a poor offline tree). */
    trees?: import('../types.ts').ModelTreeStats;
    pdf?: Omit<import('../types.ts').IngestStats, 'treeModel'>;
    summaries?: { nodes: number; calls: number; cached: number; inputTokens: number; outputTokens: number; costUsd: number; fallbacks: number; ms: number };
  };
  code: { version: string; commit: string | null; dirty: boolean | null; node: string };
  model: {
    provider: string;
    id: string;
    offline: boolean;
    priceAs: string | null;
    priced: boolean;
    label: string;
    /** Date of the shipped price table used (absent in older manifests). */
    pricesAsOf?: string;
    /** Models the config priced itself (`prices:`), when it did. */
    userPrices?: string[];
  };
  /** Rate-limit pacing of the chat requests of the last invocation, when the server sent limits or refused any. */
  pacing?: import('../models/pacing.ts').PacingStats;
  /** The same for the embedder's requests (corpus index and query embeddings), when it paces. */
  embeddingPacing?: import('../models/pacing.ts').PacingStats;
  embedder: string;
  strategies: Array<{ id: string; strategy: string; params: Record<string, unknown>; budget: Record<string, number>; grid?: Record<string, unknown> }>;
  /** `--set` flags and `${VAR}` values the config was loaded with (both covered by configHash). */
  overrides?: { set: string[]; env: Record<string, string> };
  questionIds: string[];
  repeats: number;
  seed: number;
  concurrency: number;
  limit: number | null;
  shard: { index: number; count: number } | null;
  /** The corpus index: chunks, embedding calls and tokens (`estimated` when counted, not reported), and their dollars. */
  index: { chunks: number; embedCalls: number; inputTokens: number; ms: number; estimated?: boolean; costUsd?: number; priced?: boolean } | null;
  startedAt: string;
  finishedAt: string | null;
  /** Set when a run was resumed: when each resume started. */
  resumedAt?: string[];
  /** The custom scorers (`scoring.scorers`) whose values the records carry under `custom`. */
  scorers?: ScorerInfo[];
}

/** Bytes read at a time by forEachRecord. */
const READ_BLOCK = 1 << 20;

/** Where a record's line is in records.jsonl: its line number (from 1), byte offset and length. */
export interface RecordPlace {
  line: number;
  at: number;
  bytes: number;
}

export const recordKey = (r: { strategy: string; questionId: string; repeat: number }): string =>
  `${r.strategy}\u0000${r.questionId}\u0000${r.repeat}`;

/**
 * The records a run counts: the last record per strategy × question × repeat (a retried record
 * appended on resume supersedes the earlier one), in first-seen key order.
 */
export function latestRecords(records: readonly RunRecord[]): RunRecord[] {
  const byKey = new Map<string, RunRecord>();
  for (const r of records) byKey.set(recordKey(r), r);
  return [...byKey.values()];
}

export class RunStore {
  private constructor(readonly dir: string) {}

  /**
   * A store for a new run in `dir` (created if needed). Nothing is written yet: the caller
   * writes the manifest, then appends records.
   */
  static create(dir: string): RunStore {
    if (existsSync(join(dir, 'records.jsonl')) || existsSync(join(dir, 'manifest.json'))) {
      throw new UsageError(`run folder ${dir} already holds a run; resume it with --resume ${dir} or choose another --run-id`);
    }
    makeDirectory(dir);
    return new RunStore(dir);
  }

  static open(dir: string): RunStore {
    if (!existsSync(join(dir, 'manifest.json'))) throw new UsageError(`${dir} is not a treebench run folder (no manifest.json)`);
    return new RunStore(dir);
  }

  /** A store over `dir` whatever it holds (the run-folder logic decides what state is acceptable). */
  static at(dir: string): RunStore {
    return new RunStore(dir);
  }

  get manifestPath(): string {
    return join(this.dir, 'manifest.json');
  }

  get recordsPath(): string {
    return join(this.dir, 'records.jsonl');
  }

  readManifest(): RunManifest {
    let manifest: RunManifest;
    try {
      manifest = readJson<RunManifest>(this.manifestPath);
    } catch (err) {
      throw new UsageError(`${(err as Error).message}; this run folder's manifest is unreadable`);
    }
    if (!manifest || typeof manifest !== 'object' || typeof manifest.runId !== 'string' || !Array.isArray(manifest.questionIds)) {
      throw new UsageError(`${this.manifestPath}: not a treebench manifest (no runId or questionIds)`);
    }
    return manifest;
  }

  writeManifest(manifest: RunManifest): void {
    writeOutputFile(this.manifestPath, JSON.stringify(manifest, null, 2) + '\n');
  }

  /**
   * Reads every complete record. A last line cut short by an interruption is dropped from the
   * file (it was never a finished record) so appends continue on a clean line.
   */
  readRecords(opts: { repair?: boolean } = {}): RunRecord[] {
    const records: RunRecord[] = [];
    this.forEachRecord((r) => void records.push(r), opts);
    return records;
  }

  /**
   * Hands every complete record to `visit`, in file order, reading the file a block at a time:
   * memory stays that of one block and one record, whatever the size of the run. Same rules as
   * readRecords (a cut-short last line is dropped, or cut off the file with `repair`; a line that
   * is not JSON in the middle of the file is an error naming it).
   */
  forEachRecord(visit: (record: RunRecord, place: RecordPlace) => void, opts: { repair?: boolean } = {}): void {
    if (!existsSync(this.recordsPath)) return;
    // A folder, FIFO or device where the records file should be: refused, not read (a FIFO would block).
    const problem = inputFileProblem(this.recordsPath, Number.POSITIVE_INFINITY);
    if (problem) throw new UsageError(`${this.recordsPath}: ${problem}`);
    const fd = openSync(this.recordsPath, 'r');
    try {
      const block = Buffer.allocUnsafe(READ_BLOCK);
      let carry: Buffer = Buffer.alloc(0);
      /** Bytes of the file before `carry`. */
      let carryAt = 0;
      let lineNo = 0;
      /** A line that was not JSON: fine if nothing but blank lines follows it. */
      const state: { broken: { line: number; at: number } | null } = { broken: null };
      const take = (buf: Buffer, start: number, end: number, at: number) => {
        lineNo++;
        if (end - start > MAX_LINE_BYTES) throw new UsageError(`${this.recordsPath}:${lineNo}: not a treebench record: the line is longer than ${formatBytes(MAX_LINE_BYTES)}`);
        const line = buf.toString('utf8', start, end);
        if (!line.trim()) return;
        if (state.broken) {
          throw new UsageError(
            `${this.recordsPath}:${state.broken.line}: corrupt record line (not JSON) in the middle of the file; ` +
              `records are only ever appended, so this file was edited or damaged: fix or remove that line`,
          );
        }
        // Every line is checked before anyone reads it as a record (harness/run/recordShape.ts).
        const where = `${this.recordsPath}:${lineNo}`;
        if (line.length > 2 * MAX_RECORD_DEPTH && jsonTextDepth(line, MAX_RECORD_DEPTH) > MAX_RECORD_DEPTH) {
          throw new UsageError(`${where}: not a treebench record: nested more than ${MAX_RECORD_DEPTH} levels deep`);
        }
        let record: unknown;
        try {
          record = JSON.parse(line);
        } catch {
          state.broken = { line: lineNo, at };
          return;
        }
        const wrong = recordProblem(record);
        if (wrong) throw new UsageError(`${where}: not a treebench record: ${wrong}; records are written only by treebench, so this file was edited or damaged: fix or remove that line`);
        visit(record as RunRecord, { line: lineNo, at, bytes: end - start });
      };
      for (;;) {
        const n = readSync(fd, block, 0, READ_BLOCK, null);
        if (n === 0) break;
        // UTF-8 never has a 0x0A byte inside a character, so lines can be cut out as bytes.
        const buf = carry.length ? Buffer.concat([carry, block.subarray(0, n)]) : block.subarray(0, n);
        let start = 0;
        for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
          take(buf, start, nl, carryAt + start);
          start = nl + 1;
        }
        carryAt += start;
        // Copied: `block` is overwritten by the next read.
        carry = Buffer.from(buf.subarray(start));
        // One line longer than any record: refused before it fills memory.
        if (carry.length > MAX_LINE_BYTES) {
          throw new UsageError(`${this.recordsPath}:${lineNo + 1}: not a treebench record: the line is longer than ${formatBytes(MAX_LINE_BYTES)}`);
        }
      }
      if (carry.length) take(carry, 0, carry.length, carryAt);
      if (state.broken && opts.repair) truncateSync(this.recordsPath, state.broken.at);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The record at `place` (from forEachRecord), read again from the file on its own: a report can
   * keep places and not records. The line is checked as forEachRecord checks it; a line that
   * is no longer a record there means the file was rewritten in between, and says so.
   */
  readRecordAt(place: RecordPlace, fd?: number): RunRecord {
    const own = fd === undefined ? openSync(this.recordsPath, 'r') : fd;
    let line: string;
    try {
      const buf = Buffer.allocUnsafe(place.bytes);
      const n = readSync(own, buf, 0, place.bytes, place.at);
      line = buf.toString('utf8', 0, n);
    } finally {
      if (fd === undefined) closeSync(own);
    }
    const where = `${this.recordsPath}:${place.line}`;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      record = undefined;
    }
    const wrong = record === undefined ? 'not JSON' : recordProblem(record);
    if (wrong) throw new UsageError(`${where}: not a treebench record when read again (${wrong}): records.jsonl was rewritten while it was being read`);
    return record as RunRecord;
  }

  append(record: RunRecord): void {
    appendOutputFile(this.recordsPath, outputLine(record));
  }

  /**
   * Writes the whole records file of a run folder that has none yet (merge builds one from shards),
   * atomically. Records of a live run are only ever appended.
   */
  writeNewRecords(records: RunRecord[]): void {
    if (existsSync(this.recordsPath)) throw new UsageError(`${this.recordsPath} already exists; records are never rewritten`);
    writeOutputFile(this.recordsPath, records.map(outputLine).join(''));
  }

  writeFile(name: string, content: string): string {
    const path = join(this.dir, name);
    writeOutputFile(path, content);
    return path;
  }
}

export function readJson<T>(path: string): T {
  const problem = inputFileProblem(path);
  if (problem && !problem.startsWith('file not found')) throw new Error(`cannot read ${path}: ${problem}`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new Error(`${path}: invalid JSON (${(err as Error).message})`);
  }
}
