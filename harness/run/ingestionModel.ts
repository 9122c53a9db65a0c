// The configured model as ingestion uses it (model-built trees, corpus.tree: model): the same
// metered door as a strategy's calls and model summaries (harness/run/context.ts), with no
// per-question budget. Every call lands in one call log, so the work is totalled as the run's
// *ingestion cost* (calls, tokens, dollars), kept apart from per-question cost. Replies go
// through a response cache under the ingestion cache folder (keyed by model settings and the
// prompt), so a document built again pays nothing.
//
// Nothing is created until the first call: a config whose trees never need the model (every
// offline tree good enough under `auto`) makes no provider and no cache folder.
import pLimit, { type LimitFunction } from 'p-limit';
import { MeteredContext, type ModelDoor } from './context.ts';
import { ResponseCache } from '../models/responseCache.ts';
import { askJson, type AskOptions, type AskResult, type Validator } from '../protocol/ask.ts';
import { loadRunPrices, type PriceTable } from '../models/prices.ts';
import { createProvider, type ModelConfig } from '../models/providers/registry.ts';
import type { CallLog, ChatMessage, ChatProvider, Embedder } from '../types.ts';
import type { ValueIndex } from '../retrieval/valueIndex.ts';

/** What a piece of ingestion work cost: its calls, tokens and dollars (cached calls: none). */
export interface IngestionCalls {
  calls: number;
  /** Calls answered from the response cache. */
  cached: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface IngestionModelOptions {
  /** Made on first use. */
  provider: () => ChatProvider;
  prices: PriceTable;
  priceAs?: string;
  /** Model settings that shape answers (no secrets), for cache keys and the tree cache. */
  modelKey: unknown;
  /** Folder of the response cache; null = no cache. */
  cacheDir: string | null;
  /** Calls in flight at once. */
  concurrency: number;
}

/** Ingestion never embeds nor searches: the door's embedder and index are never reached. */
const NO_EMBEDDER: Embedder = {
  id: 'none',
  dim: 0,
  embed: async () => {
    throw new Error('ingestion calls do not embed');
  },
} as unknown as Embedder;

export class IngestionModel {
  readonly modelKey: unknown;
  private readonly opts: IngestionModelOptions;
  private door: ModelDoor | null = null;
  private readonly limiter: LimitFunction;

  constructor(opts: IngestionModelOptions) {
    this.opts = opts;
    this.modelKey = opts.modelKey;
    this.limiter = pLimit(opts.concurrency);
  }

  private openDoor(): ModelDoor {
    this.door ??= {
      provider: this.opts.provider(),
      embedder: NO_EMBEDDER,
      prices: this.opts.prices,
      ...(this.opts.priceAs ? { priceAs: this.opts.priceAs } : {}),
      limiter: this.limiter,
      index: null as unknown as ValueIndex,
      ...(this.opts.cacheDir ? { cache: new ResponseCache(this.opts.cacheDir), modelKey: this.opts.modelKey } : {}),
    };
    return this.door;
  }

  /** A meter for one piece of work (one document): ask through it, then read its cost. */
  meter(): IngestionMeter {
    return new IngestionMeter(this.openDoor.bind(this));
  }
}

/** One piece of ingestion work's calls, through the model's door. */
export class IngestionMeter {
  readonly calls: CallLog[] = [];
  constructor(private readonly door: () => ModelDoor) {}

  /** One structured question (harness/protocol/ask.ts: parse, validate, one retry); provider errors throw. */
  async ask<T>(task: string, prompt: ChatMessage[], validate: Validator<T>, opts: AskOptions = {}): Promise<AskResult<T>> {
    const ctx = new MeteredContext({ corpus: { name: 'ingestion', docs: [] }, door: this.door(), budget: {}, seed: 0, repeat: 0 });
    try {
      return await askJson(ctx, task, prompt, validate, opts);
    } finally {
      this.calls.push(...ctx.calls);
    }
  }

  cost(): IngestionCalls {
    return sumCalls(this.calls);
  }
}

export function sumCalls(calls: CallLog[]): IngestionCalls {
  return {
    calls: calls.length,
    cached: calls.filter((c) => c.cached).length,
    inputTokens: calls.reduce((n, c) => n + c.inputTokens, 0),
    outputTokens: calls.reduce((n, c) => n + c.outputTokens, 0),
    costUsd: calls.reduce((n, c) => n + (c.costUsd ?? 0), 0),
  };
}

/** The parts of a run config the ingestion model is made from. */
export interface IngestionModelConfig {
  model: ModelConfig;
  prices?: Parameters<typeof loadRunPrices>[0];
  run?: { concurrency?: number };
}

/**
 * The configured model for ingestion, or null when there is none to use: the offline reasoner
 * (model.provider: offline) reads no pages. `cacheDir` is the response cache folder (null: none).
 */
export function ingestionModelFor(config: IngestionModelConfig, baseDir: string, cacheDir: string | null): IngestionModel | null {
  if (config.model.provider === 'offline') return null;
  const { apiKeyEnv: _keyVar, ...modelKey } = config.model;
  return new IngestionModel({
    provider: () => createProvider(config.model),
    prices: loadRunPrices(config.prices, baseDir),
    ...(config.model.priceAs ? { priceAs: config.model.priceAs } : {}),
    modelKey,
    cacheDir,
    concurrency: config.run?.concurrency ?? 8,
  });
}
