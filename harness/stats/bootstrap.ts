/**
 * Nonparametric bootstrap: confidence interval of a statistic, and paired difference of means.
 *
 * Interval method: the PERCENTILE bootstrap. Draw `resamples` samples of size n with
 * replacement from the data, compute the statistic on each, and report the alpha/2 and
 * 1 - alpha/2 quantiles of those replicates (linear interpolation between order statistics,
 * see quantileSorted). `estimate` is the statistic of the original sample, not the mean of the
 * replicates. The percentile interval is transformation-respecting and needs no variance
 * formula; it can under-cover for very small n (say < 20) or heavily skewed statistics —
 * use it as a description of uncertainty, not as an exact test.
 *
 * Determinism: all resampling draws come from a seeded Xoshiro128 (rng.ts), so the same
 * data, options and seed always give bit-identical results.
 */
import { Xoshiro128 } from './rng.ts';
import { mean, quantileSorted } from './summary.ts';
import { assertAlpha, assertFiniteArray, assertPairedFinite, assertPositiveInt } from './validate.ts';
import type { Interval } from './types.ts';

export type { Interval } from './types.ts';

/**
 * A statistic of a sample. For speed the bootstrap passes the SAME Float64Array buffer for
 * every replicate, overwritten in place: the function must not keep a reference to it.
 */
export type Statistic = (sample: Float64Array) => number;

export interface BootstrapOptions {
  /** Statistic to bootstrap; default mean (which takes an allocation-free fast path). */
  stat?: Statistic;
  /** Number of bootstrap replicates; default 10,000. */
  resamples?: number;
  /** Two-sided error rate: the interval has nominal coverage 1 - alpha; default 0.05. */
  alpha?: number;
  /** PRNG seed (safe integer); default 0. */
  seed?: number;
}

interface Resolved {
  resamples: number;
  alpha: number;
  seed: number;
}

function resolve(fn: string, opts: BootstrapOptions): Resolved {
  const resamples = opts.resamples ?? 10_000;
  const alpha = opts.alpha ?? 0.05;
  const seed = opts.seed ?? 0;
  assertPositiveInt(resamples, fn, 'resamples');
  assertAlpha(alpha, fn);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`${fn}: seed must be a safe integer (got ${String(seed)})`);
  return { resamples, alpha, seed };
}

/**
 * Bootstrap replicates of the mean of `x`: for each replicate, sum n values picked with
 * replacement. No allocation besides the output array.
 */
function meanReplicates(x: Float64Array, resamples: number, rng: Xoshiro128): Float64Array {
  const n = x.length;
  const out = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += x[rng.int(n)];
    out[r] = s / n;
  }
  return out;
}

function statReplicates(x: Float64Array, stat: Statistic, resamples: number, rng: Xoshiro128): Float64Array {
  const n = x.length;
  const out = new Float64Array(resamples);
  const buf = new Float64Array(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) buf[i] = x[rng.int(n)];
    out[r] = stat(buf);
  }
  return out;
}

/** Percentile interval from replicates (sorted in place). NaN bounds if any replicate is NaN. */
function percentileBounds(reps: Float64Array, alpha: number): { lo: number; hi: number } {
  reps.sort(); // typed-array sort is numeric; NaN sorts last
  if (Number.isNaN(reps[reps.length - 1])) return { lo: NaN, hi: NaN };
  return { lo: quantileSorted(reps, alpha / 2), hi: quantileSorted(reps, 1 - alpha / 2) };
}

/**
 * Percentile-bootstrap confidence interval of `stat` (default: mean) over `values`.
 * Empty input gives { estimate: NaN, lo: NaN, hi: NaN }; a single value gives a zero-width
 * interval. Throws on non-finite values or invalid options.
 */
export function bootstrapCI(values: ArrayLike<number>, opts: BootstrapOptions = {}): Interval {
  const fn = 'bootstrapCI';
  assertFiniteArray(values, fn, 'values');
  const { resamples, alpha, seed } = resolve(fn, opts);
  const stat = opts.stat;
  const x = Float64Array.from(values);
  if (x.length === 0) return { estimate: NaN, lo: NaN, hi: NaN };
  const rng = new Xoshiro128(seed);
  const fast = stat === undefined || stat === mean;
  const estimate = fast ? mean(x) : stat(Float64Array.from(x));
  const reps = fast ? meanReplicates(x, resamples, rng) : statReplicates(x, stat, resamples, rng);
  return { estimate, ...percentileBounds(reps, alpha) };
}

export interface PairedBootstrapOptions {
  resamples?: number;
  alpha?: number;
  seed?: number;
}

export interface PairedDiff {
  /** mean(b - a): positive means B scores higher than A. */
  delta: number;
  /** Percentile-bootstrap interval of delta. */
  lo: number;
  hi: number;
  /** Two-sided bootstrap p-value for H0: E[b - a] = 0 (definition below). */
  p: number;
}

/**
 * Paired bootstrap of the mean difference d_i = b_i - a_i (pairs are resampled together, so
 * per-question difficulty cancels). Returns delta = mean(d), its percentile interval, and a
 * two-sided p-value.
 *
 * p definition (shifted/centred bootstrap, Hall & Wilson 1991): the null distribution of the
 * mean difference is approximated by the bootstrap replicates centred on zero, T*_r - delta,
 * and
 *     p = (1 + #{ r : |T*_r - delta| >= |delta| }) / (1 + R).
 * The +1 terms count the observed sample as one replicate, so p is never 0 (minimum
 * 1 / (R + 1)) and p = 1 when delta = 0. Ties are compared with a relative tolerance of
 * 1e-9 * mean|d| so that replicates equal to the observed value up to float rounding (common
 * with 0/1 metrics) count as ">=". For a test with exact size under symmetric differences
 * see pairedPermutation.
 *
 * Arrays must have equal length. Empty input gives { delta: NaN, lo: NaN, hi: NaN, p: 1 }.
 */
export function pairedBootstrapDiff(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  opts: PairedBootstrapOptions = {},
): PairedDiff {
  const fn = 'pairedBootstrapDiff';
  assertPairedFinite(a, b, fn);
  const { resamples, alpha, seed } = resolve(fn, opts);
  const n = a.length;
  if (n === 0) return { delta: NaN, lo: NaN, hi: NaN, p: 1 };
  const d = new Float64Array(n);
  let absSum = 0;
  for (let i = 0; i < n; i++) {
    d[i] = b[i] - a[i];
    absSum += Math.abs(d[i]);
  }
  const delta = mean(d);
  const reps = meanReplicates(d, resamples, new Xoshiro128(seed));
  const tol = 1e-9 * (absSum / n);
  const absDelta = Math.abs(delta);
  let extreme = 0;
  for (let r = 0; r < resamples; r++) {
    if (Math.abs(reps[r] - delta) >= absDelta - tol) extreme++;
  }
  const p = Math.min(1, (1 + extreme) / (1 + resamples));
  return { delta, ...percentileBounds(reps, alpha), p };
}
