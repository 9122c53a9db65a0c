// The runner: strategies x questions x repeats. Model calls in flight are bounded by one shared
// limiter (the `concurrency` setting); questions in flight are bounded a little above it so the
// call slots stay busy. Each record is queued for appending the moment it is finished
// (harness/run/recordWriter.ts), and the runner waits for the disk when too many are queued.
import { jsonText } from '../files/jsonText.ts';
import { setMaxListeners } from 'node:events';
import { fileURLToPath } from 'node:url';
import { codeVersion } from './codeVersion.ts';
import { basename, join, relative, resolve } from 'node:path';
import pLimit from 'p-limit';
import { isBudgetExhausted } from './budget.ts';
import { RunStartError, UsageError } from '../errors.ts';
import type { LoadedConfig, StrategySpec } from '../config/runConfig.ts';
import { isLocalEmbedder, MeteredContext, type ModelDoor } from './context.ts';
import { hashSeed } from './random.ts';
import { goldAnswers, scoreAnswer } from '../scoring/answer.ts';
import { LlmJudge } from '../scoring/judge/llm.ts';
import { judgeGroundedness } from '../scoring/judge/grounding.ts';
import { corpusHash } from '../trees/corpusHash.ts';
import { fileSha256, sha256 } from '../files/fileHash.ts';
import { lexicalGroundedness } from '../scoring/groundedness.ts';
import { scoreRetrievalAtK } from '../scoring/retrieval.ts';
import { summarize, type RunSummary } from '../summary/summary.ts';
import { DEFAULT_RESAMPLES, warmUpSummary, withIntervalsInParallel } from '../summary/intervals.ts';
import { BootstrapWorker, EARLY_WORKER_RECORDS } from '../stats/parallelBootstrap.ts';
import { findPrice, loadRunPrices, priceCall, stalePricesWarning, sumCosts } from '../models/prices.ts';
import { createEmbedder, createProvider, embedderOptionsFor } from '../models/providers/registry.ts';
import { ProviderError } from '../models/providers/openai-client.ts';
import { inheritEndpoint } from '../models/endpoint.ts';
import { recordKey, RunStore, type FileHash, type RunManifest } from './store.ts';
import { openRunFolder, runFolderPath, timestampRunId } from './folder.ts';
import { CircuitBreaker, classifyFailure, isEnvironmentFailure, type FailureKind } from './breaker.ts';
import { redactSecrets } from '../models/secrets.ts';
import { toQuestionInput, type CallLog, type ChatProvider, type Corpus, type DocTree, type Question, type RunRecord, type StrategyResult } from '../types.ts';
import { ValueIndex } from '../retrieval/valueIndex.ts';
import { sortLikeRun } from './order.ts';
import { RecordWriter } from './recordWriter.ts';
import { summaryRecord } from '../summary/rows.ts';
import { CacheMissError, ResponseCache, type CacheMode } from '../models/responseCache.ts';
import { configHashOf, legacyConfigHash } from '../config/overrides.ts';
import { warmTokenizer } from '../models/tokenizer.ts';
import { getStrategy } from '../strategy/registry.ts';
import type { Strategy } from '../strategy/strategy.ts';
import { applyScorers, loadScorers, type Scorer } from '../scoring/scorer.ts';
import type { BenchmarkData } from '../types.ts';
import { countNodes, treeDepth } from '../trees/tree.ts';
import { writeModelSummaries, type IngestionCost } from './modelSummaries.ts';

export type { BenchmarkData };

/** Summary rows kept while the calls go on (about 4.5 MB); a longer run reads its records back for the summary. */
const KEPT_ROWS_MAX = 10_000;

/**
 * Where a run is: `index` as chunks are embedded; `run` once as the calls start (done 0), then
 * after each finished record.
 */
export interface Progress {
  done: number;
  total: number;
  errors: number;
  elapsedMs: number;
  /**
   * `fingerprint`: the corpus hashed for the manifest (documents); `chunking`: the corpus cut into
   * chunks (documents); `index`: chunks embedded; `run`: records.
   */
  phase: 'fingerprint' | 'chunking' | 'index' | 'run';
}

