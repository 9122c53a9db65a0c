/** A point estimate with a two-sided confidence interval [lo, hi]. */
export interface Interval {
  estimate: number;
  lo: number;
  hi: number;
}
