// Which variant to use: the Pareto frontiers of the objective against cost, and the
// recommendation — the cheapest variant not significantly worse than the best.
//
//   1. Each variant's objective is the mean over questions of its per-question value (repeats
//      averaged first, so a question counts once whatever the repeats).
//   2. The best is the variant with the highest objective (ties: the cheaper one).
//   3. Every other variant is compared with the best on the questions both answered (paired):
//      H0 "the variant is at most `margin` below the best" against H1 "it is more than
//      `margin` below". Binary objective and margin 0: exact one-sided McNemar (discordant pairs,
//      binomial with p = 1/2). Otherwise: a one-sided sign-flip permutation test on the paired
//      differences shifted by the margin. The p-values of the family are Holm-adjusted.
//   4. Variants whose adjusted p is at most alpha are significantly worse; among the rest (the
//      best included) the recommendation is the cheapest: $/question when the model is priced,
//      else calls/question; ties go to the higher objective, then fewer tokens.
// Only variants that ran every question of the run compete (a successive-halving run keeps its
// dropped variants' partial results in the same folder; they are on no frontier).
import { perQuestion } from '../compare/paired.ts';
import { binomTest } from '../../stats/binomial.ts';
import { holm } from '../../stats/holm.ts';
import { pairedPermutation } from '../../stats/permutation.ts';
import { paretoFrontier } from '../../summary/pareto.ts';
import { percentile } from '../../summary/percentile.ts';
import { RETRIEVAL_LEVELS, type MeanMetricPath, type RetrievalLevel } from '../../summary/summary.ts';
import { latestRecords } from '../../run/store.ts';
import type { RunRecord } from '../../types.ts';

export const OBJECTIVES = ['accuracy', 'f1', 'evidenceRecall'] as const;
export type Objective = (typeof OBJECTIVES)[number];

/** The per-record metric behind an objective; evidence recall at the finest level with gold. */
export function objectiveMetric(objective: Objective, records: readonly RunRecord[]): MeanMetricPath {
  if (objective !== 'evidenceRecall') return objective;
  const level: RetrievalLevel = RETRIEVAL_LEVELS.find((l) => records.some((r) => r.retrieval?.[l])) ?? 'node';
  return `retrieval.${level}.recall`;
}


export interface VariantPoint {
  id: string;
  /** Questions with an objective value. */
  n: number;
  objective: number;
  costPerQuestion: number;
  callsPerQuestion: number;
  tokensPerQuestion: number;
  p95LatencyMs: number;
}

export interface VariantComparison {
  id: string;
  /** Paired questions. */
  n: number;
  /** Mean of (variant − best) over the paired questions. */
  delta: number;
  test: 'mcnemar' | 'permutation';
  p: number;
  pAdjusted: number;
  significantlyWorse: boolean;
}

export interface Recommendation {
  objective: Objective;
  metric: MeanMetricPath;
  margin: number;
  alpha: number;
  /** What "cheapest" means here. */
  costBasis: 'dollars' | 'calls';
  points: VariantPoint[];
  /** Variants left out because they did not run every question (e.g. dropped while tuning). */
  partial: string[];
  best: string;
  recommended: string;
  comparisons: VariantComparison[];
  /** Frontier ids, cheapest first: objective vs $/question (null when unpriced), p95 latency, calls/question. */
  frontier: { dollars: string[] | null; latency: string[]; calls: string[] };
}

export interface RecommendOptions {
  objective?: Objective;
  /** Tolerated shortfall from the best, in objective units (0.02 = two points of accuracy). */
  margin?: number;
  alpha?: number;
  priced: boolean;
  seed?: number;
}

function isBinary(values: Iterable<number>): boolean {
  for (const v of values) if (v !== 0 && v !== 1) return false;
  return true;
}

/** One-sided p for H1 "variant more than `margin` below best" on paired per-question values. */
export function pairedWorseTest(best: number[], variant: number[], margin: number, seed = 0): { p: number; test: 'mcnemar' | 'permutation' } {
  if (margin === 0 && isBinary(best) && isBinary(variant)) {
    let b = 0; // best right, variant wrong
    let c = 0; // variant right, best wrong
    for (let i = 0; i < best.length; i++) {
      if (best[i] === 1 && variant[i] === 0) b++;
      else if (best[i] === 0 && variant[i] === 1) c++;
    }
    return { p: b + c === 0 ? 1 : binomTest(b, b + c, 0.5, 'greater'), test: 'mcnemar' };
  }
  // Shifted differences d_i + margin; H1: their mean is below 0. The sign-flip null is symmetric,
  // so for a negative observed mean P(T <= t) is half the two-sided p.
  const shifted = variant.map((v, i) => v - best[i] + margin);
  const zeros = shifted.map(() => 0);
  const r = pairedPermutation(zeros, shifted, { seed, resamples: 10_000 });
  const p = r.delta < 0 ? r.p / 2 : Math.min(1, 1 - r.p / 2);
  return { p, test: 'permutation' };
}

