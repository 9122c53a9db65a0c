import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { interleave, mergeShards } from '../../../harness/run/merge.ts';
import { runBenchmark, shardQuestions } from '../../../harness/run/runner.ts';
import { loadConfig } from '../../../harness/config/runConfig.ts';
import { loadBenchmarkData } from '../../../datasets/registry.ts';
import type { RunSummary, StrategySummary } from '../../../harness/summary/summary.ts';
import type { RunManifest } from '../../../harness/run/store.ts';
import { manifest, outcomes, records, tempDir, writeRun } from '../analysis/compare/runFixtures.ts';
import { runCli } from '../../cli/runCli.ts';

/** Hand-made shard i of n over questions q1..qN: the questions the runner would give it. */
function shard(root: string, index: number, count: number, total: number, over: Partial<RunManifest> = {}) {
  const all = Array.from({ length: total }, (_, i) => `q${i + 1}`);
  const ids = shardQuestions(all, { index, count });
  const runId = over.runId ?? `shard-${index}`;
  const recs = records(runId, 'vector', outcomes(total, total)).filter((r) => ids.includes(r.questionId));
  return writeRun(join(root, runId), manifest({ runId, shard: { index, count }, questionIds: ids, ...over }), recs);
}

describe('interleave', () => {
  it('inverts shardQuestions', () => {
    const all = Array.from({ length: 11 }, (_, i) => `q${i}`);
    const shards = [1, 2, 3, 4].map((index) => ({ index, questionIds: shardQuestions(all, { index, count: 4 }) }));
    expect(interleave(shards, 4)).toEqual(all);
  });
});

describe('mergeShards (hand-made shards)', () => {
  it('restores the original question order and the record order, with shard null and one run id', async () => {
    const root = tempDir();
    const dirs = [3, 1, 4, 2].map((i) => shard(root, i, 4, 10));
    const out = await mergeShards(dirs, join(root, 'merged'));
    expect(out.manifest.questionIds).toEqual(Array.from({ length: 10 }, (_, i) => `q${i + 1}`));
    expect(out.manifest.shard).toBeNull();
    expect(out.manifest.runId).toBe('merged');
    expect(out.manifest.dataset.questions).toBe(10);
    expect(out.manifest.mergedFrom.map((m) => m.shard.index)).toEqual([1, 2, 3, 4]);
    expect(out.records.map((r) => r.questionId)).toEqual(out.manifest.questionIds);
    expect(new Set(out.records.map((r) => r.runId))).toEqual(new Set(['merged']));
    expect(out.summary.runIds).toEqual(['merged']);
    const onDisk = readFileSync(join(root, 'merged', 'records.jsonl'), 'utf8').trim().split('\n');
    expect(onDisk).toHaveLength(10);
  });

  it('refuses incompatible shards with every reason', async () => {
    const root = tempDir();
    const a = shard(root, 1, 3, 9);
    const b = shard(root, 2, 3, 9, { configHash: 'other', corpus: { ...manifest().corpus, hash: 'other-corpus' } });
    await expect(mergeShards([a, b], join(root, 'm1'))).rejects.toThrow(/different config \(configHash\)[\s\S]*different corpus \(corpus\.hash\)/);
    const root2 = tempDir();
    const s1 = shard(root2, 1, 3, 9);
    const s1again = shard(root2, 1, 3, 9, { runId: 'dup' });
    await expect(mergeShards([s1, s1again], join(root2, 'm'))).rejects.toThrow(/given twice[\s\S]*missing shards 2\/3, 3\/3/);
    const root3 = tempDir();
    const unfinished = shard(root3, 2, 2, 4, { finishedAt: null });
    await expect(mergeShards([shard(root3, 1, 2, 4), unfinished], join(root3, 'm'))).rejects.toThrow(/did not finish/);
    const root4 = tempDir();
    const plain = writeRun(join(root4, 'plain'), manifest(), records('run-a', 'vector', outcomes(4, 2)));
    await expect(mergeShards([plain], join(root4, 'm'))).rejects.toThrow(/not a shard run/);
  });
});

// Everything in a summary except what depends on wall-clock timing.
function timingFree(s: RunSummary) {
  const strip = (x: StrategySummary) => {
    const { latencyMs: _l, intervals, ...rest } = x;
    const kept = Object.fromEntries(Object.entries(intervals ?? {}).filter(([k]) => !k.startsWith('latencyMs')));
    return { ...rest, intervals: kept };
  };
  return { ...s, runIds: s.runIds.length, strategies: s.strategies.map(strip) };
}

describe('merge end to end (offline reasoner, bundled sample)', () => {
  it('four shards merged give the same summary and records as one unsharded run', async () => {
    const loaded = loadConfig(new URL('../../../configs/quickstart.yaml', import.meta.url).pathname);
    const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
    const root = tempDir();
    const common = { loaded, data, only: ['vector', 'node-list'], limit: 30, outDir: root, concurrency: 4 };
    const full = await runBenchmark({ ...common, runId: 'full' });
    const shards: string[] = [];
    for (let i = 1; i <= 4; i++) shards.push((await runBenchmark({ ...common, runId: `part-${i}`, shard: { index: i, count: 4 } })).dir);

    const cli = await runCli(['merge', ...shards.reverse(), '--out', join(root, 'merged'), '--format', 'json']);
    expect(cli.code).toBe(0);
    const merged = JSON.parse(readFileSync(join(root, 'merged', 'summary.json'), 'utf8')) as RunSummary;
    const fullSummary = JSON.parse(readFileSync(join(full.dir, 'summary.json'), 'utf8')) as RunSummary;
    expect(timingFree(merged)).toEqual(timingFree(fullSummary));
    // Exact, number for number: answers, retrieval, calls, tokens, cost.
    for (const [i, s] of merged.strategies.entries()) {
      const f = fullSummary.strategies[i]!;
      for (const k of ['accuracy', 'f1', 'callsPerQuestion', 'tokensPerQuestion', 'costPerQuestion'] as const) expect(s[k]).toBe(f[k]);
      expect(s.retrieval).toEqual(f.retrieval);
    }

    const m = JSON.parse(readFileSync(join(root, 'merged', 'manifest.json'), 'utf8')) as RunManifest;
    expect(m.questionIds).toEqual(full.manifest.questionIds);
    expect(m.shard).toBeNull();
    expect(m.dataset).toEqual(full.manifest.dataset);
    expect(m.configHash).toBe(full.manifest.configHash);
    const key = (r: { strategy: string; questionId: string; repeat: number }) => `${r.strategy}/${r.questionId}/${r.repeat}`;
    const mergedRecords = readFileSync(join(root, 'merged', 'records.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(mergedRecords.map(key)).toEqual(full.records.map(key));
    expect(mergedRecords.map((r) => [r.answer, r.calls, r.inputTokens])).toEqual(full.records.map((r) => [r.answer, r.calls, r.inputTokens]));

    // And `treebench report` on the merged folder prints what it prints for the unsharded run.
    const a = await runCli(['report', join(root, 'merged'), '--format', 'csv']);
    const b = await runCli(['report', full.dir, '--format', 'csv']);
    const cols = (csv: string) => {
      const [head, ...rows] = csv.trim().split('\r\n').map((l) => l.split(','));
      const keep = head!.map((h, i) => [h, i] as const).filter(([h]) => h !== 'runId' && !h.startsWith('latencyMs'));
      return rows.map((r) => keep.map(([h, i]) => [h, r[i]]));
    };
    expect(cols(a.stdout)).toEqual(cols(b.stdout));
  });
});
