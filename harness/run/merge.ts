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
//
// Written like `run`: under the folder's one-writer lock (lock.ts), every file atomic, and
// resumable from a kill at any moment, because the manifest — what makes a folder a run that
// `report`, `compare` and `gate` read — is written last:
//   1. `.merge.json`: the plan (which shards, which run id): the folder is a merge in progress
//   2. records.jsonl, then summary.json (atomic)
//   3. manifest.json (atomic, finishedAt set): the folder is a finished run
//   4. `.merge.json` removed
// A kill before 3 leaves no manifest: no command mistakes the folder for a run, and running the
// same merge again (same shards, same run id) clears what the killed one left and writes it all
// again. A kill after 3 leaves a finished run; the same merge again writes nothing new (the CLI
// rewrites the report files) and exits 0. A folder holding anything else is refused.
import { jsonText } from '../files/jsonText.ts';
import { existsSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UsageError } from '../errors.ts';
import { withIntervalsInParallel } from '../summary/intervals.ts';
import { latestRecords, readJson } from './store.ts';
import { summarize, type RunSummary } from '../summary/summary.ts';
import { RunStore, type RunManifest } from './store.ts';
import type { RunRecord } from '../types.ts';
import { acquireRunLock, describeHolder } from './lock.ts';
import { removeLeftovers } from './folder.ts';
import { outputLine, writeOutputFile, writeOutputStream } from '../files/output.ts';
import { makeDirectory } from '../files/makeDirectory.ts';

export interface MergedManifest extends RunManifest {
  mergedFrom: Array<{ runId: string; dir: string; shard: { index: number; count: number }; finishedAt?: string | null; configHash?: string }>;
}

export interface MergeOutcome {
  dir: string;
  manifest: MergedManifest;
  records: RunRecord[];
  summary: RunSummary;
  /** What the user should hear (a stale lock taken over, a killed merge done again, a merge already done). */
  notes: string[];
}

/** The marker of a merge in progress: which shards make the folder, so that only the same merge resumes it. */
export const MERGE_MARKER = '.merge.json';

export interface MergePlan {
  format: 'treebench.merge/1';
  runId: string;
  shards: Array<{ runId: string; shard: { index: number; count: number }; finishedAt: string | null; configHash: string }>;
}

const samePlan = (a: Pick<MergePlan, 'runId' | 'shards'>, b: Pick<MergePlan, 'runId' | 'shards'>): boolean =>
  a.runId === b.runId && JSON.stringify(a.shards) === JSON.stringify(b.shards);

/** The plan of merging `dirs` as run `runId`: what `.merge.json` holds while that merge is in progress. */
export function mergePlan(dirs: string[], runId: string): MergePlan {
  const shards = dirs.map((dir) => ({ dir, manifest: RunStore.open(dir).readManifest(), records: [] }));
  return planOf(runId, [...shards].sort((x, y) => (x.manifest.shard?.index ?? 0) - (y.manifest.shard?.index ?? 0)));
}

