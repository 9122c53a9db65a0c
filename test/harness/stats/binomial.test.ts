import { describe, it, expect } from 'vitest';
import { binomTest, binomialPmf, lnGamma, logChoose } from '../../../harness/stats/binomial.ts';
import { binomialWeights, exactOneSided, exactTwoSided, ratioToNumber } from './exact.ts';

/** |got - want| <= 1e-9, and relative error <= 1e-9 where the reference is not tiny. */
function expectMatches(got: number, want: number, label: string): void {
  const abs = Math.abs(got - want);
  if (abs > 1e-9) throw new Error(`${label}: got ${got}, want ${want} (abs err ${abs})`);
  if (want > 1e-290 && abs / want > 1e-9) throw new Error(`${label}: got ${got}, want ${want} (rel err ${abs / want})`);
}

describe('exact reference helper', () => {
  it('converts big ratios to doubles correctly', () => {
    expect(ratioToNumber(1n, 3n)).toBe(1 / 3);
    expect(ratioToNumber(11n, 32n)).toBe(0.34375);
    expect(ratioToNumber(1n, 2n ** 1000n)).toBe(2 ** -1000);
    expect(ratioToNumber(1n, 2n ** 1100n)).toBe(0); // below the smallest subnormal
  });
});

describe('lnGamma / logChoose', () => {
  it('matches log factorials computed exactly', () => {
    let f = 1n;
    for (let n = 1; n <= 170; n++) {
      f *= BigInt(n);
      const want = Math.log(Number(f)); // Number(f) is correctly rounded, so relative error ~1e-16
      expect(Math.abs(lnGamma(n + 1) - want)).toBeLessThan(1e-13 * Math.max(1, want));
    }
  });

  it('handles non-integer arguments', () => {
    expect(lnGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 14); // Gamma(1/2) = sqrt(pi)
    expect(lnGamma(1)).toBeCloseTo(0, 14);
    expect(lnGamma(2)).toBeCloseTo(0, 14);
    expect(lnGamma(10.5)).toBeCloseTo(13.940625219403763, 12); // Gamma(10.5) = 1133278.38894878...
    expect(() => lnGamma(0)).toThrow(RangeError);
  });

  it('logChoose matches BigInt binomial coefficients at n = 1000', () => {
    const w = binomialWeights(1000, 1n, 2n); // C(1000, i) * 1 * 1
    for (const k of [0, 1, 7, 250, 499, 500, 999, 1000]) {
      // ln C = ln(C / 2^1000) + 1000 ln 2, with the ratio converted exactly
      const want = Math.log(ratioToNumber(w[k], 2n ** 1000n)) + 1000 * Math.LN2;
      expect(Math.abs(logChoose(1000, k) - want)).toBeLessThan(1e-10);
    }
  });
});

describe('binomialPmf', () => {
  it('gives exact small values and handles p = 0 / 1', () => {
    expect(binomialPmf(3, 10, 0.5)).toBeCloseTo(120 / 1024, 15);
    expect(binomialPmf(0, 4, 0)).toBe(1);
    expect(binomialPmf(1, 4, 0)).toBe(0);
    expect(binomialPmf(4, 4, 1)).toBe(1);
    expect(binomialPmf(3, 4, 1)).toBe(0);
  });
});

describe('binomTest matches well-known scipy.stats.binomtest values', () => {
  // Values printed by scipy 1.17.1: binomtest(k, n, p).pvalue
  const scipy: Array<[number, number, number, number]> = [
    [3, 10, 0.5, 0.34375],
    [0, 5, 0.5, 0.0625],
    [7, 20, 0.5, 0.26317596435546875],
    [1, 3, 0.5, 1.0],
    [3, 10, 0.3, 1.0],
    [7, 20, 0.25, 0.30547848486367],
    [2, 50, 0.1, 0.23387383994762567],
    [40, 50, 0.9, 0.029691710911911508],
    [17, 30, 1 / 3, 0.010520085150346773],
    [0, 10, 0.2, 0.22824806400000008],
    [10, 10, 0.2, 1.0240000000000006e-7],
    [5000, 10000, 0.5, 1.0],
    [4900, 10000, 0.5, 0.04658552770494645],
    [350, 1000, 0.37, 0.2014927702641374],
  ];
  it.each(scipy)('binomtest(%i, %i, %d)', (k, n, p, want) => {
    expectMatches(binomTest(k, n, p), want, `binomTest(${k}, ${n}, ${p})`);
  });

  it('p = 0.5 closed form: min(1, 2 P(X <= min(k, n - k)))', () => {
    expect(binomTest(3, 10)).toBeCloseTo((2 * (1 + 10 + 45 + 120)) / 1024, 14);
    expect(binomTest(10, 10)).toBeCloseTo(2 / 1024, 15);
    expect(binomTest(0, 1)).toBe(1);
    expect(binomTest(0, 0)).toBe(1); // k = n p: scipy's shortcut
  });
});

