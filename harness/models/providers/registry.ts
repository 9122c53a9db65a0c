// Provider and embedder registries: ordered tables of { test(id), create(id, options) } factories
// (promptfoo style). The first factory whose test accepts the id builds the model; plugins can
// registerProvider / registerEmbedder in front of the built-ins.
//
// Ids: `offline`, `offline:<name>`, `openai:<model>` for chat; `hash`, `openai:<model>` for embedders.
import { z } from 'zod';
import type { ChatProvider, Embedder } from '../../types.ts';
import { OfflineReasoner } from './offline.ts';
import { OpenAIChatProvider } from './openai.ts';
import { HashEmbedder } from '../embedders/hash.ts';
import { OpenAIEmbedder } from '../embedders/openai.ts';
import { type OpenAIConnectionOptions } from './openai-client.ts';
import { DEFAULT_API_KEY_ENV, inheritEndpoint } from '../endpoint.ts';

// ---------------------------------------------------------------------------------------------
// Config schema (the `model:` section of a run config)

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NO_KEYS_IN_CONFIG =
  'API keys must never be written in a config: put the key in an environment variable and name that variable with apiKeyEnv (default OPENAI_API_KEY)';

export const latencySchema = z.strictObject({
  meanMs: z.number().nonnegative(),
  jitterMs: z.number().nonnegative().optional(),
  seed: z.number().int().optional(),
});

export const modelConfigSchema = z
  .strictObject({
    provider: z
      .string()
      .default('offline')
      .refine((p) => providerFactories.some((f) => f.name === p), {
        error: (iss) => `unknown provider "${String(iss.input)}"; known providers: ${knownProviders().join(', ')}`,
      }),
    /** Model name sent to the server (openai), or the offline reasoner's id. */
    model: z.string().min(1).optional(),
    /** OpenAI-compatible API root, e.g. http://localhost:8000/v1. Default: OPENAI_BASE_URL, else OpenAI. */
    baseURL: z.url({ protocol: /^https?$/, error: 'baseURL must be an http(s) URL, e.g. http://localhost:8000/v1' }).optional(),
    /** Name of the env var holding the key. The key itself never goes in a config. */
    apiKeyEnv: z
      .string()
      // The message never echoes the value: someone may have pasted the key here.
      .regex(ENV_NAME, { error: 'apiKeyEnv must be the NAME of an environment variable (e.g. OPENAI_API_KEY), not the key itself' })
      .default(DEFAULT_API_KEY_ENV),
    apiKey: z.never({ error: NO_KEYS_IN_CONFIG }).optional(),
    api_key: z.never({ error: NO_KEYS_IN_CONFIG }).optional(),
    temperature: z.number().min(0).max(2).default(0),
    /** Ask for response_format json_object when a prompt wants JSON (switch off for servers that choke on it). */
    json: z.boolean().default(true),
    maxRetries: z.number().int().min(0).max(10).optional(),
    timeoutMs: z.number().int().positive().optional(),
    /** First backoff delay between attempts (doubles per retry, with jitter). Default 500 ms. */
    retryBaseMs: z.number().int().min(0).optional(),
    /** Longest wait between attempts; also caps a server's Retry-After. Default 30 000 ms. */
    retryMaxMs: z.number().int().min(0).optional(),
    maxTokensField: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
    /** Extra request-body fields for every chat call (e.g. { reasoning_effort: low }). */
    extraBody: z.record(z.string(), z.unknown()).optional(),
    /** Price the run's tokens as this model from the price table (e.g. an offline or local run priced as gpt-4.1-mini). */
    priceAs: z.string().min(1).optional(),
    /** Simulated latency of the offline reasoner (seeded). */
    latency: latencySchema.optional(),
  })
  .superRefine((cfg, ctx) => {
    if (cfg.provider === 'openai' && !cfg.model) {
      ctx.addIssue({ code: 'custom', path: ['model'], message: 'model is required with provider "openai" (e.g. gpt-4.1-mini, or the name a local server serves)' });
    }
    if (cfg.provider !== 'offline' && cfg.latency) {
      ctx.addIssue({ code: 'custom', path: ['latency'], message: 'latency simulation applies only to provider "offline"' });
    }
  });

export type ModelConfig = z.output<typeof modelConfigSchema>;
export type ModelConfigInput = z.input<typeof modelConfigSchema>;

export class ModelConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelConfigError';
  }
}

/** Validates a `model:` section; errors name each field as `<where>.<field>`. */
export function parseModelConfig(raw: unknown, where = 'model'): ModelConfig {
  const parsed = modelConfigSchema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((iss) => `${[where, ...iss.path.map(String)].join('.')}: ${iss.message}`);
  throw new ModelConfigError(lines.join('\n'));
}

// ---------------------------------------------------------------------------------------------
// Chat providers

export interface ProviderFactory {
  /** The `provider:` value this factory serves (listed in errors). */
  name: string;
  test(id: string): boolean;
  create(id: string, options: ModelConfig): ChatProvider;
}