export function recommend(recordsByVariant: ReadonlyMap<string, readonly RunRecord[]>, opts: RecommendOptions): Recommendation {
  const objective = opts.objective ?? 'accuracy';
  const margin = opts.margin ?? 0;
  const alpha = opts.alpha ?? 0.05;
  if (recordsByVariant.size === 0) throw new Error('recommend: no variants');
  const all = [...recordsByVariant.values()].flat();
  const metric = objectiveMetric(objective, all);
  const values = new Map<string, Map<string, number>>();
  const points: VariantPoint[] = [];
  for (const [id, raw] of recordsByVariant) {
    const records = latestRecords(raw);
    const pq = perQuestion(records, metric);
    values.set(id, pq);
    const per = (f: (r: RunRecord) => number) => (records.length ? records.reduce((s, r) => s + f(r), 0) / records.length : NaN);
    const mean = pq.size ? [...pq.values()].reduce((s, v) => s + v, 0) / pq.size : NaN;
    points.push({
      id,
      n: pq.size,
      objective: mean,
      costPerQuestion: per((r) => r.costUsd ?? 0),
      callsPerQuestion: per((r) => r.calls),
      tokensPerQuestion: per((r) => r.inputTokens + r.outputTokens),
      p95LatencyMs: records.length ? percentile(records.map((r) => r.latencyMs), 95) : NaN,
    });
  }
  // Only variants that covered every question compete.
  const coverage = Math.max(...points.map((p) => p.n));
  const full = points.filter((p) => p.n === coverage && Number.isFinite(p.objective));
  const partial = points.filter((p) => !full.includes(p)).map((p) => p.id);
  const costBasis = opts.priced ? 'dollars' : 'calls';
  const cost = (p: VariantPoint) => (opts.priced ? p.costPerQuestion : p.callsPerQuestion);
  const cheaper = (a: VariantPoint, b: VariantPoint) => cost(a) - cost(b) || b.objective - a.objective || a.tokensPerQuestion - b.tokensPerQuestion;
  const best = [...full].sort((a, b) => b.objective - a.objective || cheaper(a, b))[0];

  const others = full.filter((p) => p !== best);
  const raw = others.map((p) => {
    const bv = values.get(best.id)!;
    const vv = values.get(p.id)!;
    const qs = [...bv.keys()].filter((q) => vv.has(q));
    const b = qs.map((q) => bv.get(q)!);
    const v = qs.map((q) => vv.get(q)!);
    const t = pairedWorseTest(b, v, margin, opts.seed ?? 0);
    const delta = qs.length ? v.reduce((s, x, i) => s + x - b[i], 0) / qs.length : NaN;
    return { id: p.id, n: qs.length, delta, ...t };
  });
  const adjusted = holm(raw.map((r) => r.p));
  const comparisons: VariantComparison[] = raw.map((r, i) => ({ ...r, pAdjusted: adjusted[i], significantlyWorse: adjusted[i] <= alpha }));
  const worse = new Set(comparisons.filter((c) => c.significantlyWorse).map((c) => c.id));
  const candidates = full.filter((p) => !worse.has(p.id)).sort(cheaper);
  const ids = (ps: VariantPoint[]) => ps.map((p) => p.id);
  return {
    objective,
    metric,
    margin,
    alpha,
    costBasis,
    points,
    partial,
    best: best.id,
    recommended: candidates[0].id,
    comparisons,
    frontier: {
      dollars: opts.priced ? ids(paretoFrontier(full, (p) => p.costPerQuestion, (p) => p.objective)) : null,
      latency: ids(paretoFrontier(full, (p) => p.p95LatencyMs, (p) => p.objective)),
      calls: ids(paretoFrontier(full, (p) => p.callsPerQuestion, (p) => p.objective)),
    },
  };
}
