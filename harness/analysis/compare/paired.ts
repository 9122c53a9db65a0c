// Paired comparison of a baseline (A) and a candidate (B) on the same questions.
//
// Pairing: records are grouped by questionId; a question's value on one side is the mean over
// its repeats (so repeats never count as extra questions). Questions answered on one side only
// are listed and left out. For each metric:
//   - A and B: means of the per-question values over the paired questions (so both sides are
//     measured on the same questions; this can differ from a run summary that has extra
//     questions or uneven repeats).
//   - delta = B − A with a paired percentile-bootstrap interval (questions resampled together,
//     so per-question difficulty cancels). For latency percentiles the bootstrap statistic is
//     p_B − p_A of the per-question latencies.
//   - relative change B / A − 1 with its interval from the same bootstrap replicates (null when A is 0).
//   - p-value of H0 "no difference":
//       correct/incorrect metrics (accuracy, exact match, numeric match, yes/no) with one
//       outcome per question on both sides: McNemar's exact test (binomial on the discordant pairs);
//       other means, and correct/incorrect averaged over repeats: paired sign-flip permutation
//       test (exact up to 20 non-zero differences, Monte Carlo otherwise);
//       latency percentiles: centred paired bootstrap.
//   - wins/ties/losses from the candidate's side: a win is a question where B is better
//     (higher for quality metrics, lower for calls/tokens/dollars/latency/nodes).
// Several comparisons at once are Holm-adjusted (`pAdjusted`); `significant` is pAdjusted < alpha.
import { pairedBootstrapDiff } from '../../stats/bootstrap.ts';
import { holm } from '../../stats/holm.ts';
import { mcnemarExact } from '../../stats/mcnemar.ts';
import { pairedPermutation } from '../../stats/permutation.ts';
import { Xoshiro128 } from '../../stats/rng.ts';
import { quantileSorted } from '../../stats/summary.ts';
import { recordMetric } from '../../summary/summary.ts';
import type { RunRecord } from '../../types.ts';
import { BINARY_METRICS, higherIsBetter, isPercentile, PERCENTILE_PATHS, type CompareMetric } from './metrics.ts';
import { coverageOf, type Coverage } from './coverage.ts';

export interface PairedOptions {
  /** Significance level; the intervals have level 1 − alpha. Default 0.05. */
  alpha?: number;
  /** Bootstrap / Monte Carlo permutation draws; default 10,000. */
  resamples?: number;
  seed?: number;
  /** Which way is better for custom metrics (`custom.<name>` → true when higher is better), from the scorers' definitions; default higher. */
  customDirections?: Readonly<Record<string, boolean>>;
}

export type PairedTest = 'mcnemar' | 'permutation' | 'bootstrap' | 'none';

export interface MetricComparison {
  metric: CompareMetric;
  higherIsBetter: boolean;
  /** Questions with a value on both sides. */
  n: number;
  a: number;
  b: number;
  /** b − a and its (1 − alpha) paired bootstrap interval. */
  delta: number;
  lo: number;
  hi: number;
  /** b / a − 1 with its interval; null when a is 0 (or there is nothing to pair). */
  rel: { delta: number; lo: number; hi: number } | null;
  test: PairedTest;
  /** Raw two-sided p-value of "no difference". */
  p: number;
  /** Holm-adjusted over the comparisons made together (equals p for a single comparison). */
  pAdjusted: number;
  significant: boolean;
  /** Which way the point estimate moved, from the candidate's side. */
  direction: 'better' | 'worse' | 'same';
  wins: number;
  ties: number;
  losses: number;
  /** McNemar's discordant counts when that test was used: A-only correct (b), B-only correct (c). */
  discordant?: { aOnly: number; bOnly: number };
}

export interface Pairing {
  paired: number;
  /** Question ids answered only by the baseline / only by the candidate. */
  onlyBaseline: string[];
  onlyCandidate: string[];
}

export interface StrategyComparison {
  /** Row label: the strategy, or `baseline → candidate` for strategies within one run. */
  label: string;
  baseline: { run: string; strategy: string; repeats: number };
  candidate: { run: string; strategy: string; repeats: number };
  pairing: Pairing;
  /** How much of the baseline the paired questions cover, and error / budget-exhausted counts on them. */
  coverage: Coverage;
  metrics: MetricComparison[];
}

export interface ComparisonResult {
  alpha: number;
  level: number;
  resamples: number;
  seed: number;
  correction: 'holm' | 'none';
  comparisons: StrategyComparison[];
}

