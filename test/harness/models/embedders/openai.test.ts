import { describe, expect, it } from 'vitest';
import { OpenAIEmbedder, MAX_EMBED_BATCH } from '../../../../harness/models/embedders/openai.ts';
import { ProviderError } from '../../../../harness/models/providers/openai-client.ts';
import { norm } from '../../../../harness/models/embedders/vector.ts';
import { apiError, defaultEmbeddings, useFakeOpenAIServer } from '../../../helpers/fake-openai-server.ts';

const EMB = '/v1/embeddings';
const server = useFakeOpenAIServer();

const embedder = (extra: Partial<ConstructorParameters<typeof OpenAIEmbedder>[0]> = {}) =>
  new OpenAIEmbedder({ model: 'nomic-embed-text', baseURL: server.baseURL, apiKey: `sk-${'embed-test-0123456789abcdef'}`, retryBaseMs: 1, ...extra });

describe('OpenAIEmbedder', () => {
  it('is named openai:<model>, and knows OpenAI dims before the first call', () => {
    expect(embedder().id).toBe('openai:nomic-embed-text');
    expect(embedder().dim).toBe(0);
    expect(embedder({ model: 'text-embedding-3-small' }).dim).toBe(1536);
    expect(embedder({ model: 'text-embedding-3-large', dimensions: 256 }).dim).toBe(256);
  });

  it('batches inputs by at most 256 and keeps their order', async () => {
    const texts = Array.from({ length: 600 }, (_, i) => 'x'.repeat(i % 50) + `text ${i}`);
    const res = await embedder().embed(texts);
    const reqs = server.requestsTo(EMB);
    expect(MAX_EMBED_BATCH).toBe(256);
    expect(reqs.map((r) => r.body.input.length)).toEqual([256, 256, 88]);
    expect(reqs.flatMap((r) => r.body.input)).toEqual(texts);
    for (const r of reqs) {
      expect(r.body.model).toBe('nomic-embed-text');
      expect(r.body.encoding_format).toBe('float');
    }
    expect(res.vectors).toHaveLength(600);
    expect(res.requests).toBe(3);
    // Vector i encodes the length of its own text in component 0 (before normalisation).
    for (const i of [0, 255, 256, 599]) {
      const v = res.vectors[i];
      const raw = [texts[i].length + 1, (i % 256) + 1, 3];
      const n = Math.hypot(...raw);
      expect(v[0]).toBeCloseTo(raw[0] / n, 5);
      expect(v[1]).toBeCloseTo(raw[1] / n, 5);
    }
  });

  it('returns L2-normalised Float32Arrays with the dim of the first response', async () => {
    server.onEmbeddings = defaultEmbeddings(5);
    const e = embedder();
    const res = await e.embed(['alpha', 'beta gamma']);
    expect(e.dim).toBe(5);
    for (const v of res.vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(5);
      expect(norm(v)).toBeCloseTo(1, 6);
    }
  });

  it('puts vectors back in input order when the server answers out of order', async () => {
    server.embeddingReplies.push(() => ({
      status: 200,
      body: {
        object: 'list',
        model: 'm',
        data: [
          { object: 'embedding', index: 1, embedding: [0, 1] },
          { object: 'embedding', index: 0, embedding: [1, 0] },
        ],
        usage: { prompt_tokens: 2, total_tokens: 2 },
      },
    }));
    const res2 = await embedder().embed(['first', 'second']);
    expect(Array.from(res2.vectors[0])).toEqual([1, 0]);
    expect(Array.from(res2.vectors[1])).toEqual([0, 1]);
  });

  it('sums usage over batches from the responses', async () => {
    const texts = Array.from({ length: 300 }, (_, i) => `t${i}`);
    const res = await embedder().embed(texts);
    const chars = texts.reduce((n, s) => n + s.length, 0);
    expect(res.usage).toEqual({ inputTokens: chars });
  });

  it('sends empty strings as a space (OpenAI rejects empty inputs), and makes no request for no texts', async () => {
    await embedder().embed(['', 'x']);
    expect(server.requestsTo(EMB)[0].body.input).toEqual([' ', 'x']);
    const none = await embedder().embed([]);
    expect(none.vectors).toEqual([]);
    expect(server.requestsTo(EMB)).toHaveLength(1);
  });

  it('retries a 502 and counts it', async () => {
    server.embeddingReplies.push(apiError(502, 'bad gateway'));
    const res = await embedder().embed(['a']);
    expect(res.retries).toBe(1);
    expect(server.requestsTo(EMB)).toHaveLength(2);
  });

  it('fails clearly when the server returns the wrong number of vectors or mixed dims', async () => {
    server.embeddingReplies.push({ status: 200, body: { object: 'list', model: 'm', data: [{ object: 'embedding', index: 0, embedding: [1, 2] }] } });
    await expect(embedder().embed(['a', 'b'])).rejects.toThrow(/asked for 2 embeddings, got 1/);
    server.embeddingReplies.push({
      status: 200,
      body: {
        object: 'list',
        model: 'm',
        data: [
          { object: 'embedding', index: 0, embedding: [1, 2] },
          { object: 'embedding', index: 1, embedding: [1, 2, 3] },
        ],
      },
    });
    const err = await embedder()
      .embed(['a', 'b'])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toMatch(/embedding 1 has 3 dimensions, expected 2/);
  });

  it('rejects a batch size above 256', () => {
    expect(() => embedder({ batchSize: 1000 })).toThrow(/batchSize.*1\.\.256/);
  });
});
