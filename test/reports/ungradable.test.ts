// Issue 25, item 3: answers the rule cannot judge are labelled, not scored 0. On the E-Manual
// set (every gold a procedure) a real run shows accuracy "n/a (rule)" in every report with a
// footer pointing to the LLM judge, F1 and retrieval still measured; the gate skips accuracy and
// says why. On a mix, accuracy is over the gradable records and says how many were left out.
import { beforeAll, describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { validateConfig, type LoadedConfig } from '../../harness/config/runConfig.ts';
import { runBenchmark } from '../../harness/run/runner.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { summarize } from '../../harness/summary/summary.ts';
import { withIntervals } from '../../harness/summary/intervals.ts';
import { render } from '../../reports/index.ts';
import { reportMeta } from '../../reports/meta.ts';
import { RULE_NA } from '../../reports/format.ts';
import { scoreAnswer } from '../../harness/scoring/answer.ts';
import { buildGate } from '../../cli/handlers/gate.ts';
import { tempDir } from '../harness/analysis/compare/runFixtures.ts';
import { record } from '../harness/summary/summaryFixture.ts';
import type { RunRecord } from '../../harness/types.ts';
import type { RunManifest } from '../../harness/run/store.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const S10 = resolve(repoRoot, '../shared/datasets/emanual-s10');

describe('E-Manual (procedural golds): accuracy n/a (rule)', () => {
  let dir = '';
  let manifest: RunManifest;
  let records: RunRecord[];
  beforeAll(async () => {
    const raw = { name: 's10', dataset: { format: 'emanual-s10', path: S10 }, model: { provider: 'offline', priceAs: 'gpt-4o-mini' }, embedder: 'hash', strategies: ['vector', 'layerwise'], run: { concurrency: 4, seed: 42 }, reports: ['md', 'csv', 'json'] };
    const { config, strategies } = validateConfig(raw);
    const loaded: LoadedConfig = { path: join(repoRoot, 'configs', 's10.yaml'), baseDir: repoRoot, raw: JSON.stringify(raw), config, strategies };
    const out = await runBenchmark({ loaded, data: await loadBenchmarkData(loaded.config, loaded.baseDir), outDir: tempDir(), runId: 's10' });
    dir = out.dir;
    manifest = out.manifest;
    records = out.records;
  }, 120_000);

  it('every record is ungradable by the rule, with F1 and retrieval scored', () => {
    expect(records).toHaveLength(100);
    expect(records.every((r) => r.scores!.correct === null)).toBe(true);
    // Most golds read as instructions (menu paths, "From Settings, tap …"); the rest are long.
    const procedural = records.filter((r) => r.scores!.ungradable === 'procedural').length;
    expect(procedural).toBe(66); // 33 of the 50 golds, for each of the two strategies
    expect(records.every((r) => r.scores!.ungradable === 'procedural' || r.scores!.ungradable === 'long')).toBe(true);
    const summary = summarize(records);
    for (const s of summary.strategies) {
      expect(s).toMatchObject({ accuracy: null, accuracyN: 0, ungradable: 50 });
      expect(s.f1).toBeGreaterThan(0.2);
      expect(s.retrieval.node!.recall).toBeGreaterThan(0.5);
    }
  });

  it('console, Markdown, CSV, JSON and HTML show n/a (rule) and point to the LLM judge, never 0%', () => {
    const records2 = [...records];
    const summary = withIntervals(summarize(records2), records2, { seed: 42, resamples: 500 });
    const meta = reportMeta(manifest);
    const table = render('table', { summary, meta });
    expect(table).toMatch(/│ vector +│ 50 │ n\/a \(rule\) │/);
    expect(table).toContain('accuracy n/a (rule): the gold answers are long or procedural');
    expect(table).toContain('grade them with the LLM judge');
    expect(table).not.toMatch(/│ vector +│ 50 │ +0\.0%/);

    const md = render('md', { summary, meta });
    expect(md).toMatch(/\| vector \| 50 \| n\/a \(rule\) \|/);
    expect(md).toContain('LLM judge');

    const rows = parse(render('csv', { summary, meta }), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r.strategy, r.accuracy, r.accuracyN, r.ungradable])).toEqual([
      ['vector', '', '0', '50'],
      ['layerwise', '', '0', '50'],
    ]);
    expect(rows[0]!.accuracyNote).toMatch(/^n\/a \(rule\): every gold is long or procedural; grade them with the LLM judge/);
    expect(Number(rows[0]!.f1)).toBeGreaterThan(0);

    const json = JSON.parse(render('json', { summary, meta }));
    expect(json.summary.strategies[0].accuracy).toBeNull();
    expect(json.notes[0]).toContain(RULE_NA);

    const html = render('html', { summary, meta, records });
    expect(html).toContain('n/a (rule)');
    expect(html).toContain('LLM judge');
    expect(html).not.toContain('accuracy vs'); // no accuracy chart drawn at 0
  });

  it('the gate skips accuracy and says why', () => {
    const report = buildGate({ baseline: dir, candidate: dir });
    const accuracy = report.evaluation.checks.filter((c) => c.rule?.name === 'accuracy');
    expect(accuracy.every((c) => c.status === 'skip' && /rule judge cannot grade these golds/.test(c.message))).toBe(true);
    expect(report.evaluation.checks.find((c) => c.rule?.name === 'f1')!.status).toBe('pass');
  });
});

describe('a mix of gradable and ungradable questions', () => {
  const steps = 'From Settings, tap Display > Screen timeout. Tap a time limit to set it.';
  const scored = (questionId: string, gold: string, answer: string, error: string | null = null): RunRecord =>
    record({ strategy: 'vector', questionId, gold: [gold], question: 'How?', answer, error, scores: scoreAnswer({ id: questionId, question: 'How?', answers: [gold] }, { answer: error ? '' : answer }) });

  it('accuracy is over the gradable records; a failed record counts 0 only where the rule grades', () => {
    const records = [scored('q1', 'Paris', 'Paris'), scored('q2', 'Paris', 'Rome'), scored('q3', steps, 'tap Display'), scored('q4', steps, '', 'Error: boom'), scored('q5', 'Paris', '', 'Error: boom')];
    const s = summarize(records).strategies[0]!;
    expect(s).toMatchObject({ accuracy: 1 / 3, accuracyN: 3, ungradable: 2, errors: 2 });
    const table = render('table', { summary: summarize(records), meta: { runId: 'r', config: 'c', dataset: 'd', model: 'm', offline: false, priced: false, startedAt: '', questions: 5, strategies: ['vector'] } });
    expect(table).toContain('33.3%');
    expect(table).toContain('accuracy is over the records the rule judge can grade; records whose gold is long or procedural are left out (vector 2 of 5)');
  });
});
