// The one metered door to models (DESIGN.md, "Models: one door, metered"). A context is made
// per (strategy, question, repeat): every chat and embed call passes the budget, the shared
// concurrency limiter and the meter, and lands in the call log of that record.
import type { LimitFunction } from 'p-limit';
import { BudgetTracker } from './budget.ts';
import { priceCall, type PriceTable } from '../models/prices.ts';
import { redactSecrets } from '../models/secrets.ts';
import { countChatTokens, countTokens } from '../models/tokenizer.ts';
import type { Budget, CallLog, ChatMessage, ChatOptions, ChatProvider, ChatResult, Corpus, DocTree, Embedder, TreeNode } from '../types.ts';
import type { ValueIndex } from '../retrieval/valueIndex.ts';
import { CacheMissError, ResponseCache } from '../models/responseCache.ts';
import type { StrategyContext, ValueSearchOptions } from '../strategy/context.ts';
import { indexDoc } from '../trees/tree.ts';
import { mulberry32 } from './random.ts';
import { meteredMessages, toolCallsText } from '../models/tools.ts';

/** What every context of a run shares. */
export interface ModelDoor {
  provider: ChatProvider;
  embedder: Embedder;
  prices: PriceTable;
  /** Price calls as this model (e.g. an offline run priced as gpt-4o-mini). */
  priceAs?: string;
  /** Bounds model calls in flight across the whole run. */
  limiter: LimitFunction;
  index: ValueIndex;
  /** Default max output tokens for a chat call. */
  maxOutputTokens?: number;
  /** Response cache (off unless the config or --cache turns it on). */
  cache?: ResponseCache;
  /** Model settings that shape answers, for cache keys (no secrets). */
  modelKey?: unknown;
  /** Aborts calls in flight when the run is interrupted (Ctrl-C) or its circuit breaker trips. */
  signal?: AbortSignal;
  /** Dollars the run's calls have cost so far (cached calls: nothing), for `run.maxDollars`. */
  spent?: { usd: number };
}

/** Dollars of a call, or null when the price table does not know the model (never a made-up 0). */
function dollars(prices: PriceTable, model: string, inputTokens: number, outputTokens: number): number | null {
  const p = priceCall(prices, model, inputTokens, outputTokens);
  return p.priced ? p.costUsd : null;
}

/** Embedders that run in-process cost nothing per token and make no request: only a remote one (`openai:…`) needs a price. */
export const isLocalEmbedder = (id: string): boolean => !id.startsWith('openai:');

export interface ContextOptions {
  corpus: Corpus;
  door: ModelDoor;
  budget: Budget;
  /** Seed for this (strategy, question, repeat). */
  seed: number;
  /** Repeat index; part of the request so repeats are independent calls. */
  repeat: number;
  /** Prompt templates replacing the strategy's own (the entry's `prompts:`), by prompt name. */
  prompts?: Record<string, string>;
}

/** Token count of each message object's content, so a message sent again (multi-turn) is counted once. */
const messageTokens = new WeakMap<ChatMessage, { role: string; content: string; model: string; n: number }>();

/** countChatTokens, reusing the count of any message object (same content, same model) seen before. */
export function countChatTokensCached(messages: ChatMessage[], model: string): number {
  let n = countChatTokens([], model);
  for (const m of messages) {
    const hit = messageTokens.get(m);
    if (hit && hit.content === m.content && hit.role === m.role && hit.model === model) {
      n += hit.n;
      continue;
    }
    const own = countChatTokens([m], model) - countChatTokens([], model);
    messageTokens.set(m, { role: m.role, content: m.content, model, n: own });
    n += own;
  }
  return n;
}

/** Seeded random numbers in [0, 1) (mulberry32). */
export const seededRandom = mulberry32;

/**
 * Resolves two event-loop turns from now (in the check phase of the next turn). A chat call's
 * caller waits for it before its own work goes on (counting tokens, the strategy's next step,
 * scoring the answer, writing the record, starting the next question), so that work runs after
 * the I/O that is ready: other replies are read and the requests that take their freed call
 * slots are written first. (undici writes a request on a reused keep-alive socket only in a
 * check phase, setImmediate, to see first whether the server closed it; with the caller's work
 * run at once, that write waited behind every reply's work of the turn.) At concurrency 64
 * against the loopback server (bench/http, vector, 2,000 calls, 5 interleaved rounds, twice):
 * efficiency 0.671 → 0.726 and 0.714 → 0.780. A single setImmediate (this turn's check phase,
 * queued before undici's) gained nothing. Only for providers that wait on the network: an offline
 * one has no I/O to let through, and the two turns per call slowed the quickstart by ~20%.
 */
const afterNextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

export class MeteredContext implements StrategyContext {
  readonly corpus: Corpus;
  readonly budget: BudgetTracker;
  readonly calls: CallLog[] = [];
  /** Time spent waiting for a free call slot; excluded from the question's latency. */
  queueMs = 0;
  /** Calls that `cache.mode: replay` could not answer (each failed without a request). */
  cacheMisses = 0;
  readonly random: () => number;
  readonly prompts?: Readonly<Record<string, string>>;
  private readonly door: ModelDoor;
  private readonly repeat: number;
  private readonly docs: Map<string, DocTree>;
  private readonly queryVectors = new Map<string, Float32Array>();
  private readonly seedValue: number;
  private seedRead = false;

