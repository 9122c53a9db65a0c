import { describe, expect, it } from 'vitest';
import { comparePaired, compareMetric, pairQuestions, perQuestion } from '../../../../harness/analysis/compare/paired.ts';
import { binomTest } from '../../../../harness/stats/binomial.ts';
import { holm } from '../../../../harness/stats/holm.ts';
import { resolveMetric, higherIsBetter } from '../../../../harness/analysis/compare/metrics.ts';
import type { RunRecord } from '../../../../harness/types.ts';
import { records, type Outcome } from './runFixtures.ts';

/** A and B outcomes for a 2x2 table: both right, A only, B only, both wrong. */
function table(bothRight: number, aOnly: number, bOnly: number, bothWrong: number): [RunRecord[], RunRecord[]] {
  const a: Outcome[] = [];
  const b: Outcome[] = [];
  const push = (n: number, ca: 0 | 1, cb: 0 | 1) => {
    for (let i = 0; i < n; i++) {
      a.push({ correct: ca });
      b.push({ correct: cb });
    }
  };
  push(bothRight, 1, 1);
  push(aOnly, 1, 0);
  push(bOnly, 0, 1);
  push(bothWrong, 0, 0);
  return [records('A', 's', a), records('B', 's', b)];
}

// scipy.stats.binomtest(k, n, 0.5).pvalue (scipy 1.17.1), the reference the issue names.
const SCIPY: Array<[number, number, number]> = [
  [3, 13, 0.09228515625],
  [2, 12, 0.03857421875],
  [10, 30, 0.09873714670538905],
  [0, 5, 0.0625],
  [7, 25, 0.043285250663757324],
  [15, 40, 0.1538599441628321],
];

describe('compareMetric: correct/incorrect uses McNemar exact', () => {
  it('agrees with binomTest and with scipy binomtest to 1e-9', () => {
    for (const [k, n, ref] of SCIPY) {
      // k discordant pairs favour A (A right, B wrong), n - k favour B.
      const [a, b] = table(20, k, n - k, 7);
      const m = compareMetric(a, b, 'accuracy', { seed: 1 });
      expect(m.test).toBe('mcnemar');
      expect(m.discordant).toEqual({ aOnly: k, bOnly: n - k });
      expect(Math.abs(m.p - ref)).toBeLessThan(1e-9);
      expect(m.p).toBe(binomTest(k, n, 0.5));
      expect(m).toMatchObject({ wins: n - k, losses: k, ties: 27, n: 27 + n });
    }
  });

  it('reports means, the delta with a paired interval, and significance', () => {
    const [a, b] = table(30, 12, 1, 17); // A 42/60, B 31/60
    const m = compareMetric(a, b, 'accuracy', { seed: 3 });
    expect(m.a).toBeCloseTo(42 / 60, 15);
    expect(m.b).toBeCloseTo(31 / 60, 15);
    expect(m.delta).toBeCloseTo(-11 / 60, 15);
    expect(m.lo).toBeLessThan(m.delta);
    expect(m.hi).toBeGreaterThan(m.delta);
    expect(m.hi).toBeLessThan(0);
    expect(m.p).toBeCloseTo(binomTest(12, 13, 0.5), 15);
    expect(m.significant).toBe(true);
    expect(m.direction).toBe('worse');
    expect(m.rel!.delta).toBeCloseTo(31 / 42 - 1, 12);
  });

  it('two identical runs: delta 0, p 1, not significant', () => {
    const [a] = table(20, 5, 5, 10);
    const m = compareMetric(a, a.map((r) => ({ ...r, runId: 'B' })), 'accuracy');
    expect(m).toMatchObject({ delta: 0, lo: 0, hi: 0, p: 1, significant: false, direction: 'same', wins: 0, losses: 0, ties: 40 });
  });
});

