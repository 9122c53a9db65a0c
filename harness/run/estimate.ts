// `treebench estimate`: what a config would cost before any money is spent. An offline dry run:
// every strategy runs over the questions through the same metered context a run uses, with the
// offline reasoner answering (it reads the same prompts a real model gets, so it builds every
// prompt the strategies would send, and its choices decide the branches). Nothing is scored or
// written. Calls, input and output tokens per strategy are priced as the model named.
//
// A real model may take other branches than the offline reasoner: the spread is measured, as the
// min–max over a few seeds (seeded strategies such as mcts branch differently per seed), and
// stated as such — it is not a bound on what a real model does. Only a question whose strategy
// drew a random number (or read its seed) at the first seed is run at the others: any other took
// the branches it would take under every seed, so its figures stand for all of them. The corpus index's embedding
// and model-written node summaries (ingestion) are costed apart, once per run.
import pLimit from 'p-limit';
import type { LoadedConfig, StrategySpec } from '../config/runConfig.ts';
import { UsageError } from '../errors.ts';
import { createEmbedder, createProvider } from '../models/providers/registry.ts';
import { findPrice, loadRunPrices, priceCall, type PriceTable } from '../models/prices.ts';
import { countTokens, warmTokenizer } from '../models/tokenizer.ts';
import { ValueIndex } from '../retrieval/valueIndex.ts';
import { getStrategy } from '../strategy/registry.ts';
import { toQuestionInput, type BenchmarkData } from '../types.ts';
import { isBudgetExhausted } from './budget.ts';
import { isLocalEmbedder, MeteredContext, type ModelDoor } from './context.ts';
import { hashSeed } from './random.ts';
import { selectQuestions } from './runner.ts';

export interface EstimateOptions {
  loaded: LoadedConfig;
  data: BenchmarkData;
  /** Price as this model (default: the config's model.priceAs, else its model). */
  priceAs?: string;
  limit?: number;
  /** Seeds to run (the config's seed, then the next ones): the spread is their min–max. Default 3. */
  seeds?: number;
  only?: string[];
}

export interface Range {
  low: number;
  expected: number;
  high: number;
}

export interface StrategyEstimate {
  strategy: string;
  /** Questions × repeats. */
  questions: number;
  /** Totals for the run at the config's seed (the expected figures). */
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Dollars of the chat calls (and, for a remote embedder, the query embeddings) for the whole run; null when the model is unpriced. */
  dollars: Range | null;
  /** The same spread for calls and tokens. */
  range: { calls: Range; inputTokens: Range; outputTokens: Range };
}

export interface Estimate {
  pricedAs: string;
  priced: boolean;
  pricesAsOf: string | null;
  seeds: number[];
  /** How the low–high spread was found. */
  bound: string;
  strategies: StrategyEstimate[];
  /** The corpus index's embedding, once per run (null dollars: the embedder is local or unpriced). */
  embedding: { embedder: string; chunks: number; inputTokens: number; dollars: number | null };
  /**
   * The strategies' query embeddings (value search) over the whole run at the config's seed, all
   * strategies together: counted for a remote embedder (0 tokens and dollars for a local one).
   * Their dollars are in each strategy's dollars too, as a run's records count them.
   */
  queryEmbedding: { calls: number; inputTokens: number; dollars: number | null };
  /**
   * Ingestion work by the model (corpus.summaries: model; trees the model may build: corpus.tree
   * model, or auto with a model configured), when the config asks for any: not run by the estimate.
   */
  ingestion: { summaries?: 'model'; trees?: 'model' | 'auto'; note: string } | null;
}

