// Response cache modes (cache.mode: use | replay | refresh, --replay): a cache filled against a
// loopback server replays every record with the server down, portably (another folder, another
// copy of the config); a changed prompt under replay fails its questions with exit 2 and the miss
// count, never a request; the table and report say how many calls came from the cache and what
// they cost then against what the run cost now.
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { latestRecords } from '../../../harness/run/store.ts';
import type { RunRecord } from '../../../harness/types.ts';
import { chatCompletion, FakeOpenAIServer } from '../../helpers/fake-openai-server.ts';
import { cli, recordLines, tmp, writeConfig } from '../../resilience/helpers.ts';

/** What a replay must reproduce of a record: everything but timing, run id and cost now. */
function comparable(r: RunRecord) {
  return {
    key: `${r.strategy}|${r.questionId}|${r.repeat}`,
    answer: r.answer,
    scores: r.scores,
    retrieval: r.retrieval,
    evidence: r.evidence,
    calls: r.calls,
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    trace: r.trace,
    error: r.error,
    // A cached call carries the latency recorded when it was made.
    callLatencies: r.callLog.filter((c) => c.kind === 'chat').map((c) => c.latencyMs),
  };
}

const records = (dir: string, id: string) => latestRecords(recordLines(join(dir, 'runs', id, 'records.jsonl'))).sort((a, b) => (`${a.strategy}|${a.questionId}` < `${b.strategy}|${b.questionId}` ? -1 : 1));

