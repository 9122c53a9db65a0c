// The runner: strategies x questions x repeats. Model calls in flight are bounded by one shared
// limiter (the `concurrency` setting); questions in flight are bounded a little above it so the
// call slots stay busy. Each record is appended the moment it is finished.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import pLimit from 'p-limit';
import { isBudgetExhausted } from './budget.ts';
import { UsageError } from './errors.ts';
import type { LoadedConfig, StrategySpec } from './config.ts';
import { MeteredContext, type ModelDoor } from './context.ts';
import { hashSeed } from './random.ts';
import { scoreAnswer } from './metrics/answer.ts';
import { scoreRetrieval } from './metrics/retrieval.ts';
import { summarize, type RunSummary } from './metrics/summary.ts';
import { withIntervals } from './metrics/intervals.ts';
import { findPrice, loadPriceTable } from './prices.ts';
import { createEmbedder, createProvider } from './providers/registry.ts';
import { recordKey, RunStore, type FileHash, type RunManifest } from './runStore.ts';
import { redactSecrets } from './secrets.ts';
import { toQuestionInput, type ChatProvider, type Corpus, type Question, type RunRecord, type StrategyResult } from './types.ts';
import { ValueIndex } from './valueIndex.ts';
import { RecordWriter, summaryRecord } from './recordWriter.ts';
import { ResponseCache } from './cache.ts';
import { warmTokenizer } from './tokenizer.ts';
import { getStrategy } from '../strategies/registry.ts';
import type { BenchmarkData } from '../datasets/registry.ts';
import { countNodes } from '../strategies/shared/tree.ts';

export type { BenchmarkData };

export interface Progress {
  done: number;
  total: number;
  errors: number;
  elapsedMs: number;
  phase: 'index' | 'run';
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
  /** Turn the response cache on or off, whatever the config says. */
  cache?: boolean;
  /** Turn the on-disk embedding cache off, whatever the config says. */
  embeddingCache?: boolean;
  /** Use this provider instead of the configured one (tests inject scripted models). */
  provider?: ChatProvider;
  onProgress?: (p: Progress) => void;
}

export interface RunOutcome {
  dir: string;
  manifest: RunManifest;
  /** Every record of the run folder in config order, read from records.jsonl on first access. */
  records: RunRecord[];
  summary: RunSummary;
}

export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** Questions of a shard: every question whose position modulo `count` is `index - 1`. */
export function shardQuestions<T>(questions: T[], shard?: { index: number; count: number }): T[] {
  if (!shard) return questions;
  return questions.filter((_, i) => i % shard.count === shard.index - 1);
}

function codeVersion(): RunManifest['code'] {
  const root = new URL('..', import.meta.url).pathname;
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  let commit: string | null = null;
  let dirty: boolean | null = null;
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
    dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() !== '';
  } catch {
    // Not a git checkout (e.g. an npm install): the package version has to do.
  }
  return { version: pkg.version, commit, dirty, node: process.version };
}

