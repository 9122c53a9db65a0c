import { describe, expect, it } from 'vitest';
import { mean, percentile } from '../../../harness/summary/percentile.ts';

// Reference values: numpy 2.4 `np.percentile(values, p)` (default method "linear").
const NUMPY: Array<{ values: number[]; expected: Array<[number, number]> }> = [
  {
    values: [1, 2, 3, 4],
    expected: [[0, 1], [25, 1.75], [50, 2.5], [75, 3.25], [90, 3.7], [95, 3.8499999999999996], [99, 3.9699999999999998], [100, 4]],
  },
  { values: [15, 20, 35, 40, 50], expected: [[5, 16], [30, 23], [40, 29], [50, 35], [95, 48], [99, 49.6]] },
  { values: [7], expected: [[0, 7], [50, 7], [99, 7]] },
  {
    values: [3.1, 0.2, 10.5, 7.7, 1.1, 2.2, 9.9],
    expected: [[10, 0.7400000000000001], [33.3, 2.1978], [50, 3.1], [66.6, 7.681599999999998], [95, 10.32], [99, 10.464]],
  },
  { values: [1.2345, 0.1, 0.3, 0.7], expected: [[95, 1.1543249999999998], [99, 1.2184649999999997], [12.5, 0.175]] },
  {
    values: [501.4, 64.0, 120.1, 81.8, 60.8, 547.7, 200.3, 56.0, 553.1, 542.2],
    expected: [[1, 56.432], [5, 58.16], [50, 160.2], [90, 548.24], [95, 550.6700000000001], [99, 552.614], [99.9, 553.0514000000001]],
  },
];

describe('percentile (numpy linear)', () => {
  for (const { values, expected } of NUMPY) {
    for (const [p, ref] of expected) {
      it(`p${p} of [${values.join(', ')}] = ${ref}`, () => {
        expect(percentile(values, p)).toBe(ref);
      });
    }
  }

  it('by hand: p95 of [15, 20, 35, 40, 50] → index 3.8 → 40 + 0.8·10 = 48', () => {
    expect(percentile([50, 40, 35, 20, 15], 95)).toBe(48);
  });

  it('does not reorder its input', () => {
    const v = [3, 1, 2];
    percentile(v, 50);
    expect(v).toEqual([3, 1, 2]);
  });

  it('is NaN for no values or a NaN value, and rejects p outside [0, 100]', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(percentile([1, NaN], 50)).toBeNaN();
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], -1)).toThrow(RangeError);
    expect(() => percentile([1], NaN)).toThrow(RangeError);
  });
});

describe('mean', () => {
  it('averages, NaN for none', () => {
    expect(mean([1, 2, 3, 4])).toBe(2.5);
    expect(mean([])).toBeNaN();
  });
});
