// Groundedness (issue 25): the LLM-judged faithfulness metric through a loopback grader, and the
// offline lexical proxy, both with intervals, compared, gated and charted in history like any
// metric. The proxy is checked against what a careful reader says it can and cannot see.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig, type LoadedConfig } from '../../../harness/config/runConfig.ts';
import { runBenchmark } from '../../../harness/run/runner.ts';
import { loadBenchmarkData } from '../../../datasets/registry.ts';
import { lexicalGroundedness } from '../../../harness/scoring/groundedness.ts';
import { groundingMessages, parseGrounding } from '../../../harness/scoring/judge/grounding.ts';
import { buildComparison } from '../../../harness/analysis/compare/build.ts';
import { buildGate } from '../../../cli/handlers/gate.ts';
import { buildHistory } from '../../../harness/analysis/history/build.ts';
import { render } from '../../../reports/index.ts';
import { reportMeta } from '../../../reports/meta.ts';
import { ConfigError } from '../../../harness/errors.ts';
import { FakeOpenAIServer, chatCompletion, type RecordedRequest } from '../../helpers/fake-openai-server.ts';
import { writeFileSync } from 'node:fs';

const tmp = () => mkdtempSync(join(tmpdir(), 'treebench-grounded-'));

function configOf(raw: Record<string, unknown>): LoadedConfig {
  const full = { name: 'grounded-test', dataset: { format: 'sample' }, ...raw };
  const { config, strategies } = validateConfig(full);
  return { path: join(process.cwd(), 'grounded-test.yaml'), baseDir: process.cwd(), raw: JSON.stringify(full), config, strategies };
}

/** A scripted grader: each sentence of the answer is a claim, supported when most of its words are in the context. */
function grader(req: RecordedRequest) {
  const user = req.body.messages.find((m: { role: string }) => m.role === 'user').content as string;
  const payload = JSON.parse(user.slice(user.indexOf('{')));
  const words = (s: string) => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const context = new Set((payload.context as string[]).flatMap(words));
  const claims = (payload.answer as string).split(/(?<=[.!?])\s+/).filter((c) => words(c).length > 0);
  const verdicts = claims.map((claim) => ({ claim, supported: words(claim).filter((w) => context.has(w)).length >= 0.6 * words(claim).length }));
  return chatCompletion(JSON.stringify({ claims: verdicts }), { prompt: 400, completion: 30 });
}

async function withKey<T>(fn: () => Promise<T>): Promise<T> {
  const before = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = `grounded-${'loopback-placeholder'}`;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = before;
  }
}

describe('lexical groundedness (offline proxy)', () => {
  const evidence = ['The Heddle H2 purifier runs at 22 dB in night mode. Replace the filter every 6 months.'];
  it.each([
    ['It runs at 22 dB in night mode.', 1], // every content word is in the evidence
    ['Replace the filter every 6 months.', 1],
    ['It runs at 45 dB.', 2 / 3], // "45" is not in the evidence: runs, db found
    ['The purifier needs no maintenance and is silent.', 1 / 4], // purifier found; needs, maintenance, silent not
  ] as const)('%j → %d', (answer, share) => {
    expect(lexicalGroundedness(answer, evidence)).toBeCloseTo(share, 12);
  });

  it('has nothing to measure in an empty answer, an abstention or stopwords alone', () => {
    expect(lexicalGroundedness('', evidence)).toBeNull();
    expect(lexicalGroundedness('The document does not say.', evidence)).toBeNull();
    expect(lexicalGroundedness('yes', evidence)).toBeNull();
  });

  it('is a proxy: a paraphrase the evidence supports scores low, a contradiction built from its words scores high (4 of 5: only "never" is new)', () => {
    // A careful reader: supported (22 dB is quiet at night) — the proxy cannot see it.
    expect(lexicalGroundedness('Very quiet overnight: about twenty-two decibels.', evidence)!).toBeLessThan(0.5);
    // A careful reader: contradicted (the evidence says every 6 months) — the proxy scores it 1.
    expect(lexicalGroundedness('Never replace the filter in night mode.', evidence)).toBeCloseTo(4 / 5, 12);
  });
});

