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
import { clusterBootstrap, warmReplicates, type ClusterBootstrapJob, type ClusterBootstrapResult, type ClusterColumn } from '../stats/clusterBootstrap.ts';
import { BootstrapWorker, clusterBootstrapInParallel } from '../stats/parallelBootstrap.ts';
import { wilson } from '../stats/wilson.ts';
import type { RunRecord } from '../types.ts';
import { latestRecords } from '../run/store.ts';
import { repeatStats } from './repeats.ts';
import { judgeSummary } from './judgeSummary.ts';
import {
  meanMetricPaths,
  summarize,
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

/** Replicates of every bootstrap interval unless IntervalOptions.resamples says otherwise. */
export const DEFAULT_RESAMPLES = 10_000;

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

const allEqual = (xs: ArrayLike<number>): boolean => {
  for (let i = 1; i < xs.length; i++) if (xs[i] !== xs[0]) return false;
  return true;
};

/**
 * One strategy's intervals in two parts: those known from its records alone (Wilson, constant
 * metrics) and the bootstrap job for the rest, whose result `finish` puts in place.
 */
interface IntervalPlan {
  out: Partial<Record<MetricPath, ConfidenceInterval>>;
  job: ClusterBootstrapJob | null;
  finish(result: ClusterBootstrapResult): Partial<Record<MetricPath, ConfidenceInterval>>;
}

function planIntervals(records: readonly RunRecord[], opts: IntervalOptions): IntervalPlan {
  const seed = opts.seed ?? 0;
  const resamples = opts.resamples ?? DEFAULT_RESAMPLES;
  const alpha = 1 - (opts.level ?? 0.95);
  const out: Partial<Record<MetricPath, ConfidenceInterval>> = {};
  if (records.length === 0) return { out, job: null, finish: () => out };

  const clusterIndex = new Map<string, number>();
  for (const r of records) if (!clusterIndex.has(r.questionId)) clusterIndex.set(r.questionId, clusterIndex.size);
  const k = clusterIndex.size;
  const owner = Int32Array.from(records, (r) => clusterIndex.get(r.questionId)!);
  const clustered = k < records.length;

  const paths: MeanMetricPath[] = [];
  const columns: ClusterColumn[] = [];
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
      paths.push(path);
      columns.push({ sums, counts });
    }
  }

  const latencies = Float64Array.from(records, (r) => r.latencyMs);
  const latencyConstant = allEqual(latencies) || latencies.some((v) => !Number.isFinite(v));
  if (latencyConstant && Number.isFinite(latencies[0])) for (const [path] of LATENCY_PERCENTILES) out[path] = { lo: latencies[0], hi: latencies[0] };
  if (columns.length === 0 && latencyConstant) return { out, job: null, finish: () => out };
  let latency: ClusterBootstrapJob['latency'] = null;
  if (!latencyConstant) {
    const order = Array.from(records.keys()).sort((x, y) => latencies[x] - latencies[y] || x - y);
    const sizes = new Float64Array(k);
    for (const o of owner) sizes[o] += 1;
    latency = {
      values: Float64Array.from(order, (i) => latencies[i]),
      cluster: Int32Array.from(order, (i) => owner[i]),
      sizes,
      qs: LATENCY_PERCENTILES.map(([, q]) => q),
    };
  }
  return {
    out,
    job: { k, columns, latency, resamples, alpha, seed },
    finish(result) {
      paths.forEach((path, i) => (out[path] = result.means[i]));
      if (latency) LATENCY_PERCENTILES.forEach(([path], i) => (out[path] = result.percentiles[i]));
      return out;
    },
  };
}

/** Confidence intervals of one strategy's metrics from its (deduplicated) records. */
export function strategyIntervals(records: readonly RunRecord[], opts: IntervalOptions = {}): Partial<Record<MetricPath, ConfidenceInterval>> {
  const plan = planIntervals(records, opts);
  return plan.job ? plan.finish(clusterBootstrap(plan.job)) : plan.out;
}

