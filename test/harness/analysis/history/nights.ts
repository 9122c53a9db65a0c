// Ten "nights" of the nightly config for history tests: one real offline run, copied under ten
// run ids and start times (the offline reasoner is deterministic, so real nights would give the
// same answers), with an optional planted regression from one night on.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../../harness/config/runConfig.ts';
import { runBenchmark } from '../../../../harness/run/runner.ts';
import { loadBenchmarkData } from '../../../../datasets/registry.ts';
import type { RunRecord } from '../../../../harness/types.ts';

export interface Nights {
  root: string;
  dirs: string[];
  /** Question ids whose correct answer the plant turned wrong. */
  planted: string[];
}

export async function makeNights(opts: { count?: number; strategies?: string[]; plant?: { strategy: string; fromNight: number; flip: number } }): Promise<Nights> {
  const count = opts.count ?? 10;
  const root = mkdtempSync(join(tmpdir(), 'treebench-nights-'));
  const loaded = loadConfig('configs/nightly.yaml');
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
  const base = await runBenchmark({ loaded, data, outDir: join(root, 'base'), runId: 'base', only: opts.strategies ?? ['vector', 'node-list'] });
  const history = join(root, 'history');
  mkdirSync(history);
  const dirs: string[] = [];
  let planted: string[] = [];
  for (let night = 1; night <= count; night++) {
    const id = `nightly-2026-11-${String(night).padStart(2, '0')}`;
    const dir = join(history, id);
    cpSync(base.dir, dir, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    manifest.runId = id;
    manifest.startedAt = `2026-11-${String(night).padStart(2, '0')}T03:17:00.000Z`;
    manifest.finishedAt = `2026-11-${String(night).padStart(2, '0')}T03:20:00.000Z`;
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    let records = readFileSync(join(dir, 'records.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunRecord);
    if (opts.plant && night >= opts.plant.fromNight) {
      const { strategy, flip } = opts.plant;
      const victims = records.filter((r) => r.strategy === strategy && r.scores?.correct === 1).slice(0, flip);
      planted = victims.map((r) => r.questionId);
      const hit = new Set(planted);
      records = records.map((r) => (r.strategy === strategy && hit.has(r.questionId) ? { ...r, answer: 'something else', scores: { ...r.scores!, correct: 0, exactMatch: 0, f1: 0 } } : r));
    }
    writeFileSync(join(dir, 'records.jsonl'), records.map((r) => JSON.stringify({ ...r, runId: id })).join('\n') + '\n');
    dirs.push(dir);
  }
  return { root, dirs, planted };
}
