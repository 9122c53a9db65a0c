import { describe, expect, it } from 'vitest';
import { strategyIntervals, warmUpSummary, withIntervals } from '../../../harness/summary/intervals.ts';
import { latestRecords } from '../../../harness/run/store.ts';
import { repeatStats } from '../../../harness/summary/repeats.ts';
import { summarize } from '../../../harness/summary/summary.ts';
import { percentile } from '../../../harness/summary/percentile.ts';
import { wilson } from '../../../harness/stats/wilson.ts';
import { bootstrapCI } from '../../../harness/stats/bootstrap.ts';
import type { RunRecord } from '../../../harness/types.ts';
import { fixtureRecords, record } from './summaryFixture.ts';

const scored = (questionId: string, correct: number, f1: number, extra: Partial<RunRecord> = {}): RunRecord =>
  record({
    strategy: 's',
    questionId,
    scores: { correct, exactMatch: correct, f1, numericMatch: null, yesNo: null, choice: null },
    ...extra,
  });

describe('strategyIntervals', () => {
  it('uses the Wilson interval for accuracy (0/1 per record)', () => {
    const recs = Array.from({ length: 60 }, (_, i) => scored(`q${i}`, i < 37 ? 1 : 0, 0.5));
    const ci = strategyIntervals(recs, { seed: 1 });
    const w = wilson(37, 60);
    expect(ci.accuracy!.lo).toBe(w.lo);
    expect(ci.accuracy!.hi).toBe(w.hi);
    expect(ci.exactMatch).toEqual({ lo: w.lo, hi: w.hi });
  });

  it('keeps an honest interval when every answer is right (no collapse to [1, 1])', () => {
    const recs = Array.from({ length: 10 }, (_, i) => scored(`q${i}`, 1, 1));
    const ci = strategyIntervals(recs);
    expect(ci.accuracy!.hi).toBe(1);
    expect(ci.accuracy!.lo).toBeCloseTo(wilson(10, 10).lo, 15);
    expect(ci.accuracy!.lo).toBeLessThan(0.75);
  });

  it('puts the bootstrap interval of a mean where the normal theory puts it', () => {
    // F1 on an even grid over [0, 1]: mean 0.5, population sd sqrt((n+1)/(12(n-1))) ≈ 0.2894, n = 400.
    const n = 400;
    const recs = Array.from({ length: n }, (_, i) => scored(`q${i}`, 0, i / (n - 1)));
    const ci = strategyIntervals(recs, { seed: 3 }).f1!;
    const values = recs.map((r) => r.scores!.f1);
    const m = values.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(values.reduce((a, v) => a + (v - m) ** 2, 0) / n);
    const half = 1.959964 * (sd / Math.sqrt(n));
    expect(ci.lo).toBeCloseTo(m - half, 2);
    expect(ci.hi).toBeCloseTo(m + half, 2);
    expect(Math.abs(ci.lo - (m - half))).toBeLessThan(0.002);
    expect(Math.abs(ci.hi - (m + half))).toBeLessThan(0.002);
    // Exactly the stats module's seeded bootstrap of the same values.
    const direct = bootstrapCI(values, { seed: 3 });
    expect(ci.lo).toBeCloseTo(direct.lo, 12);
    expect(ci.hi).toBeCloseTo(direct.hi, 12);
  });

  it('is reproducible for a seed and moves with the seed', () => {
    const recs = Array.from({ length: 50 }, (_, i) => scored(`q${i}`, i % 3 === 0 ? 1 : 0, (i % 7) / 7, { calls: i % 5, latencyMs: 10 + ((i * 37) % 101) }));
    expect(strategyIntervals(recs, { seed: 42 })).toEqual(strategyIntervals(recs, { seed: 42 }));
    expect(strategyIntervals(recs, { seed: 42 }).f1).not.toEqual(strategyIntervals(recs, { seed: 43 }).f1);
  });

  it('bootstraps latency percentiles: the interval contains the sample percentile', () => {
    const recs = Array.from({ length: 80 }, (_, i) => scored(`q${i}`, 0, 0, { latencyMs: 50 + ((i * 53) % 97) * 3 }));
    const ci = strategyIntervals(recs, { seed: 5 });
    const lat = recs.map((r) => r.latencyMs);
    for (const [path, p] of [['latencyMs.p50', 50], ['latencyMs.p95', 95], ['latencyMs.p99', 99]] as const) {
      const v = percentile(lat, p);
      expect(ci[path]!.lo).toBeLessThanOrEqual(v);
      expect(ci[path]!.hi).toBeGreaterThanOrEqual(v);
    }
    expect(ci['latencyMs.p95']!.hi).toBeLessThanOrEqual(Math.max(...lat));
  });

  it('gives constant metrics a zero-width interval', () => {
    const recs = Array.from({ length: 20 }, (_, i) => scored(`q${i}`, i % 2, 0.5, { calls: 3 }));
    const ci = strategyIntervals(recs);
    expect(ci.callsPerQuestion).toEqual({ lo: 3, hi: 3 });
    expect(ci.f1).toEqual({ lo: 0.5, hi: 0.5 });
  });

  it('gives a [0, 1] score at one bound on every record a rate\'s interval, not [1, 1] or [0, 0]', () => {
    // Recall 1 on all 40 questions and F1 0 everywhere: as uncertain as 40/40 and 0/40 right.
    const recall = (v: number) => ({ recall: v, precision: v / 2, mrr: v, mrrUncut: v, ndcg: v });
    const recs = Array.from({ length: 40 }, (_, i) => scored(`q${i}`, i % 2, 0, { retrieval: { node: recall(1), page: null, doc: null, k: 10 } as RunRecord['retrieval'] }));
    const ci = strategyIntervals(recs, { seed: 1 });
    const all = wilson(40, 40);
    const none = wilson(0, 40);
    expect(ci['retrieval.node.recall']).toEqual({ lo: all.lo, hi: all.hi });
    expect(ci['retrieval.node.recall']!.lo).toBeLessThan(0.95);
    expect(ci.f1).toEqual({ lo: none.lo, hi: none.hi });
    expect(ci.f1!.hi).toBeGreaterThan(0.05);
    // A constant inside the bounds is still a constant (precision 0.5 everywhere), and so is a count.
    expect(ci['retrieval.node.precision']).toEqual({ lo: 0.5, hi: 0.5 });
    // With repeats, the questions are the units: Wilson over 40, not over 120 records.
    const tripled = [0, 1, 2].flatMap((repeat) => recs.map((r) => ({ ...r, repeat })));
    expect(strategyIntervals(tripled, { seed: 1 })['retrieval.node.recall']).toEqual({ lo: all.lo, hi: all.hi });
  });

  it('with repeats resamples whole questions (cluster bootstrap)', () => {
    const base = Array.from({ length: 40 }, (_, i) => scored(`q${i}`, i % 3 === 0 ? 1 : 0, (i % 9) / 9, { latencyMs: 20 + (i % 11) }));
    // The same outcomes three times: no new information about other questions.
    const tripled = [0, 1, 2].flatMap((repeat) => base.map((r) => ({ ...r, repeat })));
    const one = strategyIntervals(base, { seed: 9 });
    const three = strategyIntervals(tripled, { seed: 9 });
    // Identical clusters give the one-repeat bootstrap interval for means (same draws; only float rounding differs) ...
    expect(three.f1!.lo).toBeCloseTo(one.f1!.lo, 12);
    expect(three.f1!.hi).toBeCloseTo(one.f1!.hi, 12);
    expect(three['latencyMs.p50']!.lo).toBeCloseTo(one['latencyMs.p50']!.lo, 9);
    // ... and a rate interval as wide as 40 questions allow, not as narrow as 120 independent records would.
    const naive = wilson(tripled.filter((r) => r.scores!.correct === 1).length, tripled.length);
    expect(three.accuracy!.hi - three.accuracy!.lo).toBeGreaterThan((naive.hi - naive.lo) * 1.4);
  });
});

