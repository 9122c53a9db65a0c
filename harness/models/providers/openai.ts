// The `openai` chat provider: the official SDK against OpenAI or any server speaking the chat
// completions protocol (vLLM, Ollama, llama.cpp server, LM Studio).
//
// Servers differ in what they accept, so the provider adapts once and remembers:
//  - response_format {type: json_object}: some local servers reject it -> dropped on a 400 that
//    names it, and not sent again;
//  - temperature: reasoning models (o-series, gpt-5) accept only the default -> not sent to them,
//    and dropped on a 400 that names it;
//  - max_tokens vs max_completion_tokens: newer OpenAI models require the latter -> picked by
//    model id, switched on a 400 that asks for it, or forced with `maxTokensField`.
//  - tools (native tool calling): a server that refuses them (see isToolsRefusal) gets a
//    ToolsUnsupportedError, and the provider says `supportsTools: false` from then on so that
//    callers in `toolMode: auto` stop offering them.
import type OpenAI from 'openai';
import type { ChatMessage, ChatOptions, ChatProvider, ChatResult, ToolCall, Usage } from '../../types.ts';
import { isToolsRefusal, ToolsUnsupportedError } from '../tools.ts';
import { redactSecrets } from '../secrets.ts';
import { Pacer, type PacingStats } from '../pacing.ts';
import {
  classifyError,
  IncompleteResponseError,
  createClient,
  ProviderError,
  withRetries,
  type OpenAIConnectionOptions,
} from './openai-client.ts';

import { resolveEndpoint, type ResolvedEndpoint } from '../endpoint.ts';

export { ProviderConfigError, ProviderError } from './openai-client.ts';

export type MaxTokensField = 'max_tokens' | 'max_completion_tokens';

export interface OpenAIChatProviderOptions extends OpenAIConnectionOptions {
  model: string;
  /** Default sampling temperature (default 0); a call's own temperature wins. */
  temperature?: number;
  /** Send response_format json_object when a call asks for JSON (default true). */
  json?: boolean;
  /** Which field carries a call's maxTokens; default by model id (see maxTokensFieldFor). */
  maxTokensField?: MaxTokensField;
  /** Extra fields merged into every request body last (e.g. { reasoning_effort: 'low' }, { top_k: 1 }). */
  extraBody?: Record<string, unknown>;
}

export interface OpenAIUsage extends Usage {
  /** Prompt tokens the server served from its prompt cache (priced at cachedInput). */
  cachedInputTokens?: number;
  /** Hidden reasoning tokens (already included in outputTokens). */
  reasoningTokens?: number;
}

export interface OpenAIChatResult extends ChatResult {
  usage?: OpenAIUsage;
  /** Extra attempts this call needed (transient-error retries plus request adaptations). */
  retries: number;
  finishReason?: string;
  /** What the provider changed in the request after a server rejected it, if anything. */
  adaptations?: string[];
}

/** o1/o3/o4… and gpt-5 (not gpt-5-chat) are reasoning models. */
export function isReasoningModel(model: string): boolean {
  const bare = model.toLowerCase().replace(/^.*[:/]/, '');
  return /^o\d/.test(bare) || (/^gpt-5/.test(bare) && !/^gpt-5(\.\d+)?-chat/.test(bare));
}

/** Reasoning models take max_completion_tokens; everything else (incl. local servers) max_tokens. */
export function maxTokensFieldFor(model: string): MaxTokensField {
  return isReasoningModel(model) ? 'max_completion_tokens' : 'max_tokens';
}

export class OpenAIChatProvider implements ChatProvider {
  readonly id: string;
  readonly offline = false;
  readonly baseURL: string;
  private readonly client: OpenAI;
  private readonly conn: ResolvedEndpoint;
  private readonly opts: OpenAIChatProviderOptions;
  /** Learned from the server: cleared when it rejects the feature. */
  private sendJsonFormat: boolean;
  private sendTemperature: boolean;
  private maxTokensField: MaxTokensField;
  private toolsRefused = false;
  /** Paces requests under the server's rate limits (x-ratelimit-* headers, retry-after). */
  private readonly pacer = new Pacer();

  get pacing(): PacingStats {
    return this.pacer.stats;
  }

  get supportsTools(): boolean {
    return !this.toolsRefused;
  }

  constructor(opts: OpenAIChatProviderOptions) {
    if (!opts.model || typeof opts.model !== 'string') throw new Error('openai provider: "model" is required (e.g. gpt-4.1-mini)');
    this.opts = opts;
    this.id = opts.model;
    this.conn = resolveEndpoint(opts);
    this.baseURL = this.conn.baseURL;
    this.client = createClient(this.conn, opts);
    this.sendJsonFormat = opts.json ?? true;
    this.sendTemperature = !isReasoningModel(opts.model);
    this.maxTokensField = opts.maxTokensField ?? maxTokensFieldFor(opts.model);
  }