export interface RunOptions {
  loaded: LoadedConfig;
  data: BenchmarkData;
  /** Only these strategy ids (labels) from the config. */
  only?: string[];
  limit?: number;
  concurrency?: number;
  repeats?: number;
  /** Folder that holds run folders (default: config `run.outDir`, relative to the cwd). */
  outDir?: string;
  runId?: string;
  /** Resume this run folder instead of starting a new one. */
  resumeDir?: string;
  /** On resume, run again the records that ended in an error. */
  retryErrors?: boolean;
  /** Run a deterministic slice of the questions: `{ index: 1-based, count }`. */
  shard?: { index: number; count: number };
  /** Turn the response cache on (`true` = use) or off, or pick its mode, whatever the config says. */
  cache?: boolean | CacheMode;
  /** Launch no more work once the run's calls have cost this many dollars (`run.maxDollars`). */
  maxDollars?: number;
  /** Progress of model-written summaries at ingestion (corpus.summaries: model). */
  onSummaryProgress?: (done: number, total: number) => void;
  /** Turn the on-disk embedding cache off, whatever the config says. */
  embeddingCache?: boolean;
  /** Use this provider instead of the configured one (tests inject scripted models). */
  provider?: ChatProvider;
  /** Use this provider for the groundedness grader instead of `scoring.groundedness`'s (tests). */
  groundednessProvider?: ChatProvider;
  /** Use this provider for the LLM judge instead of `scoring.judge`'s. */
  judgeProvider?: ChatProvider;
  /** Bootstrap intervals in summary.json (default true; `tune` skips them for its rung runs). */
  intervals?: boolean;
  onProgress?: (p: Progress) => void;
  /**
   * Called once, when every task left has its call out (none waits for a call slot): from then
   * on the run only waits for its last replies, a time to load what its end needs.
   */
  onCallsOut?: () => void;
  /** Interrupts the run (Ctrl-C): no new work starts, calls in flight are aborted, finished records stay. */
  signal?: AbortSignal;
  /** Messages for the user (a stale lock taken over, a resume that starts afresh). */
  onNote?: (message: string) => void;
}

/** Why a run stopped before all its work was done; the rest is resumable. */
export interface RunStop {
  reason: string;
  /** Tasks (strategy x question x repeat) without a record, to be run by `--resume`. */
  notRun: number;
  interrupted: boolean;
}

/** What the response cache did in this invocation. */
export interface CacheOutcome {
  mode: Exclude<CacheMode, 'off'>;
  hits: number;
  /** Calls that replay could not answer (each failed its question; no request was made). */
  replayMisses: number;
}

export interface RunOutcome {
  dir: string;
  /** Null when the response cache was off. */
  cache: CacheOutcome | null;
  /** Things the user should know about the run's numbers (e.g. a stale price table). */
  warnings: string[];
  /** Dollars this invocation's calls cost (cached calls: nothing); null when the model is unpriced. */
  spentUsd: number | null;
  manifest: RunManifest;
  /** Every record of the run folder in config order, read from records.jsonl on first access. */
  records: RunRecord[];
  summary: RunSummary;
  /** Set when work is left undone (interrupted, circuit breaker, environment failures). */
  stopped: RunStop | null;
}

/** Longest answer kept in a record: a runaway reply is data, not something to store whole. */
export const MAX_RECORD_ANSWER_CHARS = 4000;

export function capAnswer(answer: string): string {
  if (answer.length <= MAX_RECORD_ANSWER_CHARS) return answer;
  return `${answer.slice(0, MAX_RECORD_ANSWER_CHARS)}… [${answer.length - MAX_RECORD_ANSWER_CHARS} more characters cut]`;
}

/** Questions of a shard: every question whose position modulo `count` is `index - 1`. */
export function shardQuestions<T>(questions: T[], shard?: { index: number; count: number }): T[] {
  if (!shard) return questions;
  return questions.filter((_, i) => i % shard.count === shard.index - 1);
}

/** The questions a run takes: the first `limit`, then the shard. The CLI loads documents for exactly these. */
export function selectQuestions<T>(questions: T[], limit?: number, shard?: { index: number; count: number }): T[] {
  return shardQuestions(limit ? questions.slice(0, limit) : questions, shard);
}

/** The package root, and whether this is its compiled JavaScript (not its TypeScript sources). */
const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COMPILED = import.meta.url.endsWith('.js');


/** The manifest's ingestion section: PDF extraction, trees the model built, model-written summaries. */
function ingestionOf(data: BenchmarkData, summaryCost: IngestionCost | null): NonNullable<RunManifest['ingestion']> {
  const { treeModel, ...pdf } = data.ingest ?? {};
  return { ...(data.ingest ? { pdf: pdf as NonNullable<RunManifest['ingestion']>['pdf'] } : {}), ...(treeModel ? { trees: treeModel } : {}), ...(summaryCost ? { summaries: summaryCost } : {}) };
}

/** The corpus hash, reporting its documents as phase `fingerprint`. */
function fingerprint(docs: DocTree[], onProgress: RunOptions['onProgress']): string {
  const t0 = performance.now();
  return corpusHash(docs, onProgress && ((done, total) => onProgress({ phase: 'fingerprint', done, total, errors: 0, elapsedMs: performance.now() - t0 })));
}

