// The LLM judge end to end through a loopback OpenAI-compatible server: it sees question, gold
// and answer only; its calls are metered apart from the strategies'; records keep both verdicts;
// reports show the judge's accuracy beside the rule's with Cohen's kappa; responses are cached;
// `rejudge` re-scores a finished run into a run that `compare` pairs with the original.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig, type LoadedConfig } from '../../../harness/config/runConfig.ts';
import { runBenchmark } from '../../../harness/run/runner.ts';
import { rejudgeRun } from '../../../harness/scoring/rejudge.ts';
import { comparability, loadRun } from '../../../harness/analysis/compare/runs.ts';
import { loadBenchmarkData } from '../../../datasets/registry.ts';
import { render } from '../../../reports/index.ts';
import { reportMeta } from '../../../reports/meta.ts';
import { parseVerdict } from '../../../harness/scoring/judge/prompts.ts';
import { ConfigError } from '../../../harness/errors.ts';
import { FakeOpenAIServer, chatCompletion, type RecordedRequest } from '../../helpers/fake-openai-server.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'treebench-judge-'));

function configOf(raw: Record<string, unknown>): LoadedConfig {
  const full = { name: 'judge-test', dataset: { format: 'sample' }, ...raw };
  const { config, strategies } = validateConfig(full);
  return { path: join(process.cwd(), 'judge-test.yaml'), baseDir: process.cwd(), raw: JSON.stringify(full), config, strategies };
}

/** A scripted grader: reads only the request, calls an answer correct when it contains a reference. */
function grader(req: RecordedRequest) {
  const user = req.body.messages.find((m: { role: string }) => m.role === 'user').content as string;
  const payload = JSON.parse(user.slice(user.indexOf('{')));
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  const ok = (payload.reference_answers as string[]).some((g) => norm(payload.answer).includes(norm(g)));
  return chatCompletion(JSON.stringify({ correct: ok, reason: ok ? 'states the reference' : 'does not state the reference' }), { prompt: 90, completion: 12 });
}

async function withKey<T>(fn: () => Promise<T>): Promise<T> {
  const before = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = `judge-${'loopback-placeholder'}`;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = before;
  }
}