describe('withIntervals', () => {
  it('adds intervals and ci without changing any summary number', () => {
    const recs = fixtureRecords();
    const plain = summarize(recs);
    const withCi = withIntervals(plain, recs, { seed: 11, resamples: 2000 });
    expect(withCi.ci).toEqual({ level: 0.95, method: expect.any(String), resamples: 2000, seed: 11 });
    for (const [i, s] of withCi.strategies.entries()) {
      const { intervals, repeatStats: rs, ...rest } = s;
      expect(rest).toEqual(plain.strategies[i]);
      expect(intervals?.accuracy).toBeDefined();
      expect(intervals?.['retrieval.node.recall']).toBeDefined();
      void rs;
    }
    // The superseded tree/q2 error record is not resampled: tree has two records, both correct.
    expect(withCi.strategies[1]!.intervals!.accuracy!.hi).toBe(1);
    // vector has a repeat of q1: clustered method, and repeat statistics.
    expect(withCi.ci!.method).toMatch(/cluster/);
    expect(withCi.strategies[0]!.repeatStats).toBeDefined();
    expect(withCi.strategies[1]!.repeatStats).toBeUndefined();
  });

  it('every interval contains its point estimate', () => {
    const recs = Array.from({ length: 30 }, (_, i) =>
      scored(`q${i}`, i % 4 === 0 ? 1 : 0, (i % 5) / 5, { calls: 1 + (i % 3), inputTokens: 100 + i, costUsd: 0.001 * (1 + (i % 2)), latencyMs: 5 + i }),
    );
    const s = withIntervals(summarize(recs), recs, { seed: 1 }).strategies[0]!;
    for (const [path, ci] of Object.entries(s.intervals!)) {
      const value = path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], s) as number;
      if (typeof value !== 'number') continue;
      expect(ci!.lo, path).toBeLessThanOrEqual(value + 1e-12);
      expect(ci!.hi, path).toBeGreaterThanOrEqual(value - 1e-12);
    }
  });
});