/** The connection settings a chat model and an embedder share (a key only by its env var's name). */
function connectionOf(o: Pick<EmbedderOptions, 'baseURL' | 'apiKeyEnv' | 'maxRetries' | 'timeoutMs' | 'retryBaseMs' | 'retryMaxMs'>): OpenAIConnectionOptions {
  return {
    baseURL: o.baseURL,
    apiKeyEnv: o.apiKeyEnv,
    maxRetries: o.maxRetries,
    timeoutMs: o.timeoutMs,
    ...(o.retryBaseMs !== undefined ? { retryBaseMs: o.retryBaseMs } : {}),
    ...(o.retryMaxMs !== undefined ? { retryMaxMs: o.retryMaxMs } : {}),
  };
}

/** `openai:gpt-4o` -> `gpt-4o`; `openai` -> undefined. */
function modelPart(id: string): string | undefined {
  const i = id.indexOf(':');
  return i >= 0 && i < id.length - 1 ? id.slice(i + 1) : undefined;
}

const providerFactories: ProviderFactory[] = [
  {
    name: 'offline',
    test: (id) => id === 'offline' || id.startsWith('offline:'),
    create: (id, o) => new OfflineReasoner({ id: modelPart(id), latency: o.latency }),
  },
  {
    name: 'openai',
    test: (id) => id === 'openai' || id.startsWith('openai:'),
    create: (id, o) => {
      const model = modelPart(id) ?? o.model;
      if (!model) throw new ModelConfigError('model.model: model is required with provider "openai" (e.g. gpt-4.1-mini)');
      return new OpenAIChatProvider({
        model,
        ...connectionOf(o),
        temperature: o.temperature,
        json: o.json,
        maxTokensField: o.maxTokensField,
        extraBody: o.extraBody,
      });
    },
  },
];

export function knownProviders(): string[] {
  return providerFactories.map((f) => f.name);
}

/** Adds a provider in front of the built-ins (so a plugin may also override one). */
export function registerProvider(factory: ProviderFactory): void {
  providerFactories.unshift(factory);
}

/** The chat provider a `model:` section describes (validated here, so raw config is fine too). */
export function createProvider(spec: ModelConfigInput | ModelConfig = {}): ChatProvider {
  const cfg = parseModelConfig(spec);
  const id = cfg.model ? `${cfg.provider}:${cfg.model}` : cfg.provider;
  const factory = providerFactories.find((f) => f.test(id));
  if (!factory) throw new ModelConfigError(`model.provider: unknown provider "${cfg.provider}"; known providers: ${knownProviders().join(', ')}`);
  return factory.create(id, cfg);
}

/** The model id a call is priced as: the config's priceAs, else the provider's own id. */
export function pricingModel(cfg: Pick<ModelConfig, 'priceAs'>, provider: Pick<ChatProvider, 'id'>): string {
  return cfg.priceAs ?? provider.id;
}

// ---------------------------------------------------------------------------------------------
// Embedders

export interface EmbedderOptions {
  /** hash: vector size. */
  dim?: number;
  /** hash: weight of bigram features. */
  bigramWeight?: number;
  /** openai: connection (same meaning as in the model section). */
  baseURL?: string;
  apiKeyEnv?: string;
  maxRetries?: number;
  timeoutMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** openai: inputs per request (<= 256). */
  batchSize?: number;
  /** openai: shorter text-embedding-3 vectors. */
  dimensions?: number;
}

export interface EmbedderFactory {
  /** How the id looks, for error messages (e.g. `openai:<model>`). */
  name: string;
  test(id: string): boolean;
  create(id: string, options: EmbedderOptions): Embedder;
}

const embedderFactories: EmbedderFactory[] = [
  {
    name: 'hash',
    test: (id) => id === 'hash',
    create: (_id, o) => new HashEmbedder({ dim: o.dim, bigramWeight: o.bigramWeight }),
  },
  {
    name: 'openai:<model>',
    test: (id) => /^openai:.+/.test(id),
    create: (id, o) =>
      new OpenAIEmbedder({
        model: id.slice('openai:'.length),
        ...connectionOf(o),
        batchSize: o.batchSize,
        dimensions: o.dimensions,
      }),
  },
];

export function knownEmbedders(): string[] {
  return embedderFactories.map((f) => f.name);
}

export function registerEmbedder(factory: EmbedderFactory): void {
  embedderFactories.unshift(factory);
}

/**
 * Connection options an `openai:` embedder takes from the run's `model:` section, so embeddings
 * (the key and the corpus text) go to the server the user configured and nowhere else.
 */
export function embedderOptionsFor(model: Pick<ModelConfig, 'baseURL' | 'apiKeyEnv' | 'maxRetries' | 'timeoutMs' | 'retryBaseMs' | 'retryMaxMs'>): EmbedderOptions {
  // The embedder has no server setting of its own: the shared rule gives it the run's (endpoint.ts).
  const o: EmbedderOptions = inheritEndpoint({}, model);
  if (model.maxRetries !== undefined) o.maxRetries = model.maxRetries;
  if (model.timeoutMs !== undefined) o.timeoutMs = model.timeoutMs;
  if (model.retryBaseMs !== undefined) o.retryBaseMs = model.retryBaseMs;
  if (model.retryMaxMs !== undefined) o.retryMaxMs = model.retryMaxMs;
  return o;
}

export function createEmbedder(id = 'hash', options: EmbedderOptions = {}): Embedder {
  const factory = embedderFactories.find((f) => f.test(id));
  if (!factory) throw new ModelConfigError(`unknown embedder "${id}"; known embedders: ${knownEmbedders().join(', ')}`);
  return factory.create(id, options);
}
