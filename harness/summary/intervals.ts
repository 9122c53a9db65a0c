// 95% confidence intervals for every mean in a RunSummary, plus repeat statistics.
//
// Method, per metric (see harness/stats for the procedures themselves):
//   - Rates that are 0/1 per record (accuracy, exact match, numeric match, yes/no): Wilson
//     score interval on successes / records. Wilson keeps coverage at small n and near 0 or 1,
//     where the plain bootstrap of a proportion collapses (all-correct gives [1, 1]).
//   - Continuous per-record means (F1, retrieval recall/precision/MRR/nDCG, calls, tokens,
//     dollars, latency mean, nodes): percentile bootstrap of the mean, `resamples` (default
//     10,000) replicates, seeded (the run's seed), so the same run always prints the same interval.
//   - Latency p50/p95/p99: percentile bootstrap of the percentile itself (numpy's linear
//     method, like the summary), all three from the same replicates.
//   - With repeats (several records per question) records of one question are not independent:
//     treating them as independent would shrink the interval by up to sqrt(repeats). So every
//     interval, rates included, is then a CLUSTER bootstrap: questions are resampled with
//     replacement, each bringing all its records, and the statistic is computed over the
//     records of the resample (for a mean: total of values / number of values). With the same
//     number of repeats per question this equals "average over repeats per question first,
//     then bootstrap the question means". Wilson is not used then (its n would be records).
//   - Metrics that apply to some records only (numeric match, retrieval at a level without
//     gold everywhere) resample all questions and divide by the applicable records drawn (a
//     ratio estimator), which is what the summary's "mean over applicable records" estimates.
//   - A continuous metric whose values are all equal gets the zero-width interval [v, v] (what
//     the bootstrap would give); a rate that is all right or all wrong keeps its Wilson
//     interval (over questions when clustered), since 5/5 correct is not certainty. So does a
//     score bounded by [0, 1] (F1, groundedness, retrieval recall, precision, MRR, nDCG) that
//     sits at one bound on every record: recall 1 on all 40 questions is not certain recall 1
//     either, and a [0, 1] score with mean μ varies no more than a rate μ, whose Wilson interval
//     is then the honest one.
// Intervals describe uncertainty from the sample of questions, not run-to-run model noise;
// that is `repeatStats` (repeats.ts).
import { isCustomMetric } from '../scoring/scorer.ts';
import { Xoshiro128 } from '../stats/rng.ts';
import { quantileSorted } from '../stats/summary.ts';
import { wilson } from '../stats/wilson.ts';
import type { RunRecord } from '../types.ts';
import { latestRecords } from '../run/store.ts';
import { repeatStats } from './repeats.ts';
import { judgeSummary } from './judgeSummary.ts';
import {
  meanMetricPaths,
  recordMetric,
  type ConfidenceInterval,
  type MeanMetricPath,
  type MetricPath,
  type RunSummary,
} from './summary.ts';

export interface IntervalOptions {
  /** PRNG seed for the bootstrap (use the run's seed); default 0. */
  seed?: number;
  /** Bootstrap replicates; default 10,000. */
  resamples?: number;
  /** Confidence level; default 0.95. */
  level?: number;
}

/** Metrics that are a proportion of 0/1 outcomes per record: Wilson interval when unclustered. */
export const PROPORTION_METRICS: ReadonlySet<MeanMetricPath> = new Set<MeanMetricPath>(['accuracy', 'exactMatch', 'numericMatch', 'yesNo', 'judgeAccuracy']);

/** Scores bounded by [0, 1] per record (not 0/1 outcomes): a rate's interval when every value is at one bound. */
function unitScore(path: MeanMetricPath): boolean {
  return path === 'f1' || path === 'groundedness' || path === 'groundednessLexical' || path.startsWith('retrieval.');
}

const LATENCY_PERCENTILES = [
  ['latencyMs.p50', 0.5],
  ['latencyMs.p95', 0.95],
  ['latencyMs.p99', 0.99],
] as const;

function percentileBounds(reps: Float64Array, alpha: number): ConfidenceInterval {
  reps.sort();
  return { lo: quantileSorted(reps, alpha / 2), hi: quantileSorted(reps, 1 - alpha / 2) };
}

const allEqual = (xs: ArrayLike<number>): boolean => {
  for (let i = 1; i < xs.length; i++) if (xs[i] !== xs[0]) return false;
  return true;
};

/** One metric's data per question (cluster): total of its values and how many there are. */
interface ClusterData {
  path: MeanMetricPath;
  sums: Float64Array;
  counts: Float64Array;
}