export async function runBenchmark(opts: RunOptions): Promise<RunOutcome> {
  const { loaded, data } = opts;
  const { config } = loaded;
  const concurrency = opts.concurrency ?? config.run.concurrency;
  let repeats = opts.repeats ?? config.run.repeats;
  const limit = opts.limit ?? config.run.limit;

  let specs: StrategySpec[] = loaded.strategies;
  if (opts.only?.length) {
    const unknown = opts.only.filter((id) => !specs.some((s) => s.id === id));
    if (unknown.length) throw new UsageError(`--strategies: ${unknown.join(', ')} not in the config (it has: ${specs.map((s) => s.id).join(', ')})`);
    specs = specs.filter((s) => opts.only!.includes(s.id));
  }
  let questions = selectQuestions(data.questions, limit, opts.shard);
  const byId = new Map(questions.map((q) => [q.id, q]));
  if (byId.size !== questions.length) throw new Error(`dataset ${data.name}: question ids are not unique`);
  if (!opts.resumeDir && questions.length === 0) {
    throw new UsageError(`no questions to run: ${opts.shard ? `--shard ${opts.shard.index}/${opts.shard.count} of ` : ''}${data.questions.length} question(s)${limit ? ` (limit ${limit})` : ''} selects none`);
  }

  const provider = opts.provider ?? createProvider(config.model);
  const embedder = createEmbedder(config.embedder, embedderOptionsFor(config.model));
  const prices = loadRunPrices(config.prices, loaded.baseDir);
  const priceAs = config.model.priceAs ?? null;
  const pricedModel = priceAs ?? provider.id;
  const maxDollars = opts.maxDollars ?? config.run.maxDollars;
  if (maxDollars !== undefined && !findPrice(prices, pricedModel)) {
    throw new UsageError(`run.maxDollars (--max-dollars) needs priced calls, and "${pricedModel}" is not in the price table: add it under \`prices:\` in the config, or set model.priceAs`);
  }
  const { apiKeyEnv: _keyVar, ...modelKey } = config.model;

  // Model-written node summaries (corpus.summaries: model) are ingestion, not per-question work:
  // their cost is reported on its own, and cached so the next run pays nothing.
  let summaryCost: IngestionCost | null = null;
  if (config.corpus?.summaries === 'model') {
    summaryCost = await writeModelSummaries(data.corpus, {
      door: { provider, embedder, prices, ...(priceAs ? { priceAs } : {}), modelKey },
      maxTokens: config.corpus.summaryTokens,
      cacheDir: config.corpus.cache ? resolve(config.corpus.cacheDir, 'summaries') : null,
      concurrency,
      ...(opts.onSummaryProgress ? { onProgress: opts.onSummaryProgress } : {}),
    });
  }

  // Plugin modules are imported and their params checked before anything is written. (The host
  // is loaded only for a config that has plugins.)
  const plugins = loaded.strategies.some((s) => s.source) ? await (await import('../plugins/host.ts')).PluginHost.prepare(loaded.strategies) : null;
  const scorers = config.scoring.scorers?.length ? await loadScorers(config.scoring.scorers, loaded.baseDir) : null;

  // Run folder: new, or an interrupted one to resume; held under its one-writer lock.
  let store: RunStore;
  let manifest: RunManifest;
  const startedAt = new Date().toISOString();
  const folder = opts.resumeDir
    ? openRunFolder(opts.resumeDir, 'resume', { command: 'treebench run --resume' })
    : openRunFolder(runFolderPath(opts.outDir ?? config.run.outDir, opts.runId ?? timestampRunId(opts.outDir ?? config.run.outDir, config.name), opts.runId !== undefined ? '--run-id' : `the run id made from the config name "${config.name}"`), 'new', {
        outDirLabel: opts.outDir ? '--out' : 'run.outDir',
        command: 'treebench run',
      });
  for (const note of folder.notes) opts.onNote?.(note);
  let onAbort: (() => void) | undefined;
  // Everything below runs under the folder's lock; the finally at the end releases it.
  try {
  store = folder.store;
  if (folder.manifest) {
    manifest = folder.manifest;
    // Resuming under another config would mix records of two different runs in one folder.
    // Parsed-config hash (overrides included); older manifests hashed the raw text.
    if (manifest.configHash !== configHashOf(loaded) && manifest.configHash !== legacyConfigHash(loaded)) {
      throw new UsageError(`${opts.resumeDir} was started with a different config (${manifest.configPath}); resume it with that config unchanged`);
    }
    // The run's own selection wins over today's flags: same questions, strategies and repeats.
    const ids = new Set(manifest.questionIds);
    questions = data.questions.filter((q) => ids.has(q.id));
    specs = loaded.strategies.filter((s) => manifest.strategies.some((m) => m.id === s.id));
    repeats = manifest.repeats;
    manifest.resumedAt = [...(manifest.resumedAt ?? []), startedAt];
    manifest.finishedAt = null;
  } else {
    const runId = basename(store.dir);
    // A corpus loaded for a selection (--limit/--shard) carries hashes that do not depend on it.
    const questionsHash = data.identity?.questionsHash ?? sha256(JSON.stringify(data.questions));
    const files: FileHash[] = data.files.map((f) => ({ path: relative(process.cwd(), f), sha256: fileSha256(f) }));
    manifest = {
      runId,
      name: config.name,
      configPath: relative(process.cwd(), loaded.path),
      config,
      configHash: configHashOf(loaded),
      dataset: { name: data.name, questions: questions.length, questionsHash, files },
      corpus: {
        name: data.corpus.name,
        docs: data.corpus.docs.length,
        nodes: data.corpus.docs.reduce((n, d) => n + countNodes(d.nodes), 0),
        hash: data.identity?.corpusHash ?? fingerprint(data.corpus.docs, opts.onProgress),
        // How each built tree was made (PDFs: outline, toc, layout or pages), when any was built.
        ...(data.corpus.docs.some((d) => d.treeSource)
          ? {
              trees: data.corpus.docs.map((d) => ({
                docId: d.docId,
                source: d.treeSource ?? null,
                nodes: countNodes(d.nodes),
                depth: treeDepth(d.nodes),
                ...(d.summaries ? { summaries: d.summaries } : {}),
                ...(d.treeReport ? { reason: d.treeReport.reason, ...(d.treeReport.unlocated?.length ? { unlocated: d.treeReport.unlocated.length } : {}) } : {}),
              })),
            }
          : {}),
      },
      ...(data.ingest || summaryCost ? { ingestion: ingestionOf(data, summaryCost) } : {}),
      code: codeVersion(PACKAGE_ROOT, COMPILED),
      model: {
        provider: config.model.provider,
        id: provider.id,
        offline: provider.offline,
        priceAs,
        priced: findPrice(prices, pricedModel) !== undefined,
        label: provider.offline ? `${provider.id} (offline reasoner: lexical heuristics, not an LLM)` : provider.id,
        ...(prices.asOf ? { pricesAsOf: prices.asOf } : {}),
        ...(prices.user ? { userPrices: prices.user.models } : {}),
      },
      embedder: embedder.id,
      strategies: specs.map((s) => ({ id: s.id, strategy: s.strategy, params: s.params, budget: s.budget as Record<string, number>, ...(s.grid ? { grid: s.grid } : {}) })),
      ...(loaded.overrides || loaded.env ? { overrides: { set: loaded.overrides ?? [], env: loaded.env ?? {} } } : {}),
      questionIds: questions.map((q) => q.id),
      repeats,
      seed: config.run.seed,
      concurrency,
      limit: limit ?? null,
      shard: opts.shard ?? null,
      index: null,
      startedAt,
      finishedAt: null,
      ...(scorers ? { scorers: scorers.info } : {}),
    };
  }
  // Written before the first record: a folder with records always has its manifest.
  store.writeManifest(manifest);

  // Ctrl-C (opts.signal) and a tripped breaker both stop calls in flight through one signal.
  const stopCalls = new AbortController();
  setMaxListeners(0, stopCalls.signal); // every call in flight listens to it
  onAbort = () => stopCalls.abort(opts.signal?.reason ?? new Error('interrupted'));
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener('abort', onAbort);

  // Plugin workers start now, so their start-up overlaps the index build rather than the first questions.
  await plugins?.start({ runDir: store.dir, corpus: data.corpus, models: { chat: provider.id, embedding: embedder.id } }, specs);
  // The tokenizer's tables are built (~15 ms for o200k from the build's rank file) before anything is timed.
  warmTokenizer(provider.id);
  warmTokenizer(pricedModel); // the meter counts unreported tokens with the priced model's encoding
  const t0 = performance.now();
  const { cache: embeddingCache, ...indexOpts } = config.index;
  const cacheMode = resolveCacheMode(opts.cache, config.cache);
  const embeddingCacheDir = embeddingCache.enabled && opts.embeddingCache !== false ? resolve(embeddingCache.dir) : null;
  const index = await ValueIndex.build(data.corpus, embedder, {
    ...indexOpts,
    ...(embeddingCacheDir ? { cacheDir: embeddingCacheDir } : {}),
    // Replay never spends: a remote embedder's index vectors must all come from the embedding cache.
    ...(cacheMode === 'replay' && !isLocalEmbedder(embedder.id)
      ? { refuseEmbedCalls: (n: number) => new UsageError(`replay: ${n} chunk(s) of the corpus index are not in the embedding cache (${embeddingCacheDir ?? 'index.cache is off'}), and replay never calls the embedder ${embedder.id}; restore the embedding cache with the response cache, or run once with cache.mode use`) }
      : {}),
    onChunking: (done, total) => opts.onProgress?.({ phase: 'chunking', done, total, errors: 0, elapsedMs: performance.now() - t0 }),
    onProgress: (done, total) => opts.onProgress?.({ phase: 'index', done, total, errors: 0, elapsedMs: performance.now() - t0 }),
  }).catch((err: unknown) => {
    // An embedding server that failed past its retries: no record can hold that failure, and
    // the folder (manifest, no records) is left for --resume.
    throw err instanceof ProviderError ? new RunStartError(store.dir, err) : err;
  });
  // The corpus index's embedding calls, priced like ctx.embed's; kept apart from every question's cost.
  const indexPrice = priceCall(prices, embedder.id.replace(/^openai:/, ''), index.stats.inputTokens, 0);
  manifest.index = { ...index.stats, costUsd: indexPrice.costUsd, priced: indexPrice.priced };
  store.writeManifest(manifest);

  const spent = { usd: 0 };
  const door: ModelDoor = {
    provider,
    embedder,
    prices,
    ...(priceAs ? { priceAs } : {}),
    limiter: pLimit(concurrency),
    index,
    ...(cacheMode !== 'off' ? { cache: new ResponseCache(resolve(config.cache.dir), cacheMode), modelKey } : {}),
    signal: stopCalls.signal,
    spent,
  };
  const strategyFor = (spec: StrategySpec): Strategy => (spec.source ? plugins!.strategyFor(spec) : getStrategy(spec.strategy));
  // The judge talks to the run's model server unless it names its own (harness/models/endpoint.ts).
  const judge = config.scoring.judge
    ? new LlmJudge({ config: inheritEndpoint(config.scoring.judge, config.model), prices, concurrency, ...(opts.judgeProvider ? { provider: opts.judgeProvider } : {}), ...(door.cache ? { cache: door.cache } : {}) })
    : undefined;
  // The groundedness grader goes through a judge door of its own (its calls are never the strategies').
  const grounder = config.scoring.groundedness
    ? new LlmJudge({ config: inheritEndpoint({ ...config.scoring.groundedness, prompt: 'default' }, config.model), prices, concurrency, ...(opts.groundednessProvider ? { provider: opts.groundednessProvider } : {}), ...(door.cache ? { cache: door.cache } : {}) })
    : undefined;
  // Finished work is skipped; with --retry-errors a key whose latest record is an error is run
  // again, and the new record (appended) supersedes the old one.
  const done = new Set([...folder.previous].filter(([, succeeded]) => succeeded || !opts.retryErrors).map(([key]) => key));
  folder.previous.clear();
  // Tasks in run order (repeat, question, strategy), as numbers: one per task, not an object.
  const perRepeat = questions.length * specs.length;
  const taskAt = (t: number) => ({ spec: specs[t % specs.length]!, question: questions[Math.floor(t / specs.length) % questions.length]!, repeat: Math.floor(t / perRepeat) });
  const isDone = (t: number) => {
    const { spec, question, repeat } = taskAt(t);
    return done.has(recordKey({ strategy: spec.id, questionId: question.id, repeat }));
  };
  let tasks: number[] | null = null;
  if (done.size > 0) {
    tasks = [];
    for (let t = 0; t < repeats * perRepeat; t++) if (!isDone(t)) tasks.push(t);
    done.clear();
  }
  const taskCount = tasks ? tasks.length : repeats * perRepeat;

  const writer = new RecordWriter(store.recordsPath);
  // The summary's rows (harness/summary/rows.ts), one per record as it is written, parsed from
  // the very line written, as `report` would read it back: so the summary need not read the
  // file back when the calls are done (0.1 s for 2,000 records). A row costs about 0.45 KB of
  // heap while the calls go on; past KEPT_ROWS_MAX rows they are dropped and the file is read back,
  // so a long run's memory stays flat. A resumed run's file also holds earlier invocations'
  // records: it is read back too.
  let rows: RunRecord[] | null = folder.manifest ? null : [];
  // The bootstrap's second thread, started once half the tasks are under way (or, resuming a long
  // run, after the calls), so that its start and its draws overlap the calls instead of the summary.
  let bootstrapWorker: BootstrapWorker | undefined;
  const startBootstrapWorker = (records: number) => {
    if (bootstrapWorker || opts.intervals === false || records < EARLY_WORKER_RECORDS) return;
    bootstrapWorker = new BootstrapWorker();
    // Every strategy's intervals resample the run's questions with the run's seed: the worker
    // draws those replicates while calls are still out, and the summary's two threads then
    // share them (stats/parallelBootstrap.ts).
    bootstrapWorker.prepareDraws(questions.length, DEFAULT_RESAMPLES, manifest.seed);
  };
  let errors = 0;
  let finished = 0;
  let notRun = 0;
  let capped = false;
  const environmentErrors = new Map<string, number>();
  const breaker = new CircuitBreaker(config.run.maxConsecutiveFailures);
  const runStart = performance.now();
  // The calls start: said once before the first record.
  if (taskCount > 0) opts.onProgress?.({ phase: 'run', done: 0, total: taskCount, errors: 0, elapsedMs: 0 });
  // Enough questions in flight to keep every call slot busy while others do local work: that
  // many workers take the next task as they finish one (no promise per task is made up front).
  let nextTask = 0;
  // Once every task left has its call out (none waits for a call slot), the run only waits for its
  // last replies: onCallsOut says so, and a run over the network warms its summary's code then,
  // on the records in so far (warmUpSummary), so that the real summary, after the last reply,
  // does not run it cold. (An offline run has no such wait; a run with no intervals, nothing to warm.)
  const warm = Boolean(rows) && !provider.offline && opts.intervals !== false && repeats * perRepeat >= EARLY_WORKER_RECORDS;
  let callsOut = false;
  const checkCallsOut = () => {
    if (callsOut || nextTask < taskCount || nextTask - finished - notRun > concurrency) return;
    callsOut = true;
    opts.onCallsOut?.();
    if (!warm) return;
    setImmediate(() => {
      try {
        if (rows) warmUpSummary(rows);
      } catch {
        // Only a warm-up: the summary proper, after the calls, reports whatever is wrong.
      }
    });
  };
  const runTask = async (task: ReturnType<typeof taskAt>) => {
    if (breaker.open || stopCalls.signal.aborted) {
      notRun++;
      return;
    }
    // The spending cap stops launching work; what is in flight finishes (one wave past the cap at most).
    if (maxDollars !== undefined && spent.usd >= maxDollars) {
      capped = true;
      notRun++;
      return;
    }
    const { record, failure } = await runOneDetailed(task, { runId: manifest.runId, corpus: data.corpus, door, seed: config.run.seed, scoring: config.scoring, strategyFor, stop: stopCalls.signal, ...(judge ? { judge } : {}), ...(grounder ? { grounder } : {}), ...(scorers ? { scorers: scorers.scorers } : {}) });
    const kind: FailureKind | null = failure === undefined ? null : classifyFailure(failure);
    breaker.record(kind, record.error ?? '');
    if (breaker.open) stopCalls.abort(new Error(breaker.reason!));
    // The environment failed (auth, connection, interrupted), not the strategy: no record,
    // the task stays to be run by --resume.
    if (kind !== null && (isEnvironmentFailure(kind) || stopCalls.signal.aborted)) {
      notRun++;
      if (kind !== 'aborted' && record.error) environmentErrors.set(record.error, (environmentErrors.get(record.error) ?? 0) + 1);
      return;
    }
    const line = writer.append(record);
    if (rows && rows.length >= KEPT_ROWS_MAX) rows = null;
    rows?.push(summaryRecord(JSON.parse(line) as RunRecord));
    finished++;
    if (record.error) errors++;
    opts.onProgress?.({ phase: 'run', done: finished, total: taskCount, errors, elapsedMs: performance.now() - runStart });
    await writer.caughtUp();
  };
  const lane = async () => {
    while (nextTask < taskCount) {
      const t = nextTask++;
      if (nextTask * 2 >= taskCount) startBootstrapWorker(repeats * perRepeat);
      await runTask(taskAt(tasks ? tasks[t]! : t));
      checkCallsOut();
    }
  };
  try {
    // Each lane starts a turn of the event loop after the one before: its first task's local
    // work (retrieval, the prompt) runs, and its call goes out, before the next lane's task
    // begins. Started all at once, every lane's local work came first and the first call waited
    // for all of it (~0.1 s of cold code at concurrency 64).
    const lanes: Array<Promise<void>> = [];
    const laneCount = Math.min(taskCount, Math.max(2, concurrency * 2));
    for (let i = 0; i < laneCount && nextTask < taskCount; i++) {
      if (i > 0) await new Promise<void>((next) => setImmediate(next));
      const started = lane();
      started.catch(() => {}); // awaited below, with the rest: not an unhandled rejection meanwhile
      lanes.push(started);
    }
    await Promise.all(lanes);
  } catch (err) {
    bootstrapWorker?.close();
    throw err;
  }
  let stopped: RunStop | null = null;
  if (notRun > 0) {
    const commonest = [...environmentErrors.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    const reason = opts.signal?.aborted
      ? 'interrupted'
      : breaker.reason ?? (capped ? `run.maxDollars $${maxDollars} reached: this invocation spent $${spent.usd.toFixed(4)}` : undefined) ?? `${notRun} tasks failed for reasons outside the strategy${commonest ? `: ${commonest}` : ''}`;
    stopped = { reason, notRun, interrupted: Boolean(opts.signal?.aborted) && !breaker.open };
  }

  startBootstrapWorker(writer.appended);
  let summary: RunSummary;
  try {
    await writer.close();
    // Of a finished record only its summary row stays in memory while the run goes on; a resumed
    // run reads the records file back, as `report` does, one record at a time into a row. Rows
    // follow the run's order of strategies and questions, not completion order: the order
    // `report` and `history` sort by too, so the seeded bootstrap gives them the same intervals.
    const records: RunRecord[] = rows ?? [];
    if (!rows) store.forEachRecord((r) => void records.push(summaryRecord(r)));
    sortLikeRun(records, manifest);
    summary = opts.intervals === false ? summarize(records) : await withIntervalsInParallel(summarize(records), records, { seed: manifest.seed, worker: bootstrapWorker });
  } catch (err) {
    bootstrapWorker?.close();
    throw err;
  }
  const pacing = provider.pacing;
  if (pacing && (pacing.paced || pacing.refused > 0)) {
    manifest.pacing = { ...pacing, waitedMs: Math.round(pacing.waitedMs) };
    summary.pacing = manifest.pacing;
  }
  const embedPacing = embedder.pacing;
  if (embedPacing && (embedPacing.paced || embedPacing.refused > 0)) {
    manifest.embeddingPacing = { ...embedPacing, waitedMs: Math.round(embedPacing.waitedMs) };
    summary.embeddingPacing = manifest.embeddingPacing;
  }
  // A run with work left undone is not finished: finishedAt stays null until a resume completes it.
  if (!stopped) manifest.finishedAt = new Date().toISOString();
  store.writeManifest(manifest);
  store.writeFile('summary.json', jsonText(summary));
  let full: RunRecord[] | null = null;
  return {
    dir: store.dir,
    cache: door.cache ? { mode: door.cache.mode, hits: door.cache.hits, replayMisses: door.cache.replayMisses } : null,
    spentUsd: manifest.model.priced ? spent.usd : null,
    // Only where real money is counted: an offline run priced as a model is an illustration.
    warnings: manifest.model.priced && !provider.offline ? [stalePricesWarning(prices)].filter((w): w is string => w !== null) : [],
    manifest,
    // The full records are read back when asked for.
    get records() {
      return (full ??= sortLikeRun(store.readRecords(), manifest));
    },
    summary,
    stopped,
  };
  } finally {
    await plugins?.close();
    folder.lock.release();
    if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
  }
}

interface TaskEnv {
  runId: string;
  corpus: Corpus;
  door: ModelDoor;
  seed: number;
  scoring: { f1Threshold: number; numericRelTol: number; k?: number | number[]; maxGoldWords?: number | undefined };
  judge?: LlmJudge;
  /** The strategy of an entry: a built-in from the registry (the default) or a plugin's. */
  strategyFor?: (spec: StrategySpec) => Strategy;
  /** The LLM that grades groundedness (`scoring.groundedness`), when set. */
  grounder?: LlmJudge;
  /** Custom scorers (`scoring.scorers`): their values go into `record.custom`. */
  scorers?: readonly Scorer[];
  /** The run's stop (Ctrl-C, a tripped breaker): a module plugin still running then is abandoned, not waited for. */
  stop?: AbortSignal;
}

/** A module plugin that did not return within its `timeoutMs`: its work is abandoned. */
export class StrategyTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`the module did not return within timeoutMs (${timeoutMs} ms); its work was abandoned`);
    this.name = 'StrategyTimeoutError';
  }
}

