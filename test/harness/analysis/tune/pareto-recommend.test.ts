import { describe, expect, it } from 'vitest';
import { paretoFrontier } from '../../../../harness/summary/pareto.ts';
import { pairedWorseTest, recommend } from '../../../../harness/analysis/tune/recommend.ts';
import { variantSnippet } from '../../../../harness/analysis/tune/snippet.ts';
import { holm } from '../../../../harness/stats/holm.ts';
import type { RunRecord } from '../../../../harness/types.ts';
import { record as fixtureRecord } from '../../summary/summaryFixture.ts';

type P = { id: string; c: number; v: number };
const ids = (ps: P[]) => ps.map((p) => p.id);
const front = (ps: P[]) => ids(paretoFrontier(ps, (p) => p.c, (p) => p.v));

describe('paretoFrontier', () => {
  it('keeps the non-dominated points, cheapest first', () => {
    const pts: P[] = [
      { id: 'a', c: 3, v: 0.9 },
      { id: 'b', c: 1, v: 0.5 },
      { id: 'c', c: 2, v: 0.4 }, // dominated by b (cheaper and better)
      { id: 'd', c: 2, v: 0.7 },
      { id: 'e', c: 4, v: 0.9 }, // dominated by a (same value, dearer)
    ];
    expect(front(pts)).toEqual(['b', 'd', 'a']);
  });

  it('equal cost: only the better one; exact duplicates both stay', () => {
    expect(front([{ id: 'x', c: 1, v: 0.5 }, { id: 'y', c: 1, v: 0.6 }])).toEqual(['y']);
    expect(front([{ id: 'x', c: 1, v: 0.5 }, { id: 'y', c: 1, v: 0.5 }])).toEqual(['x', 'y']);
  });

  it('matches a brute-force definition on random points (independent reference)', () => {
    let s = 7;
    const rnd = () => ((s = (s * 16807) % 2147483647) / 2147483647);
    for (let t = 0; t < 50; t++) {
      const pts: P[] = Array.from({ length: 12 }, (_, i) => ({ id: `p${i}`, c: Math.round(rnd() * 5), v: Math.round(rnd() * 5) }));
      const brute = pts.filter((p) => !pts.some((q) => q !== p && q.c <= p.c && q.v >= p.v && (q.c < p.c || q.v > p.v)));
      expect(new Set(front(pts))).toEqual(new Set(ids(brute)));
      const got = paretoFrontier(pts, (p) => p.c, (p) => p.v);
      for (let i = 1; i < got.length; i++) expect(got[i].c).toBeGreaterThanOrEqual(got[i - 1].c);
    }
  });

  it('leaves out points with a non-finite cost or value', () => {
    expect(front([{ id: 'a', c: NaN, v: 1 }, { id: 'b', c: 1, v: 0 }])).toEqual(['b']);
  });
});

/** Records for one variant: correct[i] for question i, fixed cost and calls per question. */
function records(id: string, correct: boolean[], costUsd: number, calls: number): RunRecord[] {
  return correct.map((ok, i) =>
    fixtureRecord({
      runId: 'r',
      strategy: id,
      questionId: `q${i}`,
      question: '?',
      answer: ok ? 'yes' : 'no',
      gold: ['yes'],
      scores: { exactMatch: ok ? 1 : 0, f1: ok ? 1 : 0, numericMatch: null, yesNo: null, choice: null, correct: ok ? 1 : 0 },
      calls,
      inputTokens: 100 * calls,
      outputTokens: 10,
      costUsd,
      latencyMs: 100 * calls,
      finishedAt: '',
    }),
  );
}
const pattern = (n: number, right: number) => Array.from({ length: n }, (_, i) => i < right);

describe('pairedWorseTest', () => {
  it('binary objective, no margin: exact one-sided McNemar (reference by hand)', () => {
    // 10 questions only the best gets, 2 only the variant gets: P(X >= 10 | n = 12, 1/2) = 79/4096.
    const best = [...Array(10).fill(1), ...Array(2).fill(0), ...Array(5).fill(1)];
    const variant = [...Array(10).fill(0), ...Array(2).fill(1), ...Array(5).fill(1)];
    const r = pairedWorseTest(best, variant, 0);
    expect(r.test).toBe('mcnemar');
    expect(r.p).toBeCloseTo(79 / 4096, 12);
  });

  it('a variant better than the best is never significantly worse', () => {
    expect(pairedWorseTest([0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1], 0).p).toBeCloseTo(1, 10);
    expect(pairedWorseTest([0.1, 0.2, 0.1], [0.9, 0.8, 0.7], 0.01).p).toBeGreaterThan(0.5);
  });
});

describe('recommend', () => {
  it('recommends the cheapest variant not significantly worse than the best (a careful reader agrees)', () => {
    const n = 100;
    const byVariant = new Map([
      ['expensive-best', records('expensive-best', pattern(n, 90), 0.01, 10)],
      ['mid', records('mid', pattern(n, 86), 0.005, 5)], // 4 points lower on 100 questions: not shown worse
      ['cheap-bad', records('cheap-bad', pattern(n, 50), 0.001, 1)], // 40 points lower: clearly worse
    ]);
    const rec = recommend(byVariant, { priced: true });
    expect(rec.best).toBe('expensive-best');
    expect(rec.recommended).toBe('mid');
    const bad = rec.comparisons.find((c) => c.id === 'cheap-bad')!;
    expect(bad.significantlyWorse).toBe(true);
    expect(rec.comparisons.find((c) => c.id === 'mid')!.significantlyWorse).toBe(false);
    // Holm over the family, checked against the reference implementation.
    expect(rec.comparisons.map((c) => c.pAdjusted)).toEqual(holm(rec.comparisons.map((c) => c.p)));
    // The frontier of accuracy against $/question has all three (each cheaper one is worse).
    expect(rec.frontier.dollars).toEqual(['cheap-bad', 'mid', 'expensive-best']);
  });

  it('counter-example: with many questions a 4-point shortfall is significant; a margin tolerates it', () => {
    const n = 2000;
    // Paired: the cheap one misses 80 questions the best gets (and gets none the best misses).
    const best = pattern(n, 1800);
    const cheap = pattern(n, 1720);
    const byVariant = new Map([
      ['best', records('best', best, 0.01, 10)],
      ['cheap', records('cheap', cheap, 0.001, 1)],
    ]);
    expect(recommend(byVariant, { priced: true }).recommended).toBe('best');
    expect(recommend(byVariant, { priced: true, margin: 0.05 }).recommended).toBe('cheap');
  });

  it('unpriced: cheapest means fewest calls; variants that missed questions are left out', () => {
    const byVariant = new Map([
      ['a', records('a', pattern(40, 30), 0, 8)],
      ['b', records('b', pattern(40, 30), 0, 2)],
      ['partial', records('partial', pattern(10, 10), 0, 1)],
    ]);
    const rec = recommend(byVariant, { priced: false });
    expect(rec.costBasis).toBe('calls');
    expect(rec.recommended).toBe('b');
    expect(rec.partial).toEqual(['partial']);
    expect(rec.frontier.dollars).toBeNull();
  });
});

describe('variantSnippet', () => {
  it('writes only what differs from the strategy defaults and the run budget', () => {
    const yaml = variantSnippet({ strategy: 'hybrid-beam', params: { beamWidth: 5, maxCalls: 20, maxRounds: 4 }, budget: { calls: 24, tokens: 20000 } }, { calls: 24 });
    expect(yaml).toBe(['strategies:', '  - strategy: hybrid-beam', '    params:', '      beamWidth: 5', '    budget:', '      tokens: 20000'].join('\n'));
  });
});