  constructor(opts: ContextOptions) {
    this.corpus = opts.corpus;
    this.door = opts.door;
    this.repeat = opts.repeat;
    this.budget = new BudgetTracker(opts.budget);
    this.seedValue = opts.seed;
    const draw = seededRandom(opts.seed);
    this.random = () => {
      this.seedRead = true;
      return draw();
    };
    this.docs = new Map(opts.corpus.docs.map((d) => [d.docId, d]));
    if (opts.prompts) this.prompts = opts.prompts;
  }

  get seed(): number {
    this.seedRead = true;
    return this.seedValue;
  }

  /**
   * Whether the strategy drew a random number or read its seed. One that did not took the same
   * branches under any seed, so `estimate` runs it at one seed only.
   */
  get usedSeed(): boolean {
    return this.seedRead;
  }

  /** The chat model's id (what the model gateway names in its replies). */
  get modelId(): string {
    return this.door.provider.id;
  }

  get repeatIndex(): number {
    return this.repeat;
  }

  /** Aborted when the run is interrupted or its circuit breaker trips (plugin doors stop waiting on it). */
  get abortSignal(): AbortSignal | undefined {
    return this.door.signal;
  }

  private get pricedModel(): string {
    return this.door.priceAs ?? this.door.provider.id;
  }

  countTokens(text: string): number {
    return countTokens(text, this.door.provider.id);
  }

  doc(docId: string): DocTree {
    const doc = this.docs.get(docId);
    if (!doc) throw new Error(`unknown document "${docId}"`);
    return doc;
  }

  node(docId: string, nodeId: string): TreeNode {
    const info = indexDoc(this.doc(docId)).byId.get(nodeId);
    if (!info) throw new Error(`unknown node "${nodeId}" in document "${docId}"`);
    return info.node;
  }

  async chat(messages: ChatMessage[], opts: ChatOptions = {}): Promise<ChatResult> {
    const { provider, prices, limiter } = this.door;
    // Counting the prompt costs CPU on every call: do it only where a number is needed — a token
    // or dollar budget to check, or a reply that came back without usage. Unreported tokens are
    // counted with the encoding of the model the calls are priced as (priceAs), since that is the
    // model whose bill the numbers stand for.
    let estimate: number | undefined;
    const estimateInput = () => (estimate ??= countChatTokensCached(meteredMessages(messages, opts.tools), this.pricedModel));
    const { tokens: tokenLimit, dollars: dollarLimit } = this.budget.limits;
    const wanted = opts.maxTokens ?? this.door.maxOutputTokens ?? 1024;
    const maxTokens = tokenLimit !== undefined ? this.budget.maxOutputTokens(estimateInput(), wanted) : Math.max(1, wanted);
    // Refuse up front what cannot fit: the input plus at least one output token.
    this.budget.beforeCall({
      tokens: tokenLimit !== undefined ? estimateInput() + 1 : 0,
      dollars: dollarLimit !== undefined ? priceCall(prices, this.pricedModel, estimateInput(), 1).costUsd : 0,
    });
    const log: CallLog = { kind: 'chat', task: opts.task, model: provider.id, inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0, cached: false, retries: 0 };
    this.calls.push(log);
    const cacheKey = this.door.cache
      ? ResponseCache.key({
          model: this.door.modelKey ?? provider.id,
          messages,
          maxTokens,
          json: Boolean(opts.json),
          repeat: this.repeat,
          // Only tool calls carry these, so the keys of every other call stay as they were.
          ...(opts.tools ? { tools: opts.tools, toolChoice: opts.toolChoice ?? 'auto' } : {}),
        })
      : null;
    let hit;
    try {
      hit = cacheKey ? this.door.cache!.lookup(cacheKey, opts.task) : undefined;
    } catch (err) {
      if (!(err instanceof CacheMissError)) throw err;
      this.cacheMisses++;
      log.error = err.message;
      throw err;
    }
    if (hit) {
      // Replayed: the tokens are the original call's, its latency is the one recorded then
      // (marked cached, not measured now), and it costs nothing now; what it cost then is kept apart.
      log.cached = true;
      log.latencyMs = hit.latencyMs;
      log.inputTokens = hit.usage?.inputTokens ?? estimateInput();
      log.outputTokens = hit.usage?.outputTokens ?? countTokens(hit.text + toolCallsText(hit.toolCalls), this.pricedModel);
      if (!hit.usage) log.estimated = true;
      log.cachedCostUsd = dollars(prices, this.pricedModel, log.inputTokens, log.outputTokens);
      log.costUsd = log.cachedCostUsd === null ? null : 0;
      this.budget.afterCall({ tokens: log.inputTokens + log.outputTokens, dollars: 0 });
      return { text: hit.text, model: hit.model, ...(hit.usage ? { usage: hit.usage } : {}), ...(hit.toolCalls ? { toolCalls: hit.toolCalls } : {}), cached: true };
    }
    let started = 0;
    const requested = performance.now();
    try {
      const result = await limiter(() => {
        started = performance.now();
        this.queueMs += started - requested;
        return provider.chat(messages, { ...opts, maxTokens, attempt: this.repeat, ...(this.door.signal ? { signal: this.door.signal } : {}) });
      });
      // Time the provider held the call for the server's rate limits is waiting, not the model's latency.
      const paced = result.pacedMs ?? 0;
      log.latencyMs = performance.now() - started - paced;
      this.queueMs += paced;
      if (!provider.offline) await afterNextTurn();
      log.inputTokens = result.usage?.inputTokens ?? estimateInput();
      log.outputTokens = result.usage?.outputTokens ?? countTokens(result.text + toolCallsText(result.toolCalls), this.pricedModel);
      if (!result.usage) log.estimated = true;
      log.retries = result.retries ?? 0;
      log.cached = result.cached ?? false;
      log.costUsd = dollars(prices, this.pricedModel, log.inputTokens, log.outputTokens);
      this.budget.afterCall({ tokens: log.inputTokens + log.outputTokens, dollars: log.costUsd ?? 0 });
      if (this.door.spent && log.costUsd) this.door.spent.usd += log.costUsd;
      if (cacheKey) {
        this.door.cache!.set(cacheKey, {
          text: result.text,
          model: result.model,
          ...(result.usage ? { usage: result.usage } : {}),
          ...(result.toolCalls?.length ? { toolCalls: result.toolCalls } : {}),
          latencyMs: log.latencyMs,
        });
      }
      return result;
    } catch (err) {
      if (started) log.latencyMs = performance.now() - started;
      log.error = redactSecrets((err as Error).message ?? String(err));
      log.retries = (err as { retries?: number }).retries ?? 0;
      // A failed call still counts against the call budget: it was made.
      this.budget.afterCall({ tokens: 0, dollars: 0 });
      throw err;
    }
  }

