// Issue 25, item 4: `rejudge` summarises its records in the run's order (config order of
// strategies, repeat, dataset order of questions), as `report` does, so its seeded intervals are
// the ones `report` prints for the same records — not those of completion order.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig, type LoadedConfig } from '../../../harness/config/runConfig.ts';
import { runBenchmark } from '../../../harness/run/runner.ts';
import { rejudgeRun } from '../../../harness/scoring/rejudge.ts';
import { loadBenchmarkData } from '../../../datasets/registry.ts';
import { RunStore } from '../../../harness/run/store.ts';
import { sortLikeRun } from '../../../harness/run/order.ts';
import { summarize } from '../../../harness/summary/summary.ts';
import { withIntervals } from '../../../harness/summary/intervals.ts';

describe('rejudge keeps the run order', () => {
  it('gives the intervals report gives, whatever order records.jsonl holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'treebench-rejudge-order-'));
    const raw = { name: 'order', dataset: { format: 'sample' }, strategies: ['vector', 'layerwise'], run: { seed: 3 } };
    const { config, strategies } = validateConfig(raw);
    const loaded: LoadedConfig = { path: join(dir, 'order.yaml'), baseDir: process.cwd(), raw: JSON.stringify(raw), config, strategies };
    const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
    data.questions = data.questions.slice(0, 30);
    const run = await runBenchmark({ loaded, data, outDir: dir, runId: 'r' });
    // Completion order: records.jsonl as a concurrent run leaves it (reversed here, deterministically).
    const file = join(run.dir, 'records.jsonl');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    writeFileSync(file, [...lines].reverse().join('\n') + '\n');

    const out = await rejudgeRun({ runDir: run.dir, noJudge: true });
    const store = RunStore.open(run.dir);
    const records = sortLikeRun(store.readRecords(), store.readManifest());
    const report = withIntervals(summarize(records), records, { seed: 3 });
    for (const [i, s] of out.summary.strategies.entries()) {
      expect(s.strategy).toBe(report.strategies[i]!.strategy);
      expect(s.intervals).toEqual(report.strategies[i]!.intervals);
    }
    // Completion order would have drawn other questions: the intervals differ (so this test can fail).
    const completion = store.readRecords();
    const unsorted = withIntervals(summarize(completion), completion, { seed: 3 });
    expect(unsorted.strategies.find((s) => s.strategy === 'vector')!.intervals!.f1).not.toEqual(report.strategies.find((s) => s.strategy === 'vector')!.intervals!.f1);
  }, 60_000);
});
