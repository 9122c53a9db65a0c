/**
 * Descriptive statistics: mean, sample standard deviation, percentile (quantile) of sorted data.
 */
import { assertFiniteArray } from './validate.ts';

/** Arithmetic mean; NaN for an empty array. No validation (hot path for bootstrap statistics). */
export function mean(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return NaN;
  let s = 0;
  for (let i = 0; i < n; i++) s += values[i];
  return s / n;
}

export interface SummaryStats {
  mean: number;
  /** Sample standard deviation (n - 1 denominator); NaN when n < 2, like numpy ddof=1 / R sd(). */
  sd: number;
  n: number;
}

/**
 * Mean, sample standard deviation and count. Two-pass algorithm (mean first, then squared
 * deviations from it) so large offsets do not cancel catastrophically.
 * Empty input gives { mean: NaN, sd: NaN, n: 0 }; throws on non-finite elements.
 */
export function summaryStats(values: ArrayLike<number>): SummaryStats {
  assertFiniteArray(values, 'summaryStats', 'values');
  const n = values.length;
  const m = mean(values);
  if (n < 2) return { mean: m, sd: NaN, n };
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const d = values[i] - m;
    ss += d * d;
  }
  return { mean: m, sd: Math.sqrt(ss / (n - 1)), n };
}

/**
 * Quantile q in [0, 1] of data already sorted ascending, by linear interpolation between
 * order statistics (Hyndman & Fan type 7 — the default of numpy.quantile and R quantile()):
 * h = (n - 1) q, result = x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]).
 * NaN for empty input.
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantileSorted: q must be in [0, 1] (got ${String(q)})`);
  if (n === 0) return NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const frac = h - lo;
  const a = sorted[lo];
  const b = sorted[hi];
  // Written as a + frac (b - a) but returning a exactly when frac = 0 (avoids inf - inf).
  return frac === 0 ? a : a + frac * (b - a);
}