/**
 * A module plugin's result, unless the run stops first (rejected with an AbortError: the task is
 * left for --resume) or its `timeoutMs` passes (120 s by default, as a worker's or a service's;
 * rejected with a StrategyTimeoutError: an error record). A module's own code may await something
 * that never settles, and would otherwise hold its task, and a Ctrl-C, for ever. Built-ins only
 * await the metered door, and workers and services their own requests, which the stop aborts
 * already: they go without this wrapper. Abandoned work goes on in the background, its calls
 * refused once the run stops.
 */
function untilDeadline<T>(work: Promise<T>, timeoutMs: number, stop: AbortSignal | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // Whichever comes first settles the task and clears the others (an abandoned task's timer
    // would otherwise keep the process alive after the run).
    const done = () => {
      clearTimeout(timer);
      stop?.removeEventListener('abort', onStop);
    };
    const onStop = () => {
      done();
      reject(Object.assign(new Error(`stopped while the strategy was running: ${String((stop?.reason as Error | undefined)?.message ?? stop?.reason ?? '')}`), { name: 'AbortError' }));
    };
    const timer = setTimeout(() => {
      done();
      reject(new StrategyTimeoutError(timeoutMs));
    }, timeoutMs);
    if (stop?.aborted) onStop();
    else stop?.addEventListener('abort', onStop, { once: true });
    work.then(
      (v) => {
        done();
        resolve(v);
      },
      (e: unknown) => {
        done();
        reject(e);
      },
    );
  });
}

