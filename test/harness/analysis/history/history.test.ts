import { describe, expect, it } from 'vitest';
import { buildHistory, findRunDirs, flagOf } from '../../../../harness/analysis/history/build.ts';
import { renderHistory } from '../../../../reports/history.ts';
import { runCli } from '../../../cli/runCli.ts';
import { makeNights } from './nights.ts';

describe('treebench history over ten nights of the nightly config', () => {
  it('prints bands for every night and flags the planted regression and nothing else', async () => {
    const nights = await makeNights({ plant: { strategy: 'vector', fromNight: 6, flip: 12 } });
    expect(nights.planted).toHaveLength(12);
    const dirs = findRunDirs([`${nights.root}/history`]);
    expect(dirs).toHaveLength(10);
    const report = buildHistory(dirs, { metrics: ['accuracy', 'costPerQuestion'], resamples: 2000 });
    expect(report.runs.map((r) => r.runId)).toEqual(Array.from({ length: 10 }, (_, i) => `nightly-2026-11-${String(i + 1).padStart(2, '0')}`));
    // Every point has a band around its value.
    for (const s of report.series) {
      for (const p of s.points) {
        expect(p.value).not.toBeNull();
        expect(p.lo!).toBeLessThanOrEqual(p.value!);
        expect(p.hi!).toBeGreaterThanOrEqual(p.value!);
      }
    }
    const flags = report.series.flatMap((s) => s.points.map((p, i) => ({ s: s.strategy, m: s.metric, night: i + 1, flag: flagOf(p) }))).filter((f) => f.flag);
    expect(flags).toEqual([{ s: 'vector', m: 'accuracy', night: 6, flag: 'worse' }]);
    const acc = report.series.find((s) => s.strategy === 'vector' && s.metric === 'accuracy')!;
    expect(acc.points[5]!.change!.test).toBe('mcnemar');
    expect(acc.points[5]!.change!.delta).toBeCloseTo(-12 / 75, 10);

    // The console table shows the band and marks only that cell.
    const text = renderHistory('table', report, { width: 200 });
    expect(text.match(/[▲▼] [−+]/g)).toEqual(['▼ −']);
    expect(text).toMatch(/nightly-2026-11-06 .*▼ −16\.0 pts/);
    expect(text).toMatch(/\d+\.\d% \[\d+\.\d, \d+\.\d\]/);

    // The same through the CLI, as JSON and as an 80-column table that does not wrap.
    const json = await runCli(['history', `${nights.root}/history`, '--metric', 'accuracy', '--resamples', '1000', '--format', 'json']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.format).toBe('treebench-history');
    const narrow = renderHistory('table', report, { width: 80 });
    for (const line of narrow.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
  }, 120_000);

  it('flags nothing when nothing changed, and names a bad metric flag', async () => {
    const nights = await makeNights({ count: 3, strategies: ['vector'] });
    const report = buildHistory(nights.dirs, { metrics: ['accuracy', 'costPerQuestion', 'latencyMs.p95'], resamples: 1000 });
    expect(report.series.flatMap((s) => s.points).filter((p) => flagOf(p))).toEqual([]);
    const bad = await runCli(['history', ...nights.dirs, '--metric', 'acuracy']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--metric: unknown metric "acuracy"/);
  }, 120_000);
});

describe('history says how much of the previous night a change covers', () => {
  it('notes a night that lacks questions of the one before', async () => {
    const { manifest, outcomes, records, tempDir, writeRun } = await import('../compare/runFixtures.ts');
    const { join } = await import('node:path');
    const root = tempDir();
    const one = { strategies: [{ id: 'vector', strategy: 'vector', params: {}, budget: {} }] };
    const a = writeRun(join(root, 'a'), manifest({ ...one, startedAt: '2026-01-01T00:00:00.000Z' }), records('run-a', 'vector', outcomes(40, 20)));
    const b = writeRun(join(root, 'b'), manifest({ ...one, runId: 'run-b', startedAt: '2026-01-02T00:00:00.000Z' }), records('run-b', 'vector', outcomes(8, 4)));
    const report = buildHistory([a, b], { metrics: ['accuracy'], resamples: 500 });
    expect(report.notes).toContain('run-a → run-b (vector): 8 of 40 questions of run-a paired (20.0%; 32 missing from run-b: q9, q10, q11, q12, q13, … (+27 more)): the change flags cover the paired questions only');
    const full = writeRun(join(root, 'c'), manifest({ ...one, runId: 'run-c', startedAt: '2026-01-03T00:00:00.000Z' }), records('run-c', 'vector', outcomes(40, 20)));
    expect(buildHistory([a, full], { metrics: ['accuracy'], resamples: 500 }).notes).toEqual([]);
  });
});

describe('a folder of runs where one run has no records (stopped before its first)', () => {
  it('is not refused whole: that run is skipped with a note; named on its own, it is still an error', async () => {
    const { manifest, outcomes, records, tempDir, writeRun } = await import('../compare/runFixtures.ts');
    const { join } = await import('node:path');
    const root = tempDir();
    const one = { strategies: [{ id: 'vector', strategy: 'vector', params: {}, budget: {} }] };
    writeRun(join(root, 'a'), manifest({ ...one, startedAt: '2026-01-01T00:00:00.000Z' }), records('run-a', 'vector', outcomes(20, 10)));
    writeRun(join(root, 'b'), manifest({ ...one, runId: 'run-b', startedAt: '2026-01-02T00:00:00.000Z' }), records('run-b', 'vector', outcomes(20, 12)));
    const empty = writeRun(join(root, 'c'), manifest({ ...one, runId: 'run-c', startedAt: '2026-01-03T00:00:00.000Z', questionIds: ['q1'] }), []);
    // records copied in from another run: no comparison reads them, and the listing goes on without it
    const foreign = writeRun(join(root, 'd'), manifest({ ...one, runId: 'run-d', startedAt: '2026-01-04T00:00:00.000Z' }), records('run-x', 'vector', outcomes(20, 12)));
    const r = await runCli(['history', root, '--metric', 'accuracy', '--resamples', '200', '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`note: skipped ${empty}: the run has no records`);
    expect(r.stderr).toContain(`note: skipped ${foreign}: ${join(foreign, 'records.jsonl')}:1: a record of run "run-x" among the records of run "run-d"`);
    expect(JSON.parse(r.stdout).runs.map((x: { runId: string }) => x.runId)).toEqual(['run-a', 'run-b']);
    const named = await runCli(['history', join(root, 'a'), empty, '--metric', 'accuracy']);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain(`${empty}: the run has no records`);
  });
});
