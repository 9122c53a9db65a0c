/**
 * Wilson score interval for a binomial proportion (Wilson 1927). Unlike the normal
 * ("Wald") interval it stays inside [0, 1] and keeps reasonable coverage at small n and at
 * proportions near 0 or 1 — the usual situation for accuracy on a few dozen questions.
 */
import { normalQuantile } from './normal.ts';
import { assertAlpha, assertNonNegativeInt } from './validate.ts';
import type { Interval } from './types.ts';

/**
 * Two-sided (1 - alpha) Wilson score interval for `successes` out of `n` trials:
 *   z = Phi^-1(1 - alpha/2), phat = successes / n,
 *   centre = (phat + z^2 / 2n) / (1 + z^2 / n),
 *   half   = z / (1 + z^2 / n) * sqrt(phat (1 - phat) / n + z^2 / 4n^2).
 * estimate is phat. Bounds are clamped to [0, 1] (they are exactly 0 / 1 at successes = 0 / n
 * mathematically; clamping removes rounding dust). n = 0 gives { estimate: NaN, lo: 0, hi: 1 }:
 * no data, the uninformative interval.
 */
export function wilson(successes: number, n: number, alpha = 0.05): Interval {
  assertNonNegativeInt(n, 'wilson', 'n');
  assertNonNegativeInt(successes, 'wilson', 'successes');
  if (successes > n) throw new RangeError(`wilson: successes (${successes}) must not exceed n (${n})`);
  assertAlpha(alpha, 'wilson');
  if (n === 0) return { estimate: NaN, lo: 0, hi: 1 };
  const z = normalQuantile(1 - alpha / 2);
  const z2 = z * z;
  const phat = successes / n;
  const denom = 1 + z2 / n;
  const centre = (phat + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((phat * (1 - phat)) / n + z2 / (4 * n * n));
  return {
    estimate: phat,
    lo: successes === 0 ? 0 : Math.max(0, centre - half),
    hi: successes === n ? 1 : Math.min(1, centre + half),
  };
}
