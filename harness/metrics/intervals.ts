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
//   - A continuous metric whose values are all equal gets the zero-width interval [v, v] (what
//     the bootstrap would give); a rate that is all right or all wrong keeps its Wilson
//     interval (over questions when clustered), since 5/5 correct is not certainty.
// Intervals describe uncertainty from the sample of questions, not run-to-run model noise;
// that is `repeatStats` (repeats.ts).
import { bootstrapCI } from '../stats/bootstrap.ts';
import { Xoshiro128 } from '../stats/rng.ts';
import { quantileSorted } from '../stats/summary.ts';
import { wilson } from '../stats/wilson.ts';
import type { RunRecord } from '../types.ts';
import { repeatStats } from './repeats.ts';
import {
  MEAN_METRIC_PATHS,
  RECORD_METRICS,
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
export const PROPORTION_METRICS: ReadonlySet<MeanMetricPath> = new Set<MeanMetricPath>(['accuracy', 'exactMatch', 'numericMatch', 'yesNo']);

const LATENCY_PERCENTILES = [
  ['latencyMs.p50', 0.5],
  ['latencyMs.p95', 0.95],
  ['latencyMs.p99', 0.99],
] as const;

/**
 * The records a summary counts: the last record per strategy × question × repeat (a retried
 * record appended on resume supersedes the earlier one), in first-seen key order — the same
 * rule as summarize().
 */
export function latestRecords(records: readonly RunRecord[]): RunRecord[] {
  const byKey = new Map<string, RunRecord>();
  for (const r of records) byKey.set(JSON.stringify([r.strategy, r.questionId, r.repeat]), r);
  return [...byKey.values()];
}

function percentileBounds(reps: Float64Array, alpha: number): ConfidenceInterval {
  reps.sort();
  return { lo: quantileSorted(reps, alpha / 2), hi: quantileSorted(reps, 1 - alpha / 2) };
}

/** Cluster bootstrap of a ratio mean: resample clusters, statistic = Σ sums / Σ counts. */
function clusterMeanCI(sums: Float64Array, counts: Float64Array, resamples: number, alpha: number, seed: number): ConfidenceInterval {
  const k = sums.length;
  const rng = new Xoshiro128(seed);
  const reps = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    let c = 0;
    for (let i = 0; i < k; i++) {
      const j = rng.int(k);
      s += sums[j];
      c += counts[j];
    }
    reps[r] = s / c;
  }
  return percentileBounds(reps, alpha);
}

/**
 * Bootstrap of latency percentiles. `clusters[j]` holds the latencies of question j (one
 * value each without repeats); a replicate draws clusters with replacement and takes the
 * percentiles of all their values.
 */
function percentileCIs(clusters: number[][], qs: readonly number[], resamples: number, alpha: number, seed: number): ConfidenceInterval[] {
  const k = clusters.length;
  const rng = new Xoshiro128(seed);
  const reps = qs.map(() => new Float64Array(resamples));
  const maxLen = clusters.reduce((n, c) => n + Math.max(c.length, 1), 0) * 2;
  let buf = new Float64Array(maxLen);
  for (let r = 0; r < resamples; r++) {
    let len = 0;
    for (let i = 0; i < k; i++) {
      const c = clusters[rng.int(k)];
      if (len + c.length > buf.length) {
        const bigger = new Float64Array(Math.max(buf.length * 2, len + c.length));
        bigger.set(buf.subarray(0, len));
        buf = bigger;
      }
      for (const v of c) buf[len++] = v;
    }
    const sample = buf.subarray(0, len).sort();
    qs.forEach((q, qi) => (reps[qi][r] = quantileSorted(sample, q)));
  }
  return reps.map((rep) => percentileBounds(rep, alpha));
}

const allEqual = (xs: readonly number[]): boolean => xs.every((x) => x === xs[0]);

/** Confidence intervals of one strategy's metrics from its (deduplicated) records. */
export function strategyIntervals(records: readonly RunRecord[], opts: IntervalOptions = {}): Partial<Record<MetricPath, ConfidenceInterval>> {
  const seed = opts.seed ?? 0;
  const resamples = opts.resamples ?? 10_000;
  const alpha = 1 - (opts.level ?? 0.95);
  const out: Partial<Record<MetricPath, ConfidenceInterval>> = {};
  if (records.length === 0) return out;

  const clusterIndex = new Map<string, number>();
  for (const r of records) if (!clusterIndex.has(r.questionId)) clusterIndex.set(r.questionId, clusterIndex.size);
  const clustered = clusterIndex.size < records.length;

  for (const path of MEAN_METRIC_PATHS) {
    const f = RECORD_METRICS[path];
    const values: number[] = [];
    const owners: number[] = [];
    for (const r of records) {
      const v = f(r);
      if (v === null || v === undefined) continue;
      values.push(v);
      owners.push(clusterIndex.get(r.questionId)!);
    }
    if (values.length === 0) continue;
    const proportion = PROPORTION_METRICS.has(path) && values.every((v) => v === 0 || v === 1);
    if (proportion && !clustered) {
      const w = wilson(values.filter((v) => v === 1).length, values.length, alpha);
      out[path] = { lo: w.lo, hi: w.hi };
    } else if (proportion && allEqual(values)) {
      // All right (or all wrong) in every repeat: a bootstrap would collapse to [1, 1]. Wilson
      // over questions (the independent units) keeps an honest interval.
      const k = new Set(owners).size;
      const w = wilson(values[0] === 1 ? k : 0, k, alpha);
      out[path] = { lo: w.lo, hi: w.hi };
    } else if (allEqual(values)) {
      out[path] = { lo: values[0], hi: values[0] };
    } else if (!clustered) {
      const ci = bootstrapCI(values, { resamples, alpha, seed });
      out[path] = { lo: ci.lo, hi: ci.hi };
    } else {
      // Only questions where the metric applies form clusters (e.g. numeric match).
      const sums = new Map<number, [number, number]>();
      values.forEach((v, i) => {
        const acc = sums.get(owners[i]);
        if (acc) {
          acc[0] += v;
          acc[1] += 1;
        } else sums.set(owners[i], [v, 1]);
      });
      const entries = [...sums.values()];
      out[path] = clusterMeanCI(
        Float64Array.from(entries, (e) => e[0]),
        Float64Array.from(entries, (e) => e[1]),
        resamples,
        alpha,
        seed,
      );
    }
  }

  const latencies = records.map((r) => r.latencyMs);
  if (allEqual(latencies)) {
    for (const [path] of LATENCY_PERCENTILES) out[path] = { lo: latencies[0], hi: latencies[0] };
  } else {
    const clusters: number[][] = Array.from({ length: clusterIndex.size }, () => []);
    for (const r of records) clusters[clusterIndex.get(r.questionId)!].push(r.latencyMs);
    const cis = percentileCIs(clusters, LATENCY_PERCENTILES.map(([, q]) => q), resamples, alpha, seed);
    LATENCY_PERCENTILES.forEach(([path], i) => (out[path] = cis[i]));
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
    return {
      ...s,
      intervals: strategyIntervals(rs, { seed, resamples, level }),
      ...(stats ? { repeatStats: stats } : {}),
    };
  });
  const method = clustered ? 'cluster bootstrap by question' : 'Wilson (rates) / percentile bootstrap';
  return { ...summary, strategies, ci: { level, method, resamples, seed } };
}
