// `treebench tune`: successive halving over a config's variants with the real runner.
//
// Folder layout: <out>/<tuneId>/ is itself a run folder (manifest.json, records.jsonl with every
// record of every rung, summary.json, report files), so `treebench report` reads it; beside them
// tune.json (rungs, drops, spend, the full grid's cost, frontier, recommendation) and tune.md.
// Each rung's run is kept under rungs/rung-<k>/ as the runner wrote it.
//
// Responses are shared through the response cache (on unless --no-cache): a prompt that two
// variants send alike, or a rerun of the tune, is paid once. A variant never reruns a question
// it answered at an earlier rung: its records are reused.
//
// Distributed tuning replays: the halving is a deterministic function of the config, the seed
// and the records, so records made elsewhere (`reuse`, from earlier tune folders of the same
// config) stand in for running their cells. With `shard` i/n, the first rung with cells nobody
// has run yet is run for the i-th slice of its new questions only, and the tune stops there (a
// *stage*). n machines run a stage each; the next stage reuses all their folders; a last call
// with every folder reused and nothing left to run writes the whole tune.
import { timestampRunId } from '../../run/folder.ts';
import { join, resolve } from 'node:path';
import type { LoadedConfig } from '../../config/runConfig.ts';
import { runBenchmark, shardQuestions, type BenchmarkData, type Progress } from '../../run/runner.ts';
import { latestRecords, recordKey, RunStore, type RunManifest } from '../../run/store.ts';
import { UsageError } from '../../errors.ts';
import { summarize, type RunSummary } from '../../summary/summary.ts';
import { withIntervals } from '../../summary/intervals.ts';
import type { ChatProvider, Question, RunRecord } from '../../types.ts';
import { successiveHalving, type TuneOptions, type TuneResult } from './halving.ts';
import { recommend, type Recommendation } from './recommend.ts';
import { snippetFor } from './runRecommendation.ts';
import { findPrice, loadPriceTable } from '../../models/prices.ts';
import { createProvider } from '../../models/providers/registry.ts';
import { jsonText } from '../../files/jsonText.ts';

export interface TuneRunOptions {
  loaded: LoadedConfig;
  data: BenchmarkData;
  tune: Omit<TuneOptions, 'priced' | 'seed'> & { margin?: number; alpha?: number };
  outDir?: string;
  runId?: string;
  limit?: number;
  concurrency?: number;
  cache?: boolean;
  provider?: ChatProvider;
  /** Records of earlier stages (same config hash), used instead of running their cells. */
  reuse?: { manifest: RunManifest; records: RunRecord[] }[];
  /** Run only this slice of the first incomplete rung, then stop (a stage of a distributed tune). */
  shard?: { index: number; count: number };
  /** Bootstrap intervals in the tune folder's summary.json (default true; rung runs never compute them). */
  intervals?: boolean;
  onProgress?: (p: Progress & { rung: number }) => void;
}

/** The outcome of a tune. After a stage (`stage` set) the tune is unfinished: `result` and `manifest.tune` are null. */
export interface TuneOutcome {
  dir: string;
  /** Set when a shard stopped after its slice of a rung: the tune is not finished. */
  stage?: { rung: number; shard: { index: number; count: number }; records: number };
  manifest: RunManifest & { tune: TuneSummary };
  result: TuneResult;
  records: RunRecord[];
  summary: RunSummary;
  recommendation: Recommendation | null;
  snippet?: string;
}

/** What tune.json holds (records stay in records.jsonl). */
export interface TuneSummary {
  objective: string;
  eta: number;
  minQuestions: number;
  maxCostPerQuestion: number | null;
  plan: number[];
  rungs: TuneResult['rungs'];
  dropped: TuneResult['dropped'];
  survivors: string[];
  spent: TuneResult['spent'];
  fullGrid: TuneResult['fullGrid'];
  /** spent / full grid, per measure. */
  fraction: { calls: number; tokens: number; dollars: number | null };
  recommendation: Recommendation | null;
  snippet: string | null;
  /** Every variant on the first rung's sample (the same questions): the frontiers there. */
  firstRung: { questions: number; frontier: Recommendation['frontier'] } | null;
}

