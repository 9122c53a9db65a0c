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
 * The result is bit for bit what one thread gives: a column's replicates depend only on the
 * draws and on that column (clusterBootstrap.ts).
 *
 * Work estimated below ~100 ms runs here alone (a worker takes some 20–40 ms to start), as it
 * does on a machine with one core. A worker that cannot start or fails hands its lane back to
 * this thread: slower, never different.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { clusterBootstrap, type ClusterBootstrapJob, type ClusterBootstrapResult, type ClusterColumn } from './clusterBootstrap.ts';

/** Estimated work (ns, measured on this project's 2-core machine) below which a worker does not pay for itself. */
export const PARALLEL_MIN_COST = 100e6;

/**
 * Records from which a run's bootstrap is likely to pass PARALLEL_MIN_COST (a run's default
 * 10,000 replicates over a strategy's columns reach ~100 ms at about this many records), so the
 * runner starts the worker thread early, once its last task is under way: a worker's start
 * (~30 ms) then overlaps the last calls' wait instead of the summary. A guess made before the
 * jobs exist; bootstrapLanes still decides from the jobs' real cost whether the worker is used.
 */
export const EARLY_WORKER_RECORDS = 500;

/** Nanoseconds per replicate: a draw, a multiply-add of a column, a step of the latency walk. */
const DRAW_NS = 6.5;
const COLUMN_NS = 1;
const LATENCY_NS = 3.3;

const columnCost = (c: ClusterColumn) => COLUMN_NS * (c.counts.every((x) => x === 1) ? 1 : 2);

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
 * Runs `jobs` on this thread and, when they are long enough, a worker thread; results in the
 * jobs' order. `worker`, when given (started early, so that its start overlaps other work), is
 * used or closed: it is this call's to end.
 */
export async function clusterBootstrapInParallel(jobs: readonly ClusterBootstrapJob[], worker?: BootstrapWorker): Promise<ClusterBootstrapResult[]> {
  const plan = bootstrapLanes(jobs);
  const [here, there] = plan ? plan.lanes : [[...jobs], []];
  let away: Promise<ClusterBootstrapResult[]> = Promise.resolve([]);
  if (there.length) away = (worker ??= new BootstrapWorker()).run(there);
  else worker?.close();
  const mine = here.map(clusterBootstrap);
  let theirs: ClusterBootstrapResult[];
  try {
    theirs = await away;
  } catch {
    theirs = there.map(clusterBootstrap);
  }
  return plan ? plan.assemble(mine, theirs) : mine;
}

/** A worker thread (clusterBootstrapWorker.ts) that runs one batch of jobs, then exits. */
export class BootstrapWorker {
  private readonly worker: Worker | null;
  private readonly failed: Promise<never>;
  private fail!: (err: Error) => void;

  /** Starts the thread now; it waits for its jobs. */
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
      worker.once('error', (err) => this.fail(err));
      worker.once('exit', (code) => this.fail(new Error(`bootstrap worker exited (${code}) before answering`)));
    } catch (err) {
      this.fail(err as Error);
    }
    this.worker = worker;
  }

  /** The jobs' results; the thread exits after answering. */
  run(jobs: readonly ClusterBootstrapJob[]): Promise<ClusterBootstrapResult[]> {
    const worker = this.worker;
    if (!worker) return this.failed;
    const answer = new Promise<ClusterBootstrapResult[]>((resolve) =>
      worker.once('message', (results: ClusterBootstrapResult[]) => {
        resolve(results);
        void worker.terminate();
      }),
    );
    worker.postMessage(jobs);
    return Promise.race([answer, this.failed]);
  }

  /** Ends the thread without work. */
  close(): void {
    void this.worker?.terminate();
  }
}
