import { describe, it, expect } from 'vitest';
import { bootstrapCI, pairedBootstrapDiff } from '../../../harness/stats/bootstrap.ts';
import { mean, summaryStats } from '../../../harness/stats/summary.ts';
import { normalQuantile } from '../../../harness/stats/normal.ts';
import { pairedPermutation } from '../../../harness/stats/permutation.ts';
import { wilson } from '../../../harness/stats/wilson.ts';
import { Xoshiro128 } from '../../../harness/stats/rng.ts';

/** Deterministic N(0,1)-like sample: normal quantiles at (i + 0.5) / n, in a scrambled order. */
function normalLike(n: number, shift = 0): number[] {
  const xs = Array.from({ length: n }, (_, i) => normalQuantile((i + 0.5) / n) + shift);
  // Scramble with a fixed stride coprime to n so pairing with another sample is not sorted.
  const stride = 7919 % n || 1;
  return xs.map((_, i) => xs[(i * stride) % n]);
}

describe('bootstrapCI (percentile)', () => {
  it('95% CI of a mean is about ±1.96 sd/sqrt(n) around the sample mean (n = 2000)', () => {
    const n = 2000;
    const x = normalLike(n).map((v) => v + 3);
    const { mean: m, sd } = summaryStats(x);
    const ci = bootstrapCI(x, { seed: 1 });
    expect(ci.estimate).toBe(mean(x));
    const theory = (1.96 * sd) / Math.sqrt(n);
    expect(theory).toBeCloseTo(1.96 / Math.sqrt(n), 2); // sd of the sample is ~1
    const half = (ci.hi - ci.lo) / 2;
    expect(Math.abs(half - theory) / theory).toBeLessThan(0.15);
    expect(Math.abs((ci.hi + ci.lo) / 2 - m)).toBeLessThan(0.15 * theory);
    expect(ci.lo).toBeLessThan(m);
    expect(ci.hi).toBeGreaterThan(m);
  });

  it('is deterministic for a seed and varies across seeds', () => {
    const x = normalLike(300);
    expect(bootstrapCI(x, { seed: 5 })).toEqual(bootstrapCI(x, { seed: 5 }));
    expect(bootstrapCI(x, { seed: 5 })).not.toEqual(bootstrapCI(x, { seed: 6 }));
    expect(bootstrapCI(x)).toEqual(bootstrapCI(x, { seed: 0 })); // default seed 0
  });

  it('the allocation-free mean path equals the generic path for the same seed', () => {
    const x = normalLike(257);
    const fast = bootstrapCI(x, { seed: 9, resamples: 2000 });
    const viaMean = bootstrapCI(x, { seed: 9, resamples: 2000, stat: mean });
    const generic = bootstrapCI(x, { seed: 9, resamples: 2000, stat: (s) => mean(s) });
    expect(viaMean).toEqual(fast);
    expect(generic).toEqual(fast);
  });

  it('supports other statistics (median)', () => {
    const median = (s: Float64Array) => {
      const c = Float64Array.from(s).sort();
      const h = c.length >> 1;
      return c.length % 2 ? c[h] : (c[h - 1] + c[h]) / 2;
    };
    const x = normalLike(401);
    const ci = bootstrapCI(x, { stat: median, seed: 2, resamples: 2000 });
    expect(ci.estimate).toBeCloseTo(0, 12); // symmetric quantile grid: sample median is 0
    expect(ci.lo).toBeLessThan(0);
    expect(ci.hi).toBeGreaterThan(0);
    // median SE ~ 1.2533 / sqrt(n): the interval is a bit wider than the mean's
    expect(ci.hi - ci.lo).toBeGreaterThan(2 * 1.96 * (1 / Math.sqrt(401)));
  });

  it('for 0/1 data agrees with the Wilson interval at moderate n', () => {
    const x = Array.from({ length: 400 }, (_, i) => (i % 10 < 3 ? 1 : 0)); // 120 / 400
    const ci = bootstrapCI(x, { seed: 4 });
    const w = wilson(120, 400);
    expect(ci.estimate).toBeCloseTo(0.3, 15);
    expect(Math.abs(ci.lo - w.lo)).toBeLessThan(0.01);
    expect(Math.abs(ci.hi - w.hi)).toBeLessThan(0.01);
  });

  it('larger alpha gives a narrower interval', () => {
    const x = normalLike(200);
    const a = bootstrapCI(x, { alpha: 0.05, seed: 3 });
    const b = bootstrapCI(x, { alpha: 0.32, seed: 3 });
    expect(b.hi - b.lo).toBeLessThan(a.hi - a.lo);
  });

  it('edge cases: empty -> NaN, one value -> zero width, constant -> zero width', () => {
    expect(bootstrapCI([])).toEqual({ estimate: NaN, lo: NaN, hi: NaN });
    expect(bootstrapCI([4.5])).toEqual({ estimate: 4.5, lo: 4.5, hi: 4.5 });
    expect(bootstrapCI([2, 2, 2, 2], { resamples: 50 })).toEqual({ estimate: 2, lo: 2, hi: 2 });
  });

  it('rejects bad input, naming the element or option', () => {
    expect(() => bootstrapCI([1, 2, Number.NaN])).toThrow(/bootstrapCI: values\[2\] must be a finite number/);
    expect(() => bootstrapCI([1, 2], { resamples: 0 })).toThrow(/resamples must be a positive integer/);
    expect(() => bootstrapCI([1, 2], { alpha: 1 })).toThrow(/alpha must be in \(0, 1\)/);
    expect(() => bootstrapCI([1, 2], { seed: 0.5 })).toThrow(/seed must be a safe integer/);
  });
});

