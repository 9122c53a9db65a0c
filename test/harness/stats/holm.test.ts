import { describe, it, expect } from 'vitest';
import { holm } from '../../../harness/stats/holm.ts';

describe('holm', () => {
  it('worked example: [0.01, 0.04, 0.03, 0.005] -> [0.03, 0.06, 0.06, 0.02]', () => {
    // sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> running max 0.06
    const adj = holm([0.01, 0.04, 0.03, 0.005]);
    const want = [0.03, 0.06, 0.06, 0.02];
    adj.forEach((v, i) => expect(v).toBeCloseTo(want[i], 15));
  });

  it('matches R p.adjust(c(0.01, 0.02, 0.03, 0.04, 0.05), "holm")', () => {
    const want = [0.05, 0.08, 0.09, 0.09, 0.09];
    holm([0.01, 0.02, 0.03, 0.04, 0.05]).forEach((v, i) => expect(v).toBeCloseTo(want[i], 15));
  });

  it('caps at 1, keeps order-monotonicity, and never lowers a p-value', () => {
    const p = [0.5, 0.001, 0.2, 0.6, 0.01, 0.01];
    const adj = holm(p);
    expect(adj.every((v) => v <= 1)).toBe(true);
    expect(adj[0]).toBe(1); // 0.5 * 3 capped
    p.forEach((v, i) => expect(adj[i]).toBeGreaterThanOrEqual(v));
    for (let i = 0; i < p.length; i++) {
      for (let j = 0; j < p.length; j++) if (p[i] <= p[j]) expect(adj[i]).toBeLessThanOrEqual(adj[j]);
    }
    expect(adj[4]).toBe(adj[5]); // tied inputs, tied outputs
  });

  it('handles empty and single inputs and rejects non-probabilities', () => {
    expect(holm([])).toEqual([]);
    expect(holm([0.03])).toEqual([0.03]);
    expect(() => holm([0.1, Number.NaN])).toThrow(/pValues\[1\]/);
    expect(() => holm([1.2])).toThrow(/pValues\[0\]/);
  });
});
