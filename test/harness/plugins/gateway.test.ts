// The model gateway as an OpenAI client sees it: loopback only, a key per question, the metered
// door behind it (calls land in the question's call log), budgets as 429s the SDKs do not retry.
import OpenAI from 'openai';
import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { ModelGateway } from '../../../harness/plugins/gateway.ts';
import { MeteredContext } from '../../../harness/run/context.ts';
import { OfflineReasoner } from '../../../harness/models/providers/offline.ts';
import { createEmbedder } from '../../../harness/models/providers/registry.ts';
import { loadPriceTable } from '../../../harness/models/prices.ts';
import type { ValueIndex } from '../../../harness/retrieval/valueIndex.ts';

function context(budget = {}) {
  const door = { provider: new OfflineReasoner(), embedder: createEmbedder('hash'), prices: loadPriceTable(), priceAs: 'gpt-4o-mini', limiter: pLimit(4), index: null as unknown as ValueIndex };
  return new MeteredContext({ corpus: { name: 'c', docs: [] }, door, budget, seed: 1, repeat: 0 });
}

describe('the model gateway', () => {
  it('listens on 127.0.0.1 only and serves chat and embeddings to the holder of a live key', async () => {
    const gw = new ModelGateway({ chat: 'offline-reasoner', embedding: 'hash' });
    await gw.start();
    try {
      expect(gw.address?.address).toBe('127.0.0.1');
      const ctx = context();
      const session = gw.open(ctx);
      const client = new OpenAI({ baseURL: gw.baseURL, apiKey: session.key, maxRetries: 0 });
      const reply = await client.chat.completions.create({ model: 'ignored', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Context: The warranty lasts two years.\nQuestion: How long is the warranty?' }] });
      expect(reply.choices[0]!.message.content).toContain('two years');
      expect(reply.usage!.prompt_tokens).toBe(ctx.calls[0]!.inputTokens);
      expect(ctx.calls).toHaveLength(1);
      expect(ctx.calls[0]!.task).toBe('gateway');
      // Streaming clients get the same reply as one chunk.
      const stream = await client.chat.completions.create({ model: 'x', stream: true, messages: [{ role: 'user', content: 'Context: The warranty lasts two years.\nQuestion: How long is the warranty?' }] });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      expect(text).toBe(reply.choices[0]!.message.content);
      // Embeddings, as the SDK asks for them (base64) and as floats.
      const emb = await client.embeddings.create({ model: 'x', input: ['battery life', 'warranty'] });
      expect(emb.data).toHaveLength(2);
      expect(emb.data[0]!.embedding.length).toBe(createEmbedder('hash').dim);
      expect(ctx.calls.map((c) => c.kind)).toEqual(['chat', 'chat', 'embed']);
      // A revoked key and a made-up one are refused.
      gw.close(session.key);
      await expect(client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 401 });
      const stranger = new OpenAI({ baseURL: gw.baseURL, apiKey: 'tbq_' + '0'.repeat(48), maxRetries: 0 });
      await expect(stranger.models.list()).rejects.toMatchObject({ status: 401 });
    } finally {
      await gw.stop();
    }
  });

  it('answers a call past the budget with a 429 naming it, which the SDK does not retry', async () => {
    const gw = new ModelGateway({ chat: 'offline-reasoner', embedding: 'hash' });
    await gw.start();
    try {
      const ctx = context({ calls: 1 });
      const session = gw.open(ctx);
      const client = new OpenAI({ baseURL: gw.baseURL, apiKey: session.key, maxRetries: 3 });
      await client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Question: one?' }] });
      const before = gw.requestsServed;
      const refused = await client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Question: two?' }] }).catch((e: unknown) => e as { status: number; code: string; message: string });
      expect(refused).toMatchObject({ status: 429, code: 'budget_calls' });
      expect((refused as unknown as Error).message).toMatch(/budget "calls" exhausted/);
      expect(gw.requestsServed - before).toBe(1); // x-should-retry: false — the SDK did not retry
      expect(ctx.calls).toHaveLength(1);
      expect(ctx.budget.exhausted).toBe('calls');
    } finally {
      await gw.stop();
    }
  });
});