/**
 * The summary with `intervals` on every strategy, `repeatStats` on strategies run more than
 * once per question, and `ci` saying how the intervals were made. `records` are the records the
 * summary was made from (superseded ones are dropped here the same way).
 */
export function withIntervals(summary: RunSummary, records: readonly RunRecord[], opts: IntervalOptions = {}): RunSummary {
  const { jobs, assemble } = prepareIntervals(summary, records, opts);
  return assemble(jobs.map((job) => clusterBootstrap(job)));
}

/**
 * withIntervals with the bootstrap spread over this thread and a worker thread when it is long
 * enough to gain from one (stats/parallelBootstrap.ts): the same summary, bit for bit. `worker`:
 * one started earlier, for this call to use or close.
 */
export async function withIntervalsInParallel(summary: RunSummary, records: readonly RunRecord[], opts: IntervalOptions & { worker?: BootstrapWorker } = {}): Promise<RunSummary> {
  const { jobs, assemble } = prepareIntervals(summary, records, opts);
  return assemble(await clusterBootstrapInParallel(jobs, opts.worker));
}

/** Records a warm-up summarizes: enough to reach every metric's code, few enough to take milliseconds. */
const WARM_RECORDS = 64;

/**
 * Summarizes a run's first records, with intervals from a few hundred replicates, and drops the
 * result: the code of the summary, the interval plans and the bootstrap (warmReplicates) is
 * compiled and has seen the run's kinds of values before the real summary runs. A run calls it
 * once every task left has its call out and it only waits for the last replies (harness/run/runner.ts):
 * the end of `npm run bench:process` (last reply to exit) went from 0.174 to 0.141 s, medians of
 * eight alternations, for 15–30 ms of a thread that was waiting. Changes nothing.
 */
export function warmUpSummary(records: readonly RunRecord[]): void {
  const few = records.slice(0, WARM_RECORDS);
  if (few.length) withIntervals(summarize(few), few, { resamples: 200 });
  warmReplicates();
}

/** Every strategy's interval plan, the bootstrap jobs they need, and how the results make the summary. */
function prepareIntervals(summary: RunSummary, records: readonly RunRecord[], opts: IntervalOptions): { jobs: ClusterBootstrapJob[]; assemble(results: ClusterBootstrapResult[]): RunSummary } {
  const seed = opts.seed ?? 0;
  const resamples = opts.resamples ?? DEFAULT_RESAMPLES;
  const level = opts.level ?? 0.95;
  const byStrategy = new Map<string, RunRecord[]>();
  for (const r of latestRecords(records)) {
    const g = byStrategy.get(r.strategy);
    if (g) g.push(r);
    else byStrategy.set(r.strategy, [r]);
  }
  let clustered = false;
  const parts = summary.strategies.map((s) => {
    const rs = byStrategy.get(s.strategy) ?? [];
    if (new Set(rs.map((r) => r.questionId)).size < rs.length) clustered = true;
    const stats = repeatStats(rs);
    // κ between the rule and the LLM judge gets the same treatment as every other interval:
    // questions resampled (with their repeats), the run's seed and resamples.
    const judge = s.judge ? judgeSummary(rs, { interval: true, seed, resamples }) : undefined;
    return { s, stats, judge, plan: planIntervals(rs, { seed, resamples, level }) };
  });
  const jobs = parts.flatMap((p) => (p.plan.job ? [p.plan.job] : []));
  const method = clustered ? 'question-cluster bootstrap' : 'Wilson (rates) / percentile bootstrap';
  return {
    jobs,
    assemble(results) {
      let next = 0;
      const strategies = parts.map(({ s, stats, judge, plan }) => ({
        ...s,
        ...(judge ? { judge } : {}),
        intervals: plan.job ? plan.finish(results[next++]!) : plan.out,
        ...(stats ? { repeatStats: stats } : {}),
      }));
      return { ...summary, strategies, ci: { level, method, resamples, seed } };
    },
  };
}
