/**
 * Cluster bootstrap jobs (clusterBootstrap.ts) spread over two threads: this one and a worker.
 *
 * Why: a run's summary ends with its bootstrap — 10,000 replicates of every metric of every
 * strategy — which on 2,000 records takes about half a second of one core while the other core
 * idles (the calls are over).
 *
 * How: each job's cost is estimated (per replicate: k draws, k multiply-adds per column, a walk
 * over the records for the latency percentiles). Jobs go, longest first, to the less loaded of
 * two lanes; when one job outweighs the rest (a run of one strategy), it is cut by columns into
 * two parts, each drawing the same replicates, so the lanes come out near equal. The worker's
 * lane is posted first, this thread computes its own lane meanwhile, then waits for the worker.
 * A run does better: its worker, started while calls are still out, draws every replicate's
 * multiplicities ahead into memory both threads share (prepareDraws: four bits per replicate
 * and question, up to SHARED_DRAWS_MAX_BYTES), and the two threads then split the replicates, half
 * each, neither drawing (the draws were about a third of each lane's work when both drew).
 * The result is bit for bit what one thread gives: a column's replicates depend only on the
 * draws and on that column, and a replicate only on its own draws (clusterBootstrap.ts).
 *
 * Work estimated below ~100 ms runs here alone (a worker takes some 20–40 ms to start), as it
 * does on a machine with one core. A worker that cannot start or fails hands its lane back to
 * this thread: slower, never different.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { clusterBootstrap, drawsBytes, replicateBounds, replicatesFromDraws, type ClusterBootstrapJob, type ClusterBootstrapResult, type ClusterColumn, type ReplicateBlock } from './clusterBootstrap.ts';
import type { WorkerRequest } from './clusterBootstrapWorker.ts';
import { kernelAvailable } from './replicateKernel.ts';

/** Estimated work (ns, measured on this project's 2-core machine) below which a worker does not pay for itself. */
export const PARALLEL_MIN_COST = 100e6;

/**
 * Records from which a run's bootstrap is likely to pass PARALLEL_MIN_COST (a run's default
 * 10,000 replicates over a strategy's columns reach ~100 ms at about this many records), so the
 * runner starts the worker thread early, once half its tasks are under way: the worker's start
 * (~30 ms) and its drawing of the replicates (prepareDraws, ~0.1 s at 2,000 questions) then
 * overlap the calls instead of the summary. A guess made before the jobs exist: once the worker
 * has drawn, the two threads share the replicates whatever the jobs' cost (drawing was the largest
 * part of it).
 */
export const EARLY_WORKER_RECORDS = 500;

/** Nanoseconds per replicate: a draw, a multiply-add of a column (SIMD kernel or JavaScript), a step of the latency walk. */
const DRAW_NS = 6.5;
const LATENCY_NS = 3.3;
// Asked when a cost is first estimated, not when this module loads (which compiles the kernel).
const columnNs = (): number => (kernelAvailable() ? 0.25 : 1);

const columnCost = (c: ClusterColumn) => columnNs() * (c.counts.every((x) => x === 1) ? 1 : 2);

/** Estimated nanoseconds of a job: per replicate, the draws, the columns and the latency walk. */
export function bootstrapCost(job: ClusterBootstrapJob): number {
  const columns = job.columns.reduce((n, c) => n + columnCost(c), 0);
  return job.resamples * (DRAW_NS * job.k + job.k * columns + (job.latency ? LATENCY_NS * job.latency.values.length : 0));
}

/** A job cut in two by columns (the latency percentiles go with the first part), and how to join the results. */
interface SplitJob {
  parts: [ClusterBootstrapJob, ClusterBootstrapJob];
  join(a: ClusterBootstrapResult, b: ClusterBootstrapResult): ClusterBootstrapResult;
}

/** Both parts draw the same replicates; each column goes, in order, to the part with less work so far. */
function split(job: ClusterBootstrapJob): SplitJob | null {
  if (job.columns.length + (job.latency ? 1 : 0) < 2) return null;
  const load = [job.latency ? LATENCY_NS * job.latency.values.length : 0, 0];
  const side: number[] = [];
  if (!job.latency) {
    side.push(0);
    load[0] += columnCost(job.columns[0]!) * job.k;
  }
  for (const c of job.columns.slice(side.length)) {
    const s = load[0]! <= load[1]! ? 0 : 1;
    side.push(s);
    load[s] += columnCost(c) * job.k;
  }
  if (!side.includes(1)) return null;
  const of = (s: number) => job.columns.filter((_, i) => side[i] === s);
  return {
    parts: [
      { ...job, columns: of(0) },
      { ...job, columns: of(1), latency: null },
    ],
    join: (a, b) => {
      const next = [0, 0];
      const from = [a.means, b.means];
      return { means: side.map((s) => from[s]![next[s]!++]!), percentiles: a.percentiles };
    },
  };
}

/**
 * Two lanes of work for `jobs` (the second for the worker; both empty-safe), and how their
 * results, lane by lane in order, give the jobs' results. Null when the work is too small to share.
 */
