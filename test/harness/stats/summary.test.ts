import { describe, it, expect } from 'vitest';
import { mean, quantileSorted, summaryStats } from '../../../harness/stats/summary.ts';

describe('summaryStats', () => {
  it('computes mean, sample sd and n', () => {
    const s = summaryStats([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(s.n).toBe(8);
    expect(s.mean).toBe(5);
    expect(s.sd).toBeCloseTo(Math.sqrt(32 / 7), 14); // sum of squares 32, n - 1 = 7
  });

  it('is stable under a large offset (two-pass)', () => {
    const s = summaryStats([1e9 + 1, 1e9 + 2, 1e9 + 3]);
    expect(s.sd).toBeCloseTo(1, 9);
  });

  it('returns NaN sd for n < 2 and NaN mean for empty input', () => {
    expect(summaryStats([3])).toEqual({ mean: 3, sd: NaN, n: 1 });
    expect(summaryStats([])).toEqual({ mean: NaN, sd: NaN, n: 0 });
  });

  it('names the offending element', () => {
    expect(() => summaryStats([1, Number.NaN])).toThrow(/values\[1\] must be a finite number/);
  });
});

describe('mean / quantileSorted', () => {
  it('mean of typed and plain arrays', () => {
    expect(mean(Float64Array.of(1, 2, 3, 4))).toBe(2.5);
    expect(mean([])).toBeNaN();
  });

  it('type-7 quantiles like numpy.quantile', () => {
    const x = [1, 2, 3, 4, 10];
    expect(quantileSorted(x, 0)).toBe(1);
    expect(quantileSorted(x, 1)).toBe(10);
    expect(quantileSorted(x, 0.5)).toBe(3);
    expect(quantileSorted(x, 0.9)).toBeCloseTo(7.6, 12); // h = 3.6: 4 + 0.6 * 6
    expect(quantileSorted(x, 0.025)).toBeCloseTo(1.1, 12); // h = 0.1
    expect(quantileSorted([], 0.5)).toBeNaN();
    expect(() => quantileSorted(x, 1.5)).toThrow(RangeError);
  });
});
