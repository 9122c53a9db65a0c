// The metered door counts prompt tokens only where a number is needed, once per message object.
import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { countChatTokensCached, MeteredContext } from '../../../harness/run/context.ts';
import { countChatTokens } from '../../../harness/models/tokenizer.ts';
import { loadPriceTable } from '../../../harness/models/prices.ts';
import { ValueIndex } from '../../../harness/retrieval/valueIndex.ts';
import { HashEmbedder } from '../../../harness/models/embedders/hash.ts';
import { isBudgetExhausted } from '../../../harness/run/budget.ts';
import type { Budget, ChatMessage, ChatProvider, Corpus } from '../../../harness/types.ts';

const corpus: Corpus = { name: 'empty', docs: [] };

async function context(reply: { text: string; usage?: { inputTokens: number; outputTokens: number } }, budget: Budget = {}) {
  const seen: number[] = [];
  const provider: ChatProvider = {
    id: 'gpt-4o-mini',
    offline: false,
    chat: async (_m, o) => (seen.push(o?.maxTokens ?? -1), { text: reply.text, model: 'gpt-4o-mini', ...(reply.usage ? { usage: reply.usage } : {}) }),
  };
  const embedder = new HashEmbedder();
  const index = await ValueIndex.fromChunks([], embedder, {});
  const ctx = new MeteredContext({ corpus, door: { provider, embedder, prices: loadPriceTable(), limiter: pLimit(2), index }, budget, seed: 1, repeat: 0 });
  return { ctx, seen };
}

const prompt: ChatMessage[] = [
  { role: 'system', content: 'You answer questions about documents.' },
  { role: 'user', content: 'What is the warranty period of the battery?\n'.repeat(40) },
];

describe('prompt token counting', () => {
  it('countChatTokensCached equals countChatTokens, and notices a changed message', () => {
    const msgs = prompt.map((m) => ({ ...m }));
    expect(countChatTokensCached(msgs, 'gpt-4o-mini')).toBe(countChatTokens(msgs, 'gpt-4o-mini'));
    expect(countChatTokensCached(msgs, 'gpt-4o-mini')).toBe(countChatTokens(msgs, 'gpt-4o-mini'));
    msgs[1].content = 'short now';
    expect(countChatTokensCached(msgs, 'gpt-4o-mini')).toBe(countChatTokens(msgs, 'gpt-4o-mini'));
    msgs[1].role = 'assistant';
    expect(countChatTokensCached(msgs, 'gpt-4o-mini')).toBe(countChatTokens(msgs, 'gpt-4o-mini'));
  });

  it('a reply without usage is booked with the counted prompt; a reply with usage uses it', async () => {
    const a = await context({ text: 'forty words' });
    await a.ctx.chat(prompt);
    expect(a.ctx.calls[0].inputTokens).toBe(countChatTokens(prompt, 'gpt-4o-mini'));
    const b = await context({ text: 'x', usage: { inputTokens: 7, outputTokens: 1 } });
    await b.ctx.chat(prompt, { maxTokens: 50 });
    expect(b.ctx.calls[0].inputTokens).toBe(7);
    expect(b.seen).toEqual([50]);
  });

  it('a token budget still caps the output and refuses a prompt that cannot fit', async () => {
    const n = countChatTokens(prompt, 'gpt-4o-mini');
    const a = await context({ text: 'x', usage: { inputTokens: n, outputTokens: 1 } }, { tokens: n + 10 });
    await a.ctx.chat(prompt, { maxTokens: 500 });
    expect(a.seen).toEqual([10]);
    const b = await context({ text: 'x' }, { tokens: n });
    const err = await b.ctx.chat(prompt).catch((e: unknown) => e);
    expect(isBudgetExhausted(err)).toBe(true);
    expect(b.seen).toEqual([]);
    const c = await context({ text: 'x' }, { dollars: 1e-9 });
    expect(isBudgetExhausted(await c.ctx.chat(prompt).catch((e: unknown) => e))).toBe(true);
  });
});
