// The run table marks what a number alone hides: a strategy whose budget ran out (its 0.0% is
// not "wrong answers") and a strategy short of questions in an unfinished run; the footers
// describe only what the table shows, and no footer line breaks a term apart at 80 columns.
import { describe, expect, it } from 'vitest';
import { summarize, type RunSummary } from '../../harness/summary/summary.ts';
import { render } from '../../reports/index.ts';
import type { ReportMeta } from '../../reports/types.ts';
import { displayWidth } from '../../reports/console.ts';
import { record } from '../harness/summary/summaryFixture.ts';

const sc = (c: number) => ({ correct: c, exactMatch: c, f1: c, numericMatch: null, yesNo: null, choice: null });
const meta: ReportMeta = {
  runId: 'run-1',
  config: 'weak',
  dataset: 'sample',
  model: 'gpt-4o-mini',
  offline: false,
  priced: true,
  startedAt: '2025-01-01T00:00:00.000Z',
  finishedAt: '2025-01-01T00:01:00.000Z',
  questions: 4,
  strategies: ['vector', 'agent'],
};
const qs = ['q1', 'q2', 'q3', 'q4'];
const records = [
  ...qs.map((q) => record({ strategy: 'vector', questionId: q, scores: sc(q === 'q1' ? 1 : 0) })),
  ...qs.map((q) => record({ strategy: 'agent', questionId: q, scores: sc(0), budgetExhausted: 'calls' })),
];

describe('run table marks', () => {
  it('marks a strategy whose budget ran out, with a footer naming the budget', () => {
    const out = render('table', { summary: summarize(records), meta });
    const agentRow = out.split('\n').find((l) => l.includes('agent'))!;
    expect(agentRow).toContain('agent †');
    expect(agentRow).toContain('0.0%');
    expect(out).toMatch(/†: budget ran out \(agent 4 of 4: calls×4\)/);
    expect(out.split('\n').find((l) => l.includes('vector'))).not.toContain('†');
  });

  it('marks a strategy short of questions in an unfinished run', () => {
    const partial = records.filter((r) => !(r.strategy === 'vector' && r.questionId === 'q4'));
    const { finishedAt: _, ...unfinished } = meta;
    const out = render('table', { summary: summarize(partial), meta: unfinished });
    expect(out.split('\n').find((l) => l.includes('vector'))).toContain('vector *');
    expect(out).toContain('*: unfinished: vector 3 of 4 records (the run did not finish');
    const full = render('table', { summary: summarize(records), meta });
    expect(full).not.toContain('unfinished');
    expect(full).not.toMatch(/vector \*/);
  });

  it('describes [lo, hi] only when an interval is shown', () => {
    const base = summarize(records);
    const withCi: RunSummary = {
      ...base,
      ci: { level: 0.95, method: 'bootstrap', resamples: 1000, seed: 1 },
      strategies: base.strategies.map((s) => ({ ...s, intervals: { accuracy: { lo: 0.01, hi: 0.6 }, 'latencyMs.p95': { lo: 0, hi: 0 } } })),
    };
    const wide = render('table', { summary: withCi, meta });
    expect(wide).toContain('[lo, hi]: 95% bootstrap interval');
    // At 60 columns the intervals become ±: the legend says ± only, never [lo, hi].
    const narrow = render('table', { summary: withCi, meta, width: 60 });
    expect(narrow).toContain(' ±');
    expect(narrow).not.toContain('[lo, hi]');
    expect(narrow).toContain('±: larger side of the 95% bootstrap interval');
    // No interval at all: no interval legend.
    const none = render('table', { summary: { ...base, ci: withCi.ci }, meta });
    expect(none).not.toMatch(/\[lo, hi\]|±:/);
    for (const line of narrow.split('\n')) {
      expect(displayWidth(line)).toBeLessThanOrEqual(60);
      expect(line.trimEnd()).not.toMatch(/\[lo,$/);
    }
  });
});