function timestampId(name: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z').replace('T', '-');
  return `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}-${stamp}`;
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
  let questions = shardQuestions(limit ? data.questions.slice(0, limit) : data.questions, opts.shard);
  const byId = new Map(questions.map((q) => [q.id, q]));
  if (byId.size !== questions.length) throw new Error(`dataset ${data.name}: question ids are not unique`);

  const provider = opts.provider ?? createProvider(config.model);
  const embedder = createEmbedder(config.embedder);
  const prices = loadPriceTable();
  const priceAs = config.model.priceAs ?? null;
  const pricedModel = priceAs ?? provider.id;

  // Run folder: new, or an interrupted one to resume.
  let store: RunStore;
  let manifest: RunManifest;
  let previous: RunRecord[] = [];
  const startedAt = new Date().toISOString();
  if (opts.resumeDir) {
    store = RunStore.open(opts.resumeDir);
    manifest = store.readManifest();
    // Resuming under another config would mix records of two different runs in one folder.
    if (manifest.configHash !== sha256(loaded.raw)) {
      throw new UsageError(`${opts.resumeDir} was started with a different config (${manifest.configPath}); resume it with that config unchanged`);
    }
    // The run's own selection wins over today's flags: same questions, strategies and repeats.
    const ids = new Set(manifest.questionIds);
    questions = data.questions.filter((q) => ids.has(q.id));
    specs = loaded.strategies.filter((s) => manifest.strategies.some((m) => m.id === s.id));
    repeats = manifest.repeats;
    previous = store.readRecords({ repair: true });
    if (opts.retryErrors) {
      previous = previous.filter((r) => r.error === null);
      store.rewriteRecords(previous);
    }
    manifest.resumedAt = [...(manifest.resumedAt ?? []), startedAt];
    manifest.finishedAt = null;
  } else {
    const runId = opts.runId ?? timestampId(config.name);
    store = RunStore.create(join(opts.outDir ?? config.run.outDir, runId));
    const questionsHash = sha256(JSON.stringify(data.questions));
    const files: FileHash[] = data.files.map((f) => ({ path: relative(process.cwd(), f), sha256: sha256(readFileSync(f)) }));
    manifest = {
      runId,
      name: config.name,
      configPath: relative(process.cwd(), loaded.path),
      config,
      configHash: sha256(loaded.raw),
      dataset: { name: data.name, questions: questions.length, questionsHash, files },
      corpus: { name: data.corpus.name, docs: data.corpus.docs.length, nodes: data.corpus.docs.reduce((n, d) => n + countNodes(d.nodes), 0), hash: sha256(JSON.stringify(data.corpus.docs)) },
      code: codeVersion(),
      model: {
        provider: config.model.provider,
        id: provider.id,
        offline: provider.offline,
        priceAs,
        priced: findPrice(prices, pricedModel) !== undefined,
        label: provider.offline ? `${provider.id} (offline reasoner: lexical heuristics, not an LLM)` : provider.id,
      },
      embedder: embedder.id,
      strategies: specs.map((s) => ({ id: s.id, strategy: s.strategy, params: s.params, budget: s.budget as Record<string, number> })),
      questionIds: questions.map((q) => q.id),
      repeats,
      seed: config.run.seed,
      concurrency,
      limit: limit ?? null,
      shard: opts.shard ?? null,
      index: null,
      startedAt,
      finishedAt: null,
    };
  }
  store.writeManifest(manifest);

  // Building a tokenizer's tables takes a second or two: do it before anything is timed.
  warmTokenizer(provider.id);
  const t0 = performance.now();
  const { cache: embeddingCache, ...indexOpts } = config.index;
  const index = await ValueIndex.build(data.corpus, embedder, {
    ...indexOpts,
    ...(embeddingCache.enabled && opts.embeddingCache !== false ? { cacheDir: resolve(embeddingCache.dir) } : {}),
    onProgress: (done, total) => opts.onProgress?.({ phase: 'index', done, total, errors: 0, elapsedMs: performance.now() - t0 }),
  });
  manifest.index = index.stats;
  store.writeManifest(manifest);

  const useCache = opts.cache ?? config.cache.enabled;
  const { apiKeyEnv: _keyVar, ...modelKey } = config.model;
  const door: ModelDoor = {
    provider,
    embedder,
    prices,
    ...(priceAs ? { priceAs } : {}),
    limiter: pLimit(concurrency),
    index,
    ...(useCache ? { cache: new ResponseCache(resolve(config.cache.dir)), modelKey } : {}),
  };
  const done = new Set(previous.map(recordKey));
  const tasks: Array<{ spec: StrategySpec; question: Question; repeat: number }> = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (const question of questions) {
      for (const spec of specs) {
        if (!done.has(recordKey({ strategy: spec.id, questionId: question.id, repeat }))) tasks.push({ spec, question, repeat });
      }
    }
  }

  // Summary rows only: full records go to disk and are not kept (memory stays flat with run size).
  const records: RunRecord[] = previous.map(summaryRecord);
  previous = [];
  const writer = new RecordWriter(store.recordsPath);
  let errors = 0;
  let finished = 0;
  const runStart = performance.now();
  // Enough questions in flight to keep every call slot busy while others do local work.
  const taskLimit = pLimit(Math.max(2, concurrency * 2));
  await Promise.all(
    tasks.map((task) =>
      taskLimit(async () => {
        const record = await runOne(task, { runId: manifest.runId, corpus: data.corpus, door, seed: config.run.seed, scoring: config.scoring });
        writer.append(record);
        records.push(summaryRecord(record));
        finished++;
        if (record.error) errors++;
        opts.onProgress?.({ phase: 'run', done: finished, total: tasks.length, errors, elapsedMs: performance.now() - runStart });
      }),
    ),
  );

  await writer.close();
  // Summaries follow the config's order of strategies and questions, not completion order.
  const order = new Map(specs.map((s, i) => [s.id, i]));
  const qOrder = new Map(questions.map((q, i) => [q.id, i]));
  const configOrder = (a: RunRecord, b: RunRecord) =>
    (order.get(a.strategy) ?? 0) - (order.get(b.strategy) ?? 0) || a.repeat - b.repeat || (qOrder.get(a.questionId) ?? 0) - (qOrder.get(b.questionId) ?? 0);
  records.sort(configOrder);
  const summary = withIntervals(summarize(records), records, { seed: manifest.seed });
  manifest.finishedAt = new Date().toISOString();
  store.writeManifest(manifest);
  store.writeFile('summary.json', JSON.stringify(summary, null, 2) + '\n');
  let full: RunRecord[] | null = null;
  return {
    dir: store.dir,
    manifest,
    get records() {
      return (full ??= store.readRecords().sort(configOrder));
    },
    summary,
  };
}

