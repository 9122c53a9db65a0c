// Percentiles and means for latency and other summaries.
//
// `percentile` is numpy's default ("linear", Hyndman & Fan type 7): on the sorted values the
// virtual index is (n − 1)·p/100, and the result interpolates between its two neighbours. The
// interpolation is written the way numpy's `_lerp` writes it (from the upper neighbour when the
// fraction is ≥ 0.5), so results agree with `np.percentile` to the last bit.

/** numpy.percentile(values, p) with the default linear method. NaN for no values or any NaN. */
export function percentile(values: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within [0, 100], got ${p}`);
  const n = values.length;
  // numpy propagates NaN; a NaN would also break the sort comparator.
  if (n === 0 || values.some((v) => Number.isNaN(v))) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const virtual = (n - 1) * (p / 100);
  const lo = Math.min(Math.max(Math.floor(virtual), 0), n - 1);
  const hi = Math.min(lo + 1, n - 1);
  const t = virtual - lo;
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/** Arithmetic mean; NaN for no values. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}
