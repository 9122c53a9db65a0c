// Intervals and repeat statistics in the console table and the Markdown report.
import { describe, expect, it } from 'vitest';
import { withIntervals } from '../../harness/summary/intervals.ts';
import { summarize } from '../../harness/summary/summary.ts';
import { render } from '../../reports/index.ts';
import type { ReportMeta } from '../../reports/types.ts';
import type { RunRecord } from '../../harness/types.ts';
import { record } from '../harness/summary/summaryFixture.ts';

const meta: ReportMeta = {
  runId: 'run-1',
  config: 'c',
  dataset: 'd',
  model: 'gpt-4o-mini',
  offline: false,
  priced: true,
  startedAt: '2025-01-01T00:00:00.000Z',
  questions: 20,
  strategies: ['vector'],
  repeats: 2,
};

function recs(repeats: number): RunRecord[] {
  const out: RunRecord[] = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (let i = 0; i < 20; i++) {
      // q1 flips between repeats; everything else is stable.
      const correct = i === 0 ? repeat % 2 : i % 2;
      out.push(
        record({
          strategy: 'vector',
          questionId: `q${i + 1}`,
          repeat,
          scores: { correct, exactMatch: correct, f1: correct ? 1 : 0.25, numericMatch: null, yesNo: null, choice: null },
          retrieval: { node: { recall: (i % 4) / 4, precision: 0.5, mrr: 0.5, ndcg: 0.5 }, page: null, doc: null },
          calls: 1 + (i % 3),
          inputTokens: 100 + 10 * i,
          outputTokens: 10,
          costUsd: 0.0001 * (1 + (i % 3)),
          latencyMs: 100 + 7 * i,
        }),
      );
    }
  }
  return out;
}

describe('intervals in reports', () => {
  const rs = recs(1);
  const summary = withIntervals(summarize(rs), rs, { seed: 1 });

  it('console table: [lo, hi] for rates, ± for per-question means and p95', () => {
    const out = render('table', { summary, meta: { ...meta, repeats: 1 } });
    const row = out.split('\n').find((l) => l.includes(' vector '))!;
    const s = summary.strategies[0]!;
    const ci = s.intervals!;
    expect(row).toContain(`50.0% [${(ci.accuracy!.lo * 100).toFixed(1)}, ${(ci.accuracy!.hi * 100).toFixed(1)}]`);
    expect(row).toContain(`[${(ci.f1!.lo * 100).toFixed(1)}, ${(ci.f1!.hi * 100).toFixed(1)}]`);
    expect(row).toMatch(/1\.95 ±0\.\d\d/); // calls/q
    expect(row).toMatch(/\$0\.000195 ±0\.0000\d\d/);
    expect(row).toMatch(/ms ±[\d.]+ ms/);
    expect(out).toContain('±: its larger side');
  });

  it('markdown: intervals in the efficiency table, rows as wide as the header', () => {
    const md = render('md', { summary, meta: { ...meta, repeats: 1 } });
    const rows = md.split('\n').filter((l) => l.startsWith('| vector'));
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatch(/1\.95 \[\d\.\d\d, \d\.\d\d\]/);
    // Every interval written alike: the accuracy cell's brackets unescaped, as F1's beside it.
    expect(rows[0]).toMatch(/\| 50\.0% \[\d+\.\d, \d+\.\d\] \|/);
    expect(rows[0]).not.toContain('\\[');
    expect(md).not.toContain('## Repeats');
    expect(md).toMatch(/95% confidence interval \(Wilson/);
  });

  it('with repeats: spread across repeats and the flaky questions', () => {
    const r3 = recs(3);
    const s3 = withIntervals(summarize(r3), r3, { seed: 1 });
    const stats = s3.strategies[0]!.repeatStats!;
    expect(stats.flaky).toEqual([{ questionId: 'q1', correct: 1, repeats: 3 }]);
    const table = render('table', { summary: s3, meta });
    expect(table).toMatch(/vector: accuracy across repeats 51\.7% \(sd 2\.9 pts, 3 repeats, min 50\.0%, max 55\.0%\); 1 flaky of 20: q1 \(1\/3\)/);
    const md = render('md', { summary: s3, meta });
    expect(md).toContain('## Repeats');
    const tableRows = md.split('\n').filter((l) => l.startsWith('|'));
    const cells = (row: string) => row.trim().split(/(?<!\\)\|/).slice(1, -1);
    const repeatsTable = md.slice(md.indexOf('## Repeats')).split('\n').filter((l) => l.startsWith('|'));
    expect(repeatsTable).toHaveLength(3);
    for (const row of repeatsTable) expect(cells(row)).toHaveLength(cells(repeatsTable[0]!).length);
    expect(repeatsTable[2]).toContain('50.0%, 55.0%, 50.0%');
    expect(repeatsTable[2]).toContain('1 of 20: q1 (1/3)');
    expect(tableRows.length).toBeGreaterThan(6);
    expect(s3.ci!.method).toMatch(/cluster/);
  });
});