interface TaskEnv {
  runId: string;
  corpus: Corpus;
  door: ModelDoor;
  seed: number;
  scoring: { f1Threshold: number; numericRelTol: number };
}

/** Runs one strategy on one question; never throws — failures become error records. */
export async function runOne(task: { spec: StrategySpec; question: Question; repeat: number }, env: TaskEnv): Promise<RunRecord> {
  const { spec, question, repeat } = task;
  const ctx = new MeteredContext({
    corpus: env.corpus,
    door: env.door,
    budget: spec.budget,
    seed: hashSeed(env.seed, spec.id, question.id, repeat),
    repeat,
  });
  const started = performance.now();
  let result: StrategyResult = { answer: '', evidence: [], trace: [] };
  let error: string | null = null;
  try {
    result = await getStrategy(spec.strategy).run(toQuestionInput(question), ctx, spec.params);
  } catch (err) {
    // A budget refusal that escaped the strategy is not an error: the record says which ran out.
    if (!isBudgetExhausted(err)) error = redactSecrets(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  }
  const wallMs = performance.now() - started;
  const chats = ctx.calls.filter((c) => c.kind === 'chat');
  const scores = scoreAnswer(question, result, { f1Threshold: env.scoring.f1Threshold, relTol: env.scoring.numericRelTol });
  return {
    runId: env.runId,
    strategy: spec.id,
    questionId: question.id,
    repeat,
    question: question.question,
    ...(question.tags?.length ? { tags: question.tags } : {}),
    answer: result.answer,
    gold: question.answers.length ? question.answers : question.choices && question.label !== undefined ? [question.choices[question.label]] : [],
    scores,
    retrieval: scoreRetrieval(question, result.evidence, env.corpus),
    evidence: result.evidence.map(({ text, ...e }) => ({ ...e, chars: text.length })),
    calls: chats.length,
    embedCalls: ctx.calls.length - chats.length,
    inputTokens: ctx.calls.reduce((n, c) => n + c.inputTokens, 0),
    outputTokens: ctx.calls.reduce((n, c) => n + c.outputTokens, 0),
    costUsd: ctx.calls.reduce((n, c) => n + c.costUsd, 0),
    latencyMs: Math.round((wallMs - ctx.queueMs) * 10) / 10,
    queueMs: Math.round(ctx.queueMs * 10) / 10,
    nodesVisited: ctx.budget.used.nodesVisited,
    nodesOpened: ctx.budget.used.nodesOpened,
    evidenceTokens: ctx.budget.used.evidenceTokens,
    parseFailures: result.parseFailures ?? 0,
    budgetExhausted: ctx.budget.exhausted,
    ...(result.stopReason ? { stopReason: result.stopReason } : {}),
    callLog: ctx.calls,
    trace: result.trace,
    error,
    finishedAt: new Date().toISOString(),
  };
}
