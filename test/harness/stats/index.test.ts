import { describe, it, expect } from 'vitest';
import * as stats from '../../../harness/stats/index.ts';

describe('harness/stats index', () => {
  it('re-exports the public API', () => {
    for (const name of [
      'createRng', 'Xoshiro128', 'mean', 'summaryStats', 'quantileSorted', 'bootstrapCI', 'pairedBootstrapDiff',
      'normalQuantile', 'wilson', 'binomTest', 'binomialPmf', 'lnGamma', 'logChoose', 'mcnemarExact',
      'pairedPermutation', 'holm',
    ]) {
      expect(typeof (stats as Record<string, unknown>)[name]).toBe('function');
    }
  });

  it('end to end: comparing two runs on the same questions', () => {
    // A: 70/100 correct; B: fixes 12 of A's misses and breaks 2 of its hits.
    const a = Array.from({ length: 100 }, (_, i) => i < 70);
    const b = a.map((ok, i) => (i >= 70 && i < 82 ? true : i < 2 ? false : ok));
    const mc = stats.mcnemarExact(a.map((x, i) => [x, b[i]] as [boolean, boolean]));
    expect(mc).toMatchObject({ b: 2, c: 12, wins: 12, losses: 2 });
    expect(mc.p).toBeCloseTo(stats.binomTest(2, 14), 15);
    expect(mc.p).toBeLessThan(0.05);
    const acc = stats.wilson(b.filter(Boolean).length, b.length);
    expect(acc.estimate).toBe(0.8);
    const diff = stats.pairedBootstrapDiff(a.map(Number), b.map(Number), { seed: 1 });
    expect(diff.delta).toBeCloseTo(0.1, 15);
    expect(diff.lo).toBeGreaterThan(0);
    const [pAdj] = stats.holm([mc.p, 0.2, 0.5]);
    expect(pAdj).toBeCloseTo(Math.min(1, 3 * mc.p), 15);
  });
});