export function bootstrapLanes(jobs: readonly ClusterBootstrapJob[], cores = availableParallelism()): { lanes: [ClusterBootstrapJob[], ClusterBootstrapJob[]]; assemble(here: ClusterBootstrapResult[], there: ClusterBootstrapResult[]): ClusterBootstrapResult[] } | null {
  const costs = jobs.map(bootstrapCost);
  const total = costs.reduce((a, b) => a + b, 0);
  if (total < PARALLEL_MIN_COST || cores < 2) return null;

  // Units of work: whole jobs, or the two parts of a job that outweighs all the others together.
  const largest = costs.indexOf(Math.max(...costs));
  const cut = costs[largest]! > total / 2 ? split(jobs[largest]!) : null;
  type Unit = { job: ClusterBootstrapJob; cost: number; put(r: ClusterBootstrapResult, into: ClusterBootstrapResult[], halves: ClusterBootstrapResult[]): void };
  const units: Unit[] = [];
  jobs.forEach((job, i) => {
    if (i === largest && cut) {
      cut.parts.forEach((part, h) =>
        units.push({
          job: part,
          cost: bootstrapCost(part),
          put: (r, into, halves) => {
            halves[h] = r;
            if (halves[0] && halves[1]) into[i] = cut.join(halves[0], halves[1]);
          },
        }),
      );
    } else {
      units.push({ job, cost: costs[i]!, put: (r, into) => (into[i] = r) });
    }
  });
  // Longest first, each to the lane with less work so far.
  const lanes: [Unit[], Unit[]] = [[], []];
  const load = [0, 0];
  for (const u of [...units].sort((a, b) => b.cost - a.cost)) {
    const lane = load[0]! <= load[1]! ? 0 : 1;
    lanes[lane].push(u);
    load[lane] += u.cost;
  }
  return {
    lanes: [lanes[0].map((u) => u.job), lanes[1].map((u) => u.job)],
    assemble(here, there) {
      const results: ClusterBootstrapResult[] = new Array(jobs.length);
      const halves: ClusterBootstrapResult[] = [];
      lanes[0].forEach((u, i) => u.put(here[i]!, results, halves));
      lanes[1].forEach((u, i) => u.put(there[i]!, results, halves));
      return results;
    },
  };
}

/**
 * Multiplicities a worker drew ahead of the bootstrap (BootstrapWorker.prepareDraws): every
 * replicate's, for jobs of k questions, `resamples` replicates and `seed`.
 */
export interface SharedDraws {
  k: number;
  resamples: number;
  seed: number;
  buffer: SharedArrayBuffer;
}

/** The largest block of shared draws (resamples × k / 2 bytes) a worker draws ahead: 16 MiB, k ≈ 3,300 at 10,000 replicates. */
export const SHARED_DRAWS_MAX_BYTES = 16 * 2 ** 20;

/** Whether every job can read its replicates from `draws`. */
const drawnFor = (jobs: readonly ClusterBootstrapJob[], draws: SharedDraws): boolean =>
  jobs.every((j) => j.k === draws.k && j.resamples === draws.resamples && j.seed === draws.seed);

/**
 * Runs `jobs` on this thread and, when they are long enough, a worker thread; results in the
 * jobs' order. `worker`, when given (started early, so that its start overlaps other work), is
 * used or closed: it is this call's to end. When that worker has drawn the jobs' multiplicities
 * ahead (prepareDraws, while the run's calls were out), the two threads split the replicates,
 * however cheap the jobs: each computes half of every job's replicates, none draws.
 */
export async function clusterBootstrapInParallel(jobs: readonly ClusterBootstrapJob[], worker?: BootstrapWorker): Promise<ClusterBootstrapResult[]> {
  // Draws made ahead are shared whatever the jobs' cost: drawing was the largest part of a
  // replicate's work, and it is done (a worker draws ahead only for runs of EARLY_WORKER_RECORDS).
  const draws = worker ? await worker.drawn() : null;
  if (worker && draws && jobs.length > 0 && drawnFor(jobs, draws)) return byReplicates(jobs, worker, draws);
  const plan = bootstrapLanes(jobs);
  const [here, there] = plan ? plan.lanes : [[...jobs], []];
  let away: Promise<ClusterBootstrapResult[]> = Promise.resolve([]);
  if (there.length) away = (worker ??= new BootstrapWorker()).run(there);
  else worker?.close();
  const mine = here.map((job) => clusterBootstrap(job));
  let theirs: ClusterBootstrapResult[];
  try {
    theirs = await away;
  } catch {
    theirs = there.map((job) => clusterBootstrap(job));
  }
  return plan ? plan.assemble(mine, theirs) : mine;
}