export interface ComparisonInput {
  label: string;
  baseline: { run: string; strategy: string };
  candidate: { run: string; strategy: string };
  a: readonly RunRecord[];
  b: readonly RunRecord[];
}

const resolved = (opts: PairedOptions) => ({ alpha: opts.alpha ?? 0.05, resamples: opts.resamples ?? 10_000, seed: opts.seed ?? 0 });

/** Per-question value of a metric (mean over repeats); questions where it does not apply are absent. */
export function perQuestion(records: readonly RunRecord[], metric: CompareMetric): Map<string, number> {
  const f = isPercentile(metric) ? (r: RunRecord) => r.latencyMs : recordMetric(metric);
  const acc = new Map<string, [number, number]>();
  for (const r of records) {
    const v = f(r);
    if (v === null || v === undefined || !Number.isFinite(v)) continue;
    const cur = acc.get(r.questionId);
    if (cur) {
      cur[0] += v;
      cur[1] += 1;
    } else acc.set(r.questionId, [v, 1]);
  }
  return new Map([...acc].map(([q, [s, n]]) => [q, s / n]));
}

export function pairQuestions(a: readonly RunRecord[], b: readonly RunRecord[]): Pairing {
  const qa = new Set(a.map((r) => r.questionId));
  const qb = new Set(b.map((r) => r.questionId));
  return {
    paired: [...qa].filter((q) => qb.has(q)).length,
    onlyBaseline: [...qa].filter((q) => !qb.has(q)),
    onlyCandidate: [...qb].filter((q) => !qa.has(q)),
  };
}

const mean = (x: Float64Array): number => x.reduce((s, v) => s + v, 0) / x.length;

function percentileOf(sortedScratch: Float64Array, q: number): number {
  sortedScratch.sort();
  return quantileSorted(sortedScratch, q);
}

/**
 * Paired bootstrap replicates of (stat(B*) − stat(A*), stat(B*) / stat(A*) − 1). The index draws
 * follow the same sequence as pairedBootstrapDiff for the same seed, so the relative interval
 * of a mean comes from the very resamples its absolute interval came from.
 */
function pairedReplicates(a: Float64Array, b: Float64Array, stat: (x: Float64Array) => number, resamples: number, seed: number) {
  const n = a.length;
  const rng = new Xoshiro128(seed);
  const diff = new Float64Array(resamples);
  const ratio = new Float64Array(resamples);
  const ba = new Float64Array(n);
  const bb = new Float64Array(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) {
      const j = rng.int(n);
      ba[i] = a[j];
      bb[i] = b[j];
    }
    const sa = stat(ba);
    const sb = stat(bb);
    diff[r] = sb - sa;
    // 0 / 0: both sides zero in this resample, i.e. no change.
    ratio[r] = sa === 0 ? (sb === 0 ? 0 : sb > 0 ? Infinity : -Infinity) : sb / sa - 1;
  }
  return { diff, ratio };
}

function bounds(reps: Float64Array, alpha: number): { lo: number; hi: number } {
  const sorted = Float64Array.from(reps).sort();
  return { lo: quantileSorted(sorted, alpha / 2), hi: quantileSorted(sorted, 1 - alpha / 2) };
}