/** Runs the dry run. Throws UsageError for an unknown --strategies id or an empty selection. */
export async function estimateCost(opts: EstimateOptions): Promise<Estimate> {
  const { loaded, data } = opts;
  const { config } = loaded;
  const prices: PriceTable = loadRunPrices(config.prices, loaded.baseDir);
  const pricedAs = opts.priceAs ?? config.model.priceAs ?? (config.model.provider === 'offline' ? undefined : config.model.model);
  if (!pricedAs) throw new UsageError('estimate: name the model to price as with --price-as (e.g. gpt-4o-mini): the config runs the offline reasoner and sets no model.priceAs');
  const priced = findPrice(prices, pricedAs) !== undefined;
  let specs: StrategySpec[] = loaded.strategies;
  if (opts.only?.length) {
    const unknown = opts.only.filter((id) => !specs.some((s) => s.id === id));
    if (unknown.length) throw new UsageError(`--strategies: ${unknown.join(', ')} not in the config (it has: ${specs.map((s) => s.id).join(', ')})`);
    specs = specs.filter((s) => opts.only!.includes(s.id));
  }
  const plugin = specs.find((s) => s.source);
  if (plugin) throw new UsageError(`estimate: strategy "${plugin.id}" is a plugin (${plugin.strategy}); the estimate runs built-in strategies only (--strategies to leave it out)`);
  const questions = selectQuestions(data.questions, opts.limit ?? config.run.limit);
  if (questions.length === 0) throw new UsageError('estimate: no questions selected');
  const repeats = config.run.repeats;
  const seedCount = opts.seeds ?? 3;
  const seeds = Array.from({ length: seedCount }, (_, i) => config.run.seed + i);

  // The offline reasoner answers; the local hash embedder serves value search (a remote
  // embedder's index is costed from its chunks' tokens below, without calling it).
  const provider = createProvider({ provider: 'offline' });
  const remoteEmbedder = !isLocalEmbedder(config.embedder);
  const embedModel = config.embedder.replace(/^openai:/, '');
  const embedder = createEmbedder(remoteEmbedder ? 'hash' : config.embedder);
  warmTokenizer(pricedAs);
  const { cache: _cache, ...indexOpts } = config.index;
  const index = await ValueIndex.build(data.corpus, embedder, indexOpts);
  // The index's own chunks: the same a remote embedder would be sent.
  const chunks = index.chunks;
  const embedTokens = remoteEmbedder ? chunks.reduce((n, c) => n + countTokens(c.text, config.embedder), 0) : 0;
  const embedPrice = remoteEmbedder ? priceCall(prices, embedModel, embedTokens, 0) : null;

  const limiter = pLimit(Math.max(1, config.run.concurrency));
  const door: ModelDoor = { provider, embedder, prices, priceAs: pricedAs, limiter, index };
  type Totals = { calls: number; inputTokens: number; outputTokens: number; dollars: number };
  const queries = { calls: 0, inputTokens: 0 };
  const totals = new Map<string, Totals[]>(specs.map((s) => [s.id, seeds.map(() => ({ calls: 0, inputTokens: 0, outputTokens: 0, dollars: 0 }))]));
  type Job = { spec: StrategySpec; question: (typeof questions)[number]; repeat: number };
  const items: Job[] = [];
  for (let repeat = 0; repeat < repeats; repeat++) for (const question of questions) for (const spec of specs) items.push({ spec, question, repeat });
  /** Runs one question of one strategy at seed index `si`; returns whether it used its seed. */
  const runOne = async ({ spec, question, repeat }: Job, si: number): Promise<{ usedSeed: boolean; sum: Totals }> => {
    const ctx = new MeteredContext({ corpus: data.corpus, door, budget: spec.budget, seed: hashSeed(seeds[si]!, spec.id, question.id, repeat), repeat, ...(spec.prompts ? { prompts: spec.prompts } : {}) });
    try {
      await getStrategy(spec.strategy).run(toQuestionInput(question), ctx, spec.params);
    } catch (err) {
      // A budget refusal ends a question the way it ends it in a run; anything else is a bug to see.
      if (!isBudgetExhausted(err)) throw err;
    }
    const sum: Totals = { calls: 0, inputTokens: 0, outputTokens: 0, dollars: 0 };
    for (const c of ctx.calls) {
      if (c.kind === 'embed') {
        // The local stand-in embedded the query; a remote embedder would read these tokens and,
        // as in a run's records, its price is part of the strategy's dollars.
        if (remoteEmbedder) sum.dollars += priceCall(prices, embedModel, c.inputTokens, 0).costUsd;
        if (si === 0) {
          queries.calls += 1;
          if (remoteEmbedder) queries.inputTokens += c.inputTokens;
        }
      }
      if (c.kind !== 'chat') continue;
      sum.calls += 1;
      sum.inputTokens += c.inputTokens;
      sum.outputTokens += c.outputTokens;
      sum.dollars += c.costUsd ?? 0;
    }
    return { usedSeed: ctx.usedSeed, sum };
  };
  const add = (id: string, si: number, sum: Totals): void => {
    const t = totals.get(id)![si]!;
    t.calls += sum.calls;
    t.inputTokens += sum.inputTokens;
    t.outputTokens += sum.outputTokens;
    t.dollars += sum.dollars;
  };
  // Questions in flight a little above the call slots, as the runner keeps them.
  const inFlight = Math.max(2, config.run.concurrency * 2);
  const drain = async (jobs: Array<() => Promise<void>>): Promise<void> => {
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(jobs.length, inFlight) }, async () => { while (next < jobs.length) await jobs[next++]!(); }));
  };
  // The config's seed first. A question whose strategy never drew a random number (nor read its
  // seed) takes the same branches under every seed: its figures stand for the other seeds too,
  // and only the seeded ones (mcts's ties, say) are run again.
  const seeded: Job[] = [];
  await drain(items.map((item) => async () => {
    const { usedSeed, sum } = await runOne(item, 0);
    for (let si = 0; si < seeds.length; si++) if (si === 0 || !usedSeed) add(item.spec.id, si, sum);
    if (usedSeed) seeded.push(item);
  }));
  await drain(seeded.flatMap((item) => seeds.slice(1).map((_, i) => async () => add(item.spec.id, i + 1, (await runOne(item, i + 1)).sum))));

  const range = (values: number[]): Range => ({ low: Math.min(...values), expected: values[0]!, high: Math.max(...values) });
  return {
    pricedAs,
    priced,
    pricesAsOf: prices.asOf ?? null,
    seeds,
    bound: `min–max over ${seeds.length} seed(s) (${seeds.join(', ')}) of the offline reasoner's branches; a real model may branch outside it`,
    strategies: specs.map((s) => {
      const t = totals.get(s.id)!;
      const calls = range(t.map((x) => x.calls));
      const inputTokens = range(t.map((x) => x.inputTokens));
      const outputTokens = range(t.map((x) => x.outputTokens));
      return {
        strategy: s.id,
        questions: questions.length * repeats,
        calls: calls.expected,
        inputTokens: inputTokens.expected,
        outputTokens: outputTokens.expected,
        dollars: priced ? range(t.map((x) => x.dollars)) : null,
        range: { calls, inputTokens, outputTokens },
      };
    }),
    embedding: { embedder: config.embedder, chunks: chunks.length, inputTokens: embedTokens, dollars: embedPrice ? (embedPrice.priced ? embedPrice.costUsd : null) : 0 },
    queryEmbedding: { ...queries, dollars: remoteEmbedder ? priceOrNull(prices, embedModel, queries.inputTokens) : 0 },
    ingestion: ingestionNote(config),
  };
}

