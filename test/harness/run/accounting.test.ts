// Accounting (issue 8, D7): chat and embedding tokens apart, tokens counted with the encoding of
// the model the calls are priced as, estimates marked, zero spread printed as 0.
import { describe, expect, it } from 'vitest';
import pLimit from 'p-limit';
import { MeteredContext, type ModelDoor } from '../../../harness/run/context.ts';
import { loadPriceTable } from '../../../harness/models/prices.ts';
import { countChatTokens, encodingForModel } from '../../../harness/models/tokenizer.ts';
import { repeatStats } from '../../../harness/summary/repeats.ts';
import { summarize } from '../../../harness/summary/summary.ts';
import type { ChatMessage, ChatProvider, Embedder } from '../../../harness/types.ts';
import { record } from '../summary/summaryFixture.ts';

const messages: ChatMessage[] = [{ role: 'user', content: 'Ünïcödé text — with some 12345 digits and emoji 🧵🧵 to split encodings apart.' }];

function door(provider: ChatProvider, priceAs?: string): ModelDoor {
  const embedder: Embedder = { id: 'openai:text-embedding-3-small', dim: 2, embed: async (texts) => ({ vectors: texts.map(() => new Float32Array(2)) }) };
  return { provider, embedder, prices: loadPriceTable(), ...(priceAs ? { priceAs } : {}), limiter: pLimit(2), index: undefined as never };
}

const ctxOf = (d: ModelDoor) => new MeteredContext({ corpus: { name: 'c', docs: [] }, door: d, budget: {}, seed: 1, repeat: 0 });

describe('token accounting', () => {
  const silent: ChatProvider = { id: 'local-llm', offline: false, chat: async () => ({ text: 'an answer', model: 'local-llm' }) };
  const reporting: ChatProvider = { id: 'local-llm', offline: false, chat: async () => ({ text: 'an answer', model: 'local-llm', usage: { inputTokens: 40, outputTokens: 3 } }) };

  it('counts unreported tokens with the encoding of the priceAs model, and marks them estimated', async () => {
    expect(encodingForModel('gpt-4')).toBe('cl100k_base');
    expect(encodingForModel('local-llm')).toBe('o200k_base');
    // The two encodings disagree on this text, so the test can tell which one was used.
    expect(countChatTokens(messages, 'gpt-4')).not.toBe(countChatTokens(messages, 'local-llm'));
    const ctx = ctxOf(door(silent, 'gpt-4'));
    await ctx.chat(messages);
    expect(ctx.calls[0]).toMatchObject({ inputTokens: countChatTokens(messages, 'gpt-4'), estimated: true });
  });

  it('takes provider usage as is, not estimated', async () => {
    const ctx = ctxOf(door(reporting, 'gpt-4'));
    await ctx.chat(messages);
    expect(ctx.calls[0]).toMatchObject({ inputTokens: 40, outputTokens: 3 });
    expect(ctx.calls[0]!.estimated).toBeUndefined();
  });

  it('counts embedding tokens with the embedding model encoding, as estimates', async () => {
    const ctx = ctxOf(door(reporting));
    await ctx.embed(['a text to embed']);
    expect(ctx.calls[0]).toMatchObject({ kind: 'embed', estimated: true });
  });

  it('reports chat and embedding tokens apart in the summary, and the estimated share', () => {
    const s = summarize([
      record({ strategy: 'v', questionId: 'q1', inputTokens: 100, outputTokens: 10, embedTokens: 7, callLog: [
        { kind: 'chat', model: 'm', inputTokens: 100, outputTokens: 10, costUsd: 0, latencyMs: 1, cached: false, retries: 0, estimated: true },
        { kind: 'embed', model: 'e', inputTokens: 7, outputTokens: 0, costUsd: 0, latencyMs: 1, cached: false, retries: 0 },
      ] }),
    ]).strategies[0]!;
    expect(s.tokensPerQuestion).toBe(110);
    expect(s.embedTokensPerQuestion).toBe(7);
    expect(s.estimatedTokenShare).toBe(0.5);
  });
});

describe('repeat spread', () => {
  it('is exactly 0 when every repeat scores the same (not 3.4e-17)', () => {
    // Three repeats, each 1 of 3 correct: per-repeat accuracy 1/3 three times.
    const recs = [0, 1, 2].flatMap((repeat) =>
      ['q1', 'q2', 'q3'].map((q) => record({ strategy: 'v', questionId: q, repeat, scores: { correct: q === 'q1' ? 1 : 0, exactMatch: 0, f1: 0.1, numericMatch: null, yesNo: null, choice: null } })),
    );
    const stats = repeatStats(recs)!;
    expect(stats.accuracy.sd).toBe(0);
    expect(stats.f1.sd).toBe(0);
  });
});
