// No request goes to a host the user did not configure. Every TCP connection this process opens is
// seen by a guard on net.Socket#connect (undici, the SDK's HTTP client, connects through it) and
// refused unless it goes to the loopback model server the config names. With OPENAI_BASE_URL
// unset and an OPENAI_API_KEY in the environment, a component that fell back to a default would
// try api.openai.com; the guard would see it and the test would name it. Every command runs:
// run (chat, `openai:` embedder, LLM judge without a base URL of its own, model-written
// summaries), rejudge --judge, merge of shards, and the commands that only read run folders.
import net from 'node:net';
import { join } from 'node:path';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inheritEndpoint, resolveEndpoint } from '../../harness/models/endpoint.ts';
import { chatCompletion, FakeOpenAIServer } from '../helpers/fake-openai-server.ts';
import { cli, recordLines, tmp, writeConfig } from '../resilience/helpers.ts';

interface Attempt {
  host: string;
  port: number;
}

const attempts: Attempt[] = [];
const originalConnect = net.Socket.prototype.connect;
let allowedPort = -1;

function guard(): void {
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const o = (typeof first === 'object' && first !== null ? first : { port: first, host: args[1] }) as { port?: unknown; host?: unknown; path?: unknown };
    if (o.path !== undefined) return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args); // a local socket, not the network
    const attempt = { host: String(o.host ?? 'localhost'), port: Number(o.port) };
    attempts.push(attempt);
    const loopback = ['127.0.0.1', 'localhost', '::1'].includes(attempt.host);
    if (loopback && attempt.port === allowedPort) return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
    process.nextTick(() => this.destroy(Object.assign(new Error(`network guard: refused a connection to ${attempt.host}:${attempt.port}`), { code: 'ECONNREFUSED' })));
    return this;
  } as typeof net.Socket.prototype.connect;
}

/** One reply that every caller reads what it needs from: strategies, the judge, summaries. */
const ANY = JSON.stringify({ answer: 'the 25th', node_list: [], thinking: 'read the outline', correct: true, reason: 'matches the reference', summary: 'What the section covers.' });

