// recordsInRunOrder: a run folder's records in the run's order, read back one at a time from
// records.jsonl. Checked against the in-memory way (readRecords, then sortLikeRun) on a real run
// folder whose file holds completion order, a retried record and multi-byte text.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../harness/config/runConfig.ts';
import { runBenchmark, type RunOutcome } from '../../../harness/run/runner.ts';
import { loadBenchmarkData } from '../../../datasets/registry.ts';
import { RunStore } from '../../../harness/run/store.ts';
import { sortLikeRun } from '../../../harness/run/order.ts';
import { recordsInRunOrder } from '../../../harness/run/recordsInOrder.ts';
import { UsageError } from '../../../harness/errors.ts';

let outcome: RunOutcome;
let dir: string;

beforeAll(async () => {
  const loaded = loadConfig('configs/quickstart.yaml');
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
  dir = mkdtempSync(join(tmpdir(), 'treebench-inorder-'));
  outcome = await runBenchmark({ loaded, data, limit: 5, only: ['vector', 'node-list', 'layerwise'], outDir: dir, runId: 'o' });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('recordsInRunOrder', () => {
  it('gives the records sortLikeRun gives, a retried record after the one it supersedes, on every iteration', () => {
    const store = RunStore.open(outcome.dir);
    // A retry of the first record, appended as --resume --retry-errors would, with text whose
    // UTF-8 is longer than its UTF-16 (the places are byte offsets).
    const first = store.readRecords()[0]!;
    appendFileSync(store.recordsPath, JSON.stringify({ ...first, answer: 'réponse € 𝄞 中' }) + '\n');
    const expected = sortLikeRun(store.readRecords(), outcome.manifest);
    const source = recordsInRunOrder(store, outcome.manifest);
    expect([...source]).toEqual(expected);
    expect([...source]).toEqual(expected);
    const same = expected.filter((r) => r.strategy === first.strategy && r.questionId === first.questionId && r.repeat === first.repeat);
    expect(same.map((r) => r.answer)).toEqual([first.answer, 'réponse € 𝄞 中']);
    // File order is completion order; the run's order groups strategies in config order.
    expect(expected.map((r) => r.strategy).filter((s, i, all) => i === 0 || all[i - 1] !== s)).toEqual(['vector', 'node-list', 'layerwise']);
  });

  it('reads one record per step: a loop that stops early has read no more', () => {
    const store = RunStore.open(outcome.dir);
    const source = recordsInRunOrder(store, outcome.manifest);
    void [...source]; // the places
    const read = vi.spyOn(store, 'readRecordAt');
    for (const r of source) {
      expect(r.strategy).toBe('vector');
      break;
    }
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('says the file was rewritten when a line is no longer a record where it was', () => {
    const store = RunStore.open(outcome.dir);
    const source = recordsInRunOrder(store, outcome.manifest);
    void [...source];
    const text = readFileSync(store.recordsPath, 'utf8');
    writeFileSync(store.recordsPath, 'x'.repeat(40) + text);
    expect(() => [...source]).toThrow(UsageError);
    expect(() => [...source]).toThrow(/records\.jsonl:\d+: not a treebench record when read again.*rewritten/);
    writeFileSync(store.recordsPath, text);
  });
});
