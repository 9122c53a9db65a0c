// The run's record writer: each finished record is serialised once (harness/files/output.ts:
// JSON, secrets redacted, unsafe characters escaped) and queued; queued lines are appended to records.jsonl in the order they were queued, by one write
// at a time off the event loop, so model calls keep flowing while the disk works. Lines queued
// while a write is in flight go out together in the next write. Nothing is ever rewritten in
// place: the file only grows. `flush()` resolves once every queued line is on disk (the runner
// awaits it before the summary); a failed write is reported by the next append or flush.
// `caughtUp()` is the back-pressure: when the disk (or a busy event loop that has not yet run
// the write's completion) falls more than MAX_QUEUED lines behind, the runner waits for the
// write in flight before it finishes another record, so neither memory nor the records at risk
// grow with the run.
import { open, type FileHandle } from 'node:fs/promises';
import { outputLine } from '../files/output.ts';
import type { RunRecord } from '../types.ts';

/** Lines allowed to wait behind the write in flight before `caughtUp()` makes callers wait. */
const MAX_QUEUED = 64;

export class RecordWriter {
  private queue: string[] = [];
  private inFlight: Promise<void> | null = null;
  private handle: Promise<FileHandle> | null = null;
  private failure: Error | null = null;
  /** Records queued so far (written or not). */
  appended = 0;

  constructor(readonly path: string) {}

  /** Serialises `record` now and queues it behind every record queued before it; returns the line queued. */
  append(record: RunRecord): string {
    if (this.failure) throw this.failure;
    const line = outputLine(record);
    this.queue.push(line);
    this.appended++;
    if (!this.inFlight) this.inFlight = this.drain();
    return line;
  }

  private async drain(): Promise<void> {
    try {
      this.handle ??= open(this.path, 'a');
      const fh = await this.handle;
      while (this.queue.length) {
        const batch = this.queue.join('');
        this.queue = [];
        await fh.write(batch);
      }
    } catch (err) {
      this.failure = new Error(`cannot append to ${this.path}: ${(err as Error).message}`);
    } finally {
      this.inFlight = null;
    }
  }

  /** Resolves at once while few lines wait; otherwise when the write in flight is done. */
  async caughtUp(): Promise<void> {
    while (this.queue.length > MAX_QUEUED && this.inFlight) await this.inFlight;
    if (this.failure) throw this.failure;
  }

  /** Resolves when every record queued so far is written; rejects if a write failed. */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight;
    if (this.queue.length) {
      this.inFlight = this.drain();
      await this.inFlight;
    }
    if (this.failure) throw this.failure;
  }

  /** Flushes and closes the file. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      const h = this.handle;
      this.handle = null;
      if (h) await (await h).close();
    }
  }
}