describe('pairing', () => {
  it('excludes and reports questions present on one side only', () => {
    const a = records('A', 's', [{ correct: 1 }, { correct: 1 }, { correct: 0 }]); // q1..q3
    const b = records('B', 's', [{ correct: 1 }, { correct: 0 }], 'q').concat(records('B', 's', [{ correct: 1 }], 'x'));
    expect(pairQuestions(a, b)).toEqual({ paired: 2, onlyBaseline: ['q3'], onlyCandidate: ['x1'] });
    const m = compareMetric(a, b, 'accuracy');
    expect(m.n).toBe(2);
    expect(m.a).toBe(1);
    expect(m.b).toBe(0.5);
  });

  it('averages repeats per question, and then tests with the permutation test', () => {
    const a = [0, 1, 2].flatMap((repeat) => records('A', 's', [{ correct: 1, repeat }, { correct: 0, repeat }]));
    const b = [0, 1, 2].flatMap((repeat) => records('B', 's', [{ correct: repeat === 0 ? 0 : 1, repeat }, { correct: 0, repeat }]));
    expect(perQuestion(b, 'accuracy')).toEqual(new Map([['q1', 2 / 3], ['q2', 0]]));
    const m = compareMetric(a, b, 'accuracy');
    expect(m.n).toBe(2);
    expect(m.test).toBe('permutation');
    expect(m.delta).toBeCloseTo(-1 / 6, 15);
  });
});

describe('continuous and lower-is-better metrics', () => {
  it('counts wins for the candidate when it uses fewer calls', () => {
    const a = records('A', 's', Array.from({ length: 20 }, (_, i) => ({ correct: 1 as const, calls: 4 + (i % 3) })));
    const b = records('B', 's', Array.from({ length: 20 }, (_, i) => ({ correct: 1 as const, calls: i < 15 ? 2 : 4 + (i % 3) })));
    const m = compareMetric(a, b, 'callsPerQuestion', { seed: 2 });
    expect(higherIsBetter('callsPerQuestion')).toBe(false);
    expect(m.test).toBe('permutation');
    expect(m.wins).toBe(15);
    expect(m.ties).toBe(5);
    expect(m.losses).toBe(0);
    expect(m.direction).toBe('better');
    expect(m.significant).toBe(true);
    expect(m.delta).toBeLessThan(0);
  });

  it('compares latency p95 with a paired bootstrap', () => {
    const lat = (i: number) => 100 + ((i * 37) % 50);
    const a = records('A', 's', Array.from({ length: 60 }, (_, i) => ({ correct: 1 as const, latency: lat(i) })));
    const b = records('B', 's', Array.from({ length: 60 }, (_, i) => ({ correct: 1 as const, latency: lat(i) * 1.5 })));
    const m = compareMetric(a, b, 'latencyMs.p95', { seed: 4 });
    expect(m.test).toBe('bootstrap');
    expect(m.rel!.delta).toBeCloseTo(0.5, 12);
    expect(m.rel!.lo).toBeGreaterThan(0.3);
    expect(m.significant).toBe(true);
    expect(m.direction).toBe('worse');
  });

  it('resolves aliases against the retrieval level', () => {
    expect(resolveMetric('evidenceRecall', 'page')).toBe('retrieval.page.recall');
    expect(resolveMetric('latencyP95', 'node')).toBe('latencyMs.p95');
    expect(resolveMetric('docNdcg', 'node')).toBe('retrieval.doc.ndcg');
    expect(resolveMetric('nope', 'node')).toBeNull();
  });
});

describe('comparePaired', () => {
  it('Holm-adjusts every strategy × metric together', () => {
    const [a1, b1] = table(20, 9, 1, 10);
    const [a2, b2] = table(20, 3, 3, 10);
    const result = comparePaired(
      [
        { label: 'x', baseline: { run: 'A', strategy: 'x' }, candidate: { run: 'B', strategy: 'x' }, a: a1, b: b1 },
        { label: 'y', baseline: { run: 'A', strategy: 'y' }, candidate: { run: 'B', strategy: 'y' }, a: a2, b: b2 },
      ],
      () => ['accuracy', 'f1', 'callsPerQuestion'],
      { seed: 5 },
    );
    const all = result.comparisons.flatMap((c) => c.metrics);
    expect(all).toHaveLength(6);
    const expected = holm(all.map((m) => m.p));
    all.forEach((m, i) => expect(m.pAdjusted).toBe(expected[i]));
    expect(all[0]!.pAdjusted).toBeGreaterThan(all[0]!.p);
    expect(result.correction).toBe('holm');
  });

  it('correction none leaves p as is', () => {
    const [a, b] = table(20, 9, 1, 10);
    const r = comparePaired([{ label: 'x', baseline: { run: 'A', strategy: 'x' }, candidate: { run: 'B', strategy: 'x' }, a, b }], () => ['accuracy', 'f1'], {
      correction: 'none',
    });
    for (const m of r.comparisons[0]!.metrics) expect(m.pAdjusted).toBe(m.p);
  });
});