/** The cache mode of a run: the option (CLI) over `cache.mode` over `cache.enabled`. */
export function resolveCacheMode(option: boolean | CacheMode | undefined, cache: { enabled: boolean; mode?: CacheMode | undefined }): CacheMode {
  if (typeof option === 'string') return option;
  if (option === false) return 'off';
  if (option === true) return cache.mode && cache.mode !== 'off' ? cache.mode : 'use';
  return cache.mode ?? (cache.enabled ? 'use' : 'off');
}

/** A record's cache figures: calls answered from the cache, what they cost then, their recorded latency. */
function cacheFigures(calls: readonly CallLog[]): Pick<RunRecord, 'cachedCalls' | 'cachedCostUsd' | 'cachedLatencyMs'> {
  // Counted and timed as chat calls (what the table says); what they cost then includes replayed query embeddings.
  const cached = calls.filter((c) => c.cached);
  const chats = cached.filter((c) => c.kind === 'chat');
  if (cached.length === 0) return {};
  return {
    cachedCalls: chats.length,
    cachedCostUsd: sumCosts(cached.map((c) => c.cachedCostUsd ?? null)),
    cachedLatencyMs: Math.round(chats.reduce((n, c) => n + c.latencyMs, 0) * 10) / 10,
  };
}

/** Runs one strategy on one question; never throws — failures become error records. */
export async function runOne(task: { spec: StrategySpec; question: Question; repeat: number }, env: TaskEnv): Promise<RunRecord> {
  return (await runOneDetailed(task, env)).record;
}