/** The first half of every job's replicates here, the second in the worker, from the shared draws. */
async function byReplicates(jobs: readonly ClusterBootstrapJob[], worker: BootstrapWorker, draws: SharedDraws): Promise<ClusterBootstrapResult[]> {
  const bytes = new Uint8Array(draws.buffer);
  const half = Math.floor(draws.resamples / 2);
  const away = worker.replicates(jobs, draws, half, draws.resamples);
  const mine = jobs.map((job) => replicatesFromDraws(job, bytes, 0, half));
  let theirs: ReplicateBlock[];
  try {
    theirs = await away;
  } catch {
    theirs = jobs.map((job) => replicatesFromDraws(job, bytes, half, draws.resamples));
  }
  return jobs.map((job, i) => replicateBounds(job, [mine[i]!, theirs[i]!]));
}

type WorkerReply = { kind: 'draws'; ok: boolean } | { kind: 'jobs'; results: ClusterBootstrapResult[] } | { kind: 'replicates'; blocks: ReplicateBlock[] };

/**
 * A worker thread (clusterBootstrapWorker.ts) that may draw the replicates' multiplicities
 * ahead, then runs one batch of work and is ended.
 */
export class BootstrapWorker {
  private readonly worker: Worker | null;
  private readonly failed: Promise<never>;
  private fail!: (err: Error) => void;
  private draws: Promise<SharedDraws | null> | null = null;
  /** Who waits for the thread's next reply: it answers its requests in order, one at a time. */
  private readonly waiting: Array<(reply: WorkerReply) => void> = [];

  /** Starts the thread now; it waits for its work. */
  constructor() {
    this.failed = new Promise<never>((_, reject) => (this.fail = reject));
    this.failed.catch(() => {}); // reported by run(), if anyone asks
    let worker: Worker | null = null;
    try {
      // From the sources (tests, a checkout whose build is older than its sources) the worker
      // is TypeScript, imported through tsx's API; otherwise the compiled file beside this one.
      if (import.meta.url.endsWith('.ts')) {
        const tsx = import.meta.resolve('tsx/esm/api');
        const url = new URL('./clusterBootstrapWorker.ts', import.meta.url).href;
        worker = new Worker(`import(${JSON.stringify(tsx)}).then((t) => t.tsImport(${JSON.stringify(url)}, ${JSON.stringify(import.meta.url)}))`, { eval: true });
      } else {
        worker = new Worker(new URL('./clusterBootstrapWorker.js', import.meta.url));
      }
      worker.on('message', (reply: WorkerReply) => this.waiting.shift()?.(reply));
      worker.once('error', (err) => this.fail(err));
      worker.once('exit', (code) => this.fail(new Error(`bootstrap worker exited (${code}) before answering`)));
    } catch (err) {
      this.fail(err as Error);
    }
    this.worker = worker;
  }

  /**
   * Has the thread draw every replicate's multiplicities for jobs of k questions now, into
   * memory both threads read (resamples × k / 2 bytes; nothing is drawn above
   * SHARED_DRAWS_MAX_BYTES, or a second time).
   */
  prepareDraws(k: number, resamples: number, seed: number): void {
    if (this.draws || !this.worker || k < 1 || drawsBytes(k, resamples) > SHARED_DRAWS_MAX_BYTES) return;
    const buffer = new SharedArrayBuffer(drawsBytes(k, resamples));
    this.draws = this.ask<{ kind: 'draws'; ok: boolean }>({ kind: 'draws', k, resamples, seed, buffer }).then(
      (reply) => (reply.ok ? { k, resamples, seed, buffer } : null),
      () => null,
    );
  }

  /** The draws prepareDraws asked for, once drawn; null when none were asked for, or they could not be. */
  drawn(): Promise<SharedDraws | null> {
    return this.draws ?? Promise.resolve(null);
  }

  /** The jobs' results; the thread is ended after answering. */
  async run(jobs: readonly ClusterBootstrapJob[]): Promise<ClusterBootstrapResult[]> {
    return (await this.last<{ kind: 'jobs'; results: ClusterBootstrapResult[] }>({ kind: 'jobs', jobs: [...jobs] })).results;
  }

  /** Replicates from … to − 1 of every job, read from `draws`; the thread is ended after answering. */
  async replicates(jobs: readonly ClusterBootstrapJob[], draws: SharedDraws, from: number, to: number): Promise<ReplicateBlock[]> {
    return (await this.last<{ kind: 'replicates'; blocks: ReplicateBlock[] }>({ kind: 'replicates', jobs: [...jobs], buffer: draws.buffer, from, to })).blocks;
  }

  /** Ends the thread without (more) work. */
  close(): void {
    void this.worker?.terminate();
  }

  /** One request's reply. */
  private ask<R extends WorkerReply>(request: WorkerRequest): Promise<R> {
    const worker = this.worker;
    if (!worker) return this.failed;
    const answer = new Promise<R>((resolve) => {
      this.waiting.push(resolve as (reply: WorkerReply) => void);
      worker.postMessage(request);
    });
    return Promise.race([answer, this.failed]);
  }

  /** The last request: its reply, then the thread is ended. */
  private async last<R extends WorkerReply>(request: WorkerRequest): Promise<R> {
    try {
      return await this.ask<R>(request);
    } finally {
      this.close();
    }
  }
}
