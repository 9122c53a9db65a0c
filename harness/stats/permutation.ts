/**
 * Paired sign-flip permutation test (a.k.a. randomisation test) for the mean difference.
 *
 * Under H0 "A and B are exchangeable within each pair", each difference d_i = b_i - a_i is
 * equally likely to have either sign. The test statistic is T = sum(d) (equivalently the mean);
 * its null distribution is that of sum(s_i d_i) over independent random signs s_i = ±1.
 * Zero differences do not change under a sign flip, so they are dropped before enumerating:
 * this gives exactly the same p-value and lets "exact" cover more cases.
 */
import { Xoshiro128 } from './rng.ts';
import { assertPairedFinite, assertPositiveInt } from './validate.ts';

export interface PermutationOptions {
  /** Monte Carlo sign-flip draws when exact enumeration is not used; default 10,000. */
  resamples?: number;
  /** PRNG seed (safe integer); default 0. */
  seed?: number;
  /** Enumerate all 2^m sign patterns when m (non-zero differences) <= this; default 16, max 24. */
  maxExact?: number;
}

export interface PermutationResult {
  /** mean(b - a) over all pairs (zeros included). */
  delta: number;
  /** Two-sided p-value. */
  p: number;
  /** True when p comes from full enumeration rather than Monte Carlo. */
  exact: boolean;
}

/**
 * Two-sided paired permutation test.
 *  - exact (m <= maxExact non-zero differences): p = #{sign patterns with |T*| >= |T|} / 2^m.
 *    The identity pattern is included, so p >= 2 / 2^m whenever T != 0 (T and -T both count).
 *  - Monte Carlo otherwise: p = (1 + #{r : |T*_r| >= |T|}) / (1 + R), the +1 correction
 *    (Phipson & Smyth 2010) that keeps the test valid and p > 0.
 * ">=" uses a tolerance of 1e-9 * sum|d| so sums equal up to float rounding (0.1 + 0.2 vs 0.3)
 * count as ties. Empty input or all-zero differences give p = 1.
 */
export function pairedPermutation(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  opts: PermutationOptions = {},
): PermutationResult {
  const fn = 'pairedPermutation';
  assertPairedFinite(a, b, fn);
  const resamples = opts.resamples ?? 10_000;
  const seed = opts.seed ?? 0;
  const maxExact = opts.maxExact ?? 16;
  assertPositiveInt(resamples, fn, 'resamples');
  if (!Number.isSafeInteger(seed)) throw new RangeError(`${fn}: seed must be a safe integer (got ${String(seed)})`);
  if (!Number.isInteger(maxExact) || maxExact < 0 || maxExact > 24) {
    throw new RangeError(`${fn}: maxExact must be an integer in [0, 24] (got ${String(maxExact)})`);
  }

  const n = a.length;
  const nonZero: number[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    const di = b[i] - a[i];
    total += di;
    if (di !== 0) nonZero.push(di);
  }
  const delta = n === 0 ? NaN : total / n;
  const m = nonZero.length;
  if (m === 0) return { delta, p: 1, exact: true };

  const d = Float64Array.from(nonZero);
  let absSum = 0;
  let t = 0;
  for (let i = 0; i < m; i++) {
    absSum += Math.abs(d[i]);
    t += d[i];
  }
  const cut = Math.abs(t) - 1e-9 * absSum;

  if (m <= maxExact) {
    const patterns = 2 ** m;
    let extreme = 0;
    for (let mask = 0; mask < patterns; mask++) {
      let s = 0;
      for (let i = 0; i < m; i++) s += (mask >>> i) & 1 ? -d[i] : d[i];
      if (Math.abs(s) >= cut) extreme++;
    }
    return { delta, p: extreme / patterns, exact: true };
  }

  const rng = new Xoshiro128(seed);
  let extreme = 0;
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    let bits = 0;
    for (let i = 0; i < m; i++) {
      if ((i & 31) === 0) bits = rng.nextUint32();
      s += bits & 1 ? -d[i] : d[i];
      bits >>>= 1;
    }
    if (Math.abs(s) >= cut) extreme++;
  }
  return { delta, p: Math.min(1, (1 + extreme) / (1 + resamples)), exact: false };
}
