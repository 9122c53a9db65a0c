import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listBaselines, resolveRunRef, saveBaseline } from '../../harness/analysis/baselines.ts';
import { manifest, outcomes, records, tempDir, writeRun } from '../harness/analysis/compare/runFixtures.ts';
import { runCli } from './runCli.ts';

describe('baselines', () => {
  it('save copies the run (manifest, records, summary) under the name; list shows it; gate resolves the name', async () => {
    const root = tempDir();
    const dir = join(root, 'baselines');
    const run = writeRun(join(root, 'runs', 'nightly-1'), manifest({ runId: 'nightly-1' }), records('nightly-1', 'vector', outcomes(30, 20)));
    const saved = await runCli(['baseline', 'save', run, '--name', 'main', '--dir', dir]);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toMatch(/saved baseline "main"/);
    for (const f of ['manifest.json', 'records.jsonl', 'summary.json', 'baseline.json']) expect(existsSync(join(dir, 'main', f))).toBe(true);
    // The saved summary carries intervals (computed on save when the run folder had none).
    expect(JSON.parse(readFileSync(join(dir, 'main', 'summary.json'), 'utf8')).strategies[0].intervals.accuracy).toBeDefined();

    const list = await runCli(['baseline', 'list', '--dir', dir, '--format', 'json']);
    const entries = JSON.parse(list.stdout);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ name: 'main', runId: 'nightly-1', records: 30, strategies: ['vector', 'tree'] });

    const candidate = writeRun(join(root, 'runs', 'pr'), manifest({ runId: 'pr' }), records('pr', 'vector', outcomes(30, 20)));
    const gate = await runCli(['gate', '--baseline', 'main', '--candidate', candidate, '--baselines-dir', dir]);
    expect(gate.stdout).toMatch(/baseline: {2}main \(nightly-1\)/);
    // tree is listed in the manifest but has no records: only vector is gated.
    expect(gate.code).toBe(0);
  });

  it('replaces a baseline of the same name; refuses unfinished runs and bad names', () => {
    const root = tempDir();
    const dir = join(root, 'bl');
    const r1 = writeRun(join(root, 'r1'), manifest({ runId: 'r1' }), records('r1', 'vector', outcomes(5, 1)));
    const r2 = writeRun(join(root, 'r2'), manifest({ runId: 'r2' }), records('r2', 'vector', outcomes(5, 2)));
    saveBaseline(r1, 'main', { dir });
    saveBaseline(r2, 'main', { dir });
    expect(listBaselines(dir).map((b) => [b.name, b.runId])).toEqual([['main', 'r2']]);
    const unfinished = writeRun(join(root, 'r3'), manifest({ runId: 'r3', finishedAt: null }), records('r3', 'vector', outcomes(5, 2)));
    expect(() => saveBaseline(unfinished, 'x', { dir })).toThrow(/did not finish/);
    expect(saveBaseline(unfinished, 'x', { dir, allowUnfinished: true }).runId).toBe('r3');
    expect(() => saveBaseline(r1, '../evil', { dir })).toThrow(/--name/);
    expect(resolveRunRef('main', dir).baseline).toBe('main');
    expect(() => resolveRunRef('nope', dir)).toThrow(/baselines: main, x/);
  });
});
