import { describe, expect, it } from 'vitest';
import { cohensKappa } from '../../../harness/stats/kappa.ts';

const expand = (cells: Array<[number, number, number]>) => {
  const a: number[] = [];
  const b: number[] = [];
  for (const [x, y, n] of cells) for (let i = 0; i < n; i++) (a.push(x), b.push(y));
  return { a, b };
};

describe("Cohen's kappa", () => {
  it('matches the textbook example (Wikipedia, "Cohen\'s kappa"; sklearn cohen_kappa_score gives 0.4)', () => {
    // 50 items: both yes 20, A yes B no 5, A no B yes 10, both no 15 → po 0.7, pe 0.5, κ 0.4.
    const { a, b } = expand([[1, 1, 20], [1, 0, 5], [0, 1, 10], [0, 0, 15]]);
    const k = cohensKappa(a, b, { seed: 1 });
    expect(k.kappa).toBeCloseTo(0.4, 12);
    expect(k.agree).toBeCloseTo(0.7, 12);
    expect(k.lo).toBeLessThan(0.4);
    expect(k.hi).toBeGreaterThan(0.4);
    expect(k.lo).toBeGreaterThan(0);
  });

  it('is 1 for perfect agreement, about −1 for systematic disagreement, NaN when undefined', () => {
    expect(cohensKappa([1, 0, 1, 0], [1, 0, 1, 0]).kappa).toBe(1);
    expect(cohensKappa([1, 0, 1, 0], [0, 1, 0, 1]).kappa).toBe(-1);
    expect(cohensKappa([1, 1, 1], [1, 1, 1]).kappa).toBeNaN();
    expect(() => cohensKappa([1], [1, 0])).toThrow(/length/);
  });
});

describe("Cohen's kappa over clusters (repeats of one question resampled together)", () => {
  it('with identical repeats, the cluster interval is the interval over questions; over records it would be narrower', () => {
    // 40 questions, rule vs judge verdicts; each question answered 3 times with the same verdicts.
    const qa = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? 0 : 1));
    const qb = qa.map((v, i) => (i % 7 === 0 ? 1 - v : v));
    const a = qa.flatMap((v) => [v, v, v]);
    const b = qb.flatMap((v) => [v, v, v]);
    const clusters = qa.flatMap((_, i) => [`q${i}`, `q${i}`, `q${i}`]);
    const byQuestion = cohensKappa(qa, qb, { seed: 7, resamples: 4000 });
    const clustered = cohensKappa(a, b, { seed: 7, resamples: 4000, clusters });
    expect(clustered.kappa).toBeCloseTo(byQuestion.kappa, 12);
    expect(clustered.lo).toBeCloseTo(byQuestion.lo, 12);
    expect(clustered.hi).toBeCloseTo(byQuestion.hi, 12);
    expect(clustered).toMatchObject({ n: 120, clusters: 40 });
    const naive = cohensKappa(a, b, { seed: 7, resamples: 4000 });
    expect(naive.hi - naive.lo).toBeLessThan(0.8 * (clustered.hi - clustered.lo));
  });
});
