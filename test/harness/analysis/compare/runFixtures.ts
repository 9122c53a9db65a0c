// Hand-made run folders for the compare / gate / baseline / merge tests.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunManifest } from '../../../../harness/run/store.ts';
import type { RunRecord } from '../../../../harness/types.ts';
import { record } from '../../summary/summaryFixture.ts';

export function tempDir(prefix = 'treebench-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function manifest(over: Partial<RunManifest> = {}): RunManifest {
  const runId = over.runId ?? 'run-a';
  return {
    runId,
    name: 'fixture',
    configPath: 'configs/fixture.yaml',
    config: { name: 'fixture', scoring: { f1Threshold: 0.5, numericRelTol: 0.01 }, reports: ['md'] },
    configHash: 'c0ffee',
    dataset: { name: 'fixture-data', questions: 0, questionsHash: 'q-hash-1', files: [] },
    corpus: { name: 'fixture-corpus', docs: 1, nodes: 10, hash: 'corpus-hash-1' },
    code: { version: '0.1.0', commit: null, dirty: null, node: 'v20' },
    model: { provider: 'offline', id: 'offline-reasoner', offline: true, priceAs: 'gpt-4o-mini', priced: true, label: 'offline-reasoner' },
    embedder: 'hash',
    strategies: [
      { id: 'vector', strategy: 'vector', params: {}, budget: {} },
      { id: 'tree', strategy: 'node-list', params: {}, budget: {} },
    ],
    questionIds: [],
    repeats: 1,
    seed: 7,
    concurrency: 1,
    limit: null,
    shard: null,
    index: null,
    startedAt: '2025-01-01T00:00:00.000Z',
    finishedAt: '2025-01-01T00:10:00.000Z',
    ...over,
  };
}

export interface Outcome {
  correct: 0 | 1;
  f1?: number;
  recall?: number;
  calls?: number;
  tokens?: number;
  cost?: number;
  latency?: number;
  repeat?: number;
}

/** Records for one strategy: outcome i is question q<i+1>. */
export function records(runId: string, strategy: string, outcomes: Outcome[], qPrefix = 'q'): RunRecord[] {
  return outcomes.map((o, i) =>
    record({
      runId,
      strategy,
      questionId: `${qPrefix}${i + 1}`,
      repeat: o.repeat ?? 0,
      scores: { correct: o.correct, exactMatch: o.correct, f1: o.f1 ?? o.correct, numericMatch: null, yesNo: null, choice: null },
      retrieval: { node: { recall: o.recall ?? o.correct, precision: 0.5, mrr: 0.5, ndcg: 0.5 }, page: null, doc: null },
      calls: o.calls ?? 2,
      inputTokens: o.tokens ?? 100,
      outputTokens: 10,
      costUsd: o.cost ?? 0.001,
      latencyMs: o.latency ?? 100,
    }),
  );
}

/** n outcomes with the given number correct (the first `k`), everything else at defaults. */
export function outcomes(n: number, k: number, extra: Partial<Outcome> = {}): Outcome[] {
  return Array.from({ length: n }, (_, i) => ({ correct: (i < k ? 1 : 0) as 0 | 1, ...extra }));
}

export function writeRun(dir: string, m: RunManifest, recs: RunRecord[]): string {
  mkdirSync(dir, { recursive: true });
  const questionIds = m.questionIds.length ? m.questionIds : [...new Set(recs.map((r) => r.questionId))];
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...m, questionIds, dataset: { ...m.dataset, questions: questionIds.length } }, null, 2));
  writeFileSync(join(dir, 'records.jsonl'), recs.map((r) => JSON.stringify(r) + '\n').join(''));
  return dir;
}
