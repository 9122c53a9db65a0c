// `treebench merge`: join the runs of `--shard 1/n ... n/n` into one run folder that reports
// exactly as the unsharded run would.
//
// Shard i of n ran the questions at positions p with p mod n = i − 1 (runner.ts shardQuestions),
// so position p of the full list is question floor(p / n) of shard (p mod n) + 1. The merged
// manifest lists the questions in that original order with `shard: null`; records are rewritten
// with the merged run id and sorted as the runner sorts them (strategy config order, repeat,
// question order); summary.json is recomputed from them (intervals with the run's seed).
//
// Shards are refused, with every reason, unless they come from the same config (configHash),
// dataset (questionsHash), corpus (hash), code commit, model, seed, repeats and limit, have
// distinct indices covering 1..n of one n, each finished, and each holds exactly the
// question ids its index implies.
import { jsonText } from '../files/jsonText.ts';
import { basename } from 'node:path';
import { UsageError } from '../errors.ts';
import { withIntervals } from '../summary/intervals.ts';
import { latestRecords } from './store.ts';
import { summarize, type RunSummary } from '../summary/summary.ts';
import { RunStore, type RunManifest } from './store.ts';
import type { RunRecord } from '../types.ts';

export interface MergedManifest extends RunManifest {
  mergedFrom: Array<{ runId: string; dir: string; shard: { index: number; count: number } }>;
}

export interface MergeOutcome {
  dir: string;
  manifest: MergedManifest;
  records: RunRecord[];
  summary: RunSummary;
}

interface Shard {
  dir: string;
  manifest: RunManifest;
  records: RunRecord[];
}

const same = <T>(shards: Shard[], get: (m: RunManifest) => T): boolean => {
  const first = JSON.stringify(get(shards[0].manifest));
  return shards.every((s) => JSON.stringify(get(s.manifest)) === first);
};

/** Every reason the shards cannot be merged (empty when they can). */
export function shardProblems(shards: Shard[]): string[] {
  const problems: string[] = [];
  const unsharded = shards.filter((s) => !s.manifest.shard);
  for (const s of unsharded) problems.push(`${s.dir}: not a shard run (manifest.shard is null)`);
  if (unsharded.length) return problems;
  const checks: Array<[string, (m: RunManifest) => unknown]> = [
    ['config (configHash)', (m) => m.configHash],
    ['dataset (dataset.questionsHash)', (m) => m.dataset.questionsHash],
    ['corpus (corpus.hash)', (m) => m.corpus.hash],
    ['code commit (code.commit)', (m) => m.code?.commit ?? null],
    ['model (model.id)', (m) => m.model.id],
    ['strategies', (m) => m.strategies],
    ['seed', (m) => m.seed],
    ['repeats', (m) => m.repeats],
    ['limit', (m) => m.limit],
    ['shard count', (m) => m.shard!.count],
  ];
  for (const [what, get] of checks) {
    if (!same(shards, get)) {
      problems.push(`different ${what}: ${shards.map((s) => `${basename(s.dir)}=${JSON.stringify(get(s.manifest))?.slice(0, 40)}`).join(', ')}`);
    }
  }
  if (problems.length) return problems;
  const n = shards[0].manifest.shard!.count;
  const seen = new Map<number, string>();
  for (const s of shards) {
    const i = s.manifest.shard!.index;
    if (seen.has(i)) problems.push(`shard ${i}/${n} given twice (${seen.get(i)} and ${s.dir})`);
    seen.set(i, s.dir);
  }
  const absent = Array.from({ length: n }, (_, k) => k + 1).filter((i) => !seen.has(i));
  if (absent.length) problems.push(`missing shard${absent.length > 1 ? 's' : ''} ${absent.map((i) => `${i}/${n}`).join(', ')}`);
  for (const s of shards) {
    if (!s.manifest.finishedAt) problems.push(`${s.dir}: shard ${s.manifest.shard!.index}/${n} did not finish (resume it with \`treebench run --resume\`)`);
  }
  if (problems.length) return problems;

  // Sizes: shard i of a list of N questions holds ceil((N − (i − 1)) / n) of them.
  const total = shards.reduce((t, s) => t + s.manifest.questionIds.length, 0);
  for (const s of shards) {
    const i = s.manifest.shard!.index;
    const expected = Math.ceil((total - (i - 1)) / n);
    if (s.manifest.questionIds.length !== expected) {
      problems.push(`${s.dir}: shard ${i}/${n} has ${s.manifest.questionIds.length} questions, a ${total}-question run gives it ${expected}`);
    }
    const own = new Set(s.manifest.questionIds);
    const stray = s.records.filter((r) => !own.has(r.questionId));
    if (stray.length) problems.push(`${s.dir}: ${stray.length} records for questions outside the shard (e.g. ${stray[0].questionId})`);
  }
  const all = shards.flatMap((s) => s.manifest.questionIds);
  if (new Set(all).size !== all.length) problems.push('the shards share question ids: they do not partition one question list');
  return problems;
}

