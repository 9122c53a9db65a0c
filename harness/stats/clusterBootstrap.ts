/**
 * The cluster bootstrap of many means (and latency percentiles) at once, sharing one set of
 * draws: the engine of a run's confidence intervals (harness/summary/intervals.ts says which
 * metric gets which interval and why).
 *
 * Algorithm: a replicate draws k questions (clusters) with replacement — k draws of rng.int(k)
 * from a Xoshiro128 seeded with `seed`, the same sequence bootstrapCI uses — kept as
 * multiplicities c_j. A mean is then Σ c_j·sum_j / Σ c_j·count_j over the questions (a column
 * whose counts are all 1 divides by k), and a latency percentile is read off the records in
 * sorted order, each weighted by its question's multiplicity: O(records) per replicate, no
 * sorting. Without repeats a question is one record, and this is the ordinary percentile
 * bootstrap over records. Each interval is the alpha/2 and 1 − alpha/2 quantiles of its
 * replicates (numpy's linear method); replicates without any applicable record (NaN) are dropped.
 *
 * A column's replicates depend only on the draws and on that column, never on which other
 * columns are computed beside it: a job split into parts by column (parallelBootstrap.ts) gives,
 * column for column, bit-identical intervals. Likewise a replicate depends only on its own
 * draws: with every replicate's multiplicities drawn ahead (drawMultiplicities), two threads can
 * each compute a range of replicates (replicatesFromDraws) and replicateBounds joins them.
 *
 * Pure and self-contained (no I/O), so that a worker thread can run it (clusterBootstrapWorker.ts).
 */
import { Xoshiro128 } from './rng.ts';
import { ReplicateKernel } from './replicateKernel.ts';
import { quantileUnsorted } from './select.ts';

/** One metric per question: the total of its values and how many values there are. */
export interface ClusterColumn {
  sums: Float64Array;
  counts: Float64Array;
}

/** Latencies for weighted percentiles. */
export interface LatencyColumn {
  /** Latencies in ascending order, and the question (cluster) of each. */
  values: Float64Array;
  cluster: Int32Array;
  /** Records per question. */
  sizes: Float64Array;
  /** The percentiles wanted, as fractions (0.5, 0.95, …). */
  qs: readonly number[];
}

/** Everything a bootstrap needs: plain data, so that it can be posted to a worker thread. */
export interface ClusterBootstrapJob {
  /** Questions (clusters). */
  k: number;
  columns: ClusterColumn[];
  latency: LatencyColumn | null;
  resamples: number;
  alpha: number;
  seed: number;
}

export interface Bounds {
  lo: number;
  hi: number;
}

export interface ClusterBootstrapResult {
  /** One interval per column, in the job's order. */
  means: Bounds[];
  /** One interval per latency percentile, in the order of `latency.qs` (empty without latency). */
  percentiles: Bounds[];
}

/** Σ a_j·b_j with four accumulators: breaks the add-latency chain, ~2× faster in V8. */
function dot(a: Float64Array, b: Float64Array): number {
  const n = a.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = 0;
  for (; j + 3 < n; j += 4) {
    s0 += a[j] * b[j];
    s1 += a[j + 1] * b[j + 1];
    s2 += a[j + 2] * b[j + 2];
    s3 += a[j + 3] * b[j + 3];
  }
  for (; j < n; j++) s0 += a[j] * b[j];
  return s0 + s1 + (s2 + s3);
}

/** How replicates are computed: `simd: false` keeps the JavaScript loops (tests compare the two). */
export interface KernelOptions {
  simd?: boolean;
}

export function clusterBootstrap(job: ClusterBootstrapJob, opts: KernelOptions = {}): ClusterBootstrapResult {
  return replicateBounds(job, [replicatesOf(job, 0, job.resamples, null, opts)]);
}

/** The values of some of a job's replicates (from, to): one array per column and per latency percentile. */
export interface ReplicateBlock {
  means: Float64Array[];
  percentiles: Float64Array[];
}

/**
 * Every replicate's multiplicities, drawn as clusterBootstrap draws them (a Xoshiro128 seeded
 * with `seed`, k draws of int(k) per replicate), into `into` (drawsBytes(k, resamples) bytes):
 * replicates 2i and 2i + 1 share row i (bytes i·k … i·k + k − 1), c_j of the even one in the
 * low four bits of byte j, of the odd one in the high four. Returns false, leaving `into`
 * unusable, when a multiplicity does not fit four bits (above 15: at 2,000 questions a chance
 * of about 1 in 3 million per run).
 */
