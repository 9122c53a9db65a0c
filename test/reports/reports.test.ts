import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { summarize, type RunSummary } from '../../harness/summary/summary.ts';
import { getRenderer, registerRenderer, render, renderers, reportFormats } from '../../reports/index.ts';
import { OFFLINE_LABEL } from '../../reports/format.ts';
import { escapeMarkdown } from '../../reports/markdown.ts';
import { csvField } from '../../reports/csv.ts';
import { reportMeta } from '../../reports/meta.ts';
import type { ReportMeta } from '../../reports/types.ts';
import type { RunManifest } from '../../harness/run/store.ts';
import { fixtureRecords, record } from '../harness/summary/summaryFixture.ts';

const offlineMeta: ReportMeta = {
  runId: 'run-1',
  config: 'quickstart',
  dataset: 'sample-manual',
  model: 'offline',
  offline: true,
  priced: false,
  startedAt: '2025-01-01T00:00:00.000Z',
  finishedAt: '2025-01-01T00:01:00.000Z',
  questions: 3,
  // Config order differs from the records' first-seen order (vector, tree).
  strategies: ['tree', 'vector'],
};
const pricedMeta: ReportMeta = { ...offlineMeta, model: 'gpt-4o-mini', offline: false, priced: true };
const summary = summarize(fixtureRecords());

/** Split a GFM table row on unescaped pipes. */
function cells(row: string): string[] {
  const parts = row.trim().split(/(?<!\\)\|/);
  return parts.slice(1, -1);
}

function markdownTables(md: string): string[][] {
  const tables: string[][] = [];
  let current: string[] | null = null;
  for (const line of md.split('\n')) {
    if (line.startsWith('|')) {
      if (!current) tables.push((current = []));
      current.push(line);
    } else current = null;
  }
  return tables;
}

