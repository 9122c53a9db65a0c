// A persistent worker process (`command: [python3, ./retriever.py]`) speaking the strategy
// protocol over JSON lines: one request object per line on its stdin, one response object per
// line on its stdout, each response naming the `questionId` it answers. Several questions are in
// flight at once (the worker answers them in any order); two requests with the same questionId
// (repeats) are never in flight together, so the id alone matches a reply to its request.
//
// What can go wrong, and what becomes of it:
//   - a reply that is not JSON, not an object or names no question in flight: logged; when only
//     one question is in flight it is that question's protocol error;
//   - a question not answered within `timeoutMs`: an error record (a late reply is ignored); when
//     no question sent with it or after it has been answered either, the worker is stuck on it (a
//     serial worker would keep every later question waiting for its own timeout too): it is
//     killed and started again, and the questions in flight beside it are sent again, alone, as
//     after an exit;
//   - the run is interrupted (Ctrl-C): the questions in flight stop waiting at once (no record);
//   - the worker exits: a new process is started for the next request. A question that was in
//     flight when it exited is sent again, alone (nothing else in flight), and again to a fresh
//     process if the one that exited had answered others first (a worker that recycles itself),
//     so that only the question that crashes a fresh worker on its own gets the error record; after
//     `maxCrashes` exits in a row without one answer, later requests fail at once instead of
//     restarting it forever;
//   - a command that cannot start (no such program): an error before the run starts.
// stderr goes to a log file in the run folder, with secrets redacted.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { redactSecrets } from '../models/secrets.ts';
import { ProtocolError } from './protocol.ts';

export interface WorkerOptions {
  /** Program and arguments. */
  argv: string[];
  cwd: string;
  env?: Record<string, string>;
  /** Where stderr is appended. */
  logPath: string;
  /** Label in messages: the strategy id and the config field. */
  label: string;
  /** Exits in a row without an answer before the worker is given up. Default 3. */
  maxCrashes?: number;
  /** Longest stdout line accepted (characters). Default 64 MiB. */
  maxLineChars?: number;
  /**
   * The worker says when it is ready (`ready: true` in its config entry): each process is sent
   * nothing until it prints `{"ready": true}`, within `readyTimeoutMs` (default 120 s), so what
   * it does first (loading an index) is not in any question's latency.
   */
  ready?: boolean;
  readyTimeoutMs?: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  /** Order in which it was sent. */
  seq: number;
  /** The process it was sent to. */
  child: ChildProcessWithoutNullStreams;
}

/** Error of a question the worker did not answer (exit, timeout, broken reply). */
export class WorkerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerError';
  }
}

/** The worker exited while the question was in flight. */
class WorkerCrash extends WorkerError {
  /** Replies the exited process gave before it exited: > 0, it was no fresh process for this question. */
  constructor(message: string, readonly answeredBefore: number) {
    super(message);
  }
}

const STDERR_TAIL = 600;

export class StrategyWorker {
  private child: ChildProcessWithoutNullStreams | null = null;
  private readonly pending = new Map<string, Pending>();
  /** Requests waiting because a request with the same questionId is in flight. */
  private readonly waiting = new Map<string, Array<() => void>>();
  private readonly log: WriteStream;
  private stderrTail = '';
  private crashes = 0;
  /** Requests sent so far, and the latest of them answered: a worker answering none sent at or after a timed-out one is stuck. */
  private sent = 0;
  private latestAnswered = 0;
  /** Replies per process: a question sent alone to a process that had answered others is retried on a fresh one after an exit. */
  private readonly answeredBy = new WeakMap<ChildProcessWithoutNullStreams, number>();
  /** Broken stdout lines no question could be blamed for (several in flight): a timeout says how many came while it waited. */
  private strayLines = 0;
  /** Processes killed for being stuck: their exit is a restart, not a crash toward `maxCrashes`. */
  private readonly killedStuck = new WeakSet<ChildProcessWithoutNullStreams>();
  private closed = false;
  private brokenReason: string | null = null;
  /** Waiting for nothing to be in flight. */
  private drainWaiters: Array<() => void> = [];
  /** Requests sent alone after a crash, queued or in flight: others wait until they are done. */
  private exclusive = 0;
  private exclusiveTail: Promise<void> = Promise.resolve();

  constructor(private readonly opts: WorkerOptions) {
    mkdirSync(dirname(opts.logPath), { recursive: true });
    this.log = createWriteStream(opts.logPath, { flags: 'a' });
  }

  /** The process whose `{"ready": true}` is awaited, and how that wait ends. */
  private readyFor: { child: ChildProcessWithoutNullStreams; resolve(): void; reject(err: Error): void } | null = null;

  /** A process being started (with `ready`: until it says so); requests wait for it. */
  private starting: Promise<void> | null = null;

  /** Starts the process and waits until it is running (and, with `ready`, until it says so); a program that cannot start is an error here. */
  async start(): Promise<void> {
    await this.startChild();
  }

  private startChild(): Promise<void> {
    this.starting ??= this.spawnChild().finally(() => (this.starting = null));
    return this.starting;
  }

