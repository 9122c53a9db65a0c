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
import { renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LoadedConfig } from '../config.ts';
import { runBenchmark, type BenchmarkData, type Progress } from '../runner.ts';
import { RunStore, type RunManifest } from '../runStore.ts';
import { summarize, type RunSummary } from '../metrics/summary.ts';
import { withIntervals } from '../metrics/intervals.ts';
import type { ChatProvider, RunRecord } from '../types.ts';
import { successiveHalving, type TuneOptions, type TuneResult } from './halving.ts';
import { recommend, type Recommendation } from './recommend.ts';
import { snippetFor } from './runRecommendation.ts';
import { findPrice, loadPriceTable } from '../prices.ts';
import { createProvider } from '../providers/registry.ts';

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
  /** Bootstrap intervals in the tune folder's summary.json (default true; rung runs never compute them). */
  intervals?: boolean;
  onProgress?: (p: Progress & { rung: number }) => void;
}

export interface TuneOutcome {
  dir: string;
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

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

function timestampId(name: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z').replace('T', '-');
  return `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}-tune-${stamp}`;
}

export async function runTune(opts: TuneRunOptions): Promise<TuneOutcome> {
  const { loaded, data } = opts;
  const config = loaded.config;
  const runId = opts.runId ?? timestampId(config.name);
  const dir = resolve(join(opts.outDir ?? config.run.outDir, runId));
  const store = RunStore.create(dir);
  const questions = opts.limit ? data.questions.slice(0, opts.limit) : data.questions;
  const variants = loaded.strategies.map((s) => s.id);
  // Costs rank ties and feed the cost cap only when they are real (the model is in the price table).
  const pricedModel = findPrice(loadPriceTable(), config.model.priceAs ?? (opts.provider ?? createProvider(config.model)).id) !== undefined;

  let firstManifest: RunManifest | null = null;
  const all: RunRecord[] = [];
  const result = await successiveHalving(
    variants,
    questions,
    async (ids, qs, rung) => {
      const outcome = await runBenchmark({
        loaded,
        data: { ...data, questions: qs },
        only: ids,
        outDir: join(dir, 'rungs'),
        runId: `rung-${rung}`,
        cache: opts.cache ?? true,
        intervals: false,
        ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
        ...(opts.provider ? { provider: opts.provider } : {}),
        ...(opts.onProgress ? { onProgress: (p: Progress) => opts.onProgress!({ ...p, rung }) } : {}),
      });
      firstManifest ??= outcome.manifest;
      const made = outcome.records.map((r) => ({ ...r, runId }));
      for (const r of made) store.append(r);
      all.push(...made);
      return made;
    },
    { ...opts.tune, priced: pricedModel, seed: config.run.seed },
  );

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
  writeAtomic(join(dir, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
  writeAtomic(join(dir, 'tune.json'), JSON.stringify(tune, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2) + '\n');
  return { dir, manifest: { ...manifestBase, tune }, result, records: all, summary, recommendation, ...(snippet ? { snippet } : {}) };
}