/** runOne, plus the error that ended the task (for the circuit breaker), if any. */
export async function runOneDetailed(task: { spec: StrategySpec; question: Question; repeat: number }, env: TaskEnv): Promise<{ record: RunRecord; failure?: unknown }> {
  const { spec, question, repeat } = task;
  const ctx = new MeteredContext({
    corpus: env.corpus,
    door: env.door,
    budget: spec.budget,
    seed: hashSeed(env.seed, spec.id, question.id, repeat),
    repeat,
    ...(spec.prompts ? { prompts: spec.prompts } : {}),
  });
  const started = performance.now();
  let result: StrategyResult = { answer: '', evidence: [], trace: [] };
  let error: string | null = null;
  let failure: unknown;
  try {
    const work = (env.strategyFor ?? ((s: StrategySpec) => getStrategy(s.strategy)))(spec).run(toQuestionInput(question), ctx, spec.params);
    result = await (spec.source?.kind === 'module' ? untilDeadline(work, spec.source.timeoutMs, env.stop) : work);
  } catch (err) {
    // A budget refusal that escaped the strategy is not an error: the record says which ran out.
    if (!isBudgetExhausted(err)) {
      error = redactSecrets(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
      failure = err;
    }
  }
  // Under replay a miss fails the question even when the strategy caught it and went on: its
  // answer would not be the one a model gave.
  if (ctx.cacheMisses > 0 && error === null) {
    error = `CacheMissError: ${ctx.cacheMisses} call(s) not in the cache under cache.mode replay (no request made)`;
    failure = new CacheMissError();
  }
  const wallMs = performance.now() - started;
  const chats = ctx.calls.filter((c) => c.kind === 'chat');
  const scores = scoreAnswer(question, result, { f1Threshold: env.scoring.f1Threshold, relTol: env.scoring.numericRelTol, ...(env.scoring.maxGoldWords ? { maxGoldWords: env.scoring.maxGoldWords } : {}) });
  // The judge grades after the clock stopped: its time is not the strategy's.
  // A failed record is incorrect for the judge too, without asking it.
  const judged = !env.judge
    ? undefined
    : error === null
      ? await env.judge.judge({ question: question.question, gold: goldAnswers(question), answer: result.answer })
      : env.judge.failedVerdict();
  // Groundedness in the evidence the strategy retrieved (it reads the evidence texts, which the
  // record does not keep): the offline proxy always, the LLM grader when configured. A failed
  // record, an empty answer or an abstention has nothing to measure, and costs no call.
  const evidenceTexts = result.evidence.map((e) => e.text);
  const lexical = error === null ? lexicalGroundedness(result.answer, evidenceTexts) : null;
  const groundedness: RunRecord['groundedness'] = { lexical };
  if (env.grounder) {
    groundedness.judge =
      lexical === null
        ? { score: null, claims: 0, supported: 0, model: env.grounder.provider.id, calls: [] }
        : await judgeGroundedness(env.grounder, { question: question.question, answer: result.answer, evidence: evidenceTexts });
  }
  const record: RunRecord = {
    runId: env.runId,
    strategy: spec.id,
    questionId: question.id,
    repeat,
    question: question.question,
    ...(question.tags?.length ? { tags: question.tags } : {}),
    answer: capAnswer(result.answer),
    gold: goldAnswers(question),
    scores,
    ...(judged ? { judge: judged } : {}),
    groundedness,
    retrieval: scoreRetrievalAtK(question, result.evidence, env.corpus, env.scoring.k),
    evidence: result.evidence.map(({ text, ...e }) => ({ ...e, chars: text.length })),
    calls: chats.length,
    embedCalls: ctx.calls.length - chats.length,
    inputTokens: chats.reduce((n, c) => n + c.inputTokens, 0),
    outputTokens: chats.reduce((n, c) => n + c.outputTokens, 0),
    embedTokens: ctx.calls.reduce((n, c) => n + (c.kind === 'embed' ? c.inputTokens : 0), 0),
    costUsd: sumCosts(ctx.calls.map((c) => c.costUsd)),
    ...cacheFigures(ctx.calls),
    latencyMs: Math.round((wallMs - ctx.queueMs) * 10) / 10,
    queueMs: Math.round(ctx.queueMs * 10) / 10,
    nodesVisited: ctx.budget.used.nodesVisited,
    nodesOpened: ctx.budget.used.nodesOpened,
    evidenceTokens: ctx.budget.used.evidenceTokens,
    parseFailures: result.parseFailures ?? 0,
    valueFallbacks: result.trace.filter((t) => t.action === 'fallback' && t.source === 'value').length,
    budgetExhausted: ctx.budget.exhausted,
    ...(result.stopReason ? { stopReason: result.stopReason } : {}),
    callLog: ctx.calls,
    trace: result.trace,
    error,
    finishedAt: new Date().toISOString(),
  };
  // Custom scorers see the finished record and the evidence texts (which the record does not keep).
  if (env.scorers?.length) {
    Object.assign(
      record,
      await applyScorers(env.scorers, {
        question: question.question,
        questionId: question.id,
        ...(question.choices ? { choices: [...question.choices] } : {}),
        gold: record.gold,
        answer: record.answer,
        evidence: result.evidence,
        record,
      }),
    );
  }
  return failure === undefined ? { record } : { record, failure };
}