  /** Starts a process; with `ready`, resolves once it has printed `{"ready": true}`. */
  private async spawnChild(): Promise<void> {
    await this.spawnProcess();
    if (!this.opts.ready) return;
    const child = this.child!;
    const limit = this.opts.readyTimeoutMs ?? 120_000;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.readyFor = null;
        child.kill('SIGKILL');
        reject(new WorkerError(`${this.opts.label}: the worker did not print {"ready": true} within ${limit} ms of starting (ready: true in its entry)`));
      }, limit);
      this.readyFor = {
        child,
        resolve: () => {
          clearTimeout(timer);
          this.readyFor = null;
          resolve();
        },
        reject: (err) => {
          clearTimeout(timer);
          this.readyFor = null;
          reject(err);
        },
      };
    });
  }

  private spawnProcess(): Promise<void> {
    const [program, ...args] = this.opts.argv;
    const child = spawn(program!, args, { cwd: this.opts.cwd, env: { ...process.env, ...this.opts.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.stderrTail = ''; // an exit's message quotes that process's stderr, not the one before
    child.stdin.on('error', () => {}); // a worker that exits mid-write: its 'exit' handler reports it
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      const text = redactSecrets(chunk);
      this.log.write(text);
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
    });
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => this.onLine(line));
    child.on('exit', (code, signal) => this.onExit(child, code, signal));
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (err) => {
        this.child = null;
        reject(new WorkerError(`${this.opts.label}: cannot start \`${this.opts.argv.join(' ')}\` in ${this.opts.cwd}: ${err.message}`));
      });
    });
  }

  private onLine(line: string): void {
    if (!line.trim()) return;
    const max = this.opts.maxLineChars ?? 64 * 1024 * 1024;
    let reply: unknown;
    let problem: string | null = null;
    if (line.length > max) problem = `a reply line of ${line.length} characters (at most ${max})`;
    else {
      try {
        reply = JSON.parse(line);
      } catch {
        problem = `a stdout line that is not JSON: ${JSON.stringify(line.slice(0, 120))} (stdout carries only protocol replies, one JSON object per line: write logs to stderr)`;
      }
    }
    const id = !problem && typeof reply === 'object' && reply !== null ? (reply as Record<string, unknown>).questionId : undefined;
    // `{"ready": true}`: the process has loaded what it needs. Awaited with `ready`, ignored without.
    if (!problem && id === undefined && (reply as Record<string, unknown>).ready === true) {
      if (this.readyFor && this.readyFor.child === this.child) this.readyFor.resolve();
      return;
    }
    if (!problem && typeof id === 'string' && !this.pending.has(id)) {
      // A late reply (after its timeout) or one for a question never asked: not anyone's answer.
      this.log.write(`[treebench] protocol: a reply for question ${JSON.stringify(id)}, which is not in flight (late, or never asked): ignored\n`);
      return;
    }
    if (!problem && typeof id !== 'string') problem = 'a reply without a string "questionId"';
    if (problem) {
      this.log.write(`[treebench] protocol: ${problem}\n`);
      // With one question in flight the broken line can only be its reply; with more, the
      // question it was meant for times out.
      if (this.pending.size === 1) {
        const [only] = this.pending.keys();
        this.settle(only!, new ProtocolError(`the worker wrote ${problem}`, reply !== undefined && id === undefined ? 'questionId' : undefined));
      } else this.strayLines++;
      return;
    }
    this.crashes = 0;
    const child = this.pending.get(id as string)!.child;
    this.answeredBy.set(child, (this.answeredBy.get(child) ?? 0) + 1);
    this.latestAnswered = Math.max(this.latestAnswered, this.pending.get(id as string)!.seq);
    this.settle(id as string, reply);
  }

  private onExit(child: ChildProcessWithoutNullStreams, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child === child) this.child = null;
    const tail = this.stderrTail.trim() ? `; stderr ends: ${this.stderrTail.trim().split('\n').slice(-3).join(' | ')}` : '';
    if (this.readyFor?.child === child) {
      this.readyFor.reject(new WorkerError(`${this.opts.label}: the worker ${signal ? `was killed by ${signal}` : `exited with code ${code}`} before it printed {"ready": true}${tail}`));
    }
    if (this.closed) return;
    if (this.killedStuck.has(child)) {
      this.log.write('[treebench] worker restarted (it was stuck)\n');
      return; // its questions were settled when it was found stuck
    }
    this.crashes++;
    const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
    this.log.write(`[treebench] worker ${how}\n`);
    if (this.crashes >= (this.opts.maxCrashes ?? 3)) this.brokenReason = `the worker ${how} ${this.crashes} times in a row without answering${tail}`;
    for (const [id, p] of [...this.pending]) if (p.child === child) this.settle(id, new WorkerCrash(`the worker ${how} while answering this question${tail}`, this.answeredBy.get(child) ?? 0));
  }

  private settle(id: string, outcome: unknown): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    if (outcome instanceof Error) p.reject(outcome);
    else p.resolve(outcome);
    this.waiting.get(id)?.shift()?.();
    if (this.waiting.get(id)?.length === 0) this.waiting.delete(id);
    if (this.pending.size === 0) for (const wake of this.drainWaiters.splice(0)) wake();
  }

  /**
   * Sends one request and waits for its reply (the parsed JSON object) or an error. `onStartWait`
   * hears how long the request waited for a (re)started process to say it was ready (`ready`):
   * waiting, not answering.
   */
  async request(questionId: string, request: object, timeoutMs: number, signal?: AbortSignal, onStartWait?: (ms: number) => void): Promise<unknown> {
    if (!signal) return this.requestInner(questionId, request, timeoutMs, onStartWait);
    if (signal.aborted) throw abortReason(signal);
    let onAbort!: () => void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortReason(signal));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([this.requestInner(questionId, request, timeoutMs, onStartWait), aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private async requestInner(questionId: string, request: object, timeoutMs: number, onStartWait?: (ms: number) => void): Promise<unknown> {
    while (this.pending.has(questionId)) await new Promise<void>((resolve) => this.waiting.set(questionId, [...(this.waiting.get(questionId) ?? []), resolve]));
    while (this.exclusive > 0) await this.exclusiveTail;
    try {
      return await this.attempt(questionId, request, timeoutMs, onStartWait);
    } catch (err) {
      if (!(err instanceof WorkerCrash)) throw err;
    }
    // It was in flight when the worker exited, maybe beside the question that made it exit: again,
    // alone. An exit now is its own — unless that process had answered other questions first: a
    // worker that recycles itself (exits after N answers, or is killed for its memory) may go
    // just as this question reaches it, so it goes once more, alone, to a fresh process. Only an
    // exit of a fresh process with this one question in flight is this question's error; the
    // crash count still ends a worker that never answers.
    return this.alone(async () => {
      for (;;) {
        try {
          return await this.attempt(questionId, request, timeoutMs, onStartWait);
        } catch (err) {
          if (!(err instanceof WorkerCrash) || err.answeredBefore === 0) throw err;
        }
      }
    });
  }

  private async alone<T>(fn: () => Promise<T>): Promise<T> {
    this.exclusive++;
    const before = this.exclusiveTail;
    let release!: () => void;
    this.exclusiveTail = new Promise<void>((resolve) => (release = resolve));
    try {
      await before;
      while (this.pending.size > 0) await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
      return await fn();
    } finally {
      this.exclusive--;
      release();
    }
  }

  private async attempt(questionId: string, request: object, timeoutMs: number, onStartWait?: (ms: number) => void): Promise<unknown> {
    if (this.closed) throw new WorkerError(`${this.opts.label}: the run is closing`);
    if (this.brokenReason) throw new WorkerError(this.brokenReason);
    if (!this.child || this.starting) {
      const waited = performance.now();
      await this.startChild();
      if (this.opts.ready) onStartWait?.(performance.now() - waited);
    }
    const child = this.child!;
    return new Promise((resolve, reject) => {
      const seq = ++this.sent;
      const strayAtSend = this.strayLines;
      const timer = setTimeout(() => {
        const stray = this.strayLines - strayAtSend;
        const strayNote = stray > 0 ? `; meanwhile the worker wrote ${stray} stdout line${stray === 1 ? '' : 's'} that ${stray === 1 ? 'was' : 'were'} not a reply (its stderr log quotes them)` : '';
        const stuck = this.latestAnswered < seq && this.child === child && child.exitCode === null && child.signalCode === null;
        this.log.write(`[treebench] question "${questionId}" timed out after ${timeoutMs} ms${stuck ? '; no question sent with or after it was answered either: restarting the worker' : ''}\n`);
        this.settle(questionId, new WorkerError(`no reply within ${timeoutMs} ms (timeoutMs)${stuck ? '; the worker answered nothing sent with or after it, so it was restarted' : ''}${strayNote}`));
        if (!stuck) return;
        // The next request starts a new process; the questions in flight beside this one go
        // again, alone, as after an exit.
        this.child = null;
        for (const [id, p] of [...this.pending]) if (p.child === child) this.settle(id, new WorkerCrash('the worker was restarted, stuck on another question', this.answeredBy.get(child) ?? 0));
        this.killedStuck.add(child);
        child.kill('SIGKILL');
      }, timeoutMs);
      this.pending.set(questionId, { resolve, reject, timer, seq, child });
      child.stdin.write(`${JSON.stringify(request)}\n`);
    });
  }

  /** Closes stdin (the worker should exit), then terminates it if it does not within `graceMs`. */
  async close(graceMs = 2000): Promise<void> {
    this.closed = true;
    for (const id of [...this.pending.keys()]) this.settle(id, new WorkerError('the run is closing'));
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGTERM'), graceMs);
      const hard = setTimeout(() => child.kill('SIGKILL'), graceMs * 2);
      await exited;
      clearTimeout(timer);
      clearTimeout(hard);
    }
    await new Promise<void>((resolve) => this.log.end(resolve));
  }
}

/** Why an aborted wait ends: the run's reason (Ctrl-C, a tripped breaker), else "interrupted". */
export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('interrupted');
}