/** Compares one metric of two record sets (A baseline, B candidate). pAdjusted = p until Holm is applied. */
export function compareMetric(aRecords: readonly RunRecord[], bRecords: readonly RunRecord[], metric: CompareMetric, opts: PairedOptions = {}): MetricComparison {
  const { alpha, resamples, seed } = resolved(opts);
  const va = perQuestion(aRecords, metric);
  const vb = perQuestion(bRecords, metric);
  const ids = [...va.keys()].filter((q) => vb.has(q));
  const a = Float64Array.from(ids, (q) => va.get(q)!);
  const b = Float64Array.from(ids, (q) => vb.get(q)!);
  const n = ids.length;
  const hib = higherIsBetter(metric, opts.customDirections);
  const base: Omit<MetricComparison, 'a' | 'b' | 'delta' | 'lo' | 'hi' | 'rel' | 'test' | 'p' | 'pAdjusted' | 'significant' | 'direction'> = {
    metric,
    higherIsBetter: hib,
    n,
    wins: 0,
    ties: 0,
    losses: 0,
  };
  if (n === 0) {
    return { ...base, a: NaN, b: NaN, delta: NaN, lo: NaN, hi: NaN, rel: null, test: 'none', p: 1, pAdjusted: 1, significant: false, direction: 'same' };
  }

  for (let i = 0; i < n; i++) {
    const d = b[i] - a[i];
    const tol = 1e-12 * Math.max(1, Math.abs(a[i]), Math.abs(b[i]));
    if (Math.abs(d) <= tol) base.ties++;
    else if (d > 0 === hib) base.wins++;
    else base.losses++;
  }

  const percentile = isPercentile(metric) ? PERCENTILE_PATHS[metric] / 100 : null;
  const stat = percentile === null ? mean : (x: Float64Array) => percentileOf(x, percentile);
  const sa = percentile === null ? mean(a) : percentileOf(Float64Array.from(a), percentile);
  const sb = percentile === null ? mean(b) : percentileOf(Float64Array.from(b), percentile);
  const reps = pairedReplicates(a, b, stat, resamples, seed);

  let delta: number;
  let lo: number;
  let hi: number;
  let p: number;
  let test: PairedTest;
  let discordant: MetricComparison['discordant'];
  if (percentile === null) {
    const d = pairedBootstrapDiff(a, b, { resamples, alpha, seed });
    ({ delta, lo, hi } = d);
    const binary = BINARY_METRICS.has(metric) && [...a, ...b].every((v) => v === 0 || v === 1);
    if (binary) {
      const m = mcnemarExact(ids.map((_, i) => [a[i] === 1, b[i] === 1] as const));
      p = m.p;
      test = 'mcnemar';
      discordant = { aOnly: m.b, bOnly: m.c };
    } else {
      // Exact enumeration up to 20 non-zero differences (2^20 sign patterns, a few ms); Monte Carlo beyond.
      p = pairedPermutation(a, b, { resamples, seed, maxExact: 20 }).p;
      test = 'permutation';
    }
  } else {
    delta = sb - sa;
    ({ lo, hi } = bounds(reps.diff, alpha));
    // Centred bootstrap p, as in pairedBootstrapDiff.
    const absDelta = Math.abs(delta);
    const tol = 1e-9 * Math.max(Math.abs(sa), Math.abs(sb));
    let extreme = 0;
    for (let r = 0; r < resamples; r++) if (Math.abs(reps.diff[r] - delta) >= absDelta - tol) extreme++;
    p = delta === 0 ? 1 : Math.min(1, (1 + extreme) / (1 + resamples));
    test = 'bootstrap';
  }
  const rel = sa === 0 ? null : { delta: sb / sa - 1, ...bounds(reps.ratio, alpha) };
  const direction = delta === 0 || Math.abs(delta) <= 1e-12 * Math.max(1, Math.abs(sa)) ? 'same' : delta > 0 === hib ? 'better' : 'worse';
  return {
    ...base,
    a: sa,
    b: sb,
    delta,
    lo,
    hi,
    rel,
    test,
    p,
    pAdjusted: p,
    significant: p < alpha,
    direction,
    ...(discordant ? { discordant } : {}),
  };
}

/** Holm-adjusts every tested comparison together and sets `significant` (in place; returns the list). */
export function adjustHolm(metrics: MetricComparison[], alpha: number): MetricComparison[] {
  const tested = metrics.filter((m) => m.test !== 'none');
  const adjusted = holm(tested.map((m) => m.p));
  tested.forEach((m, i) => {
    m.pAdjusted = adjusted[i];
    m.significant = adjusted[i] < alpha;
  });
  return metrics;
}

function repeatsOf(records: readonly RunRecord[]): number {
  return new Set(records.map((r) => r.repeat)).size;
}

/**
 * Compares each input pair on each metric, then Holm-adjusts all the p-values together (the
 * family is every strategy × metric shown), unless correction is 'none'.
 */
export function comparePaired(
  inputs: readonly ComparisonInput[],
  metricsFor: (input: ComparisonInput) => CompareMetric[],
  opts: PairedOptions & { correction?: 'holm' | 'none' } = {},
): ComparisonResult {
  const { alpha, resamples, seed } = resolved(opts);
  const correction = opts.correction ?? 'holm';
  const comparisons: StrategyComparison[] = inputs.map((input) => ({
    label: input.label,
    baseline: { ...input.baseline, repeats: repeatsOf(input.a) },
    candidate: { ...input.candidate, repeats: repeatsOf(input.b) },
    pairing: pairQuestions(input.a, input.b),
    coverage: coverageOf(input.a, input.b),
    metrics: metricsFor(input).map((m) => compareMetric(input.a, input.b, m, { alpha, resamples, seed, ...(opts.customDirections ? { customDirections: opts.customDirections } : {}) })),
  }));
  if (correction === 'holm') adjustHolm(comparisons.flatMap((c) => c.metrics), alpha);
  return { alpha, level: 1 - alpha, resamples, seed, correction, comparisons };
}
