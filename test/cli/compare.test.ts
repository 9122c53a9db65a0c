import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { buildComparison } from '../../harness/analysis/compare/build.ts';
import { manifest, outcomes, records, tempDir, writeRun } from '../harness/analysis/compare/runFixtures.ts';
import { runCli } from './runCli.ts';

function runs(opts: { bHash?: string; bCorpus?: string } = {}) {
  const root = tempDir();
  const a = writeRun(join(root, 'a'), manifest(), [
    ...records('run-a', 'vector', outcomes(50, 35)),
    ...records('run-a', 'tree', outcomes(50, 20, { calls: 5 })),
  ]);
  const mb = manifest({
    runId: 'run-b',
    dataset: { ...manifest().dataset, questionsHash: opts.bHash ?? 'q-hash-1' },
    corpus: { ...manifest().corpus, hash: opts.bCorpus ?? 'corpus-hash-1' },
  });
  const b = writeRun(join(root, 'b'), mb, [...records('run-b', 'vector', outcomes(50, 20)), ...records('run-b', 'tree', outcomes(50, 21, { calls: 5 }))]);
  return { root, a, b };
}

describe('treebench compare', () => {
  it('compares two runs per strategy, marks significant changes, exit 0', async () => {
    const { a, b } = runs();
    const r = await runCli(['compare', a, b, '--metrics', 'accuracy,calls']);
    expect(r.code).toBe(0);
    const vectorAcc = r.stdout.split('\n').find((l) => l.includes(' vector ') && l.includes('accuracy'))!;
    expect(vectorAcc).toContain('70.0%');
    expect(vectorAcc).toContain('40.0%');
    expect(vectorAcc).toContain('McNemar (15:0)');
    expect(vectorAcc).toContain('▼ worse');
    const treeAcc = r.stdout.split('\n').find((l) => l.includes(' tree ') && l.includes('accuracy'))!;
    expect(treeAcc).toContain('n.s.');
    expect(r.stdout).toMatch(/Holm-adjusted over 4 comparisons/);
  });

  it('refuses runs over different datasets or corpora (exit 2, with the reason) unless --force', async () => {
    const { a, b } = runs({ bHash: 'q-hash-2', bCorpus: 'corpus-hash-2' });
    const r = await runCli(['compare', a, b]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to compare: different datasets: .*q-hash-1.*q-hash-2/);
    // Same name, other documents: the sizes and hashes tell them apart, the name is not repeated.
    expect(r.stderr).toMatch(/different corpora: A has 1 document \(sha256 corpus-hash-\), B has 1 document \(sha256 corpus-hash-\)/);
    const forced = await runCli(['compare', a, b, '--force', '--format', 'md']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/\*\*forced despite\*\*: different datasets/);
  });

  it('--within compares strategies of one run against a baseline strategy', async () => {
    const { a } = runs();
    const r = await runCli(['compare', a, '--within', '--baseline-strategy', 'vector', '--format', 'json', '--metrics', 'accuracy', 'callsPerQuestion']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.format).toBe('treebench-compare');
    expect(json.mode).toBe('within');
    const [c] = json.result.comparisons;
    expect(c.label).toBe('vector → tree');
    expect(c.metrics.map((m: { metric: string }) => m.metric)).toEqual(['accuracy', 'callsPerQuestion']);
    expect(c.metrics[0].a).toBeCloseTo(0.7, 12);
    expect(c.metrics[0].b).toBeCloseTo(0.4, 12);
    expect(c.metrics[1].direction).toBe('worse');
  });

  it('the Markdown renders as a table and the JSON file can be written with --out', async () => {
    const { root, a, b } = runs();
    const out = join(root, 'cmp.md');
    const r = await runCli(['compare', a, b, '--format', 'md', '--out', out]);
    expect(r.code).toBe(0);
    const md = readFileSync(out, 'utf8');
    const rows = md.split('\n').filter((l) => l.startsWith('|'));
    const cells = (row: string) => row.trim().split(/(?<!\\)\|/).slice(1, -1);
    const width = cells(rows[0]!).length;
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(cells(row)).toHaveLength(width);
    expect(md).toContain('**▼ worse**');
  });

  it('usage errors exit 2: unknown metric, unknown strategy, --within with two runs', async () => {
    const { a, b } = runs();
    expect((await runCli(['compare', a, b, '--metrics', 'acuracy'])).stderr).toMatch(/unknown metric "acuracy"/);
    expect((await runCli(['compare', a, b, '--strategies', 'mcts'])).code).toBe(2);
    expect((await runCli(['compare', a, b, '--within'])).code).toBe(2);
    expect((await runCli(['compare', a])).code).toBe(2);
  });

  it('drops default metrics nobody measured and says so', () => {
    const root = tempDir();
    const noGold = (run: string, k: number) => records(run, 'vector', outcomes(20, k)).map((r) => ({ ...r, retrieval: null }));
    const a = writeRun(join(root, 'a'), manifest(), noGold('run-a', 10));
    const b = writeRun(join(root, 'b'), manifest({ runId: 'run-b' }), noGold('run-b', 12));
    const report = buildComparison({ runA: a, runB: b });
    expect(report.result.comparisons[0]!.metrics.map((m) => m.metric)).toEqual([
      'accuracy',
      'f1',
      'callsPerQuestion',
      'tokensPerQuestion',
      'costPerQuestion',
      'latencyMs.p95',
    ]);
    expect(report.notes).toContain('not measured in these runs: retrieval.node.recall');
  });
});
