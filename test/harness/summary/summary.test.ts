import { describe, expect, it } from 'vitest';
import {
  flattenStrategySummary,
  intervalPaths,
  MEAN_METRIC_PATHS,
  METRIC_PATHS,
  metricValue,
  recordValues,
  summarize,
} from '../../../harness/summary/summary.ts';
import { mean } from '../../../harness/summary/percentile.ts';
import { fixtureRecords, record } from './summaryFixture.ts';

describe('summarize', () => {
  const summary = summarize(fixtureRecords());
  const [vector, tree] = summary.strategies;

  it('groups by strategy in first-seen order and drops superseded records', () => {
    expect(summary.strategies.map((s) => s.strategy)).toEqual(['vector', 'tree']);
    expect(summary.runIds).toEqual(['run-1']);
    expect(summary.records).toBe(6);
    expect(summary.superseded).toBe(1);
    expect(summary.questions).toBe(3);
  });

  it('vector: counts, answers (the error record counts as wrong)', () => {
    expect(vector).toMatchObject({ strategy: 'vector', records: 4, questions: 3, repeats: 2 });
    expect(vector!.accuracy).toBe(0.5); // (1 + 0 + 0 + 1) / 4
    expect(vector!.exactMatch).toBe(0.5);
    expect(vector!.f1).toBe(0.625); // (1 + 0.5 + 0 + 1) / 4
    expect(vector!.numericMatch).toBeCloseTo(2 / 3, 15); // q1, q3 (error, gold "$5 million"), q1#2
    expect(vector!.numericN).toBe(3);
    expect(vector!.yesNo).toBe(0);
    expect(vector!.yesNoN).toBe(1);
    expect(vector!.errors).toBe(1);
  });

  it('vector: retrieval means over non-null records only, with n', () => {
    const node = vector!.retrieval.node!;
    expect(node.n).toBe(3);
    expect(node.recall).toBeCloseTo(2 / 3, 15);
    expect(node.precision).toBeCloseTo(0.5, 15);
    expect(node.mrr).toBeCloseTo(2 / 3, 15);
    expect(node.ndcg).toBeCloseTo(2 / 3, 15);
    expect(vector!.retrieval.page).toBeNull();
    expect(vector!.retrieval.doc).toMatchObject({ n: 3, recall: 1, mrr: 1, ndcg: 1 });
    expect(vector!.retrieval.doc!.precision).toBeCloseTo(5 / 6, 15);
  });

  it('vector: efficiency over every record, errors included', () => {
    expect(vector!.callsPerQuestion).toBe(2.25);
    expect(vector!.embedCallsPerQuestion).toBe(0.75);
    expect(vector!.inputTokensPerQuestion).toBe(137.5);
    expect(vector!.outputTokensPerQuestion).toBe(20);
    expect(vector!.tokensPerQuestion).toBe(157.5);
    expect(vector!.costPerQuestion).toBeCloseTo(0.01375, 15);
    expect(vector!.totalCost).toBeCloseTo(0.055, 15);
    expect(vector!.evidenceTokensPerQuestion).toBe(75);
    // latencies [100, 300, 50, 200] → sorted [50, 100, 200, 300]
    expect(vector!.latencyMs.mean).toBe(162.5);
    expect(vector!.latencyMs.p50).toBe(150);
    expect(vector!.latencyMs.p95).toBeCloseTo(285, 10);
    expect(vector!.latencyMs.p99).toBeCloseTo(297, 10);
    expect(vector!.budgetExhausted).toMatchObject({ calls: 1, tokens: 0, timeMs: 0 });
    expect(vector!.budgetExhaustedRecords).toBe(1);
    expect(vector!.parseFailures).toBe(1);
    expect(vector!.cacheHitRate).toBeCloseTo(1 / 3, 15);
  });

  it('tree: the retried record replaces the failed one', () => {
    expect(tree).toMatchObject({ records: 2, questions: 2, repeats: 1, errors: 0, accuracy: 1, exactMatch: 0.5 });
    expect(tree!.f1).toBeCloseTo(0.9, 15);
    expect(tree!.numericMatch).toBe(1);
    expect(tree!.numericN).toBe(1);
    expect(tree!.yesNo).toBe(1);
    expect(tree!.retrieval.node).toEqual({ n: 1, recall: 1, precision: 1, mrr: 1, mrrUncut: null, ndcg: 1 });
    expect(tree!.retrieval.page).toEqual({ n: 1, recall: 0.5, precision: 0.25, mrr: 0.5, mrrUncut: null, ndcg: 0.6 });
    expect(tree!.callsPerQuestion).toBe(4);
    expect(tree!.tokensPerQuestion).toBe(825);
    expect(tree!.latencyMs).toEqual({ mean: 750, p50: 750, p95: 975, p99: 995 });
    expect(tree!.nodesVisitedPerQuestion).toBe(8);
    expect(tree!.nodesOpenedPerQuestion).toBe(2.5);
    expect(tree!.budgetExhausted.timeMs).toBe(1);
    expect(tree!.cacheHitRate).toBeNull();
  });

  it('an error record with partial scores still counts as incorrect', () => {
    const s = summarize([
      record({
        strategy: 's',
        questionId: 'q',
        error: 'Error: late failure',
        scores: { correct: 1, exactMatch: 1, f1: 1, numericMatch: 1, yesNo: null, choice: null },
      }),
    ]).strategies[0]!;
    expect(s).toMatchObject({ accuracy: 0, exactMatch: 0, f1: 0, numericMatch: 0, numericN: 1, yesNo: null, yesNoN: 0, errors: 1 });
  });

  it('no records, no strategies', () => {
    expect(summarize([])).toEqual({ runIds: [], records: 0, questions: 0, superseded: 0, strategies: [] });
  });

  it('every mean metric is the mean of its per-record values (what a bootstrap resamples)', () => {
    const vectorRecords = fixtureRecords().filter((r) => r.strategy === 'vector');
    for (const path of MEAN_METRIC_PATHS) {
      const values = recordValues(vectorRecords, path);
      const expected = values.length ? mean(values) : null;
      const actual = metricValue(vector!, path);
      if (expected === null) expect(actual).toBeNull();
      else expect(actual).toBeCloseTo(expected, 12);
    }
  });

  it('every metric path resolves', () => {
    for (const path of METRIC_PATHS) {
      const v = metricValue(tree!, path);
      expect(v === null || typeof v === 'number', path).toBe(true);
    }
    expect(metricValue(tree!, 'latencyMs.p95')).toBe(975);
    expect(metricValue(tree!, 'retrieval.page.ndcg')).toBe(0.6);
    expect(metricValue(vector!, 'retrieval.page.recall')).toBeNull();
  });

  it('flattens to the same columns for every strategy', () => {
    const a = flattenStrategySummary(vector!).map(([k]) => k);
    const b = flattenStrategySummary(tree!).map(([k]) => k);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(a.length);
    const flat = Object.fromEntries(flattenStrategySummary(vector!));
    expect(flat['retrieval.page.n']).toBe(0);
    expect(flat['retrieval.page.recall']).toBeNull();
    expect(flat['budgetExhausted.calls']).toBe(1);
    expect(flat['latencyMs.p50']).toBe(150);
    // Every metric path has its column.
    for (const p of METRIC_PATHS) expect(a).toContain(p);
  });

  it('lists interval paths in metric order', () => {
    const withCi = { ...tree!, intervals: { f1: { lo: 0.8, hi: 1 }, accuracy: { lo: 0.5, hi: 1 } } };
    expect(intervalPaths([vector!, withCi])).toEqual(['accuracy', 'f1']);
  });
});
