// Can this gate see a regression the size of a rule's margin at all? A pass on five questions,
// or on 75 with Holm over 42 rules, says little: no drop below some size can ever reach p < alpha.
// The gate says so (a power note) instead of passing silently.
//
// For a rule tested at level α' — the rule's alpha divided by the Holm family size m, the level
// the smallest p-value must beat when one rule regresses alone (α' = alpha without correction):
//   - Floor (exact): McNemar's exact test and the sign-flip permutation test both give p = 2·2^−k
//     when k questions move the same way and none the other. So at least
//     k_min = ⌊log2(2/α')⌋ + 1 questions must change before anything is significant. For a 0/1
//     metric that is a change of at least k_min / n (k_min questions lost, none won); with fewer
//     than k_min paired questions nothing can be significant.
//   - At the power level (default 80%), normal approximation of the paired test:
//     δ ≈ (z_{1−α'/2} + z_{power}) · s / √n, with s the standard deviation of the per-question
//     differences observed. When the runs do not differ at all there is no spread to go by, and
//     only the floor applies.
// The detectable change is the larger of the two. It is compared with the rule's margin in
// absolute units (a relative margin times the baseline value). Latency percentiles (a bootstrap
// test) get no note: their smallest p depends on resamples, not on questions.
import { normalQuantile } from '../../stats/normal.ts';
import { BINARY_METRICS, isPercentile } from '../compare/metrics.ts';
import type { MetricComparison } from '../compare/paired.ts';
import type { EffectiveRule } from './rules.ts';

export interface PowerNote {
  /** Smallest worsening (absolute, metric units) these questions detect at the power level; Infinity: none can be significant. */
  detectable: number;
  /** The rule's margin in absolute units. */
  margin: number;
  /** Questions that must all move the same way before any change is significant. */
  kMin: number;
  /** The level each test must beat: alpha / family size under Holm. */
  level: number;
  power: number;
  n: number;
  /** Standard deviation of the paired differences (0: the runs agree on every question). */
  sd: number;
  /** True when the floor (k_min questions lost, none won) decided, not the power estimate. */
  floor: boolean;
}

/** Smallest k with 2·2^−k < level: questions that must move together for any significance. */
export function minQuestionsForSignificance(level: number): number {
  return Math.floor(Math.log2(2 / level)) + 1;
}

function sd(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n < 2) return 0;
  let m = 0;
  for (let i = 0; i < n; i++) m += xs[i]!;
  m /= n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (xs[i]! - m) ** 2;
  return Math.sqrt(ss / (n - 1));
}

/**
 * The power note of one tested rule, or null when its margin is detectable (or the test is a
 * percentile bootstrap). `a`, `b`: the per-question values of the paired questions.
 */
export function powerNote(
  rule: EffectiveRule,
  cmp: MetricComparison,
  values: { a: ArrayLike<number>; b: ArrayLike<number> },
  family: number,
  power: number,
): PowerNote | null {
  if (isPercentile(cmp.metric) || cmp.n === 0) return null;
  const n = cmp.n;
  const level = rule.alpha / Math.max(1, family);
  const kMin = minQuestionsForSignificance(level);
  const margin = rule.threshold.relative ? rule.threshold.value * Math.abs(cmp.a) : rule.threshold.value;
  const diffs = Float64Array.from({ length: n }, (_, i) => values.b[i]! - values.a[i]!);
  const s = sd(diffs);
  const z = normalQuantile(1 - level / 2) + normalQuantile(power);
  const approx = s > 0 ? (z * s) / Math.sqrt(n) : 0;
  const binary = BINARY_METRICS.has(cmp.metric) && [...Array.from(values.a), ...Array.from(values.b)].every((v) => v === 0 || v === 1);
  const floorValue = binary ? kMin / n : 0;
  const detectable = n < kMin ? Infinity : Math.max(approx, floorValue);
  if (!(detectable > margin + 1e-12)) return null;
  return { detectable, margin, kMin, level, power, n, sd: s, floor: Number.isFinite(detectable) && floorValue >= approx };
}