describe('console table', () => {
  it('labels the offline reasoner and unpriced costs', () => {
    const out = render('table', { summary, meta: offlineMeta });
    expect(out).toContain(OFFLINE_LABEL);
    expect(out).toContain('offline reasoner (lexical heuristics, not an LLM)');
    expect(out).toContain('dataset sample-manual');
    expect(out).toContain('model offline');
    expect(out).toContain('unpriced');
    expect(out).not.toMatch(/\$0(?!\.)/);
    expect(out).toContain('recall (node)');
    // No ANSI colour codes: the table goes to CI logs and files.
    expect(out).not.toMatch(/\x1b\[/);
  });

  it('lists strategies in config order with their numbers', () => {
    const out = render('table', { summary, meta: pricedMeta });
    expect(out).not.toContain(OFFLINE_LABEL);
    expect(out).toContain('model gpt-4o-mini');
    const treeLine = out.split('\n').findIndex((l) => l.includes(' tree '));
    const vectorLine = out.split('\n').findIndex((l) => l.includes(' vector '));
    expect(treeLine).toBeGreaterThan(0);
    expect(vectorLine).toBeGreaterThan(treeLine);
    const vector = out.split('\n')[vectorLine]!;
    expect(vector).toContain('50.0%'); // accuracy
    expect(vector).toContain('62.5%'); // F1
    expect(vector).toContain('66.7%'); // node recall
    expect(vector).toContain('2.25'); // calls/q
    expect(vector).toContain('$0.0138'); // $/q (0.01375)
    expect(vector).toContain('150 ms'); // p50
    expect(vector).toContain('285 ms'); // p95
    expect(vector).toContain('1 (25.0%)'); // errors
  });

  it('falls back to page, then doc recall, and says which', () => {
    const pageOnly = summarize([
      record({ strategy: 's', questionId: 'q', retrieval: { node: null, page: { recall: 0.5, precision: 1, mrr: 1, ndcg: 1 }, doc: null } }),
    ]);
    expect(render('table', { summary: pageOnly, meta: pricedMeta })).toContain('recall (page)');
    const docOnly = summarize([
      record({ strategy: 's', questionId: 'q', retrieval: { node: null, page: null, doc: { recall: 1, precision: 1, mrr: 1, ndcg: 1 } } }),
    ]);
    expect(render('table', { summary: docOnly, meta: pricedMeta })).toContain('recall (doc)');
    const none = summarize([record({ strategy: 's', questionId: 'q' })]);
    expect(render('table', { summary: none, meta: pricedMeta })).toContain('recall not scored: the dataset has no gold evidence');
  });

  it('does not blame the dataset for recall that no record could carry', () => {
    // Every record failed (say, the model's server was down): the dataset may well have evidence.
    const failed = summarize([record({ strategy: 's', questionId: 'q', error: 'connection error (ECONNREFUSED)' })]);
    expect(render('table', { summary: failed, meta: pricedMeta })).toContain('recall not scored: no record succeeded');
    expect(render('md', { summary: failed, meta: pricedMeta })).toContain('_Retrieval is not scored: no record succeeded._');
    // One success without evidence among failures: then it is the dataset.
    const mixed = summarize([record({ strategy: 's', questionId: 'q', error: 'boom' }), record({ strategy: 's', questionId: 'r' })]);
    expect(render('table', { summary: mixed, meta: pricedMeta })).toContain('the dataset has no gold evidence');
    // A run stopped before its first record.
    const empty = summarize([]);
    expect(render('table', { summary: empty, meta: pricedMeta })).toContain('recall not scored: the run stopped before any question finished');
  });

  it('shows an interval when the summary has one', () => {
    const withCi: RunSummary = {
      ...summary,
      ci: { level: 0.95, method: 'bootstrap', resamples: 1000, seed: 1 },
      strategies: summary.strategies.map((s) => ({ ...s, intervals: { accuracy: { lo: 0.25, hi: 0.75 } } })),
    };
    const out = render('table', { summary: withCi, meta: pricedMeta });
    expect(out).toContain('[25.0, 75.0]');
    expect(out).toContain('95% bootstrap interval');
  });

  it('leaves out a ± that shows as zero at the value\'s precision, keeps one that does not', () => {
    const s0 = summary.strategies[0]!;
    const cost = 0.000027;
    const withCost = (lo: number, hi: number): RunSummary => ({
      ...summary,
      ci: { level: 0.95, method: 'bootstrap', resamples: 1000, seed: 1 },
      strategies: [{ ...s0, costPerQuestion: cost, intervals: { costPerQuestion: { lo, hi } } }],
    });
    // Floating-point noise of a constant column (every record cost the same).
    const noise = render('table', { summary: withCost(cost - 1e-21, cost + 3e-21), meta: pricedMeta });
    expect(noise).toContain('$0.000027 ');
    expect(noise).not.toMatch(/\$0\.000027 ±/);
    const real = render('table', { summary: withCost(0.000024, 0.000029), meta: pricedMeta });
    expect(real).toContain('$0.000027 ±0.000003');
  });
});

describe('markdown', () => {
  it('every table row has as many cells as its header', () => {
    const tricky = summarize([
      ...fixtureRecords(),
      record({ strategy: 'pipe|name\nwith newline', questionId: 'q1', scores: { correct: 1, exactMatch: 1, f1: 1, numericMatch: null, yesNo: null, choice: null } }),
    ]);
    const md = render('md', { summary: tricky, meta: offlineMeta });
    const tables = markdownTables(md);
    expect(tables).toHaveLength(3);
    for (const t of tables) {
      const width = cells(t[0]!).length;
      expect(width).toBeGreaterThan(1);
      expect(t).toHaveLength(2 + 3); // header, alignment, three strategies
      for (const row of t) expect(cells(row)).toHaveLength(width);
      expect(cells(t[1]!).every((c) => /^\s*-{3,}:?\s*$/.test(c))).toBe(true);
    }
    expect(md).toContain('pipe\\|name with newline');
  });

  it('carries the run metadata and the offline label', () => {
    const md = render('md', { summary, meta: offlineMeta });
    expect(md).toMatch(/^# treebench report: run-1/);
    expect(md).toContain('**dataset**: sample-manual, 3 questions, 6 records');
    expect(md).toContain(OFFLINE_LABEL);
    expect(md).toContain('unpriced');
    expect(md).toContain('**finished**: 2025-01-01T00:01:00.000Z');
    expect(md.indexOf('| tree |')).toBeLessThan(md.indexOf('| vector |'));
  });

  it('says so when there is no gold evidence', () => {
    const none = summarize([record({ strategy: 's', questionId: 'q' })]);
    const md = render('md', { summary: none, meta: pricedMeta });
    expect(md).toContain('_Retrieval is not scored: the dataset has no gold evidence._');
    expect(markdownTables(md)).toHaveLength(2);
  });

  it('escapes markdown in text', () => {
    expect(escapeMarkdown('a|b_c*d\ne')).toBe('a\\|b\\_c\\*d e');
  });
});

describe('csv', () => {
  it('parses back with csv-parse: one row per strategy, all fields', () => {
    const text = render('csv', { summary, meta: pricedMeta });
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.strategy)).toEqual(['tree', 'vector']);
    const vector = rows[1]!;
    const s = summary.strategies.find((x) => x.strategy === 'vector')!;
    expect(vector.runId).toBe('run-1');
    expect(vector.offline).toBe('false');
    expect(Number(vector.accuracy)).toBe(s.accuracy);
    expect(Number(vector.f1)).toBe(s.f1);
    expect(Number(vector['retrieval.node.recall'])).toBe(s.retrieval.node!.recall);
    expect(vector['retrieval.page.recall']).toBe(''); // not applicable: empty, not 0
    expect(vector['retrieval.page.n']).toBe('0');
    expect(Number(vector['latencyMs.p95'])).toBe(s.latencyMs.p95);
    expect(Number(vector.costPerQuestion)).toBe(s.costPerQuestion);
    expect(Number(vector['budgetExhausted.calls'])).toBe(1);
    expect(Number(vector.errors)).toBe(1);
  });

  it('quotes per RFC 4180 so awkward names round-trip', () => {
    const name = 'beam, "wide"\nB=8';
    const odd = summarize([record({ strategy: name, questionId: 'q' })]);
    const meta = { ...pricedMeta, dataset: 'a,b', strategies: [name] };
    const rows = parse(render('csv', { summary: odd, meta }), { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.strategy).toBe(name);
    expect(rows[0]!.dataset).toBe('a,b');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('plain')).toBe('plain');
    expect(csvField(null)).toBe('');
    expect(csvField(NaN)).toBe('');
  });

  it('leaves costs empty when the model is unpriced', () => {
    const rows = parse(render('csv', { summary, meta: offlineMeta }), { columns: true }) as Array<Record<string, string>>;
    expect(rows[0]!.costPerQuestion).toBe('');
    expect(rows[0]!.totalCost).toBe('');
    expect(rows[0]!.priced).toBe('false');
  });

  it('adds interval columns when intervals exist', () => {
    const withCi: RunSummary = {
      ...summary,
      strategies: summary.strategies.map((s, i) => (i === 0 ? { ...s, intervals: { f1: { lo: 0.1, hi: 0.9 } } } : s)),
    };
    const rows = parse(render('csv', { summary: withCi, meta: pricedMeta }), { columns: true }) as Array<Record<string, string>>;
    const vector = rows.find((r) => r.strategy === 'vector')!;
    const tree = rows.find((r) => r.strategy === 'tree')!;
    expect(vector['f1.ciLo']).toBe('0.1');
    expect(vector['f1.ciHi']).toBe('0.9');
    expect(tree['f1.ciLo']).toBe('');
  });
});

