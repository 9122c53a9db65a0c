import { describe, it, expect } from 'vitest';
import { wilson } from '../../../harness/stats/wilson.ts';
import { normalQuantile } from '../../../harness/stats/normal.ts';

describe('normalQuantile (AS 241)', () => {
  // scipy.stats.norm.ppf values
  const known: Array<[number, number]> = [
    [0.975, 1.959963984540054],
    [0.995, 2.5758293035489004],
    [0.95, 1.6448536269514722],
    [0.9, 1.2815515655446004],
    [0.025, -1.9599639845400545],
    [1e-10, -6.361340902404056],
    [0.999999, 4.753424308817087],
    [1e-300, -37.0470962993612],
  ];
  it.each(known)('Phi^-1(%d)', (p, z) => {
    expect(Math.abs(normalQuantile(p) - z)).toBeLessThanOrEqual(2e-15 * Math.abs(z));
  });

  it('is 0 at 1/2, odd around 1/2, and infinite at the ends', () => {
    expect(normalQuantile(0.5)).toBe(0);
    // Dyadic tails so that 1 - p is exact (otherwise its rounding, amplified by 1 / phi(z), dominates).
    for (const p of [0.1, 0.3, 0.01, 2 ** -10, 2 ** -20, 2 ** -40]) {
      expect(normalQuantile(p)).toBeCloseTo(-normalQuantile(1 - p), 12);
    }
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(() => normalQuantile(1.5)).toThrow(RangeError);
    expect(() => normalQuantile(Number.NaN)).toThrow(RangeError);
  });

  it('is strictly increasing across the region boundaries', () => {
    let prev = -Infinity;
    for (const p of [1e-15, 1e-12, 1.4e-11, 1.5e-11, 0.001, 0.0749, 0.075, 0.0751, 0.5, 0.9249, 0.925, 0.9251, 0.99999]) {
      const z = normalQuantile(p);
      expect(z).toBeGreaterThan(prev);
      prev = z;
    }
  });
});

describe('wilson', () => {
  it('matches known values: 8/10 -> [0.4901625, 0.9433178]', () => {
    const w = wilson(8, 10);
    expect(w.estimate).toBe(0.8);
    expect(Math.abs(w.lo - 0.4901625)).toBeLessThan(1e-6);
    expect(Math.abs(w.hi - 0.9433178)).toBeLessThan(1e-6);
  });

  it('0/n has lo = 0 and hi = z^2 / (n + z^2); n/n mirrors it', () => {
    const z2 = 1.959963984540054 ** 2;
    const w0 = wilson(0, 10);
    expect(w0.lo).toBe(0);
    expect(w0.hi).toBeCloseTo(z2 / (10 + z2), 12);
    const w1 = wilson(10, 10);
    expect(w1.hi).toBe(1);
    expect(w1.lo).toBeCloseTo(1 - z2 / (10 + z2), 12);
  });

  it('bounds solve the score equation (phat - p)^2 = z^2 p (1 - p) / n', () => {
    for (const [s, n, alpha] of [[3, 17, 0.05], [50, 200, 0.1], [1, 1000, 0.01], [999, 1000, 0.05]] as const) {
      const z = normalQuantile(1 - alpha / 2);
      const w = wilson(s, n, alpha);
      const phat = s / n;
      for (const p of [w.lo, w.hi]) {
        expect((phat - p) ** 2).toBeCloseTo((z * z * p * (1 - p)) / n, 12);
      }
      expect(w.lo).toBeLessThan(phat);
      expect(w.hi).toBeGreaterThan(phat);
    }
  });

  it('is symmetric under successes <-> failures and narrows with larger alpha', () => {
    const a = wilson(3, 20);
    const b = wilson(17, 20);
    expect(a.lo).toBeCloseTo(1 - b.hi, 14);
    expect(a.hi).toBeCloseTo(1 - b.lo, 14);
    const narrow = wilson(3, 20, 0.2);
    expect(narrow.hi - narrow.lo).toBeLessThan(a.hi - a.lo);
  });

  it('n = 0 gives the uninformative interval; bad input throws naming the argument', () => {
    const w = wilson(0, 0);
    expect(w.estimate).toBeNaN();
    expect([w.lo, w.hi]).toEqual([0, 1]);
    expect(() => wilson(11, 10)).toThrow(/successes \(11\) must not exceed n \(10\)/);
    expect(() => wilson(-1, 10)).toThrow(/successes/);
    expect(() => wilson(1, 10, 0)).toThrow(/alpha/);
    expect(() => wilson(1, 2.5)).toThrow(/n must be/);
  });
});