describe('repeatStats', () => {
  it('gives per-repeat accuracy, its spread and the flaky questions', () => {
    const outcomes = [
      [1, 1, 0, 0], // repeat 0: q1..q4
      [1, 0, 0, 1],
      [1, 1, 0, 0],
    ];
    const recs = outcomes.flatMap((row, repeat) => row.map((c, i) => ({ ...scored(`q${i + 1}`, c, c), repeat })));
    const r = repeatStats(recs)!;
    expect(r.repeats).toBe(3);
    expect(r.perRepeat.map((p) => p.accuracy)).toEqual([0.5, 0.5, 0.5]);
    expect(r.accuracy.mean).toBe(0.5);
    expect(r.accuracy.sd).toBe(0);
    expect(r.questionsRepeated).toBe(4);
    expect(r.flaky).toEqual([
      { questionId: 'q2', correct: 2, repeats: 3 },
      { questionId: 'q4', correct: 1, repeats: 3 },
    ]);
  });

  it('sample sd across repeats; null with one repeat', () => {
    const recs = [
      ...[1, 1, 1, 1].map((c, i) => scored(`q${i}`, c, c)),
      ...[1, 0, 0, 1].map((c, i) => ({ ...scored(`q${i}`, c, c), repeat: 1 })),
    ];
    const r = repeatStats(recs)!;
    expect(r.accuracy.mean).toBe(0.75);
    expect(r.accuracy.sd).toBeCloseTo(Math.sqrt(((1 - 0.75) ** 2 + (0.5 - 0.75) ** 2) / 1), 15);
    expect(repeatStats(recs.filter((x) => x.repeat === 0))).toBeNull();
  });

  it('latestRecords drops superseded records like summarize', () => {
    const recs = fixtureRecords();
    expect(latestRecords(recs)).toHaveLength(summarize(recs).records);
  });
});

describe('judge agreement interval: the run seed, the run resamples, questions resampled', () => {
  it('withIntervals gives kappa the same cluster bootstrap as every other interval', async () => {
    const { record } = await import('./summaryFixture.ts');
    const { cohensKappa } = await import('../../../harness/stats/kappa.ts');
    const { summarize } = await import('../../../harness/summary/summary.ts');
    const { withIntervals } = await import('../../../harness/summary/intervals.ts');
    const rule = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 1 : 0));
    const llm = rule.map((v, i) => (i % 5 === 0 ? 1 - v : v));
    const records = [0, 1, 2].flatMap((repeat) =>
      rule.map((v, i) =>
        record({
          strategy: 'vector',
          questionId: `q${i}`,
          repeat,
          scores: { exactMatch: v, f1: v, numericMatch: null, yesNo: null, choice: null, correct: v },
          judge: { correct: llm[i] as 0 | 1, reason: '', model: 'judge', prompt: 'default', calls: [] },
        }),
      ),
    );
    const s = withIntervals(summarize(records), records, { seed: 11, resamples: 3000 }).strategies[0]!;
    const expected = cohensKappa(rule, llm, { seed: 11, resamples: 3000 });
    expect(s.judge!.agreement!.kappa).toBeCloseTo(expected.kappa, 12);
    expect(s.judge!.agreement!.lo).toBeCloseTo(expected.lo, 12);
    expect(s.judge!.agreement!.hi).toBeCloseTo(expected.hi, 12);
    expect(s.judge!.agreement!.clusters).toBe(30);
    // summarize alone gives kappa without an interval (no seed to draw with).
    expect(Number.isNaN(summarize(records).strategies[0]!.judge!.agreement!.lo)).toBe(true);
  });
});

describe('warmUpSummary', () => {
  it('changes neither the records it is given nor the summary made after it', () => {
    const recs = [...fixtureRecords(), ...Array.from({ length: 80 }, (_, i) => scored(`w${i}`, i % 2, (i % 5) / 4, { latencyMs: 20 + ((i * 31) % 89), custom: { tone: (i % 3) / 2 } }))];
    const before = structuredClone(recs);
    const summary = withIntervals(summarize(recs), recs, { seed: 7 });
    warmUpSummary(recs);
    expect(recs).toEqual(before);
    expect(withIntervals(summarize(recs), recs, { seed: 7 })).toEqual(summary);
  });
});