  /** False once the provider knows its server refuses native tool calling. */
  toolsSupported(): boolean {
    return this.door.provider.supportsTools !== false;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const { embedder, limiter, prices } = this.door;
    const local = isLocalEmbedder(embedder.id);
    const price = (inputTokens: number): number | null => (local ? 0 : dollars(prices, embedder.id.replace(/^openai:/, ''), inputTokens, 0));
    // A remote embedder's query vectors are cached with the chat replies (same modes): a replayed
    // run embeds nothing, and under replay a miss fails the call without a request. Local
    // embedders are cheaper to run than to cache.
    const cacheKey = this.door.cache && !local ? ResponseCache.embedKey(embedder.cacheKey ?? embedder.id, texts) : null;
    let hit;
    try {
      hit = cacheKey ? this.door.cache!.lookupEmbedding(cacheKey, 'embed') : undefined;
    } catch (err) {
      if (!(err instanceof CacheMissError)) throw err;
      this.cacheMisses++;
      this.calls.push({ kind: 'embed', model: embedder.id, inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0, cached: false, retries: 0, error: err.message });
      throw err;
    }
    if (hit) {
      const inputTokens = hit.inputTokens ?? texts.reduce((n, t) => n + countTokens(t, embedder.id), 0);
      const cachedCostUsd = price(inputTokens);
      this.calls.push({
        ...(hit.inputTokens === undefined ? { estimated: true } : {}),
        kind: 'embed',
        model: embedder.id,
        inputTokens,
        outputTokens: 0,
        costUsd: cachedCostUsd === null ? null : 0,
        cachedCostUsd,
        latencyMs: hit.latencyMs,
        cached: true,
        retries: 0,
      });
      return hit.vectors.map((v) => Float32Array.from(v));
    }
    const requested = performance.now();
    let started = requested;
    const res = await limiter(() => {
      started = performance.now();
      this.queueMs += started - requested;
      return embedder.embed(texts);
    });
    const inputTokens = res.usage?.inputTokens ?? texts.reduce((n, t) => n + countTokens(t, embedder.id), 0);
    const costUsd = price(inputTokens);
    if (this.door.spent && costUsd) this.door.spent.usd += costUsd;
    const latencyMs = performance.now() - started;
    this.calls.push({
      ...(res.usage ? {} : { estimated: true }),
      kind: 'embed',
      model: embedder.id,
      inputTokens,
      outputTokens: 0,
      costUsd,
      latencyMs,
      cached: false,
      retries: 0,
    });
    if (cacheKey) this.door.cache!.setEmbedding(cacheKey, { vectors: res.vectors.map((v) => Array.from(v)), ...(res.usage ? { inputTokens: res.usage.inputTokens } : {}), latencyMs });
    return res.vectors;
  }

  async valueSearch(query: string, opts: ValueSearchOptions) {
    // A strategy often searches the same query twice (document choice, then nodes): embed once.
    let vector = this.queryVectors.get(query);
    if (!vector) {
      [vector] = await this.embed([query]);
      this.queryVectors.set(query, vector);
    }
    return this.door.index.search(vector, opts);
  }
}
