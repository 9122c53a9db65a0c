// Pacing under a server's rate limits: a loopback server that enforces 600 requests per window
// (a token bucket, refilled over the window, like OpenAI's per-minute limits) and says so in
// x-ratelimit-* headers, retry-after on a 429. A 1,000-call run at concurrency 64 must finish
// with at most 5% of its requests refused, and record the pacing. The window is 6 s instead of a
// minute so the test takes seconds: the pacer reads only the headers, never a fixed period.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseResetMs, Pacer } from '../../../harness/models/pacing.ts';
import { apiError, chatCompletion, defaultEmbeddings, FakeOpenAIServer, type RecordedRequest, type ScriptedReply } from '../../helpers/fake-openai-server.ts';
import { cli, recordLines, tmp, writeConfig } from '../../resilience/helpers.ts';

/** A reply function that enforces `limit` requests per `windowMs` (a token bucket) and says so in headers. */
function bucketed(limit: number, windowMs: number, ok: (req: RecordedRequest) => ScriptedReply) {
  let tokens = limit;
  let at = performance.now();
  const counts = { ok: 0, refused: 0 };
  const reply = (req: RecordedRequest): ScriptedReply => {
    const now = performance.now();
    tokens = Math.min(limit, tokens + ((now - at) * limit) / windowMs);
    at = now;
    const resetMs = ((limit - Math.max(0, tokens - 1)) * windowMs) / limit;
    if (tokens < 1) {
      counts.refused++;
      const wait = ((1 - tokens) * windowMs) / limit;
      return apiError(429, 'Rate limit reached for requests', { code: 'rate_limit_exceeded', headers: { 'retry-after-ms': String(Math.ceil(wait)), 'x-ratelimit-limit-requests': String(limit), 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': `${Math.ceil(wait)}ms` } });
    }
    tokens -= 1;
    counts.ok++;
    const r = ok(req);
    return { ...r, headers: { ...r.headers, 'x-ratelimit-limit-requests': String(limit), 'x-ratelimit-remaining-requests': String(Math.floor(tokens)), 'x-ratelimit-reset-requests': `${Math.ceil(resetMs)}ms` } };
  };
  return { counts, reply };
}

function rateLimited(server: FakeOpenAIServer, limit: number, windowMs: number) {
  const { counts, reply } = bucketed(limit, windowMs, () => chatCompletion('{"answer": "x"}'));
  server.onChat = reply;
  return counts;
}

describe('rate-limit pacing', () => {
  it('parses reset durations', () => {
    expect(parseResetMs('6m0s')).toBe(360_000);
    expect(parseResetMs('1.5s')).toBe(1500);
    expect(parseResetMs('20ms')).toBe(20);
    expect(parseResetMs('2')).toBe(2000);
    expect(parseResetMs('soon')).toBeUndefined();
  });

  it('holds requests when the bucket the headers describe is empty', async () => {
    let now = 0;
    const p = new Pacer(() => now);
    await p.acquire();
    p.done(200, new Headers({ 'x-ratelimit-limit-requests': '60', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1s' }));
    const next = p.acquire();
    let went = false;
    void next.then(() => (went = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(went).toBe(false); // no token: 60 per second is one every 1,000/60 ms of the pacer's clock
    now = 20;
    await next;
    expect(p.stats).toMatchObject({ requests: 2, refused: 0, paced: true, held: 1 });
  });

  it('a 1,000-call run at concurrency 64 against 600 requests per window: ≤ 5% refused, pacing recorded', async () => {
    const server = await FakeOpenAIServer.start();
    const counts = rateLimited(server, 600, 6000);
    try {
      const dir = tmp();
      const cfg = writeConfig(dir, { model: { provider: 'openai', model: 'gpt-4o-mini', baseURL: server.baseURL, maxRetries: 6 }, strategies: ['vector'], run: { outDir: join(dir, 'runs'), limit: 50, repeats: 20, concurrency: 64 }, reports: ['md'] });
      const res = await cli('run', cfg, '--run-id', 'r', '--format', 'table', '--quiet');
      expect(res.code, res.err).toBe(0);
      const records = recordLines(join(dir, 'runs', 'r', 'records.jsonl'));
      expect(records).toHaveLength(1000);
      expect(records.every((r) => r.error === null)).toBe(true);
      expect(counts.ok).toBe(1000);
      const refusedShare = counts.refused / (counts.ok + counts.refused);
      console.log(`pacing: ${counts.refused} refused of ${counts.ok + counts.refused} requests (${(refusedShare * 100).toFixed(2)}%)`);
      expect(refusedShare).toBeLessThanOrEqual(0.05);
      const manifest = JSON.parse(readFileSync(join(dir, 'runs', 'r', 'manifest.json'), 'utf8'));
      expect(manifest.pacing).toMatchObject({ refused: counts.refused, paced: true, requests: counts.ok + counts.refused });
      expect(manifest.pacing.waitedMs).toBeGreaterThan(0);
      const summary = JSON.parse(readFileSync(join(dir, 'runs', 'r', 'summary.json'), 'utf8'));
      expect(summary.pacing.refused).toBe(counts.refused);
      expect(res.out).toMatch(/pacing: 1,0\d\d requests, \d+ refused with 429/);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('paces the embedder too: query embeddings at concurrency 64 against 100 per window, ≤ 5% refused, recorded apart', async () => {
    const server = await FakeOpenAIServer.start();
    const { counts, reply } = bucketed(100, 2000, defaultEmbeddings());
    server.onEmbeddings = reply;
    try {
      const dir = tmp();
      const cfg = writeConfig(dir, { model: { provider: 'openai', model: 'gpt-4o-mini', baseURL: server.baseURL, maxRetries: 6 }, embedder: 'openai:local-embed', index: { cache: { enabled: false } }, strategies: ['vector'], run: { outDir: join(dir, 'runs'), limit: 50, repeats: 6, concurrency: 64 }, reports: ['md'] });
      const res = await cli('run', cfg, '--run-id', 'r', '--format', 'table', '--quiet');
      expect(res.code, res.err).toBe(0);
      const records = recordLines(join(dir, 'runs', 'r', 'records.jsonl'));
      expect(records.every((r) => r.error === null)).toBe(true);
      // The corpus index's batches, then one query embedding per record.
      expect(counts.ok).toBeGreaterThanOrEqual(300);
      const refusedShare = counts.refused / (counts.ok + counts.refused);
      expect(refusedShare).toBeLessThanOrEqual(0.05);
      const manifest = JSON.parse(readFileSync(join(dir, 'runs', 'r', 'manifest.json'), 'utf8'));
      expect(manifest.embeddingPacing).toMatchObject({ refused: counts.refused, paced: true, requests: counts.ok + counts.refused });
      expect(manifest.embeddingPacing.held).toBeGreaterThan(0);
      expect(res.out).toMatch(/pacing: .*embeddings: \d+ requests, \d+ refused with 429/);
    } finally {
      await server.close();
    }
  }, 120_000);
});
