// `treebench history` in the console: a strategy with a significant change is never hidden to
// fit 80 columns; runs of different configs are separate series (no "not tested" flood); a run
// that did not finish is marked.
import { readFileSync, writeFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHistory, findRunDirs } from '../../../../harness/analysis/history/build.ts';
import { renderHistory } from '../../../../reports/history.ts';
import { displayWidth } from '../../../../reports/console.ts';
import { runCli } from '../../../cli/runCli.ts';
import { makeNights } from './nights.ts';

describe('history at 80 columns, over mixed and partial runs', () => {
  it('keeps the regressed strategy, separates configs, marks partial runs', async () => {
    const strategies = ['vector', 'node-list', 'layerwise'];
    const nights = await makeNights({ count: 3, strategies, plant: { strategy: 'layerwise', fromNight: 3, flip: 18 } });
    const dirs = findRunDirs([`${nights.root}/history`]);
    const report = buildHistory(dirs, { metrics: ['accuracy'], resamples: 500 });
    const wide = renderHistory('table', report, { width: 400 });
    expect(wide).toMatch(/▼/);
    for (const line of renderHistory('table', report, { width: 80 }).split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    // Narrower (three strategies here, where a real run has more): something has to give way,
    // but never the strategy that regressed, though it is the least important by order.
    const narrow = renderHistory('table', report, { width: 60 });
    for (const line of narrow.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(narrow).toMatch(/hidden to fit 60 columns/);
    const header = narrow.split('\n').find((l) => l.includes('│ run'))!;
    expect(header).toContain('layerwise');
    expect(narrow).toMatch(/▼/);
    expect(narrow.match(/hidden to fit 60 columns: ([^(]*)/)![1]).not.toContain('layerwise');

    // A run that did not finish is marked in the table, with a footer line.
    const last = dirs.sort().at(-1)!;
    const m = JSON.parse(readFileSync(join(last, 'manifest.json'), 'utf8'));
    m.finishedAt = null;
    writeFileSync(join(last, 'manifest.json'), JSON.stringify(m));
    // A second config's runs in the same folder: its own series, not joined to the first.
    for (const d of dirs.slice(0, 2)) {
      const copy = `${d}-other`;
      cpSync(d, copy, { recursive: true });
      const mm = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8'));
      mm.runId = `${mm.runId}-other`;
      mm.name = 'other-config';
      mm.startedAt = mm.startedAt.replace('03:17', '09:45');
      mm.dataset.questionsHash = 'f'.repeat(64);
      writeFileSync(join(copy, 'manifest.json'), JSON.stringify(mm));
      // a run's records carry its id (a comparison refuses records of another run)
      const recs = readFileSync(join(copy, 'records.jsonl'), 'utf8').split('\n').filter(Boolean);
      writeFileSync(join(copy, 'records.jsonl'), recs.map((l) => JSON.stringify({ ...JSON.parse(l), runId: mm.runId })).join('\n') + '\n');
    }
    const out = await runCli(['history', `${nights.root}/history`, '--metric', 'accuracy', '--resamples', '200']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('config nightly');
    expect(out.stdout).toContain('config other-config');
    expect(out.stdout).toContain('3 runs');
    expect(out.stdout).toContain('2 runs');
    expect(out.stdout).not.toContain('not tested');
    expect(out.stdout).toMatch(new RegExp(`${m.runId} \\*`));
    expect(out.stdout).toContain('*: the run did not finish');
    const json = JSON.parse((await runCli(['history', `${nights.root}/history`, '--metric', 'accuracy', '--resamples', '200', '--format', 'json'])).stdout);
    expect(json.format).toBe('treebench-history-groups');
    expect(json.groups.map((g: { config: string; runs: unknown[] }) => [g.config, g.runs.length])).toEqual([['nightly', 3], ['other-config', 2]]);
    // One untested pair of runs is one note, not one per strategy.
    const mixed = buildHistory(findRunDirs([`${nights.root}/history`]), { metrics: ['accuracy'], resamples: 200 });
    const untested = mixed.notes.filter((n) => n.includes('not tested'));
    expect(untested.length).toBeGreaterThan(0);
    expect(untested.length).toBeLessThanOrEqual(mixed.runs.length - 1);
  }, 60_000);
});