describe('LLM judge', () => {
  it('grades every record through its own metered door, cached, with rule and judge side by side', async () => {
    const server = await FakeOpenAIServer.start();
    server.onChat = grader;
    try {
      await withKey(async () => {
        const dir = tmp();
        const judge = { provider: 'openai', model: 'gpt-4o-mini', baseURL: server.baseURL, prompt: 'default' };
        const loaded = configOf({ strategies: ['vector', 'node-list'], scoring: { judge }, cache: { enabled: true, dir: join(dir, 'cache') } });
        const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
        data.questions = data.questions.slice(0, 8);
        const outcome = await runBenchmark({ loaded, data, outDir: dir, runId: 'j1' });

        const judgeRequests = server.requestsTo('/v1/chat/completions');
        expect(judgeRequests).toHaveLength(16); // 8 questions × 2 strategies; the strategies ran offline
        // The judge sees question, gold and answer only: no documents, evidence or strategy.
        for (const req of judgeRequests) {
          const user = req.body.messages[1].content as string;
          expect(Object.keys(JSON.parse(user.slice(user.indexOf('{'))))).toEqual(['task', 'question', 'reference_answers', 'answer']);
        }
        for (const r of outcome.records) {
          expect(r.judge).toMatchObject({ model: 'gpt-4o-mini', prompt: 'default' });
          expect([0, 1]).toContain(r.judge!.correct);
          expect(r.judge!.calls[0]).toMatchObject({ task: 'judge.grade', inputTokens: 90, outputTokens: 12 });
          // Judge calls are not the strategy's: not in its call log, calls or tokens.
          expect(r.callLog.some((c) => c.task === 'judge.grade')).toBe(false);
          expect(r.calls).toBe(r.callLog.filter((c) => c.kind === 'chat').length);
          expect(r.scores).not.toBeNull(); // the rule's verdict is kept beside it
        }
        const s = outcome.summary.strategies[0]!;
        const judged = outcome.records.filter((r) => r.strategy === s.strategy);
        expect(s.judgeAccuracy).toBeCloseTo(judged.filter((r) => r.judge!.correct === 1).length / judged.length, 12);
        expect(s.judge).toMatchObject({ n: 8, errors: 0, model: 'gpt-4o-mini' });
        expect(s.judge!.tokensPerQuestion).toBe(102);
        expect(s.judge!.costPerQuestion).toBeGreaterThan(0);
        expect(s.intervals?.judgeAccuracy).toBeDefined();

        const meta = reportMeta(outcome.manifest);
        const md = render('md', { summary: outcome.summary, meta });
        expect(md).toContain('## LLM judge');
        expect(md).toMatch(/rule \d+\.\d%.*judge \d+\.\d%/);
        const table = render('table', { summary: outcome.summary, meta });
        expect(table).toContain('judge gpt-4o-mini');

        // A second run with the cache answers every judge call from it.
        const again = await runBenchmark({ loaded, data, outDir: dir, runId: 'j2' });
        expect(server.requestsTo('/v1/chat/completions')).toHaveLength(16);
        expect(again.records.every((r) => r.judge!.calls[0]!.cached)).toBe(true);
        expect(again.records.map((r) => r.judge!.correct)).toEqual(outcome.records.map((r) => r.judge!.correct));

        // The key never reaches the run folder.
        for (const f of ['records.jsonl', 'manifest.json', 'summary.json']) expect(readFileSync(join(dir, 'j1', f), 'utf8')).not.toContain('loopback-placeholder');
      });
    } finally {
      await server.close();
    }
  });

  it('rejudge re-scores a finished run without re-running strategies, and compare accepts it', async () => {
    const dir = tmp();
    const loaded = configOf({ strategies: ['vector'] });
    const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
    data.questions = data.questions.slice(0, 6);
    const original = await runBenchmark({ loaded, data, outDir: dir, runId: 'orig' });
    const server = await FakeOpenAIServer.start();
    server.onChat = grader;
    try {
      await withKey(async () => {
        const out = await rejudgeRun({ runDir: join(dir, 'orig'), judge: { provider: 'openai', model: 'gpt-4o-mini', baseURL: server.baseURL, prompt: 'financebench' } });
        expect(server.requestsTo('/v1/chat/completions')).toHaveLength(6); // judge calls only
        expect(out.records.map((r) => r.answer)).toEqual(original.records.map((r) => r.answer));
        expect(out.records.every((r) => r.judge?.prompt === 'financebench')).toBe(true);
        expect(server.requests[0]!.body.messages[0].content).toContain('financial');
        const a = loadRun(join(dir, 'orig'));
        const b = loadRun(out.dir);
        expect(comparability(a.manifest, b.manifest).refusals).toEqual([]);
        expect(b.records).toHaveLength(6);
        expect(out.summary.strategies[0]!.judge?.n).toBe(6);
      });
    } finally {
      await server.close();
    }
  });

  it('is validated like the config: the offline reasoner cannot judge, prompts are named', () => {
    expect(() => configOf({ strategies: ['vector'], scoring: { judge: { provider: 'offline' } } })).toThrow(ConfigError);
    expect(() => configOf({ strategies: ['vector'], scoring: { judge: { provider: 'openai', model: 'm', prompt: 'lenient' } } })).toThrow(/scoring\.judge\.prompt/);
    expect(() => configOf({ strategies: ['vector'], scoring: { k: 0 } })).toThrow(/scoring\.k/);
  });

  it('reads verdicts, and refuses to guess on an unreadable reply', () => {
    expect(parseVerdict('{"correct": true, "reason": "same value"}')).toEqual({ correct: 1, reason: 'same value' });
    expect(parseVerdict('Sure! ```json\n{"correct": false, "reason": "other year"}\n```')).toEqual({ correct: 0, reason: 'other year' });
    expect(parseVerdict('I think it is right').correct).toBeNull();
    // A note after the verdict that holds braces of its own does not hide the verdict.
    expect(parseVerdict('{"correct": true, "reason": "ok"} (scale: {0, 1})')).toEqual({ correct: 1, reason: 'ok' });
  });
});
