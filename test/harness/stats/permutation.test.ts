import { describe, it, expect } from 'vitest';
import { pairedPermutation } from '../../../harness/stats/permutation.ts';
import { binomTest } from '../../../harness/stats/binomial.ts';

const zeros = (n: number) => new Array<number>(n).fill(0);

/** Brute-force exact p over all 2^n sign patterns of integer differences (no float issues). */
function bruteForceP(d: number[]): number {
  const T = Math.abs(d.reduce((x, y) => x + y, 0));
  let extreme = 0;
  for (let mask = 0; mask < 2 ** d.length; mask++) {
    const s = d.reduce((acc, v, i) => acc + ((mask >> i) & 1 ? -v : v), 0);
    if (Math.abs(s) >= T) extreme++;
  }
  return extreme / 2 ** d.length;
}

describe('pairedPermutation: exact enumeration', () => {
  it('small case by hand: d = [1, 2, 3]', () => {
    // Sign sums of ±1±2±3: 6, 4, 2, 0, 0, -2, -4, -6. |T*| >= 6 for 2 of 8 patterns.
    const r = pairedPermutation([0, 0, 0], [1, 2, 3]);
    expect(r).toEqual({ delta: 2, p: 0.25, exact: true });
  });

  it('small case by hand with a zero: d = [1, -2, 3, 0]', () => {
    // T = 2; over ±1±2±3, |sum| >= 2 for 6 of 8 patterns (all but the two zeros). The zero
    // difference does not change the proportion; delta averages over all 4 pairs.
    const r = pairedPermutation([5, 5, 5, 5], [6, 3, 8, 5]);
    expect(r.p).toBe(0.75);
    expect(r.delta).toBe(0.5);
    expect(r.exact).toBe(true);
  });

  it('agrees with brute force over all 2^n patterns (including zeros) for many integer cases', () => {
    const cases = [
      [1, 1, 1, 1, 1],
      [3, -1, 4, -1, 5, -9, 2, 6],
      [0, 0, 2, -2, 1],
      [7, 7, -7, 7, 0, 1, 2, 3, 4, 5, -6],
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, -14],
    ];
    for (const d of cases) {
      expect(pairedPermutation(zeros(d.length), d).p).toBe(bruteForceP(d));
    }
  });

  it('counts sums equal up to float rounding as ties (tenths vs integers give the same p)', () => {
    const ints = [1, 2, -3, 3, 1, -1, 2];
    const tenths = ints.map((v) => v / 10);
    const pInt = pairedPermutation(zeros(ints.length), ints).p;
    expect(pairedPermutation(zeros(tenths.length), tenths).p).toBe(pInt);
    expect(pInt).toBe(bruteForceP(ints));
  });

  it('±1 differences reduce to the two-sided sign test = binomTest(k, m, 0.5)', () => {
    for (const [plus, minus] of [[9, 2], [5, 5], [12, 4], [0, 6], [1, 0]]) {
      const d = [...new Array(plus).fill(1), ...new Array(minus).fill(-1)];
      const r = pairedPermutation(zeros(d.length), d);
      expect(r.exact).toBe(true);
      expect(r.p).toBeCloseTo(binomTest(plus, plus + minus, 0.5), 14);
    }
  });

  it('uses enumeration whenever the non-zero differences number <= 16', () => {
    const d = [...new Array(16).fill(1), ...new Array(30).fill(0)];
    const r = pairedPermutation(zeros(d.length), d);
    expect(r.exact).toBe(true);
    expect(r.p).toBeCloseTo(2 / 2 ** 16, 18);
  });

  it('all-zero or empty differences give p = 1', () => {
    expect(pairedPermutation([1, 2, 3], [1, 2, 3])).toEqual({ delta: 0, p: 1, exact: true });
    const e = pairedPermutation([], []);
    expect(e.p).toBe(1);
    expect(e.delta).toBeNaN();
  });
});

describe('pairedPermutation: Monte Carlo', () => {
  it('approximates the exact sign test for 40 ±1 differences, with the +1 correction', () => {
    const plus = 27;
    const minus = 13;
    const d = [...new Array(plus).fill(1), ...new Array(minus).fill(-1)];
    const R = 20_000;
    const r = pairedPermutation(zeros(d.length), d, { resamples: R, seed: 1 });
    expect(r.exact).toBe(false);
    const exact = binomTest(plus, plus + minus, 0.5); // ≈ 0.0385
    expect(Math.abs(r.p - exact)).toBeLessThan(0.006); // ~4 Monte Carlo SEs
    expect(Math.abs(r.p * (R + 1) - Math.round(r.p * (R + 1)))).toBeLessThan(1e-6);
  });

  it('matches exact enumeration when forced to sample a small case (maxExact: 0)', () => {
    const d = [3, -1, 4, -1, 5, -9, 2, 6, 5, 3];
    const exact = pairedPermutation(zeros(d.length), d).p;
    const mc = pairedPermutation(zeros(d.length), d, { maxExact: 0, resamples: 20_000, seed: 4 });
    expect(mc.exact).toBe(false);
    expect(Math.abs(mc.p - exact)).toBeLessThan(0.015);
  });

  it('never reports p = 0: the minimum is 1 / (R + 1)', () => {
    const d = new Array(100).fill(1);
    const r = pairedPermutation(zeros(100), d, { resamples: 999 });
    expect(r.p).toBe(1 / 1000);
  });

  it('is deterministic per seed', () => {
    const a = Array.from({ length: 60 }, (_, i) => Math.sin(i));
    const b = Array.from({ length: 60 }, (_, i) => Math.sin(i) + 0.3 * Math.cos(3 * i) + 0.05);
    const r1 = pairedPermutation(a, b, { seed: 21 });
    expect(pairedPermutation(a, b, { seed: 21 })).toEqual(r1);
    expect(pairedPermutation(a, b, { seed: 22 }).p).not.toBe(r1.p);
  });

  it('rejects bad input, naming it', () => {
    expect(() => pairedPermutation([1, 2], [1])).toThrow(/same length\), got 2 and 1/);
    expect(() => pairedPermutation([Number.NaN], [1])).toThrow(/a\[0\]/);
    expect(() => pairedPermutation([1], [1], { resamples: -5 })).toThrow(/resamples/);
    expect(() => pairedPermutation([1], [1], { maxExact: 30 })).toThrow(/maxExact/);
  });
});