/** What the model would do at ingestion that the estimate does not run, or null. */
export function ingestionNote(config: LoadedConfig['config']): Estimate['ingestion'] {
  const summaries = config.corpus?.summaries === 'model';
  const tree = config.corpus?.tree ?? 'auto';
  // Trees: only PDF corpora are built, and only a configured (not offline) model is asked.
  const pdfs = config.corpus?.format === 'pdf' || config.dataset.format === 'financebench';
  const trees = pdfs && config.model.provider !== 'offline' && (tree === 'model' || tree === 'auto') ? tree : null;
  if (!summaries && !trees) return null;
  const notes = [
    ...(summaries ? ['node summaries written by the model at ingestion are not estimated (one call per node without a summary; cached after the first run)'] : []),
    ...(trees ? [`trees the model builds at ingestion (corpus.tree: ${trees}${trees === 'auto' ? ', for documents whose offline tree is poor' : ''}) are not estimated (a few calls per document, more for long ones; cached after the first run)`] : []),
  ];
  return { ...(summaries ? { summaries: 'model' as const } : {}), ...(trees ? { trees } : {}), note: notes.join('; ') };
}

function priceOrNull(prices: PriceTable, model: string, inputTokens: number): number | null {
  const p = priceCall(prices, model, inputTokens, 0);
  return p.priced ? p.costUsd : null;
}
