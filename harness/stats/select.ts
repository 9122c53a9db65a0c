/**
 * Quantiles of unsorted data by selection: the value quantileSorted would read off the sorted
 * data, found without sorting it.
 *
 * Why: a bootstrap interval is two quantiles of 10,000 replicates, and sorting them was most of
 * reading off a run's intervals (~0.8 ms a column, a dozen columns per strategy). Selection finds
 * the two order statistics each quantile interpolates between in O(n): Hoare's quickselect,
 * median-of-three pivots, then the smallest value above the selected one.
 *
 * The order is the one Float64Array.prototype.sort gives — ascending, −0 before +0 — so the
 * result is the sorted path's to the bit; NaN is not allowed in (callers drop it first).
 */

/** a before b in Float64Array sort order (no NaN): smaller, or −0 against +0. */
const before = (a: number, b: number): boolean => a < b || (a === 0 && b === 0 && 1 / a < 1 / b);

/**
 * Rearranges `xs` in place so that xs[k] holds its value of rank k (0-based, ascending), every
 * value before it ranks no higher and every value after it no lower; returns xs[k].
 */
export function selectRank(xs: Float64Array, k: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (hi > lo) {
    // Median of three as the pivot: sorted data, common in replicates, stays linear.
    const mid = (lo + hi) >>> 1;
    if (before(xs[mid]!, xs[lo]!)) swap(xs, mid, lo);
    if (before(xs[hi]!, xs[lo]!)) swap(xs, hi, lo);
    if (before(xs[hi]!, xs[mid]!)) swap(xs, hi, mid);
    const pivot = xs[mid]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (before(xs[i]!, pivot)) i++;
      while (before(pivot, xs[j]!)) j--;
      if (i <= j) swap(xs, i++, j--);
    }
    // [lo, j] ≤ pivot ≤ [i, hi], and whatever lies between j and i equals the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return xs[k]!;
}

function swap(xs: Float64Array, a: number, b: number): void {
  const t = xs[a]!;
  xs[a] = xs[b]!;
  xs[b] = t;
}

/**
 * Quantile q in [0, 1] of `xs` (no NaN), by linear interpolation between order statistics
 * (type 7, as quantileSorted): the same value as quantileSorted over the sorted values.
 * Reorders `xs`. NaN for empty input.
 */
export function quantileUnsorted(xs: Float64Array, q: number): number {
  const n = xs.length;
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantileUnsorted: q must be in [0, 1] (got ${String(q)})`);
  if (n === 0) return NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const frac = h - lo;
  const a = selectRank(xs, lo);
  if (frac === 0) return a;
  // The next order statistic: the first, in sort order, of the values after rank lo.
  let b = xs[lo + 1]!;
  for (let i = lo + 2; i < n; i++) if (before(xs[i]!, b)) b = xs[i]!;
  return a + frac * (b - a);
}
