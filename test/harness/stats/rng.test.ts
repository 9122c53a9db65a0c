import { describe, it, expect } from 'vitest';
import { createRng, Xoshiro128 } from '../../../harness/stats/rng.ts';

describe('Xoshiro128 (xoshiro128**)', () => {
  it('matches the reference C implementation for a given state', () => {
    // Outputs of Blackman & Vigna's xoshiro128starstar.c next() with s = {1, 2, 3, 4}.
    const r = Xoshiro128.fromState([1, 2, 3, 4]);
    const got = Array.from({ length: 8 }, () => r.nextUint32());
    expect(got).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849]);
  });

  it('matches the reference after 1000 steps from a state with high bits set', () => {
    const r = Xoshiro128.fromState([0x9e3779b9, 0x243f6a88, 0xb7e15162, 0xdeadbeef]);
    for (let i = 0; i < 1000; i++) r.nextUint32();
    expect([r.nextUint32(), r.nextUint32(), r.nextUint32(), r.nextUint32()]).toEqual([
      2541037969, 1849389561, 1502624387, 2643130287,
    ]);
  });

  it('rejects the all-zero state and non-integer seeds', () => {
    expect(() => Xoshiro128.fromState([0, 0, 0, 0])).toThrow(/all zero/);
    expect(() => createRng(1.5)).toThrow(/seed must be a safe integer/);
    expect(() => createRng(Number.NaN)).toThrow(/seed/);
  });
});

describe('seeding', () => {
  const first = (seed: number, k = 5) => {
    const r = createRng(seed);
    return Array.from({ length: k }, () => r.nextUint32());
  };

  it('is deterministic: same seed, same stream', () => {
    expect(first(42, 100)).toEqual(first(42, 100));
    expect(first(0)).toEqual(first(0));
  });

  it('gives different streams for nearby seeds and for seeds that differ only in high bits', () => {
    const seeds = [0, 1, 2, -1, 2 ** 32, 2 ** 32 + 1, 2 ** 40, Number.MAX_SAFE_INTEGER];
    const streams = seeds.map((s) => first(s).join(','));
    expect(new Set(streams).size).toBe(seeds.length);
  });
});

describe('random()', () => {
  it('stays in [0, 1) with mean about 1/2', () => {
    const r = createRng(7);
    let sum = 0;
    let outside = 0;
    for (let i = 0; i < 100_000; i++) {
      const u = r.random();
      if (!(u >= 0 && u < 1)) outside++;
      sum += u;
    }
    expect(outside).toBe(0);
    expect(Math.abs(sum / 100_000 - 0.5)).toBeLessThan(0.005); // SE = 0.0009
  });
});

describe('int(n)', () => {
  it('covers [0, n) uniformly (chi-square for n = 10)', () => {
    const r = createRng(3);
    const counts = new Array<number>(10).fill(0);
    const draws = 100_000;
    for (let i = 0; i < draws; i++) counts[r.int(10)]++;
    const expected = draws / 10;
    const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(27.88); // chi-square(9) 0.999 quantile
  });

  it('is unbiased for an n that does not divide 2^32 (n = 3 * 2^30, large-n path)', () => {
    // With plain x % n, residues below 2^32 - 3*2^30 = 2^30 would be twice as likely.
    const r = createRng(11);
    const n = 3 * 2 ** 30;
    let low = 0;
    let invalid = 0;
    const draws = 60_000;
    for (let i = 0; i < draws; i++) {
      const x = r.int(n);
      if (!(Number.isInteger(x) && x >= 0 && x < n)) invalid++;
      if (x < 2 ** 30) low++;
    }
    expect(invalid).toBe(0);
    expect(Math.abs(low / draws - 1 / 3)).toBeLessThan(0.01); // biased mod would give 1/2
  });

  it('handles the edges n = 1 and n = 2^32, and rejects bad n', () => {
    const r = createRng(5);
    for (let i = 0; i < 100; i++) expect(r.int(1)).toBe(0);
    const x = r.int(2 ** 32);
    expect(x >= 0 && x < 2 ** 32).toBe(true);
    expect(() => r.int(0)).toThrow(RangeError);
    expect(() => r.int(2.5)).toThrow(RangeError);
    expect(() => r.int(2 ** 32 + 1)).toThrow(RangeError);
  });
});

describe('addDraws', () => {
  it('counts exactly the draws of as many int(n) calls and leaves the generator where they would', () => {
    // 1,500,000 rejects a draw in ~9,000 (2^32 mod n = 467,296), so 200,000 draws take that path
    // some twenty times; 2,097,153 is past the multiply-shift range (int's other method).
    for (const [n, draws] of [[1, 100], [3, 5000], [1000, 5000], [1_500_000, 200_000], [2_097_152, 5000], [2_097_153, 5000]] as const) {
      const a = new Xoshiro128(42);
      const b = new Xoshiro128(42);
      const want = new Float64Array(n);
      for (let i = 0; i < draws; i++) want[a.int(n)] += 1;
      const got = new Float64Array(n);
      b.addDraws(got, draws);
      // (element by element here: toEqual on arrays of millions takes most of a minute)
      let differ = 0;
      for (let j = 0; j < n; j++) if (got[j] !== want[j]) differ++;
      expect(differ).toBe(0);
      expect(got.reduce((a, b) => a + b, 0)).toBe(draws);
      expect(b.nextUint32()).toBe(a.nextUint32());
    }
  });
});

describe('addDrawsToNibbles', () => {
  it('counts, in either half of each byte at an offset, exactly the draws addDraws counts, and leaves the generator where it would', () => {
    for (const [n, draws] of [[1, 15], [7, 40], [1000, 3000], [1_500_000, 200_000]] as const) {
      for (const nibble of [0, 1] as const) {
        const a = new Xoshiro128(7);
        const b = new Xoshiro128(7);
        const want = new Float64Array(n);
        a.addDraws(want, draws);
        const bytes = new Uint8Array(n + 5);
        // The other half of every byte, and the bytes around the row, are left alone.
        const other = nibble ? 0x03 : 0x30;
        bytes.fill(other);
        expect(b.addDrawsToNibbles(bytes, 3, n, nibble, draws)).toBe(true);
        expect([bytes[2], bytes[n + 3]]).toEqual([other, other]);
        let differ = 0;
        for (let j = 0; j < n; j++) {
          const x = bytes[3 + j]!;
          if (((x >> (nibble * 4)) & 15) !== want[j] || (x & (nibble ? 0x0f : 0xf0)) !== other) differ++;
        }
        expect(differ).toBe(0);
        expect(b.nextUint32()).toBe(a.nextUint32());
      }
    }
  });

  it('says when a count passes 15, in either half, and refuses a row that does not fit', () => {
    for (const nibble of [0, 1] as const) {
      expect(new Xoshiro128(1).addDrawsToNibbles(new Uint8Array(1), 0, 1, nibble, 15)).toBe(true);
      expect(new Xoshiro128(1).addDrawsToNibbles(new Uint8Array(1), 0, 1, nibble, 16)).toBe(false);
      expect(new Xoshiro128(1).addDrawsToNibbles(new Uint8Array(1), 0, 1, nibble, 40)).toBe(false);
    }
    expect(() => new Xoshiro128(1).addDrawsToNibbles(new Uint8Array(4), 2, 3, 0, 1)).toThrow(RangeError);
  });
});
