// Tool calls through the metered door: tool schemas and tool calls are metered as tokens, the
// response cache keys on the tools offered and replays the tool calls, and a refused call is
// logged and booked like any failed call.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { MeteredContext } from '../../../harness/run/context.ts';
import { ResponseCache } from '../../../harness/models/responseCache.ts';
import { HashEmbedder } from '../../../harness/models/embedders/hash.ts';
import { loadPriceTable } from '../../../harness/models/prices.ts';
import { countChatTokens, countTokens } from '../../../harness/models/tokenizer.ts';
import { ToolsUnsupportedError } from '../../../harness/models/tools.ts';
import { ValueIndex } from '../../../harness/retrieval/valueIndex.ts';
import type { ChatMessage, ChatOptions, ChatProvider, ChatResult, Corpus, ToolSpec } from '../../../harness/types.ts';

const corpus: Corpus = { name: 't', docs: [{ docId: 'd', title: 'D', nodes: [{ id: 'n', title: 'N', text: 'Some text.', children: [] }] }] };
const tools: ToolSpec[] = [{ name: 'get_section_content', description: 'Read a section.', parameters: { type: 'object', properties: { doc_id: { type: 'string' } } } }];
const messages: ChatMessage[] = [{ role: 'user', content: 'Read something.' }];

async function context(provider: ChatProvider, opts: { cache?: ResponseCache; budget?: Record<string, number> } = {}) {
  const embedder = new HashEmbedder({ dim: 64 });
  const index = await ValueIndex.build(corpus, embedder, { chunkTokens: 64, overlap: 0 });
  return new MeteredContext({
    corpus,
    door: { provider, embedder, prices: loadPriceTable(), priceAs: 'gpt-4o-mini', limiter: pLimit(2), index, ...(opts.cache ? { cache: opts.cache, modelKey: 'k' } : {}) },
    budget: opts.budget ?? {},
    seed: 1,
    repeat: 0,
  });
}

/** Answers every call with one tool call and no usage block, counting calls. */
function toolCaller() {
  const seen: ChatOptions[] = [];
  const provider: ChatProvider = {
    id: 'gpt-4o-mini',
    offline: false,
    async chat(_m, opts): Promise<ChatResult> {
      seen.push(opts);
      return { text: '', model: 'gpt-4o-mini', toolCalls: [{ id: 'c1', name: 'get_section_content', arguments: '{"doc_id":"d","node_id":"n"}' }] };
    },
  };
  return { provider, seen };
}

describe('tool calls through the metered context', () => {
  it('counts the tool schemas as input and the tool calls as output', async () => {
    const { provider, seen } = toolCaller();
    const ctx = await context(provider);
    const res = await ctx.chat(messages, { tools, toolChoice: 'auto' });
    expect(seen[0].tools).toEqual(tools);
    expect(res.toolCalls?.[0].name).toBe('get_section_content');
    const log = ctx.calls[0];
    expect(log.inputTokens).toBeGreaterThan(countChatTokens(messages, 'gpt-4o-mini'));
    expect(log.outputTokens).toBe(countTokens('get_section_content({"doc_id":"d","node_id":"n"})', 'gpt-4o-mini'));
    expect(log.costUsd).toBeGreaterThan(0);
  });

  it('caches per tools offered, and a hit replays the tool calls', async () => {
    const cache = new ResponseCache(mkdtempSync(join(tmpdir(), 'treebench-tools-cache-')));
    const { provider, seen } = toolCaller();
    const first = await (await context(provider, { cache })).chat(messages, { tools });
    const again = await (await context(provider, { cache })).chat(messages, { tools });
    expect(seen).toHaveLength(1);
    expect(again).toMatchObject({ cached: true, toolCalls: first.toolCalls });
    // The same messages without tools (or with tools switched off) are other requests.
    await (await context(provider, { cache })).chat(messages, {});
    await (await context(provider, { cache })).chat(messages, { tools, toolChoice: 'none' });
    expect(seen).toHaveLength(3);
  });

  it('logs a refusal of tools as a failed call that counts against the calls budget', async () => {
    const provider: ChatProvider = {
      id: 'local',
      offline: false,
      supportsTools: false,
      async chat() {
        throw new ToolsUnsupportedError('openai chat "local": 400 tools are not supported', 1);
      },
    };
    const ctx = await context(provider, { budget: { calls: 5 } });
    expect(ctx.toolsSupported()).toBe(false);
    await expect(ctx.chat(messages, { tools })).rejects.toBeInstanceOf(ToolsUnsupportedError);
    expect(ctx.calls[0]).toMatchObject({ kind: 'chat', error: 'openai chat "local": 400 tools are not supported', retries: 1 });
    expect(ctx.budget.used.calls).toBe(1);
  });
});