/** The question ids of the unsharded run, in the original order. */
export function interleave(shards: Array<{ index: number; questionIds: string[] }>, count: number): string[] {
  const byIndex = new Map(shards.map((s) => [s.index, s.questionIds]));
  const total = shards.reduce((t, s) => t + s.questionIds.length, 0);
  const out: string[] = [];
  for (let p = 0; p < total; p++) out.push(byIndex.get((p % count) + 1)![Math.floor(p / count)]);
  return out;
}

export function mergeShards(dirs: string[], outDir: string, opts: { runId?: string } = {}): MergeOutcome {
  if (dirs.length === 0) throw new UsageError('merge needs the shard run folders');
  const shards: Shard[] = dirs.map((dir) => {
    const store = RunStore.open(dir);
    return { dir, manifest: store.readManifest(), records: latestRecords(store.readRecords()) };
  });
  const problems = shardProblems(shards);
  if (problems.length) throw new UsageError(`cannot merge these shards:\n  ${problems.join('\n  ')}`);

  const n = shards[0].manifest.shard!.count;
  const ordered = [...shards].sort((x, y) => x.manifest.shard!.index - y.manifest.shard!.index);
  const questionIds = interleave(ordered.map((s) => ({ index: s.manifest.shard!.index, questionIds: s.manifest.questionIds })), n);
  const first = ordered[0].manifest;
  const runId = opts.runId ?? basename(outDir);
  const store = RunStore.create(outDir);

  const qOrder = new Map(questionIds.map((q, i) => [q, i]));
  const sOrder = new Map(first.strategies.map((s, i) => [s.id, i]));
  const records = ordered
    .flatMap((s) => s.records)
    .map((r) => ({ ...r, runId }))
    .sort(
      (x, y) =>
        (sOrder.get(x.strategy) ?? Infinity) - (sOrder.get(y.strategy) ?? Infinity) ||
        x.repeat - y.repeat ||
        (qOrder.get(x.questionId) ?? 0) - (qOrder.get(y.questionId) ?? 0),
    );

  const times = (get: (m: RunManifest) => string | null) => ordered.map((s) => get(s.manifest)).filter((t): t is string => Boolean(t)).sort();
  const manifest: MergedManifest = {
    ...first,
    runId,
    dataset: { ...first.dataset, questions: questionIds.length },
    questionIds,
    shard: null,
    startedAt: times((m) => m.startedAt)[0] ?? first.startedAt,
    finishedAt: times((m) => m.finishedAt).at(-1) ?? null,
    mergedFrom: ordered.map((s) => ({ runId: s.manifest.runId, dir: s.dir, shard: s.manifest.shard! })),
  };
  delete manifest.resumedAt;
  store.writeManifest(manifest);
  store.writeNewRecords(records);
  const summary = withIntervals(summarize(records), records, { seed: manifest.seed });
  store.writeFile('summary.json', jsonText(summary));
  return { dir: store.dir, manifest, records, summary };
}