describe('LLM groundedness prompt and reply', () => {
  it('sends question, answer and the retrieved evidence, never the gold, and cuts long context', () => {
    const messages = groundingMessages({ question: 'How loud?', answer: '22 dB', evidence: ['a'.repeat(30_000), 'second'] });
    const payload = JSON.parse(messages[1]!.content.slice(messages[1]!.content.indexOf('{')));
    expect(Object.keys(payload)).toEqual(['task', 'question', 'answer', 'context']);
    expect(payload.context).toHaveLength(1);
    expect(payload.context[0].length).toBeLessThan(24_010);
  });

  it('reads claims, and refuses to guess on an unreadable reply', () => {
    expect(parseGrounding('{"claims": [{"claim": "a", "supported": true}, {"claim": "b", "supported": "no"}]}')).toEqual([
      { claim: 'a', supported: true },
      { claim: 'b', supported: false },
    ]);
    expect(parseGrounding('{"claims": []}')).toEqual([]);
    expect(parseGrounding('{"claims": [{"claim": "a", "supported": "maybe"}]}')).toBeNull();
    expect(parseGrounding('looks fine to me')).toBeNull();
  });

  it('is validated like the config: the offline reasoner cannot grade', () => {
    expect(() => configOf({ strategies: ['vector'], scoring: { groundedness: { provider: 'offline' } } })).toThrow(ConfigError);
  });
});

describe('groundedness in a run, compare, gate and history', () => {
  it('grades every answered record through its own door, with intervals, and is a metric like any other', async () => {
    const server = await FakeOpenAIServer.start();
    server.onChat = grader;
    try {
      await withKey(async () => {
        const dir = tmp();
        const loaded = configOf({ strategies: ['vector', 'node-list'], scoring: { groundedness: { provider: 'openai', model: 'gpt-4o-mini', baseURL: server.baseURL } }, run: { seed: 5 } });
        const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
        data.questions = data.questions.slice(0, 12);
        const a = await runBenchmark({ loaded, data, outDir: dir, runId: 'g1' });
        const answered = a.records.filter((r) => r.groundedness!.lexical !== null);
        expect(server.requestsTo('/v1/chat/completions')).toHaveLength(answered.length); // the strategies ran offline
        for (const r of a.records) {
          expect(r.callLog.some((c) => c.task === 'judge.groundedness')).toBe(false); // never the strategy's call
          if (r.groundedness!.lexical === null) expect(r.groundedness!.judge!.calls).toHaveLength(0);
          else expect(r.groundedness!.judge).toMatchObject({ model: 'gpt-4o-mini', calls: [{ task: 'judge.groundedness', inputTokens: 400, outputTokens: 30 }] });
        }
        const s = a.summary.strategies[0]!;
        const scores = a.records.filter((r) => r.strategy === s.strategy).map((r) => r.groundedness!.judge!.score).filter((x): x is number => x !== null);
        expect(s.groundednessN).toBe(scores.length);
        expect(s.groundedness).toBeCloseTo(scores.reduce((x, y) => x + y, 0) / scores.length, 12);
        expect(s.intervals?.groundedness).toBeDefined();
        expect(s.intervals?.groundednessLexical).toBeDefined();
        expect(s.groundednessJudge!.costPerQuestion).toBeGreaterThan(0);

        const meta = reportMeta(a.manifest);
        expect(render('md', { summary: a.summary, meta })).toContain('groundedness (LLM)');
        expect(render('md', { summary: a.summary, meta })).toContain('lexical support (proxy)');
        expect(render('table', { summary: a.summary, meta })).toContain('groundedness graded by gpt-4o-mini');
        expect(render('csv', { summary: a.summary, meta })).toContain('groundednessLexical.ciLo');

        // A second run of the same config: compare, gate and history take the metric by name.
        const b = await runBenchmark({ loaded, data, outDir: dir, runId: 'g2' });
        const cmp = buildComparison({ runA: a.dir, runB: b.dir, metrics: ['groundedness', 'groundednessLexical'] });
        expect(cmp.result.comparisons[0]!.metrics.map((m) => [m.metric, m.n > 0, m.delta])).toEqual([
          ['groundedness', true, 0],
          ['groundednessLexical', true, 0],
        ]);
        const rules = join(dir, 'gates.yaml');
        writeFileSync(rules, 'rules:\n  groundedness: { maxDrop: 0.05 }\n  groundednessLexical: { maxDrop: 0.05 }\n');
        const gate = buildGate({ baseline: a.dir, candidate: b.dir, rules });
        expect(gate.evaluation.checks.filter((c) => c.kind === 'rule').map((c) => [c.rule!.name, c.status])).toEqual([
          ['groundedness', 'pass'],
          ['groundednessLexical', 'pass'],
          ['groundedness', 'pass'],
          ['groundednessLexical', 'pass'],
        ]);
        const history = buildHistory([a.dir, b.dir], { metrics: ['groundedness', 'groundednessLexical'] });
        expect(JSON.stringify(history)).toContain('groundednessLexical');
      });
    } finally {
      await server.close();
    }
  }, 60_000);
});
