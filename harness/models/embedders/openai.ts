// `openai:<model>` embeddings through the official SDK (OpenAI, or any server with /v1/embeddings).
// Vectors come back L2-normalised, so cosine similarity is a dot product for every embedder.
import type OpenAI from 'openai';
import type { EmbedResult, Embedder } from '../../types.ts';
import {
  classifyError,
  createClient,
  ProviderError,
  withRetries,
  type OpenAIConnectionOptions,
} from '../providers/openai-client.ts';
import { Pacer, type PacingStats } from '../pacing.ts';
import { l2normalize } from './vector.ts';
import { resolveEndpoint, type ResolvedEndpoint } from '../endpoint.ts';

/** OpenAI accepts up to 2048 inputs per request; smaller batches keep requests and retries light. */
export const MAX_EMBED_BATCH = 256;

/** Known output sizes, so `dim` is right before the first call; other models learn it from the first response. */
const KNOWN_DIMS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

export interface OpenAIEmbedderOptions extends OpenAIConnectionOptions {
  model: string;
  /** Inputs per request, 1..256 (default 256). */
  batchSize?: number;
  /** Ask text-embedding-3 models for shorter vectors. */
  dimensions?: number;
}

export interface OpenAIEmbedResult extends EmbedResult {
  /** Extra attempts over all batches. */
  retries: number;
  /** Requests made (one per batch). */
  requests: number;
}

export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly model: string;
  readonly baseURL: string;
  private readonly client: OpenAI;
  private readonly conn: ResolvedEndpoint;
  private readonly opts: OpenAIEmbedderOptions;
  private readonly batchSize: number;
  private learnedDim: number;
  /** Paced like chat requests (harness/models/pacing.ts): embedding endpoints have limits of their own. */
  private readonly pacer = new Pacer();

  constructor(opts: OpenAIEmbedderOptions) {
    if (!opts.model) throw new Error('openai embedder: "model" is required (e.g. openai:text-embedding-3-small)');
    const batchSize = opts.batchSize ?? MAX_EMBED_BATCH;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_EMBED_BATCH) {
      throw new Error(`openai embedder: "batchSize" must be an integer in 1..${MAX_EMBED_BATCH}, got ${batchSize}`);
    }
    this.opts = opts;
    this.model = opts.model;
    this.id = `openai:${opts.model}`;
    this.batchSize = batchSize;
    this.conn = resolveEndpoint(opts);
    this.baseURL = this.conn.baseURL;
    this.client = createClient(this.conn, opts);
    this.learnedDim = opts.dimensions ?? KNOWN_DIMS[opts.model] ?? 0;
  }

  /** Model, server and requested size: the same model name on another server may embed differently. */
  get cacheKey(): string {
    // Without any user:password part of the URL: cache folders must hold no secrets.
    const url = new URL(this.baseURL);
    url.username = '';
    url.password = '';
    return `${this.id} baseURL=${url.href} dimensions=${this.opts.dimensions ?? 'default'}`;
  }

  get pacing(): PacingStats {
    return this.pacer.stats;
  }

  /** Vector size: known for OpenAI's models, else 0 until the first response sets it. */
  get dim(): number {
    return this.learnedDim;
  }

  async embed(texts: string[]): Promise<OpenAIEmbedResult> {
    const vectors: Float32Array[] = [];
    let inputTokens = 0;
    // Usage is reported only when every batch reported it: a partial sum would undercount.
    let allUsage = true;
    let retries = 0;
    let requests = 0;
    const what = `openai embeddings "${this.model}" at ${this.conn.baseURL}`;
    for (let i = 0; i < texts.length; i += this.batchSize) {
      // OpenAI rejects empty strings; a lone space embeds "nothing" just as well.
      const batch = texts.slice(i, i + this.batchSize).map((t) => (t === '' ? ' ' : t));
      const body: OpenAI.EmbeddingCreateParams = { model: this.model, input: batch, encoding_format: 'float' };
      if (this.opts.dimensions) body.dimensions = this.opts.dimensions;
      const { value: res, retries: r } = await withRetries(async (signal) => {
        // Every attempt (retries too) waits for the pacer and tells it what the server said.
        await this.pacer.acquire(signal);
        try {
          const { data, response } = await this.client.embeddings.create(body, { signal }).withResponse();
          this.pacer.done(response.status, response.headers, { tokensUsed: data?.usage?.prompt_tokens ?? 0 });
          return data;
        } catch (err) {
          const e = err as { status?: number; headers?: Headers };
          const c = e.status === 429 ? classifyError(err) : undefined;
          this.pacer.done(e.status, e.headers, c?.retryAfterMs !== undefined ? { retryAfterMs: c.retryAfterMs } : {});
          throw err;
        }
      }, {
        what,
        maxRetries: this.opts.maxRetries ?? 2,
        baseMs: this.opts.retryBaseMs ?? 500,
        maxMs: this.opts.retryMaxMs ?? 30_000,
      });
      retries += r;
      requests++;
      const data = [...(res.data ?? [])].sort((a, b) => a.index - b.index);
      if (data.length !== batch.length) {
        throw new ProviderError(`${what}: asked for ${batch.length} embeddings, got ${data.length}`, { retries, retryable: false });
      }
      for (const d of data) {
        const v = toFloat32(d.embedding as unknown);
        if (!v || v.length === 0) throw new ProviderError(`${what}: embedding ${i + d.index} is not a vector`, { retries, retryable: false });
        if (this.learnedDim === 0) this.learnedDim = v.length;
        if (v.length !== this.learnedDim) {
          // The size known for OpenAI's model of that name, not one the server sent before.
          const known = !this.opts.dimensions && KNOWN_DIMS[this.model] === this.learnedDim && vectors.length === 0;
          const hint = known ? `, the size of OpenAI's ${this.model} (does the server serve another model under that name?)` : '';
          throw new ProviderError(`${what}: embedding ${i + d.index} has ${v.length} dimensions, expected ${this.learnedDim}${hint}`, {
            retries,
            retryable: false,
          });
        }
        vectors.push(l2normalize(v));
      }
      if (res.usage && Number.isFinite(res.usage.prompt_tokens)) inputTokens += res.usage.prompt_tokens;
      else allUsage = false;
    }
    const result: OpenAIEmbedResult = { vectors, retries, requests };
    if (allUsage) result.usage = { inputTokens };
    return result;
  }
}

/** A float array, or base64 little-endian float32 (what OpenAI sends for encoding_format base64). */
function toFloat32(e: unknown): Float32Array | null {
  if (e instanceof Float32Array) return new Float32Array(e);
  if (Array.isArray(e)) return Float32Array.from(e as number[]);
  if (typeof e === 'string') {
    const buf = Buffer.from(e, 'base64');
    const out = new Float32Array(buf.byteLength / 4);
    for (let i = 0; i < out.length; i++) out[i] = buf.readFloatLE(i * 4);
    return out;
  }
  return null;
}