function planOf(runId: string, ordered: Shard[]): MergePlan {
  return {
    format: 'treebench.merge/1',
    runId,
    shards: ordered.map((s) => ({ runId: s.manifest.runId, shard: s.manifest.shard!, finishedAt: s.manifest.finishedAt, configHash: s.manifest.configHash })),
  };
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

/** The plan a finished merged manifest records (from its mergedFrom and the shards it names). */
function planOfManifest(m: Partial<MergedManifest>): Pick<MergePlan, 'runId' | 'shards'> | null {
  if (!Array.isArray(m.mergedFrom) || typeof m.runId !== 'string') return null;
  return { runId: m.runId, shards: m.mergedFrom.map((s) => ({ runId: s.runId, shard: s.shard, finishedAt: s.finishedAt ?? null, configHash: s.configHash ?? m.configHash ?? '' })) };
}

function readPlan(path: string): MergePlan | null {
  try {
    const plan = JSON.parse(readFileSync(path, 'utf8')) as MergePlan;
    return plan && plan.format === 'treebench.merge/1' && Array.isArray(plan.shards) ? plan : null;
  } catch {
    return null; // torn or not ours: treated as another merge's
  }
}

const recordCount = (store: RunStore): number => {
  let n = 0;
  store.forEachRecord(() => void n++);
  return n;
};

function makeFolder(dir: string): void {
  try {
    makeDirectory(dir);
  } catch (err) {
    throw new UsageError(`cannot create the merged run folder ${dir} (--out): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (!statSync(dir).isDirectory()) throw new UsageError(`cannot create the merged run folder ${dir} (--out): a file is in the way`);
}

/** Removes what a killed merge of the same plan left: records, summary, report files, temporary files. */
function clearPartialMerge(dir: string): void {
  removeLeftovers(dir);
  for (const name of readdirSync(dir)) {
    if (name === 'records.jsonl' || name === 'summary.json' || /^report\.\w+$/.test(name)) unlinkSync(join(dir, name));
  }
}

export async function mergeShards(dirs: string[], outDir: string, opts: { runId?: string } = {}): Promise<MergeOutcome> {
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
  const plan = planOf(runId, ordered);
  const expected = ordered.reduce((t, s) => t + s.records.length, 0);

  makeFolder(outDir);
  const notes: string[] = [];
  const lock = acquireRunLock(outDir, {
    command: 'treebench merge',
    onTakeover: (stale) => notes.push(`took over a stale lock in ${outDir}${stale ? ` (${describeHolder(stale)}: that process is gone)` : ' (unreadable lock file)'}`),
  });
  try {
    const store = RunStore.at(outDir);
    const markerPath = join(outDir, MERGE_MARKER);
    const marker = existsSync(markerPath) ? readPlan(markerPath) : undefined;
    if (existsSync(store.manifestPath)) {
      let existing: MergedManifest | null = null;
      try {
        existing = readJson<MergedManifest>(store.manifestPath);
      } catch {
        existing = null;
      }
      const done = existing ? planOfManifest(existing) : null;
      if (!existing || !done || !samePlan(done, plan)) {
        throw new UsageError(`${outDir} already holds a run${done ? ' merged from other shards' : ''}; choose another --out`);
      }
      const complete = existing.finishedAt && existsSync(store.recordsPath) && existsSync(join(outDir, 'summary.json')) && recordCount(store) === expected;
      if (complete) {
        // Killed after the manifest (or simply run twice): the merge is done; nothing is rewritten.
        if (marker !== undefined) unlinkSync(markerPath);
        removeLeftovers(outDir);
        notes.push(`${outDir} already holds this merge (finished ${existing.finishedAt}); nothing to do`);
        const records = store.readRecords();
        const summary = readJson<RunSummary>(join(outDir, 'summary.json'));
        return { dir: outDir, manifest: existing, records, summary, notes };
      }
      // A manifest without its records (a merge by an older treebench, killed): done again.
      unlinkSync(store.manifestPath);
    } else if (marker === undefined && (existsSync(store.recordsPath) || existsSync(join(outDir, 'summary.json')))) {
      throw new UsageError(`${outDir} holds records but no manifest and no merge in progress: it is not a folder merge writes; choose another --out`);
    }
    if (marker !== undefined) {
      if (marker === null || !samePlan(marker, plan)) {
        throw new UsageError(`${outDir} holds an unfinished merge of other shards (${MERGE_MARKER}); finish it with the same shards and --run-id, or choose another --out`);
      }
      notes.push(`${outDir}: a merge of these shards was interrupted; merging again`);
    }
    clearPartialMerge(outDir);

    // 1. The plan: from here until the manifest, the folder is a merge in progress.
    writeOutputFile(markerPath, jsonText(plan), 'json');

    // 2. Records (one atomic file, written a record at a time), then the summary.
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
    await writeOutputStream(store.recordsPath, (out) => {
      for (const r of records) out.writeRaw(outputLine(r));
    });
    const summary = await withIntervalsInParallel(summarize(records), records, { seed: first.seed });
    store.writeFile('summary.json', jsonText(summary));

    // 3. The manifest, last: the folder is now a finished run.
    const times = (get: (m: RunManifest) => string | null) => ordered.map((s) => get(s.manifest)).filter((t): t is string => Boolean(t)).sort();
    const manifest: MergedManifest = {
      ...first,
      runId,
      dataset: { ...first.dataset, questions: questionIds.length },
      questionIds,
      shard: null,
      startedAt: times((m) => m.startedAt)[0] ?? first.startedAt,
      finishedAt: times((m) => m.finishedAt).at(-1) ?? new Date().toISOString(),
      mergedFrom: ordered.map((s) => ({ runId: s.manifest.runId, dir: s.dir, shard: s.manifest.shard!, finishedAt: s.manifest.finishedAt, configHash: s.manifest.configHash })),
    };
    delete manifest.resumedAt;
    store.writeManifest(manifest);

    // 4. No longer in progress.
    unlinkSync(markerPath);
    return { dir: outDir, manifest, records, summary, notes };
  } finally {
    lock.release();
  }
}