describe('response cache modes', () => {
  it('replays a filled cache with the server down (from another folder): every record identical, no request; a changed prompt fails with exit 2 and the miss count', async () => {
    const server = await FakeOpenAIServer.start();
    // Answers that depend on the request, so a replay that answered from the wrong entry would show.
    server.onChat = (req) => chatCompletion(JSON.stringify({ answer: `seen ${JSON.stringify(req.body.messages).length}`, node_list: [] }), { prompt: 1000, completion: 50 });
    const a = tmp();
    const model = { provider: 'openai', model: 'gpt-4o-mini', baseURL: server.baseURL, maxRetries: 0, retryBaseMs: 1 };
    const cfgA = writeConfig(a, { model, strategies: ['vector', 'node-list'], run: { outDir: join(a, 'runs'), limit: 6 }, cache: { mode: 'use', dir: join(a, 'cache') }, reports: ['md', 'json'] });
    const fill = await cli('run', cfgA, '--run-id', 'fill', '--quiet');
    expect(fill.code, fill.err).toBe(0);
    const filled = server.requestsTo('/v1/chat/completions').length;
    expect(filled).toBe(6 + 12);
    await server.close();

    // Another folder, another copy of the config, the cache restored there (a CI artifact).
    const b = tmp();
    cpSync(join(a, 'cache'), join(b, 'restored-cache'), { recursive: true });
    const cfgB = writeConfig(b, { model, strategies: ['vector', 'node-list'], run: { outDir: join(b, 'runs'), limit: 6 }, cache: { dir: join(b, 'restored-cache') }, reports: ['md', 'json'] });
    const replay = await cli('run', cfgB, '--replay', '--run-id', 'replay', '--format', 'table', '--quiet');
    expect(replay.code, replay.err).toBe(0);
    const before = records(a, 'fill');
    const after = records(b, 'replay');
    expect(after.map(comparable)).toEqual(before.map(comparable));
    expect(after.every((r) => r.error === null && r.cachedCalls === r.calls && r.costUsd === 0)).toBe(true);
    // Cost now vs then: nothing now; then, what the fill run paid (gpt-4o-mini: $0.15 / $0.60 per 1M).
    const paid = before.reduce((n, r) => n + r.costUsd!, 0);
    expect(paid).toBeCloseTo(18 * (1000 * 0.15 + 50 * 0.6) / 1e6, 10);
    expect(after.reduce((n, r) => n + r.cachedCostUsd!, 0)).toBeCloseTo(paid, 10);
    expect(replay.out).toMatch(/cache: 18 of 18 chat calls answered from the response cache; this run cost \$0\S* now, the cached calls cost \$0\.00324 when they were made; their latency is the one recorded then/);
    const report = readFileSync(join(b, 'runs', 'replay', 'report.md'), 'utf8');
    expect(report).toMatch(/\*\*cache\*\*: 18 of 18 chat calls/);
    const json = JSON.parse(readFileSync(join(b, 'runs', 'replay', 'report.json'), 'utf8'));
    expect(json.summary.strategies.map((s: { cache: { calls: number } }) => s.cache.calls)).toEqual([6, 12]);

    // A changed prompt (vector's topK changes the chunks it sends): misses fail, exit 2, the count named.
    const cfgC = writeConfig(b, { model, strategies: [{ strategy: 'vector', params: { topK: 2 } }], run: { outDir: join(b, 'runs'), limit: 6 }, cache: { dir: join(b, 'restored-cache') } }, 'changed.yaml');
    const changed = await cli('run', cfgC, '--replay', '--run-id', 'changed', '--quiet');
    expect(changed.code, changed.err).toBe(2);
    expect(changed.err).toMatch(/replay: 6 call\(s\) were not in the response cache .*so 6 record\(s\) failed and no request was made/);
    const missed = records(b, 'changed');
    expect(missed).toHaveLength(6);
    expect(missed.every((r) => r.error?.startsWith('CacheMissError') && r.calls === 1)).toBe(true);
  }, 120_000);

  it('replays query embeddings of a remote embedder too: with the server down no request, identical records; an index not in the embedding cache is refused (exit 2), never embedded', async () => {
    const server = await FakeOpenAIServer.start();
    server.onChat = (req) => chatCompletion(JSON.stringify({ answer: `seen ${JSON.stringify(req.body.messages).length}`, node_list: [] }), { prompt: 500, completion: 20 });
    const a = tmp();
    const model = { provider: 'openai', model: 'gpt-4o-mini', baseURL: server.baseURL, maxRetries: 0, retryBaseMs: 1 };
    const base = { model, embedder: 'openai:local-embed', strategies: ['vector'], reports: ['json'], prices: { models: { 'local-embed': { input: 0.02, output: 0 } } } };
    const cfgA = writeConfig(a, { ...base, run: { outDir: join(a, 'runs'), limit: 4 }, cache: { mode: 'use', dir: join(a, 'cache') }, index: { cache: { dir: join(a, 'embeddings') } } });
    const fill = await cli('run', cfgA, '--run-id', 'fill', '--quiet');
    expect(fill.code, fill.err).toBe(0);
    const embedRequests = server.requestsTo('/v1/embeddings').length;
    // The corpus index, then one query embedding per question.
    expect(embedRequests).toBeGreaterThan(4);
    await server.close();

    const b = tmp();
    cpSync(join(a, 'cache'), join(b, 'cache'), { recursive: true });
    cpSync(join(a, 'embeddings'), join(b, 'embeddings'), { recursive: true });
    const cfgB = writeConfig(b, { ...base, run: { outDir: join(b, 'runs'), limit: 4 }, cache: { dir: join(b, 'cache') }, index: { cache: { dir: join(b, 'embeddings') } } });
    const replay = await cli('run', cfgB, '--replay', '--run-id', 'replay', '--quiet');
    expect(replay.code, replay.err).toBe(0);
    const before = records(a, 'fill');
    const after = records(b, 'replay');
    expect(after.map(comparable)).toEqual(before.map(comparable));
    const embeds = after.flatMap((r) => r.callLog.filter((c) => c.kind === 'embed'));
    expect(embeds).toHaveLength(4);
    expect(embeds.every((c) => c.cached && c.costUsd === 0 && c.cachedCostUsd! > 0)).toBe(true);
    // The same query vectors: the same chunks were retrieved (compared above) and the same tokens counted.
    expect(embeds.map((c) => c.inputTokens)).toEqual(before.flatMap((r) => r.callLog.filter((c) => c.kind === 'embed').map((c) => c.inputTokens)));
    expect(after.every((r) => r.cachedCalls === 1)).toBe(true);

    // The response cache restored without the embedding cache: the index would need the embedder, and replay refuses.
    const c = tmp();
    cpSync(join(a, 'cache'), join(c, 'cache'), { recursive: true });
    const cfgC = writeConfig(c, { ...base, run: { outDir: join(c, 'runs'), limit: 4 }, cache: { dir: join(c, 'cache') }, index: { cache: { dir: join(c, 'embeddings') } } });
    const refused = await cli('run', cfgC, '--replay', '--run-id', 'refused', '--quiet');
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/replay: \d+ chunk\(s\) of the corpus index are not in the embedding cache .*never calls the embedder openai:local-embed/);
  }, 120_000);

  it('refresh calls again and overwrites; use answers from what refresh wrote', async () => {
    const server = await FakeOpenAIServer.start();
    let version = 1;
    server.onChat = () => chatCompletion(JSON.stringify({ answer: `v${version}` }));
    try {
      const dir = tmp();
      const cfg = writeConfig(dir, { model: { provider: 'openai', model: 'm', baseURL: server.baseURL, maxRetries: 0 }, strategies: ['vector'], run: { outDir: join(dir, 'runs'), limit: 3 }, cache: { mode: 'use', dir: join(dir, 'cache') } });
      const one = await cli('run', cfg, '--run-id', 'one', '--quiet');
      expect(one.code, one.err).toBe(0);
      version = 2;
      const refreshed = await cli('run', cfg, '--set', 'cache.mode=refresh', '--run-id', 'two', '--quiet');
      expect(refreshed.code, refreshed.err).toBe(0);
      expect(server.requestsTo('/v1/chat/completions')).toHaveLength(6);
      expect(recordLines(join(dir, 'runs', 'two', 'records.jsonl')).every((r) => r.answer === 'v2' && !r.cachedCalls)).toBe(true);
      version = 3;
      expect((await cli('run', cfg, '--run-id', 'three', '--quiet')).code).toBe(0);
      expect(server.requestsTo('/v1/chat/completions')).toHaveLength(6);
      const three = recordLines(join(dir, 'runs', 'three', 'records.jsonl'));
      expect(three.every((r) => r.answer === 'v2' && r.cachedCalls === 1)).toBe(true);
      // An unpriced model ("m"): cost is n/a (null) in records, never 0, cached or not.
      expect(three.every((r) => r.costUsd === null && r.cachedCostUsd === null)).toBe(true);
      expect(readdirSync(join(dir, 'cache')).length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 60_000);
});