/** Tune folders of earlier stages, refused unless made with this very config (same hash). */
export function loadStages(dirs: readonly string[], hash: string): { manifest: RunManifest; records: RunRecord[] }[] {
  return dirs.map((d) => {
    const store = RunStore.open(d);
    const manifest = store.readManifest();
    if (manifest.configHash !== hash) {
      throw new UsageError(`--reuse ${d}: made with a different config (configHash ${manifest.configHash.slice(0, 12)}, this one ${hash.slice(0, 12)}); reuse only stages of the same config, --set flags and variables`);
    }
    return { manifest, records: latestRecords(store.readRecords()) };
  });
}

/** Thrown inside the evaluator to stop a sharded stage after its slice of a rung. */
class StageDone extends Error {}


export async function runTune(opts: TuneRunOptions): Promise<TuneOutcome> {
  const { loaded, data } = opts;
  const config = loaded.config;
  const runId = opts.runId ?? timestampRunId(opts.outDir ?? config.run.outDir, config.name, '-tune');
  const dir = resolve(join(opts.outDir ?? config.run.outDir, runId));
  const store = RunStore.create(dir);
  const questions = opts.limit ? data.questions.slice(0, opts.limit) : data.questions;
  const variants = loaded.strategies.map((s) => s.id);
  // Costs rank ties and feed the cost cap only when they are real (the model is in the price table).
  const pricedModel = findPrice(loadPriceTable(), config.model.priceAs ?? (opts.provider ?? createProvider(config.model)).id) !== undefined;

  let firstManifest: RunManifest | null = opts.reuse?.[0]?.manifest ?? null;
  const all: RunRecord[] = [];
  const reused = new Map<string, RunRecord>();
  for (const r of (opts.reuse ?? []).flatMap((f) => f.records)) reused.set(recordKey(r), r);
  const repeats = config.run.repeats;
  let stage: TuneOutcome['stage'];
  let groups = 0;

  /** Runs `ids` × `qs` through the real runner, into rungs/<name>/. */
  const runCells = async (ids: string[], qs: Question[], rung: number): Promise<RunRecord[]> => {
    const outcome = await runBenchmark({
      loaded,
      data: { ...data, questions: qs },
      only: ids,
      outDir: join(dir, 'rungs'),
      runId: `rung-${rung}${groups++ ? `-${groups}` : ''}`,
      cache: opts.cache ?? true,
      intervals: false,
      ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
      ...(opts.provider ? { provider: opts.provider } : {}),
      ...(opts.onProgress ? { onProgress: (p: Progress) => opts.onProgress!({ ...p, rung }) } : {}),
    });
    firstManifest ??= outcome.manifest;
    return outcome.records;
  };

  const keep = (records: RunRecord[]) => {
    const mine = records.map((r) => ({ ...r, runId }));
    for (const r of mine) store.append(r);
    all.push(...mine);
    return mine;
  };

  let result: TuneResult | null = null;
  try {
    result = await successiveHalving(
      variants,
      questions,
      async (ids, qs, rung) => {
        // Cells someone already ran (all repeats present) are reused; the rest are run here.
        const have: RunRecord[] = [];
        const missing = new Map<string, string[]>(); // question id -> variants missing it
        for (const q of qs) {
          for (const id of ids) {
            const rs = Array.from({ length: repeats }, (_, repeat) => reused.get(recordKey({ strategy: id, questionId: q.id, repeat })));
            if (rs.every(Boolean)) have.push(...(rs as RunRecord[]));
            else missing.set(q.id, [...(missing.get(q.id) ?? []), id]);
          }
        }
        let todo = qs.filter((q) => missing.has(q.id));
        if (opts.shard && todo.length) todo = shardQuestions(qs, opts.shard).filter((q) => missing.has(q.id));
        // One runner call per distinct set of variants missing a question (usually one).
        const bySet = new Map<string, { ids: string[]; qs: Question[] }>();
        for (const q of todo) {
          const set = missing.get(q.id)!;
          const g = bySet.get(set.join('\u0000')) ?? { ids: set, qs: [] };
          g.qs.push(q);
          bySet.set(set.join('\u0000'), g);
        }
        const made: RunRecord[] = [];
        for (const g of bySet.values()) made.push(...(await runCells(g.ids, g.qs, rung)));
        const out = keep([...have, ...made]);
        if (opts.shard && missing.size) {
          stage = { rung, shard: opts.shard, records: made.length };
          throw new StageDone();
        }
        return out;
      },
      { ...opts.tune, priced: pricedModel, seed: config.run.seed },
    );
  } catch (err) {
    if (!(err instanceof StageDone)) throw err;
  }
  if (!result) {
    // A stage: the folder holds this shard's records (and the reused ones) for the next stage.
    const base = firstManifest as RunManifest | null;
    if (!base) throw new Error('tune: nothing ran');
    const manifest = { ...base, runId, questionIds: questions.map((q) => q.id), dataset: { ...base.dataset, questions: questions.length }, shard: opts.shard ?? null, finishedAt: new Date().toISOString() };
    store.writeManifest(manifest);
    const summary = summarize(all);
    return { dir, stage: stage!, manifest: { ...manifest, tune: null as unknown as TuneSummary }, result: null as unknown as TuneResult, records: all, summary, recommendation: null };
  }

  const survivorsRecords = new Map(result.survivors.map((id) => [id, result.records.get(id) ?? []]));
  const recommendation = survivorsRecords.size
    ? recommend(survivorsRecords, {
        objective: opts.tune.objective,
        priced: pricedModel,
        seed: config.run.seed,
        ...(opts.tune.margin !== undefined ? { margin: opts.tune.margin } : {}),
        ...(opts.tune.alpha !== undefined ? { alpha: opts.tune.alpha } : {}),
      })
    : null;

  // All variants ran the first rung's questions: their frontiers there are paired and comparable.
  const firstIds = new Set(result.order.slice(0, result.plan[0] ?? 0));
  const firstRecords = new Map([...result.records].map(([id, rs]) => [id, rs.filter((r) => firstIds.has(r.questionId))] as const).filter(([, rs]) => rs.length));
  const firstRung = firstRecords.size > 1 ? { questions: firstIds.size, frontier: recommend(firstRecords, { objective: opts.tune.objective, priced: pricedModel, seed: config.run.seed }).frontier } : null;

  const base = firstManifest as RunManifest | null;
  if (!base) throw new Error('tune: no rung ran (empty dataset?)');
  const frac = (a: number, b: number) => (b > 0 ? a / b : 0);
  const manifestStrategies = loaded.strategies.map((s) => ({ id: s.id, strategy: s.strategy, params: s.params, budget: s.budget as Record<string, number>, ...(s.grid ? { grid: s.grid } : {}) }));
  const manifestBase: RunManifest = {
    ...base,
    runId,
    dataset: { ...base.dataset, questions: questions.length },
    questionIds: questions.map((q) => q.id),
    strategies: manifestStrategies,
    limit: opts.limit ?? null,
    finishedAt: new Date().toISOString(),
  };
  const snippet = recommendation ? snippetFor(manifestBase, recommendation.recommended) : undefined;
  const tune: TuneSummary = {
    objective: opts.tune.objective,
    eta: opts.tune.eta,
    minQuestions: opts.tune.minQuestions,
    maxCostPerQuestion: opts.tune.maxCostPerQuestion ?? null,
    plan: result.plan,
    rungs: result.rungs,
    dropped: result.dropped,
    survivors: result.survivors,
    spent: result.spent,
    fullGrid: result.fullGrid,
    fraction: {
      calls: frac(result.spent.calls, result.fullGrid.calls),
      tokens: frac(result.spent.tokens, result.fullGrid.tokens),
      dollars: pricedModel ? frac(result.spent.dollars, result.fullGrid.dollars) : null,
    },
    recommendation,
    snippet: snippet ?? null,
    firstRung,
  };
  store.writeManifest(manifestBase);
  const summary = opts.intervals === false ? summarize(all) : withIntervals(summarize(all), all, { seed: config.run.seed });
  // The run store's writer: atomic, fsynced, secrets redacted, like every other run file.
  store.writeFile('summary.json', jsonText(summary));
  store.writeFile('tune.json', jsonText(tune));
  return { dir, manifest: { ...manifestBase, tune }, result, records: all, summary, recommendation, ...(snippet ? { snippet } : {}) };
}
