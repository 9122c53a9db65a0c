import { describe, expect, it } from 'vitest';
import { quantileUnsorted, selectRank } from '../../../harness/stats/select.ts';
import { quantileSorted } from '../../../harness/stats/summary.ts';
import { Xoshiro128 } from '../../../harness/stats/rng.ts';

/** The sorted path the bootstrap used before: Float64Array sort, then quantileSorted. */
const bySorting = (xs: Float64Array, q: number): number => quantileSorted(Float64Array.from(xs).sort(), q);

/** Data of the shapes replicates take: continuous, heavy ties, signed zeros, infinities, sorted runs. */
function samples(rng: Xoshiro128): Float64Array[] {
  const out: Float64Array[] = [];
  for (const n of [1, 2, 3, 4, 5, 7, 10, 33, 100, 1_001, 10_000]) {
    out.push(Float64Array.from({ length: n }, () => rng.random()));
    out.push(Float64Array.from({ length: n }, () => rng.int(4) / 4)); // few distinct values
    out.push(Float64Array.from({ length: n }, () => [-0, 0, 0.5, -0.5][rng.int(4)]!));
    out.push(Float64Array.from({ length: n }, () => [-Infinity, Infinity, 1, -1][rng.int(4)]!));
    out.push(Float64Array.from({ length: n }, (_, i) => i)); // sorted
    out.push(Float64Array.from({ length: n }, (_, i) => n - i)); // reversed
    out.push(new Float64Array(n).fill(7)); // constant
  }
  return out;
}

describe('quantileUnsorted', () => {
  it('gives, bit for bit, what sorting then quantileSorted gives', () => {
    const rng = new Xoshiro128(11);
    let checked = 0;
    for (const xs of samples(rng)) {
      for (const q of [0, 0.025, 0.05, 0.5, 0.9, 0.975, 0.99, 1]) {
        const want = bySorting(xs, q);
        const got = quantileUnsorted(Float64Array.from(xs), q);
        expect(Object.is(got, want), `n=${xs.length} q=${q}: ${got} vs ${want}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('orders −0 before +0, as the sort does: the lowest of {0, −0} is −0', () => {
    expect(Object.is(quantileUnsorted(Float64Array.from([0, -0, 0]), 0), -0)).toBe(true);
    expect(Object.is(quantileUnsorted(Float64Array.from([-0, 0, -0]), 1), 0)).toBe(true);
  });

  it('interpolates between the two order statistics around (n − 1)q', () => {
    // Sorted: 1 2 3 4 → q = 0.5 reads position 1.5, halfway between 2 and 3.
    expect(quantileUnsorted(Float64Array.from([4, 1, 3, 2]), 0.5)).toBe(2.5);
    expect(quantileUnsorted(new Float64Array(0), 0.5)).toBeNaN();
    expect(() => quantileUnsorted(Float64Array.from([1]), 1.5)).toThrow(RangeError);
  });
});

describe('selectRank', () => {
  it('puts the value of rank k at k, nothing larger before it and nothing smaller after', () => {
    const rng = new Xoshiro128(5);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + rng.int(60);
      const xs = Float64Array.from({ length: n }, () => rng.int(10));
      const k = rng.int(n);
      const sorted = Float64Array.from(xs).sort();
      expect(selectRank(xs, k)).toBe(sorted[k]);
      for (let i = 0; i < k; i++) expect(xs[i]).toBeLessThanOrEqual(xs[k]!);
      for (let i = k + 1; i < n; i++) expect(xs[i]).toBeGreaterThanOrEqual(xs[k]!);
      expect(Float64Array.from(xs).sort()).toEqual(sorted); // a rearrangement, nothing lost
    }
  });
});