  async chat(messages: ChatMessage[], opts: ChatOptions & { attempt?: number; signal?: AbortSignal } = {}): Promise<OpenAIChatResult> {
    const adaptations: string[] = [];
    const wantJson = opts.json === true;
    const build = (): Record<string, unknown> => {
      const body: Record<string, unknown> = {
        model: this.opts.model,
        messages: messages.map(toWireMessage),
      };
      if (opts.tools?.length) {
        body.tools = opts.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
        if (opts.toolChoice) body.tool_choice = opts.toolChoice;
      }
      const temperature = opts.temperature ?? this.opts.temperature ?? 0;
      if (this.sendTemperature) body.temperature = temperature;
      if (opts.maxTokens !== undefined) body[this.maxTokensField] = opts.maxTokens;
      if (wantJson && this.sendJsonFormat) body.response_format = { type: 'json_object' };
      return { ...body, ...this.opts.extraBody };
    };
    let body = build();

    const what = `openai chat "${this.id}" at ${this.conn.baseURL}`;
    if (opts.tools?.length && this.toolsRefused) throw new ToolsUnsupportedError(`${what}: the server refused native tools earlier in this run`);
    let pacedMs = 0;
    const { value: res, retries } = await withRetries(
      async (signal) => {
        // Every attempt (retries too) waits for the pacer and tells it what the server said.
        pacedMs += await this.pacer.acquire(signal);
        let r: OpenAI.ChatCompletion;
        try {
          const { data, response } = await this.client.chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, { signal }).withResponse();
          r = data;
          const used = r?.usage ? (r.usage.prompt_tokens ?? 0) + (r.usage.completion_tokens ?? 0) : 0;
          this.pacer.done(response.status, response.headers, { tokensUsed: used });
        } catch (err) {
          const e = err as { status?: number; headers?: Headers };
          const c = e.status === 429 ? classifyError(err) : undefined;
          this.pacer.done(e.status, e.headers, c?.retryAfterMs !== undefined ? { retryAfterMs: c.retryAfterMs } : {});
          throw err;
        }
        // No choice at all (or a body that is not a completion) is the server failing, not the
        // model answering: retried like a 5xx. An empty *content* is an answer and is kept.
        if (!Array.isArray(r?.choices) || r.choices.length === 0) throw new IncompleteResponseError('the response has no choices');
        return r;
      },
      {
        what,
        maxRetries: this.opts.maxRetries ?? 2,
        baseMs: this.opts.retryBaseMs ?? 500,
        maxMs: this.opts.retryMaxMs ?? 30_000,
        signal: opts.signal,
        adapt: (err) => {
          if (err.status !== 400) return false;
          const msg = `${err.message} ${err.code ?? ''}`.toLowerCase();
          if ('response_format' in body && /response_format|json_object|json mode|json_schema/.test(msg)) {
            this.sendJsonFormat = false;
            adaptations.push('response_format dropped (rejected by the server)');
          } else if ('temperature' in body && msg.includes('temperature')) {
            this.sendTemperature = false;
            adaptations.push('temperature dropped (rejected by the server)');
          } else if (this.maxTokensField === 'max_tokens' && 'max_tokens' in body && msg.includes('max_completion_tokens')) {
            this.maxTokensField = 'max_completion_tokens';
            adaptations.push('max_tokens sent as max_completion_tokens (asked by the server)');
          } else return false;
          const next = build();
          if (JSON.stringify(next) === JSON.stringify(body)) return false; // extraBody forces it: nothing to change
          body = next;
          return true;
        },
      },
    ).catch((err: unknown) => {
      if (opts.tools?.length && err instanceof ProviderError && isToolsRefusal(err.status, err.message)) {
        this.toolsRefused = true;
        throw new ToolsUnsupportedError(err.message, err.retries);
      }
      throw err;
    });

    const choice = res.choices?.[0];
    if (!choice) {
      throw new ProviderError(`${what}: the response has no choices`, { retries, retryable: false });
    }
    const result: OpenAIChatResult = {
      text: choice.message?.content ?? '',
      model: res.model || this.id,
      retries,
      finishReason: choice.finish_reason ?? undefined,
    };
    if (pacedMs > 1) result.pacedMs = pacedMs;
    const toolCalls = fromWireToolCalls(choice.message?.tool_calls);
    if (toolCalls.length) result.toolCalls = toolCalls;
    const usage = toUsage(res.usage);
    if (usage) result.usage = usage;
    if (adaptations.length) result.adaptations = adaptations.map(redactSecrets);
    return result;
  }
}

/** A message as the chat-completions protocol carries it, tool calls and tool results included. */
function toWireMessage(m: ChatMessage): Record<string, unknown> {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content };
  if (m.role === 'assistant' && m.toolCalls?.length) {
    return {
      role: 'assistant',
      content: m.content || null,
      tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
    };
  }
  return { role: m.role, content: m.content };
}

/** Function tool calls from a response (custom tools are not offered, so not expected). */
function fromWireToolCalls(calls: unknown): ToolCall[] {
  if (!Array.isArray(calls)) return [];
  const out: ToolCall[] = [];
  for (const [i, c] of calls.entries()) {
    const fn = (c as { function?: { name?: unknown; arguments?: unknown } })?.function;
    if (!fn || typeof fn.name !== 'string') continue;
    const id = (c as { id?: unknown }).id;
    out.push({ id: typeof id === 'string' && id ? id : `call_${i}`, name: fn.name, arguments: typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}) });
  }
  return out;
}

/** Usage from the response, only when the server reported both numbers (else the meter counts). */
function toUsage(u: OpenAI.CompletionUsage | undefined | null): OpenAIUsage | undefined {
  if (!u || !Number.isFinite(u.prompt_tokens) || !Number.isFinite(u.completion_tokens)) return undefined;
  const usage: OpenAIUsage = { inputTokens: u.prompt_tokens, outputTokens: u.completion_tokens };
  const cached = u.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number' && cached > 0) usage.cachedInputTokens = cached;
  const reasoning = u.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number' && reasoning > 0) usage.reasoningTokens = reasoning;
  return usage;
}