describe('pairedBootstrapDiff', () => {
  it('detects a clear shift: CI excludes 0 and p is at its floor', () => {
    const a = normalLike(500);
    const b = a.map((v, i) => v + 0.5 + 0.1 * Math.sin(i));
    const r = pairedBootstrapDiff(a, b, { seed: 1 });
    expect(r.delta).toBeCloseTo(mean(b) - mean(a), 12);
    expect(r.lo).toBeGreaterThan(0.45);
    expect(r.hi).toBeLessThan(0.55);
    expect(r.p).toBeCloseTo(1 / 10_001, 15);
  });

  it('identical systems: delta = 0, zero-width CI, p = 1', () => {
    const a = normalLike(50);
    expect(pairedBootstrapDiff(a, a.slice())).toEqual({ delta: 0, lo: 0, hi: 0, p: 1 });
  });

  it('swapping a and b negates delta and the CI and keeps p', () => {
    const a = normalLike(120);
    const b = normalLike(120, 0.1).reverse();
    const r1 = pairedBootstrapDiff(a, b, { seed: 8 });
    const r2 = pairedBootstrapDiff(b, a, { seed: 8 });
    expect(r2.delta).toBeCloseTo(-r1.delta, 14);
    expect(r2.lo).toBeCloseTo(-r1.hi, 12);
    expect(r2.hi).toBeCloseTo(-r1.lo, 12);
    expect(r2.p).toBe(r1.p);
  });

  it('a borderline difference (t about 2) gives p near 0.05, like the permutation test', () => {
    // d = standard-normal-like noise + 0.2 over n = 100: t = 0.2 / (1 / 10) = 2, p_normal ≈ 0.046
    const n = 100;
    const a = new Array<number>(n).fill(0);
    const b = normalLike(n).map((v) => v + 0.2);
    const boot = pairedBootstrapDiff(a, b, { seed: 3, resamples: 20_000 });
    const perm = pairedPermutation(a, b, { seed: 3, resamples: 20_000 });
    expect(boot.p).toBeGreaterThan(0.02);
    expect(boot.p).toBeLessThan(0.09);
    expect(perm.p).toBeGreaterThan(0.02);
    expect(perm.p).toBeLessThan(0.09);
    expect(boot.lo).toBeLessThan(0.2);
    expect(boot.hi).toBeGreaterThan(0.2);
  });

  it('p follows its definition exactly, counting float-rounded ties as ties', () => {
    // Differences in tenths: float sums of 0.1s are inexact, so replicates that equal 0 or
    // 2 * delta mathematically come out a few ulps off. Recompute the same replicates with
    // integer arithmetic (same seed, same draw order: one int(n) per element per replicate)
    // and count |S* - S| >= |S| exactly.
    const tenths = [1, 2, -1, 3, 0, 1, -2, 1, 2, 1, 3, -3];
    const n = tenths.length;
    const a = new Array<number>(n).fill(0);
    const b = tenths.map((t) => t / 10);
    const R = 4000;
    const r = pairedBootstrapDiff(a, b, { seed: 12, resamples: R });
    const S = tenths.reduce((x, y) => x + y, 0);
    const rng = new Xoshiro128(12);
    let extreme = 0;
    let exactTies = 0;
    for (let k = 0; k < R; k++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += tenths[rng.int(n)];
      if (Math.abs(s - S) >= Math.abs(S)) extreme++;
      if (Math.abs(s - S) === Math.abs(S)) exactTies++;
    }
    expect(exactTies).toBeGreaterThan(0); // the case actually exercises ties
    expect(r.p).toBe((1 + extreme) / (1 + R));
    expect(r.delta).toBeCloseTo(S / 10 / n, 15);
  });

  it('rejects unpaired input and empty input gives NaN with p = 1', () => {
    expect(() => pairedBootstrapDiff([1, 2], [1])).toThrow(/same length\), got 2 and 1/);
    expect(() => pairedBootstrapDiff([1], [Number.POSITIVE_INFINITY])).toThrow(/b\[0\]/);
    expect(pairedBootstrapDiff([], [])).toEqual({ delta: NaN, lo: NaN, hi: NaN, p: 1 });
  });
});