describe('binomTest against exact BigInt computation', () => {
  it('p = 1/2, all k for every n = 1..60', () => {
    for (let n = 1; n <= 60; n++) {
      const w = binomialWeights(n, 1n, 2n);
      const den = 2n ** BigInt(n);
      for (let k = 0; k <= n; k++) {
        expectMatches(binomTest(k, n, 0.5), exactTwoSided(k, w, den), `binomTest(${k}, ${n})`);
      }
    }
  });

  it('general p (1/3, 3/10, 1/8, 9/10, 3/4), all k for every n = 1..60', () => {
    const ps: Array<[bigint, bigint]> = [[1n, 3n], [3n, 10n], [1n, 8n], [9n, 10n], [3n, 4n]];
    for (const [a, b] of ps) {
      const p = Number(a) / Number(b);
      for (let n = 1; n <= 60; n++) {
        const w = binomialWeights(n, a, b);
        const den = b ** BigInt(n);
        for (let k = 0; k <= n; k++) {
          expectMatches(binomTest(k, n, p), exactTwoSided(k, w, den), `binomTest(${k}, ${n}, ${a}/${b})`);
        }
      }
    }
  });

  it('one-sided alternatives, n = 1..30', () => {
    for (const [a, b] of [[1n, 2n], [1n, 3n]] as Array<[bigint, bigint]>) {
      const p = Number(a) / Number(b);
      for (let n = 1; n <= 30; n++) {
        const w = binomialWeights(n, a, b);
        const den = b ** BigInt(n);
        for (let k = 0; k <= n; k++) {
          expectMatches(binomTest(k, n, p, 'less'), exactOneSided(k, w, den, 'less'), `less(${k}, ${n}, ${p})`);
          expectMatches(binomTest(k, n, p, 'greater'), exactOneSided(k, w, den, 'greater'), `greater(${k}, ${n}, ${p})`);
        }
      }
    }
  });

  it('n = 500, all k, p = 1/2', () => {
    const n = 500;
    const w = binomialWeights(n, 1n, 2n);
    const den = 2n ** BigInt(n);
    for (let k = 0; k <= n; k++) expectMatches(binomTest(k, n), exactTwoSided(k, w, den), `binomTest(${k}, ${n})`);
  });

  it('n = 500, p = 3/10, every third k', () => {
    const n = 500;
    const w = binomialWeights(n, 3n, 10n);
    const den = 10n ** BigInt(n);
    for (let k = 0; k <= n; k += 3) {
      expectMatches(binomTest(k, n, 0.3), exactTwoSided(k, w, den), `binomTest(${k}, ${n}, 0.3)`);
    }
  });

  it('n = 2000, p = 1/2, tails, centre and a stride through the middle', () => {
    const n = 2000;
    const w = binomialWeights(n, 1n, 2n);
    const den = 2n ** BigInt(n);
    const ks = new Set<number>();
    for (let k = 0; k <= 20; k++) ks.add(k).add(n - k);
    for (let k = 900; k <= 1100; k++) ks.add(k);
    for (let k = 0; k <= n; k += 37) ks.add(k);
    for (const k of ks) expectMatches(binomTest(k, n), exactTwoSided(k, w, den), `binomTest(${k}, ${n})`);
  });

  it('n = 10,000, p = 1/2, a few k', () => {
    const n = 10_000;
    const w = binomialWeights(n, 1n, 2n);
    const den = 2n ** BigInt(n);
    for (const k of [0, 3, 4500, 4800, 4900, 4950, 4999, 5000, 5001, 5100, 5300, 9999]) {
      expectMatches(binomTest(k, n), exactTwoSided(k, w, den), `binomTest(${k}, ${n})`);
    }
  });
});

describe('binomTest input checks', () => {
  it('rejects invalid arguments with the argument name', () => {
    expect(() => binomTest(11, 10)).toThrow(/k \(11\) must not exceed n \(10\)/);
    expect(() => binomTest(-1, 10)).toThrow(/k must be a non-negative integer/);
    expect(() => binomTest(1.5, 10)).toThrow(/k must be/);
    expect(() => binomTest(1, 10, 1.2)).toThrow(/p must be in \[0, 1\]/);
    expect(() => binomTest(1, 10, 0.5, 'both' as never)).toThrow(/alternative/);
  });

  it('handles degenerate p like scipy', () => {
    expect(binomTest(0, 10, 0)).toBe(1);
    expect(binomTest(1, 10, 0)).toBe(0);
    expect(binomTest(10, 10, 1)).toBe(1);
    expect(binomTest(9, 10, 1)).toBe(0);
  });
});