describe('no connection to a host nobody configured', () => {
  let server: FakeOpenAIServer;
  const saved = { base: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };
  beforeAll(async () => {
    server = await FakeOpenAIServer.start();
    server.onChat = chatCompletion(ANY);
    allowedPort = Number(new URL(server.baseURL).port);
    delete process.env.OPENAI_BASE_URL;
    // A key for the public endpoint is at hand: a component defaulting to it would really try.
    process.env.OPENAI_API_KEY = `sk-${'guardtest0123456789abcdef'}`;
    guard();
  });
  afterAll(async () => {
    net.Socket.prototype.connect = originalConnect;
    if (saved.base === undefined) delete process.env.OPENAI_BASE_URL;
    else process.env.OPENAI_BASE_URL = saved.base;
    if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved.key;
    await server.close();
  });

  it('every command talks to the configured loopback server only, and the judge grades through it', async () => {
    const dir = tmp();
    const runs = join(dir, 'runs');
    // A Markdown corpus: its nodes have no summaries, so `summaries: model` asks the model for them.
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'handbook.md'), '# Handbook\n\n## Pay\n\nStaff are paid on the 25th of each month.\n\n## Leave\n\nFive working days of bereavement leave.\n');
    const questions = ['When are staff paid?', 'How much bereavement leave?', 'Who pays staff?', 'What is the leave policy?'];
    writeFileSync(join(dir, 'questions.jsonl'), questions.map((q, i) => JSON.stringify({ id: `q${i + 1}`, question: q, answers: ['the 25th'], docIds: ['handbook'] })).join('\n') + '\n');
    const config = writeConfig(dir, {
      dataset: { format: 'jsonl', path: join(dir, 'questions.jsonl') },
      model: { provider: 'openai', model: 'loopback-model', baseURL: server.baseURL, maxRetries: 0 },
      embedder: 'openai:loopback-embedder',
      corpus: { format: 'markdown', path: join(dir, 'docs'), summaries: 'model', cache: false },
      strategies: ['vector', 'node-list'],
      scoring: { judge: { provider: 'openai', model: 'grader' } },
      index: { cache: { enabled: false } },
      reports: ['md', 'csv', 'json', 'html'],
      run: { limit: 4, outDir: runs },
    });
    const steps: Array<[string, string[]]> = [
      ['run', ['run', config, '--run-id', 'a', '--quiet']],
      ['run', ['run', config, '--run-id', 'b', '--quiet']],
      ['run --shard 1/2', ['run', config, '--run-id', 's1', '--shard', '1/2', '--quiet']],
      ['run --shard 2/2', ['run', config, '--run-id', 's2', '--shard', '2/2', '--quiet']],
      ['merge', ['merge', join(runs, 's1'), join(runs, 's2'), '--out', join(runs, 'merged')]],
      ['rejudge --judge', ['rejudge', join(runs, 'a'), '--judge', 'openai:grader-2', '--out', join(runs, 'a-rejudged')]],
      ['report', ['report', join(runs, 'a'), '--format', 'html', '--out', join(dir, 'a.html')]],
      ['compare', ['compare', join(runs, 'a'), join(runs, 'b')]],
      ['gate', ['gate', '--baseline', join(runs, 'a'), '--candidate', join(runs, 'b')]],
      ['trace', ['trace', join(runs, 'a'), '--question', 'q1']],
      ['export', ['export', join(runs, 'a'), '--strategy', 'vector', '--trec', join(dir, 'run.trec')]],
      ['history', ['history', runs]],
      ['baseline save', ['baseline', 'save', join(runs, 'a'), '--name', 'main', '--dir', join(dir, 'baselines')]],
      ['datasets inspect', ['datasets', 'inspect', config]],
      ['tree inspect', ['tree', 'inspect', config]],
      ['strategies', ['strategies']],
    ];
    for (const [what, argv] of steps) {
      const before = attempts.length;
      const r = await cli(...argv);
      expect(r.code, `${what}: ${r.err}`).toBe(0);
      const stray = attempts.slice(before).filter((a) => a.port !== allowedPort);
      expect(stray, `${what} connected elsewhere`).toEqual([]);
    }
    expect(attempts.length).toBeGreaterThan(0);

    // The judge was really asked, through the loopback server: every record is graded.
    for (const run of ['a', 'a-rejudged', 'merged']) {
      const records = recordLines(join(runs, run, 'records.jsonl'));
      expect(records.length).toBeGreaterThan(0);
      expect(records.every((r) => r.judge?.correct === 1), `${run}: ${JSON.stringify(records.map((r) => r.judge?.error))}`).toBe(true);
    }
    const graded = server.requests.filter((r) => r.body?.model === 'grader' || r.body?.model === 'grader-2');
    expect(graded.length).toBeGreaterThan(0);
    expect(server.requests.some((r) => r.path === '/v1/embeddings')).toBe(true);
    expect(JSON.parse(readFileSync(join(runs, 'a', 'manifest.json'), 'utf8')).ingestion.summaries.calls).toBeGreaterThan(0);
  }, 180_000);
});

describe('the shared endpoint rule', () => {
  const env = { OPENAI_API_KEY: 'k-default-1234', RUN_KEY: 'k-run-5678', JUDGE_KEY: 'k-judge-9012' } as NodeJS.ProcessEnv;

  it('a component without a server of its own takes the run model\'s, with the run\'s key variable', () => {
    const run = { baseURL: 'http://127.0.0.1:8000/v1', apiKeyEnv: 'RUN_KEY' };
    const judge = inheritEndpoint({ provider: 'openai', model: 'g', apiKeyEnv: 'OPENAI_API_KEY' }, run);
    expect(resolveEndpoint(judge, env)).toMatchObject({ baseURL: 'http://127.0.0.1:8000/v1', apiKey: 'k-run-5678', isOpenAI: false });
    // It keeps a key variable of its own, and a server of its own.
    expect(resolveEndpoint(inheritEndpoint({ apiKeyEnv: 'JUDGE_KEY' }, run), env)).toMatchObject({ baseURL: 'http://127.0.0.1:8000/v1', apiKey: 'k-judge-9012' });
    expect(resolveEndpoint(inheritEndpoint({ baseURL: 'https://api.openai.com/v1/' }, run), env)).toMatchObject({ baseURL: 'https://api.openai.com/v1', apiKey: 'k-default-1234', isOpenAI: true });
  });

  it('then OPENAI_BASE_URL, then the public default, which needs a key', () => {
    expect(resolveEndpoint(inheritEndpoint({}, {}), { ...env, OPENAI_BASE_URL: 'http://10.0.0.5:9000/v1' }).baseURL).toBe('http://10.0.0.5:9000/v1');
    expect(resolveEndpoint(inheritEndpoint({}, undefined), env).baseURL).toBe('https://api.openai.com/v1');
    expect(() => resolveEndpoint({}, {})).toThrow(/OPENAI_API_KEY is not set/);
    expect(resolveEndpoint({ baseURL: 'http://localhost:11434/v1' }, {})).toMatchObject({ keySource: 'placeholder' });
  });
});
