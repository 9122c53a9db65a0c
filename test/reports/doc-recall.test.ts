// Document recall beside page recall: in the summary (with openN and a bootstrap interval like
// page recall's), CSV, the console table, report.md and the HTML report, shown where questions
// left documents to choose from (open setting), marked in the closed setting, and old records
// without candidateDocs rendered as before.
import { describe, expect, it } from 'vitest';
import { flattenStrategySummary, summarize } from '../../harness/summary/summary.ts';
import { withIntervals } from '../../harness/summary/intervals.ts';
import { render } from '../../reports/index.ts';
import type { ReportMeta } from '../../reports/types.ts';
import type { RetrievalScores, RunRecord } from '../../harness/types.ts';
import { record } from '../harness/summary/summaryFixture.ts';

const sc = (c: number) => ({ correct: c, exactMatch: c, f1: c, numericMatch: null, yesNo: null, choice: null });
const rs = (recall: number): RetrievalScores => ({ recall, precision: recall / 10, mrr: recall, mrrUncut: recall, ndcg: recall });
const meta: ReportMeta = {
  runId: 'run-1',
  config: 'fb',
  dataset: 'financebench',
  model: 'offline',
  offline: true,
  priced: false,
  startedAt: '2025-01-01T00:00:00.000Z',
  finishedAt: '2025-01-01T00:01:00.000Z',
  questions: 4,
  strategies: ['vector', 'tree'],
};
// Page and doc recall per question: vector doc [1, 1, 0, 1] = 75%, tree doc [1, 0, 0, 1] = 50%.
const plan: Record<string, Array<[number, number]>> = {
  vector: [[0.5, 1], [0, 1], [0, 0], [1, 1]],
  tree: [[1, 1], [0, 0], [0, 0], [0.5, 1]],
};
function records(candidateDocs: number | undefined): RunRecord[] {
  return Object.entries(plan).flatMap(([strategy, rows]) =>
    rows.map(([page, doc], i) =>
      record({
        strategy,
        questionId: `q${i + 1}`,
        scores: sc(0),
        retrieval: { node: null, page: rs(page), doc: rs(doc), k: 10, ...(candidateDocs === undefined ? {} : { candidateDocs }) },
      }),
    ),
  );
}
const summaryOf = (rec: RunRecord[]) => withIntervals(summarize(rec), rec, { seed: 1, resamples: 500 });
const row = (out: string, name: string) => out.split('\n').find((l) => l.startsWith(`│ ${name} `))!;

describe('document recall in the reports', () => {
  it('summary: doc recall with openN and a bootstrap interval, as page recall has', () => {
    const open = summaryOf(records(12));
    const [vector, tree] = open.strategies;
    expect(vector!.retrieval.doc).toMatchObject({ n: 4, recall: 0.75, openN: 4 });
    expect(tree!.retrieval.doc).toMatchObject({ n: 4, recall: 0.5, openN: 4 });
    const ci = vector!.intervals!['retrieval.doc.recall']!;
    expect(ci.lo).toBeLessThanOrEqual(0.75);
    expect(ci.hi).toBeGreaterThanOrEqual(0.75);
    expect(ci.hi).toBeGreaterThan(ci.lo);
    expect(vector!.intervals!['retrieval.page.recall']).toBeDefined();
    const cols = new Map(flattenStrategySummary(vector!));
    expect(cols.get('retrieval.doc.recall')).toBe(0.75);
    expect(cols.get('retrieval.doc.openN')).toBe(4);
    expect(summarize(records(1)).strategies[0]!.retrieval.doc!.openN).toBe(0);
  });

  it('console: a doc recall column in the open setting, beside page recall', () => {
    const out = render('table', { summary: summaryOf(records(12)), meta });
    expect(out).toMatch(/recall@10 \(page\)/);
    expect(out).toMatch(/doc recall@10/);
    expect(row(out, 'vector')).toMatch(/75\.0%/);
    expect(row(out, 'tree')).toMatch(/50\.0%/);
    expect(out).toContain('doc recall: share of gold documents among the first 10 distinct documents of the evidence (4 of 4 records left more than one document to choose from)');
  });

  it('console: no doc column in the closed setting (one candidate each) nor for records that predate candidateDocs', () => {
    for (const rec of [records(1), records(undefined)]) {
      const out = render('table', { summary: summaryOf(rec), meta });
      expect(out).toMatch(/recall@10 \(page\)/);
      expect(out).not.toMatch(/doc recall/);
      expect(row(out, 'vector')).not.toMatch(/75\.0%/);
    }
  });

  it('report.md: the document columns with a note saying which setting the run was', () => {
    const open = render('md', { summary: summaryOf(records(12)), meta });
    expect(open).toMatch(/\| doc recall@10 \|/);
    expect(open).toContain('4 of 4 records left more than one document to choose from');
    const closed = render('md', { summary: summaryOf(records(1)), meta });
    expect(closed).toContain('every question named its document (the closed setting), so it only says whether any evidence came back');
    const old = render('md', { summary: summaryOf(records(undefined)), meta });
    expect(old).toMatch(/\| doc recall@10 \|/);
    expect(old).not.toContain('closed setting');
    expect(old).not.toContain('to choose from');
  });

  it('report.html: a doc recall column and charts in the open setting only', () => {
    const open = render('html', { summary: summaryOf(records(12)), meta, records: records(12) });
    expect(open).toContain('<th>recall (doc)</th>');
    expect(open).toContain('doc recall vs');
    const closed = render('html', { summary: summaryOf(records(1)), meta, records: records(1) });
    expect(closed).not.toContain('recall (doc)');
    expect(closed).not.toContain('doc recall vs');
  });
});
