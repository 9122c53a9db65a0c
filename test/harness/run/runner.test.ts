import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { validateConfig, type LoadedConfig } from '../../../harness/config/runConfig.ts';
import { runBenchmark, type BenchmarkData, type Progress } from '../../../harness/run/runner.ts';
import { RunStore } from '../../../harness/run/store.ts';
import { sortLikeRun } from '../../../harness/run/order.ts';
import { summarize } from '../../../harness/summary/summary.ts';
import { withIntervals } from '../../../harness/summary/intervals.ts';
import { BootstrapWorker } from '../../../harness/stats/parallelBootstrap.ts';
import type { ChatMessage, ChatProvider, ChatResult, RunRecord } from '../../../harness/types.ts';
import { OfflineReasoner } from '../../../harness/models/providers/offline.ts';
import { loadBenchmarkData } from '../../../datasets/registry.ts';
import { registerStrategy } from '../../../strategies/registry.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'treebench-runner-'));

/** Runs `fn` with OPENAI_API_KEY / OPENAI_BASE_URL set, restoring the environment after. */
async function withOpenAIEnv<T>(key: string, baseURL: string, fn: () => Promise<T>): Promise<T> {
  const before = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
  process.env.OPENAI_API_KEY = key;
  process.env.OPENAI_BASE_URL = baseURL;
  try {
    return await fn();
  } finally {
    if (before.key === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = before.key;
    if (before.url === undefined) delete process.env.OPENAI_BASE_URL;
    else process.env.OPENAI_BASE_URL = before.url;
  }
}

function configOf(raw: Record<string, unknown>): LoadedConfig {
  const full = { name: 'test', dataset: { format: 'sample' }, ...raw };
  const { config, strategies } = validateConfig(full);
  return { path: join(process.cwd(), 'test.yaml'), baseDir: process.cwd(), raw: JSON.stringify(full), config, strategies };
}

async function sample(limit?: number): Promise<BenchmarkData> {
  const loaded = configOf({ strategies: ['vector'] });
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
  return limit ? { ...data, questions: data.questions.slice(0, limit) } : data;
}

// A strategy that fails on one question, to prove one failure does not stop the run.
registerStrategy({
  name: 'test-flaky',
  description: 'throws on sample-002',
  params: z.object({}).strict(),
  async run(question, ctx) {
    if (question.id === 'sample-002') throw new Error('boom on purpose');
    await ctx.chat([{ role: 'user', content: 'hello' }], { task: 'test' });
    return { answer: 'x', evidence: [], trace: [] };
  },
});

describe('runBenchmark', () => {
  it('writes manifest, one record per strategy x question x repeat, and a summary', async () => {
    const out = tmp();
    const data = await sample(6);
    const outcome = await runBenchmark({ loaded: configOf({ strategies: ['vector', 'node-list'] }), data, outDir: out, runId: 'r1', repeats: 2 });
    const dir = join(out, 'r1');
    expect(readdirSync(dir).sort()).toEqual(['manifest.json', 'records.jsonl', 'summary.json']);
    const lines = readFileSync(join(dir, 'records.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(6 * 2 * 2);
    const records = lines.map((l) => JSON.parse(l) as RunRecord);
    const vector = records.filter((r) => r.strategy === 'vector');
    const nodeList = records.filter((r) => r.strategy === 'node-list');
    // The table's promise: vector makes one answer call, node-list two (select + answer).
    expect(vector.every((r) => r.calls === 1)).toBe(true);
    expect(nodeList.every((r) => r.calls === 2)).toBe(true);
    expect(records.every((r) => r.scores !== null && r.retrieval?.node !== null && r.error === null)).toBe(true);
    expect(records.every((r) => r.callLog.every((c) => c.inputTokens > 0))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(manifest.model.offline).toBe(true);
    expect(manifest.model.label).toMatch(/offline reasoner/);
    expect(manifest.corpus.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.dataset.files.length).toBeGreaterThan(1);
    expect(manifest.finishedAt).not.toBeNull();
    expect(outcome.summary.strategies.map((s) => s.strategy)).toEqual(['vector', 'node-list']);
  });

  it('summarises what the records file holds: the summary equals the one made from the full records', async () => {
    // The runner keeps a summary row per finished record, parsed from the line it wrote;
    // `report` summarises the full records read back from the same file.
    const out = tmp();
    const outcome = await runBenchmark({ loaded: configOf({ strategies: ['vector', 'test-flaky', 'node-list'] }), data: await sample(8), outDir: out, runId: 'rows', repeats: 2 });
    const full = sortLikeRun(RunStore.open(join(out, 'rows')).readRecords(), outcome.manifest);
    expect(full).toHaveLength(8 * 3 * 2);
    expect(full.some((r) => r.error)).toBe(true);
    const expected = withIntervals(summarize(full), full, { seed: outcome.manifest.seed });
    expect(outcome.summary).toEqual(expected);
    expect(JSON.parse(readFileSync(join(out, 'rows', 'summary.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it('a run long enough for the two-thread bootstrap shares the replicates its worker drew during the calls, and its summary is the report\'s', async () => {
    // 700 questions (the sample's, repeated under new ids): past EARLY_WORKER_RECORDS and worth a
    // second thread, so the worker draws the replicates while calls are out and the two threads
    // split them.
    const base = await sample();
    const questions = Array.from({ length: 700 }, (_, i) => ({ ...base.questions[i % base.questions.length]!, id: `q${i}` }));
    const shared = vi.spyOn(BootstrapWorker.prototype, 'replicates');
    try {
      const out = tmp();
      const outcome = await runBenchmark({ loaded: configOf({ strategies: ['vector'] }), data: { ...base, questions }, outDir: out, runId: 'drawn' });
      expect(shared).toHaveBeenCalledOnce();
      const full = sortLikeRun(RunStore.open(join(out, 'drawn')).readRecords(), outcome.manifest);
      expect(full).toHaveLength(700);
      expect(outcome.summary).toEqual(withIntervals(summarize(full), full, { seed: outcome.manifest.seed }));
    } finally {
      shared.mockRestore();
    }
  });

  it('says when the calls start (run progress at 0) and after each record, and nothing when none is left', async () => {
    const out = tmp();
    const seen: Progress[] = [];
    await runBenchmark({ loaded: configOf({ strategies: ['vector'] }), data: await sample(5), outDir: out, runId: 'p', onProgress: (p) => void (p.phase === 'run' && seen.push(p)) });
    expect(seen.map((p) => p.done)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(seen.every((p) => p.total === 5)).toBe(true);
    // A resume with every task done: no calls start, so no run progress at all.
    seen.length = 0;
    await runBenchmark({ loaded: configOf({ strategies: ['vector'] }), data: await sample(5), outDir: out, resumeDir: join(out, 'p'), onProgress: (p) => void (p.phase === 'run' && seen.push(p)) });
    expect(seen).toEqual([]);
  });

  it('reports the steps before the calls in order: fingerprint and chunking by document, then the index by chunk', async () => {
    const data = await sample(3);
    const seen: Progress[] = [];
    await runBenchmark({ loaded: configOf({ strategies: ['vector'] }), data, outDir: tmp(), runId: 'f', onProgress: (p) => void seen.push(p) });
    const phases = seen.map((p) => p.phase).filter((ph, i, all) => ph !== all[i - 1]);
    expect(phases).toEqual(['fingerprint', 'chunking', 'index', 'run']);
    const docs = data.corpus.docs.length;
    expect(seen.filter((p) => p.phase === 'fingerprint').map((p) => p.done)).toEqual(Array.from({ length: docs }, (_, i) => i + 1));
    expect(seen.filter((p) => p.phase === 'chunking').at(-1)).toMatchObject({ done: docs, total: docs });
  });

  it('records a failing question as an error and completes the run', async () => {
    const out = tmp();
    const outcome = await runBenchmark({ loaded: configOf({ strategies: ['test-flaky'] }), data: await sample(4), outDir: out, runId: 'r' });
    expect(outcome.records).toHaveLength(4);
    const failed = outcome.records.filter((r) => r.error);
    expect(failed.map((r) => r.questionId)).toEqual(['sample-002']);
    expect(failed[0].error).toContain('boom on purpose');
    expect(failed[0].scores?.correct).toBe(0);
  });

  it('stops a strategy at its budget and says which budget ran out', async () => {
    const outcome = await runBenchmark({
      loaded: configOf({ strategies: [{ strategy: 'node-list', budget: { calls: 1 } }] }),
      data: await sample(3),
      outDir: tmp(),
      runId: 'b',
    });
    for (const r of outcome.records) {
      expect(r.calls).toBeLessThanOrEqual(1);
      expect(r.budgetExhausted).toBe('calls');
      expect(r.error).toBeNull();
    }
  });

  it('never lets a strategy exceed a randomly drawn budget through the real metered context', async () => {
    let seed = 7;
    const rand = (lo: number, hi: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return lo + (seed % (hi - lo + 1));
    };
    const names = ['vector', 'node-list', 'layerwise', 'hybrid-beam', 'mcts', 'agent'];
    const entries = Array.from({ length: 18 }, (_, i) => ({
      id: `${names[i % names.length]}-${i}`,
      strategy: names[i % names.length],
      budget: { calls: rand(1, 8), tokens: rand(500, 20000), nodesVisited: rand(1, 8), nodesOpened: rand(1, 5), evidenceTokens: rand(20, 800) },
    }));
    const outcome = await runBenchmark({ loaded: configOf({ strategies: entries }), data: await sample(4), outDir: tmp(), runId: 'rb' });
    expect(outcome.records).toHaveLength(72);
    for (const r of outcome.records) {
      const b = entries.find((e) => e.id === r.strategy)!.budget;
      expect(r.error).toBeNull();
      expect(r.calls).toBeLessThanOrEqual(b.calls);
      expect(r.inputTokens + r.outputTokens).toBeLessThanOrEqual(b.tokens);
      expect(r.nodesVisited).toBeLessThanOrEqual(b.nodesVisited);
      expect(r.nodesOpened).toBeLessThanOrEqual(b.nodesOpened);
      expect(r.evidenceTokens).toBeLessThanOrEqual(b.evidenceTokens);
    }
    // The draws are tight enough that budgets really do run out, and the records say which.
    expect(outcome.records.some((r) => r.budgetExhausted !== null)).toBe(true);
  });

  it('resumes an interrupted run without repeating or duplicating records', async () => {
    const out = tmp();
    const loaded = configOf({ strategies: ['vector', 'node-list'] });
    const data = await sample(5);
    await runBenchmark({ loaded, data, outDir: out, runId: 'x' });
    const path = join(out, 'x', 'records.jsonl');
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    // Simulate a crash: three records finished, a fourth was cut mid-write.
    writeFileSync(path, `${lines.slice(0, 3).join('\n')}\n${lines[3].slice(0, 40)}`);
    const resumed = await runBenchmark({ loaded, data, resumeDir: join(out, 'x') });
    const after = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunRecord);
    expect(after).toHaveLength(10);
    expect(new Set(after.map((r) => `${r.strategy}/${r.questionId}`)).size).toBe(10);
    expect(after.slice(0, 3).map((r) => r.finishedAt)).toEqual(lines.slice(0, 3).map((l) => JSON.parse(l).finishedAt));
    expect(resumed.manifest.resumedAt).toHaveLength(1);
    // A resumed run's summary covers the earlier invocation's records too (it reads the file back).
    const full = sortLikeRun(RunStore.open(join(out, 'x')).readRecords(), resumed.manifest);
    expect(resumed.summary).toEqual(withIntervals(summarize(full), full, { seed: resumed.manifest.seed }));
    // Resuming with a different config would mix two runs in one folder: refused.
    await expect(runBenchmark({ loaded: configOf({ strategies: ['vector'] }), data, resumeDir: join(out, 'x') })).rejects.toThrow(/different config/);
  });

  /** The offline reasoner behind a delay of `ms`, counting the calls started, in flight and at most in flight. */
  function countingProvider(ms: number) {
    const counts = { started: 0, inFlight: 0, peak: 0 };
    const inner = new OfflineReasoner();
    const provider: ChatProvider = {
      id: 'counting',
      offline: true,
      async chat(messages: ChatMessage[], opts): Promise<ChatResult> {
        counts.started++;
        counts.inFlight++;
        counts.peak = Math.max(counts.peak, counts.inFlight);
        await new Promise((r) => setTimeout(r, ms));
        counts.inFlight--;
        return inner.chat(messages, opts);
      },
    };
    return { provider, counts };
  }

  it('never has more model calls in flight than the concurrency limit', async () => {
    const { provider, counts } = countingProvider(5);
    await runBenchmark({ loaded: configOf({ strategies: ['vector', 'node-list'] }), data: await sample(12), outDir: tmp(), runId: 'c', concurrency: 3, provider });
    expect(counts.peak).toBe(3);
  });

  it('says once, when every task left has its call out, that the run only waits for its last replies', async () => {
    const { provider, counts } = countingProvider(3);
    const seenAt: Array<{ started: number; inFlight: number; done: number }> = [];
    const data = await sample(12);
    const seen: number[] = [];
    await runBenchmark({
      loaded: configOf({ strategies: ['vector'] }),
      data,
      outDir: tmp(),
      runId: 'o',
      concurrency: 3,
      provider,
      onProgress: (p) => void (p.phase === 'run' && seen.push(p.done)),
      onCallsOut: () => void seenAt.push({ started: counts.started, inFlight: counts.inFlight, done: seen.at(-1) ?? 0 }),
    });
    // Once: after every call has started, with no more calls left than the slots (3), while
    // the last records were still to come.
    const n = data.questions.length;
    expect(seenAt).toHaveLength(1);
    expect(seenAt[0]!.started).toBe(n);
    expect(seenAt[0]!.inFlight).toBeLessThanOrEqual(3);
    expect(seenAt[0]!.done).toBeGreaterThanOrEqual(n - 3);
    expect(seenAt[0]!.done).toBeLessThan(n);
    expect(seen.at(-1)).toBe(n);
  });

  it('keeps a real API key out of every file of the run folder', async () => {
    const { FakeOpenAIServer, chatCompletion } = await import('../../helpers/fake-openai-server.ts');
    const server = await FakeOpenAIServer.start();
    server.onChat = chatCompletion('{"answer": "25th", "node_list": []}', { prompt: 120, completion: 9 });
    // Built at run time so the fake key does not look like a committed secret.
    const key = `sk-${'test-SECRET-abcdefghijklmnopqrstuvwxyz0123'}`;
    try {
      await withOpenAIEnv(key, server.baseURL, async () => {
        const out = tmp();
        const outcome = await runBenchmark({
          loaded: configOf({ model: { provider: 'openai', model: 'gpt-4o-mini' }, strategies: ['vector', 'node-list'] }),
          data: await sample(3),
          outDir: out,
          runId: 'k',
        });
        expect(outcome.records.every((r) => r.error === null)).toBe(true);
        // Token accounting comes from the provider's usage block, not the local tokenizer.
        const chat = outcome.records[0].callLog.find((c) => c.kind === 'chat')!;
        expect([chat.inputTokens, chat.outputTokens]).toEqual([120, 9]);
        expect(outcome.manifest.model.offline).toBe(false);
        expect(server.requests.some((r) => r.headers.authorization === `Bearer ${key}`)).toBe(true);
        for (const f of readdirSync(join(out, 'k'))) expect(readFileSync(join(out, 'k', f), 'utf8')).not.toContain('SECRET');
      });
    } finally {
      await server.close();
    }
  });
});

describe('strategies through the openai provider', () => {
  it('make the same decisions over HTTP as in-process when the server answers like the offline reasoner', async () => {
    const { FakeOpenAIServer, chatCompletion } = await import('../../helpers/fake-openai-server.ts');
    const server = await FakeOpenAIServer.start();
    // The loopback "model" sees only the HTTP request body, exactly what a hosted model would.
    server.onChat = (req) => offlineOverHttp(req.body, chatCompletion);
    try {
      await withOpenAIEnv('loopback-placeholder-key', server.baseURL, async () => {
        // The agent in both tool modes: native tool calls over the wire, and the text protocol.
        const strategies = ['vector', 'node-list', 'layerwise', 'hybrid-beam', 'mcts', 'agent', { id: 'agent-text', strategy: 'agent', params: { toolMode: 'text' } }];
        const data = await sample(4);
        const http = await runBenchmark({ loaded: configOf({ model: { provider: 'openai', model: 'gpt-4o-mini' }, strategies }), data, outDir: tmp(), runId: 'h' });
        const local = await runBenchmark({ loaded: configOf({ model: { provider: 'offline' }, strategies }), data, outDir: tmp(), runId: 'l' });
        expect(http.records.every((r) => r.error === null && r.parseFailures === 0)).toBe(true);
        const view = (o: typeof http) => o.records.map((r) => ({ s: r.strategy, q: r.questionId, answer: r.answer, evidence: r.evidence.map((e) => e.nodeId), calls: r.calls }));
        expect(view(http)).toEqual(view(local));
        expect(server.requestsTo('/v1/chat/completions').length).toBe(http.records.reduce((n, r) => n + r.calls, 0));
        expect(http.records[0].callLog.find((c) => c.kind === 'chat')!.inputTokens).toBe(100);
        // The agent's turns really went over the wire as native tool calls (and the text mode's did not).
        const bodies = server.requestsTo('/v1/chat/completions').map((r) => r.body);
        const agentCalls = http.records.filter((r) => r.strategy === 'agent').reduce((n, r) => n + r.calls, 0);
        expect(bodies.filter((b) => Array.isArray(b.tools)).length).toBe(agentCalls);
        expect(bodies.some((b) => b.messages.some((m: { role: string }) => m.role === 'tool'))).toBe(true);
        expect(bodies.some((b) => b.messages.some((m: { role: string; content: string }) => m.role === 'user' && m.content?.startsWith('[Tool Result: ')))).toBe(true);
        const agent = http.records.filter((r) => r.strategy.startsWith('agent'));
        expect(agent.every((r) => r.trace.some((s) => s.action === 'tool') && r.evidence.length > 0)).toBe(true);
      });
    } finally {
      await server.close();
    }
  });

  it('agent in toolMode auto falls back to the text protocol when the server refuses tools, deciding as in-process text', async () => {
    const { FakeOpenAIServer, chatCompletion, apiError } = await import('../../helpers/fake-openai-server.ts');
    const server = await FakeOpenAIServer.start();
    server.onChat = (req) => (req.body.tools ? apiError(400, 'this model does not support tools') : offlineOverHttp(req.body, chatCompletion));
    try {
      await withOpenAIEnv('loopback-placeholder-key', server.baseURL, async () => {
        const data = await sample(4);
        const http = await runBenchmark({ loaded: configOf({ model: { provider: 'openai', model: 'local-model' }, strategies: ['agent'] }), data, outDir: tmp(), runId: 'f' });
        const local = await runBenchmark({ loaded: configOf({ model: { provider: 'offline' }, strategies: [{ id: 'agent', strategy: 'agent', params: { toolMode: 'text' } }] }), data, outDir: tmp(), runId: 'g' });
        const view = (o: typeof http) => o.records.map((r) => ({ q: r.questionId, answer: r.answer, evidence: r.evidence.map((e) => e.nodeId), tools: r.trace.filter((s) => s.action === 'tool').map((s) => s.tool) }));
        expect(view(http)).toEqual(view(local));
        expect(http.records.every((r) => r.error === null && r.trace.some((s) => s.action === 'fallback' && /text protocol/.test(s.reason ?? '')))).toBe(true);
        // Refused calls were made and are in the call logs, as errors; once known, tools are not offered again.
        const refused = http.records.flatMap((r) => r.callLog.filter((c) => c.error));
        expect(refused.length).toBeGreaterThanOrEqual(1);
        expect(refused.every((c) => /does not support tools|refused native tools/.test(c.error!))).toBe(true);
        const withTools = server.requestsTo('/v1/chat/completions').filter((r) => r.body.tools).length;
        expect(withTools).toBeLessThanOrEqual(data.questions.length);
      });
    } finally {
      await server.close();
    }
  });
});

/**
 * The offline reasoner answering an HTTP chat-completions body: the wire messages turned back into
 * chat messages (tool calls and tool results included), and its reply (text or tool calls) into a
 * chat completion. It sees nothing but the request.
 */
async function offlineOverHttp(body: any, chatCompletion: typeof import('../../helpers/fake-openai-server.ts').chatCompletion) {
  const { respondChat } = await import('../../../harness/models/providers/offline.ts');
  const messages: ChatMessage[] = body.messages.map((m: any): ChatMessage => {
    if (m.role === 'tool') return { role: 'tool', toolCallId: m.tool_call_id, content: m.content };
    if (m.tool_calls) return { role: 'assistant', content: m.content ?? '', toolCalls: m.tool_calls.map((c: any) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })) };
    return { role: m.role, content: m.content };
  });
  const tools = body.tools?.map((t: any) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters }));
  const reply = respondChat(messages, { maxTokens: body.max_tokens, tools, toolChoice: body.tool_choice });
  return chatCompletion(reply.text, { prompt: 100, completion: 10 }, { toolCalls: reply.toolCalls });
}

describe('response cache', () => {
  it('answers a re-run from the cache, replaying usage, while repeats stay independent calls', async () => {
    let calls = 0;
    const inner = new OfflineReasoner();
    const provider: ChatProvider = {
      id: 'counting',
      offline: true,
      async chat(messages, opts) {
        calls++;
        return { ...(await inner.chat(messages, opts)), usage: { inputTokens: 1000 + calls, outputTokens: 7 } };
      },
    };
    const dir = tmp();
    const loaded = configOf({ strategies: ['vector', 'node-list'], cache: { enabled: true, dir: join(dir, 'cache') } });
    const data = await sample(3);
    const first = await runBenchmark({ loaded, data, outDir: dir, runId: 'a', repeats: 2, provider });
    // 3 questions x (1 + 2) calls x 2 repeats: every repeat is its own call.
    expect(calls).toBe(18);
    const second = await runBenchmark({ loaded, data, outDir: dir, runId: 'b', repeats: 2, provider });
    expect(calls).toBe(18);
    const logs = (o: typeof first) => o.records.flatMap((r) => r.callLog.filter((c) => c.kind === 'chat'));
    expect(logs(second).every((c) => c.cached)).toBe(true);
    expect(logs(second).map((c) => c.inputTokens)).toEqual(logs(first).map((c) => c.inputTokens));
    expect(second.records.map((r) => r.answer)).toEqual(first.records.map((r) => r.answer));
    // --no-cache bypasses it.
    await runBenchmark({ loaded, data, outDir: dir, runId: 'c', provider, cache: false });
    expect(calls).toBe(27);
  });
});

describe('RunStore', () => {
  it('refuses to start a new run over a folder that has records', () => {
    const dir = join(tmp(), 'r');
    RunStore.create(dir);
    // Nothing is written until the manifest is: records never exist without it.
    expect(existsSync(join(dir, 'records.jsonl'))).toBe(false);
    writeFileSync(join(dir, 'records.jsonl'), '{}\n');
    expect(() => RunStore.create(dir)).toThrow(/--resume/);
  });
});