/**
 * The bootstrap engine. A replicate draws k questions with replacement (k draws of
 * rng.int(k), the same sequence bootstrapCI uses), kept as multiplicities c_j; a mean is then
 * Σ c_j·sum_j / Σ c_j·count_j over the questions, and a latency percentile is read off the
 * records in sorted order, each weighted by its question's multiplicity — O(records) per
 * replicate, no sorting. Without repeats a question is one record, and this is the ordinary
 * percentile bootstrap over records. All metrics share the replicates' draws.
 */
interface LatencyData {
  /** Latencies in ascending order, and the question (cluster) of each. */
  values: Float64Array;
  cluster: Int32Array;
  /** Records per question. */
  sizes: Float64Array;
  qs: readonly number[];
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

function clusterBootstrap(
  k: number,
  metrics: ClusterData[],
  latency: LatencyData | null,
  resamples: number,
  alpha: number,
  seed: number,
): { means: ConfidenceInterval[]; percentiles: ConfidenceInterval[] } {
  const rng = new Xoshiro128(seed);
  const c = new Float64Array(k);
  // Metrics with exactly one value per question need no denominator sum (it is k); the others
  // (repeats, or values that apply to some questions only) carry their counts.
  const complete = metrics.map((m) => m.counts.every((x) => x === 1));
  const reps = metrics.map(() => new Float64Array(resamples));
  const pReps = latency ? latency.qs.map(() => new Float64Array(resamples)) : [];
  for (let r = 0; r < resamples; r++) {
    c.fill(0);
    for (let i = 0; i < k; i++) c[rng.int(k)] += 1;
    for (let m = 0; m < metrics.length; m++) {
      const { sums, counts } = metrics[m];
      if (complete[m]) {
        reps[m][r] = dot(c, sums) / k;
      } else {
        const n = dot(c, counts);
        // A resample without any applicable record says nothing about the metric: NaN, dropped below.
        reps[m][r] = n > 0 ? dot(c, sums) / n : NaN;
      }
    }
    if (latency) weightedPercentiles(latency, c, pReps, r);
  }
  const bounds = (rep: Float64Array) => {
    rep.sort();
    let valid = rep.length;
    while (valid > 0 && Number.isNaN(rep[valid - 1])) valid--;
    const v = rep.subarray(0, valid);
    return { lo: quantileSorted(v, alpha / 2), hi: quantileSorted(v, 1 - alpha / 2) };
  };
  return { means: reps.map(bounds), percentiles: pReps.map((rep) => percentileBounds(rep, alpha)) };
}

/**
 * The value at 0-based position p of the resample in ascending order, where each record
 * appears c[its question] times. Scans from the nearer end, so p95/p99 touch only the top few
 * percent of the records.
 */
function weightedAt(lat: LatencyData, c: Float64Array, total: number, p: number): number {
  const { values, cluster } = lat;
  let seen = 0;
  if (p < total / 2) {
    for (let i = 0; i < values.length; i++) {
      seen += c[cluster[i]];
      if (seen > p) return values[i];
    }
  } else {
    const d = total - 1 - p;
    for (let i = values.length - 1; i >= 0; i--) {
      seen += c[cluster[i]];
      if (seen > d) return values[i];
    }
  }
  return NaN;
}

/** Percentiles (numpy linear, like quantileSorted) of one resample given as multiplicities. */
function weightedPercentiles(lat: LatencyData, c: Float64Array, out: Float64Array[], r: number): void {
  let total = 0;
  for (let j = 0; j < c.length; j++) total += c[j] * lat.sizes[j];
  for (let qi = 0; qi < lat.qs.length; qi++) {
    const h = (total - 1) * lat.qs[qi];
    const lo = Math.floor(h);
    const frac = h - lo;
    const a = weightedAt(lat, c, total, lo);
    out[qi][r] = frac === 0 ? a : a + frac * (weightedAt(lat, c, total, Math.min(lo + 1, total - 1)) - a);
  }
}

/** Confidence intervals of one strategy's metrics from its (deduplicated) records. */
export function strategyIntervals(records: readonly RunRecord[], opts: IntervalOptions = {}): Partial<Record<MetricPath, ConfidenceInterval>> {
  const seed = opts.seed ?? 0;
  const resamples = opts.resamples ?? 10_000;
  const alpha = 1 - (opts.level ?? 0.95);
  const out: Partial<Record<MetricPath, ConfidenceInterval>> = {};
  if (records.length === 0) return out;

  const clusterIndex = new Map<string, number>();
  for (const r of records) if (!clusterIndex.has(r.questionId)) clusterIndex.set(r.questionId, clusterIndex.size);
  const k = clusterIndex.size;
  const owner = Int32Array.from(records, (r) => clusterIndex.get(r.questionId)!);
  const clustered = k < records.length;

  const toBootstrap: ClusterData[] = [];
  for (const path of meanMetricPaths(records)) {
    const f = recordMetric(path);
    const sums = new Float64Array(k);
    const counts = new Float64Array(k);
    const values: number[] = [];
    records.forEach((r, i) => {
      const v = f(r);
      if (v === null || v === undefined || !Number.isFinite(v)) return;
      values.push(v);
      sums[owner[i]] += v;
      counts[owner[i]] += 1;
    });
    if (values.length === 0) continue;
    // A custom scorer that only ever gives 0 or 1 is a proportion too (a pass rate).
    const atOneBound = unitScore(path) && allEqual(values) && (values[0] === 0 || values[0] === 1);
    const proportion = ((PROPORTION_METRICS.has(path) || isCustomMetric(path)) && values.every((v) => v === 0 || v === 1)) || atOneBound;
    if (proportion && !clustered) {
      const w = wilson(values.filter((v) => v === 1).length, values.length, alpha);
      out[path] = { lo: w.lo, hi: w.hi };
    } else if (proportion && allEqual(values)) {
      // All right (or all wrong) in every repeat: a bootstrap would collapse to [1, 1]. Wilson
      // over questions (the independent units) keeps an honest interval.
      const q = counts.reduce((n, x) => n + (x > 0 ? 1 : 0), 0);
      const w = wilson(values[0] === 1 ? q : 0, q, alpha);
      out[path] = { lo: w.lo, hi: w.hi };
    } else if (allEqual(values)) {
      out[path] = { lo: values[0], hi: values[0] };
    } else {
      toBootstrap.push({ path, sums, counts });
    }
  }

  const latencies = Float64Array.from(records, (r) => r.latencyMs);
  const latencyConstant = allEqual(latencies) || latencies.some((v) => !Number.isFinite(v));
  const order = Array.from(records.keys()).sort((x, y) => latencies[x] - latencies[y] || x - y);
  const sizes = new Float64Array(k);
  for (const o of owner) sizes[o] += 1;
  const result = clusterBootstrap(
    k,
    toBootstrap,
    latencyConstant
      ? null
      : {
          values: Float64Array.from(order, (i) => latencies[i]),
          cluster: Int32Array.from(order, (i) => owner[i]),
          sizes,
          qs: LATENCY_PERCENTILES.map(([, q]) => q),
        },
    resamples,
    alpha,
    seed,
  );
  toBootstrap.forEach((m, i) => (out[m.path] = result.means[i]));
  if (latencyConstant) {
    if (Number.isFinite(latencies[0])) for (const [path] of LATENCY_PERCENTILES) out[path] = { lo: latencies[0], hi: latencies[0] };
  } else {
    LATENCY_PERCENTILES.forEach(([path], i) => (out[path] = result.percentiles[i]));
  }
  return out;
}

/**
 * The summary with `intervals` on every strategy, `repeatStats` on strategies run more than
 * once per question, and `ci` saying how the intervals were made. `records` are the records the
 * summary was made from (superseded ones are dropped here the same way).
 */
export function withIntervals(summary: RunSummary, records: readonly RunRecord[], opts: IntervalOptions = {}): RunSummary {
  const seed = opts.seed ?? 0;
  const resamples = opts.resamples ?? 10_000;
  const level = opts.level ?? 0.95;
  const byStrategy = new Map<string, RunRecord[]>();
  for (const r of latestRecords(records)) {
    const g = byStrategy.get(r.strategy);
    if (g) g.push(r);
    else byStrategy.set(r.strategy, [r]);
  }
  let clustered = false;
  const strategies = summary.strategies.map((s) => {
    const rs = byStrategy.get(s.strategy) ?? [];
    if (new Set(rs.map((r) => r.questionId)).size < rs.length) clustered = true;
    const stats = repeatStats(rs);
    // κ between the rule and the LLM judge gets the same treatment as every other interval:
    // questions resampled (with their repeats), the run's seed and resamples.
    const judge = s.judge ? judgeSummary(rs, { interval: true, seed, resamples }) : undefined;
    return {
      ...s,
      ...(judge ? { judge } : {}),
      intervals: strategyIntervals(rs, { seed, resamples, level }),
      ...(stats ? { repeatStats: stats } : {}),
    };
  });
  const method = clustered ? 'question-cluster bootstrap' : 'Wilson (rates) / percentile bootstrap';
  return { ...summary, strategies, ci: { level, method, resamples, seed } };
}