describe('json', () => {
  it('round-trips meta and summary', () => {
    const out = JSON.parse(render('json', { summary, meta: pricedMeta }));
    expect(out.format).toBe('treebench-report');
    expect(out.version).toBe(1);
    expect(out.meta).toEqual(pricedMeta);
    expect(out.summary.strategies.map((s: { strategy: string }) => s.strategy)).toEqual(['tree', 'vector']);
    expect(out.summary.strategies[1].accuracy).toBe(0.5);
    expect(out.summary.strategies[1].retrieval.page).toBeNull();
    expect(out.summary.strategies[1].costPerQuestion).toBe(0.01375);
  });

  it('writes unknown costs as null when unpriced', () => {
    const out = JSON.parse(render('json', { summary, meta: offlineMeta }));
    expect(out.summary.strategies[0].costPerQuestion).toBeNull();
    expect(out.summary.strategies[0].totalCost).toBeNull();
  });
});

describe('renderer registry', () => {
  it('has the four built-in formats with extensions', () => {
    expect(reportFormats()).toEqual(expect.arrayContaining(['table', 'md', 'csv', 'json']));
    expect(Object.keys(renderers)).toEqual(['table', 'md', 'csv', 'json', 'html']);
    expect(getRenderer('md').extension).toBe('md');
    expect(getRenderer('csv').extension).toBe('csv');
  });

  it('accepts the metadata as `meta` or `manifest`', () => {
    expect(render('json', { summary, manifest: pricedMeta })).toBe(render('json', { summary, meta: pricedMeta }));
  });

  it('rejects unknown formats by name and duplicate registrations', () => {
    expect(() => render('pdf', { summary, meta: pricedMeta })).toThrow(/unknown report format "pdf"; known formats: table, md, csv, json/);
    expect(() => registerRenderer('md', { extension: 'md', render: () => '' })).toThrow(/already registered/);
    registerRenderer('test-count', { extension: 'txt', render: ({ summary: s }) => String(s.strategies.length) });
    expect(render('test-count', { summary, meta: pricedMeta })).toBe('2');
  });
});

describe('reportMeta', () => {
  it('maps a run manifest', () => {
    const manifest = {
      runId: 'r',
      name: 'nightly',
      configPath: 'configs/nightly.yaml',
      config: {},
      configHash: 'abcdef0123456789',
      dataset: { name: 'financebench', questions: 46, questionsHash: 'h', files: [] },
      corpus: { name: 'c', docs: 1, nodes: 1, hash: 'h' },
      code: { version: '0.1.0', commit: '0123456789abcdef0123', dirty: true, node: 'v20.20.0' },
      model: { provider: 'openai', id: 'gpt-4o-mini', offline: false, priceAs: null, priced: true, label: 'gpt-4o-mini' },
      embedder: 'hash',
      strategies: [
        { id: 'vector', strategy: 'vector', params: {}, budget: {} },
        { id: 'tree', strategy: 'node-list', params: {}, budget: {} },
      ],
      questionIds: ['a', 'b'],
      repeats: 1,
      seed: 7,
      concurrency: 4,
      limit: 2,
      shard: null,
      index: null,
      startedAt: 's',
      finishedAt: null,
    } satisfies RunManifest;
    const meta = reportMeta(manifest);
    expect(meta).toMatchObject({
      runId: 'r',
      config: 'nightly',
      dataset: 'financebench',
      model: 'gpt-4o-mini',
      offline: false,
      priced: true,
      questions: 2,
      strategies: ['vector', 'tree'],
      codeVersion: '0.1.0 (0123456789ab, dirty)',
    });
    expect(meta.finishedAt).toBeUndefined();
  });
});