export function drawMultiplicities(k: number, resamples: number, seed: number, into: Uint8Array): boolean {
  const bytes = drawsBytes(k, resamples);
  if (into.length < bytes) throw new RangeError(`drawMultiplicities: ${into.length} bytes for ${resamples} × ${k} multiplicities (${bytes} needed)`);
  const rng = new Xoshiro128(seed);
  into.fill(0, 0, bytes);
  for (let r = 0; r < resamples; r++) if (!rng.addDrawsToNibbles(into, (r >> 1) * k, k, (r & 1) as 0 | 1, k)) return false;
  return true;
}

/** Bytes that hold the multiplicities of `resamples` replicates of k questions: four bits each. */
export const drawsBytes = (k: number, resamples: number): number => Math.ceil(resamples / 2) * k;

/**
 * Replicates from … to − 1 of a job: their multiplicities read from `draws` (drawMultiplicities
 * for the job's k, resamples and seed), so that two threads can each compute a range of the
 * same replicates; replicateBounds joins the blocks into the job's result, bit for bit as
 * clusterBootstrap's.
 */
export function replicatesFromDraws(job: ClusterBootstrapJob, draws: Uint8Array, from: number, to: number, opts: KernelOptions = {}): ReplicateBlock {
  if (draws.length < drawsBytes(job.k, job.resamples)) throw new RangeError(`replicatesFromDraws: ${draws.length} bytes of draws for ${job.resamples} × ${job.k}`);
  return replicatesOf(job, from, to, draws, opts);
}

/** Replicates from … to − 1; drawn here (then `from` must be 0) or read from `draws`. */
function replicatesOf(job: ClusterBootstrapJob, from: number, to: number, draws: Uint8Array | null, opts: KernelOptions): ReplicateBlock {
  const { k, columns, latency, seed } = job;
  if (!draws && from !== 0) throw new RangeError('replicatesOf: drawing starts at replicate 0');
  const rng = draws ? null : new Xoshiro128(seed);
  const n = to - from;
  // Columns with exactly one value per question need no denominator sum (it is k); the others
  // (repeats, or values that apply to some questions only) carry their counts.
  const complete = columns.map((m) => m.counts.every((x) => x === 1));
  // A column equal to an earlier one (MRR cut and uncut, when every first hit is within the
  // cutoff) has the same replicates: computed once, copied.
  const sameAs = columns.map((m, i) => columns.findIndex((o, j) => j < i && equal(o.sums, m.sums) && equal(o.counts, m.counts)));
  const computed = columns.flatMap((_, i) => (sameAs[i] === -1 ? [i] : []));
  // The vectors each replicate's multiplicities are dotted with: a computed column's sums, after
  // its counts when it has any; sumsAt[m] is the position of column m's sums among them.
  const vectors: Float64Array[] = [];
  const sumsAt = columns.map(() => -1);
  for (const m of computed) {
    if (!complete[m]) vectors.push(columns[m].counts);
    sumsAt[m] = vectors.push(columns[m].sums) - 1;
  }
  const kernel = opts.simd === false ? null : ReplicateKernel.create(k, vectors);
  const c = kernel ? kernel.c : new Float64Array(k);
  const dots = kernel ? kernel.out : new Float64Array(vectors.length);
  const reps = columns.map(() => new Float64Array(n));
  const pReps = latency ? latency.qs.map(() => new Float64Array(n)) : [];
  const pair = new Float64Array(2);
  const oneEach = latency !== null && latency.sizes.every((x) => x === 1);
  for (let r = from; r < to; r++) {
    if (draws && kernel) kernel.fromDraws(draws, r);
    else {
      if (draws) {
        const row = (r >> 1) * k;
        const shift = (r & 1) * 4;
        for (let j = 0; j < k; j++) c[j] = (draws[row + j] >> shift) & 15;
      } else {
        c.fill(0);
        rng!.addDraws(c, k);
      }
      if (kernel) kernel.dots();
      else for (let i = 0; i < vectors.length; i++) dots[i] = dot(c, vectors[i]);
    }
    const at = r - from;
    for (const m of computed) {
      const s = dots[sumsAt[m]];
      if (complete[m]) {
        reps[m][at] = s / k;
      } else {
        const w = dots[sumsAt[m] - 1];
        // A resample without any applicable record says nothing about the metric: NaN, dropped below.
        reps[m][at] = w > 0 ? s / w : NaN;
      }
    }
    if (latency) weightedPercentiles(latency, c, pReps, at, pair, oneEach);
  }
  for (let m = 0; m < columns.length; m++) if (sameAs[m] !== -1) reps[m].set(reps[sameAs[m]]);
  return { means: reps, percentiles: pReps };
}

