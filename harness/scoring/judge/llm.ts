// The LLM judge: grades one (question, gold, answer) with a chat model through its own metered
// door. Its calls never touch the strategies' budgets, meters or latency; each record keeps the
// judge's verdict, reason and call log beside the rule judge's verdict, and reports show its
// tokens, dollars and latency on their own line.
import pLimit, { type LimitFunction } from 'p-limit';
import { ResponseCache } from '../../models/responseCache.ts';
import { priceCall, type PriceTable } from '../../models/prices.ts';
import { createProvider } from '../../models/providers/registry.ts';
import { redactSecrets } from '../../models/secrets.ts';
import { countChatTokens, countTokens } from '../../models/tokenizer.ts';
import type { CallLog, ChatMessage, ChatProvider, RecordJudge } from '../../types.ts';

export type { RecordJudge };
import type { JudgeConfig, JudgePromptName } from './config.ts';
import { judgeMessages, parseVerdict, type JudgeItem } from './prompts.ts';

export interface LlmJudgeOptions {
  config: JudgeConfig;
  prices: PriceTable;
  /** Scripted providers in tests; default: the one `config` names. */
  provider?: ChatProvider;
  /** Response cache directory (the run's chat cache, when it is on). */
  cache?: ResponseCache;
  concurrency?: number;
}

const MAX_TOKENS = 256;

export class LlmJudge {
  readonly provider: ChatProvider;
  readonly prompt: JudgePromptName;
  private readonly prices: PriceTable;
  private readonly pricedModel: string;
  private readonly cache?: ResponseCache;
  private readonly modelKey: unknown;
  private readonly limiter: LimitFunction;

  constructor(opts: LlmJudgeOptions) {
    const { prompt: _prompt, ...modelConfig } = opts.config;
    this.provider = opts.provider ?? createProvider(modelConfig);
    this.prompt = opts.config.prompt;
    this.prices = opts.prices;
    this.pricedModel = opts.config.priceAs ?? this.provider.id;
    if (opts.cache) this.cache = opts.cache;
    const { apiKeyEnv: _key, ...modelKey } = opts.config;
    this.modelKey = { judge: true, ...modelKey };
    this.limiter = pLimit(opts.concurrency ?? 4);
  }

  /** The verdict for a record whose strategy failed: wrong, and no call is made for it. */
  failedVerdict(): RecordJudge {
    return { correct: 0, reason: 'no answer: the strategy failed', model: this.provider.id, prompt: this.prompt, calls: [] };
  }

  async judge(item: JudgeItem): Promise<RecordJudge> {
    const out: RecordJudge = { correct: null, reason: '', model: this.provider.id, prompt: this.prompt, calls: [] };
    const reply = await this.ask(judgeMessages(item, this.prompt), 'judge.grade', MAX_TOKENS);
    out.calls.push(reply.log);
    if (reply.text === null) {
      out.error = reply.log.error;
      return out;
    }
    const verdict = parseVerdict(reply.text);
    out.correct = verdict.correct;
    out.reason = redactSecrets(verdict.reason);
    if (verdict.correct === null) out.error = 'the judge gave no verdict';
    return out;
  }

  /**
   * One metered, cached judge call (JSON answer, temperature 0): the reply text, or null with the
   * error in the call log. Shared by the grading prompt and the groundedness prompt.
   */
  async ask(messages: ChatMessage[], task: string, maxTokens: number): Promise<{ text: string | null; log: CallLog }> {
    const provider = this.provider;
    const log: CallLog = { kind: 'chat', task, model: provider.id, inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0, cached: false, retries: 0 };
    const key = this.cache ? ResponseCache.key({ model: this.modelKey, messages, maxTokens, json: true, repeat: 0 }) : null;
    try {
      let text: string;
      let usage;
      // Under cache.mode replay a miss throws (no request): the record is then ungraded.
      const hit = key ? this.cache!.lookup(key, task) : undefined;
      if (hit) {
        text = hit.text;
        usage = hit.usage;
        log.cached = true;
        log.latencyMs = hit.latencyMs;
      } else {
        // Latency is the call's own, not the time spent waiting for a free slot.
        let started = 0;
        const result = await this.limiter(() => {
          started = performance.now();
          return provider.chat(messages, { task, maxTokens, temperature: 0, json: true });
        });
        log.latencyMs = performance.now() - started;
        log.retries = result.retries ?? 0;
        text = result.text;
        usage = result.usage;
        if (key) this.cache!.set(key, { text, model: result.model, ...(usage ? { usage } : {}), latencyMs: log.latencyMs });
      }
      // Counted only when the server reported no usage, as for the strategies' calls.
      log.inputTokens = usage?.inputTokens ?? countChatTokens(messages, this.pricedModel);
      log.outputTokens = usage?.outputTokens ?? countTokens(text, this.pricedModel);
      if (!usage) log.estimated = true;
      const price = priceCall(this.prices, this.pricedModel, log.inputTokens, log.outputTokens);
      const cost = price.priced ? price.costUsd : null;
      // A cached verdict costs nothing now; what it cost when it was made is kept apart.
      if (log.cached) log.cachedCostUsd = cost;
      log.costUsd = log.cached && cost !== null ? 0 : cost;
      return { text, log };
    } catch (err) {
      log.error = redactSecrets((err as Error).message ?? String(err));
      return { text: null, log };
    }
  }
}