/** Whether two columns' arrays hold the same values (NaN never occurs in them). */
function equal(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The job's intervals from blocks of its replicates that together hold each replicate once. */
export function replicateBounds(job: ClusterBootstrapJob, blocks: readonly ReplicateBlock[]): ClusterBootstrapResult {
  const { alpha } = job;
  const joined = (pick: (b: ReplicateBlock) => Float64Array): Float64Array => {
    if (blocks.length === 1) return pick(blocks[0]!);
    const out = new Float64Array(blocks.reduce((n, b) => n + pick(b).length, 0));
    let at = 0;
    for (const b of blocks) {
      out.set(pick(b), at);
      at += pick(b).length;
    }
    return out;
  };
  const bounds = (rep: Float64Array): Bounds => {
    // Replicates without any applicable record (NaN) are dropped; the rest are not sorted but
    // selected (select.ts): the same two quantiles.
    let valid = 0;
    for (let i = 0; i < rep.length; i++) if (!Number.isNaN(rep[i])) rep[valid++] = rep[i]!;
    const v = rep.subarray(0, valid);
    return { lo: quantileUnsorted(v, alpha / 2), hi: quantileUnsorted(v, 1 - alpha / 2) };
  };
  return {
    means: job.columns.map((_, m) => bounds(joined((b) => b.means[m]!))),
    percentiles: (job.latency?.qs ?? []).map((_, q) => bounds(joined((b) => b.percentiles[q]!))),
  };
}

/**
 * The values at 0-based positions p and p + 1 (capped at the last) of the resample in ascending
 * order, where each record appears c[its question] times, into `pair`. One scan from the nearer
 * end, so p95/p99 touch only the top few percent of the records, and the second value costs
 * nothing more than the first (it is the same record, or one of the next few).
 */
function weightedPair(lat: LatencyColumn, c: Float64Array, total: number, p: number, pair: Float64Array): void {
  const { values, cluster } = lat;
  const q = Math.min(p + 1, total - 1);
  let seen = 0;
  pair[0] = pair[1] = NaN;
  if (p < total / 2) {
    let i = 0;
    for (; i < values.length; i++) {
      seen += c[cluster[i]];
      if (seen > p) break;
    }
    pair[0] = values[i];
    for (; i < values.length; i++) {
      if (seen > q) break;
      seen += c[cluster[i + 1]];
    }
    pair[1] = values[i];
  } else {
    // From the top: positions counted down from the last (total − 1).
    const dq = total - 1 - q;
    const dp = total - 1 - p;
    let i = values.length - 1;
    for (; i >= 0; i--) {
      seen += c[cluster[i]];
      if (seen > dq) break;
    }
    pair[1] = values[i];
    for (; i >= 0; i--) {
      if (seen > dp) break;
      seen += c[cluster[i - 1]];
    }
    pair[0] = values[i];
  }
}

/** Percentiles (numpy linear, like quantileSorted) of one resample given as multiplicities. */
function weightedPercentiles(lat: LatencyColumn, c: Float64Array, out: Float64Array[], r: number, pair: Float64Array, oneEach: boolean): void {
  // A replicate draws k questions: with one record each, it holds k records.
  let total = oneEach ? c.length : 0;
  if (!oneEach) for (let j = 0; j < c.length; j++) total += c[j] * lat.sizes[j];
  for (let qi = 0; qi < lat.qs.length; qi++) {
    const h = (total - 1) * lat.qs[qi];
    const lo = Math.floor(h);
    const frac = h - lo;
    weightedPair(lat, c, total, lo, pair);
    const a = pair[0];
    out[qi][r] = frac === 0 ? a : a + frac * (pair[1] - a);
  }
}

/**
 * Runs a small made-up job (256 questions, 400 replicates, five columns and the latency
 * percentiles) through the code a run's intervals take: replicatesFromDraws from shared draws,
 * the kernel's replicate(), the latency walk and replicateBounds' selection. Its result is
 * dropped. Why: a run computes its intervals once, at its very end, so that code ran cold there
 * (not yet compiled, the kernel not yet tiered up). The worker runs it after its draws, and
 * warmUpSummary (harness/summary/intervals.ts) while a run's last calls are out: ~10 ms of a
 * thread that was waiting anyway.
 */
export function warmReplicates(): void {
  const k = 256;
  const resamples = 400;
  const draws = new Uint8Array(drawsBytes(k, resamples));
  if (!drawMultiplicities(k, resamples, 1, draws)) return;
  const column = (m: number): ClusterColumn => ({ sums: Float64Array.from({ length: k }, (_, j) => ((j * 7 + m) % 5) / 4), counts: new Float64Array(k).fill(1) });
  const job: ClusterBootstrapJob = {
    k,
    columns: [0, 1, 2, 3, 4].map(column),
    latency: { values: Float64Array.from({ length: k }, (_, j) => 50 + j), cluster: Int32Array.from({ length: k }, (_, j) => (j * 37) % k), sizes: new Float64Array(k).fill(1), qs: [0.5, 0.95, 0.99] },
    resamples,
    alpha: 0.05,
    seed: 1,
  };
  replicateBounds(job, [replicatesFromDraws(job, draws, 0, resamples)]);
}
