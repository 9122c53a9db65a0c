// Secrets never reach records, caches, reports or logs: a model server that echoes the key it
// was sent leaves [REDACTED] in every file and on stderr, and the redactor leaves messages about
// the apiKey field readable.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingCache } from '../../harness/models/embeddingCache.ts';
import { redactSecrets } from '../../harness/models/secrets.ts';
import { chatCompletion, FakeOpenAIServer } from '../helpers/fake-openai-server.ts';
import { cli, tmp, writeConfig } from '../resilience/helpers.ts';

// Not key-shaped on purpose: only "the key in use is redacted wherever it appears" can catch it.
const KEY = `loopback-${'secret'}-${Date.now().toString(36)}-value`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => statSync(f).isFile());
}

describe('a model reply that echoes the API key', () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    server = await FakeOpenAIServer.start();
    // The reply quotes the bearer token the request carried, as a hostile or broken server might.
    server.onChat = (req) => {
      const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      return chatCompletion(JSON.stringify({ answer: `the key is ${token}`, node_list: [], thinking: `Authorization: Bearer ${token}` }));
    };
  });
  afterAll(() => server.close());

  it('leaves no copy of the key in the response cache, the records, the reports or stderr', async () => {
    const dir = tmp();
    process.env.TB_TEST_SECRET_KEY = KEY;
    try {
      const config = writeConfig(dir, {
        model: { provider: 'openai', model: 'echo-model', baseURL: server.baseURL, apiKeyEnv: 'TB_TEST_SECRET_KEY', maxRetries: 0 },
        strategies: ['vector', 'node-list'],
        reports: ['md', 'csv', 'json', 'html'],
        cache: { enabled: true, dir: join(dir, 'cache') },
        index: { cache: { enabled: true, dir: join(dir, 'embeddings') } },
        run: { limit: 3, outDir: join(dir, 'runs') },
      });
      const first = await cli('run', config, '--run-id', 'r1');
      expect(first.code, first.err).toBe(0);
      // Second run: answered from the cache, so what the cache holds is what the records get.
      const second = await cli('run', config, '--run-id', 'r2');
      expect(second.code, second.err).toBe(0);
      expect(server.requests.some((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);

      const files = filesUnder(dir);
      expect(files.filter((f) => f.startsWith(join(dir, 'cache'))).length).toBeGreaterThan(0);
      for (const f of files) expect(readFileSync(f, 'utf8').includes(KEY), f).toBe(false);
      for (const out of [first.out, first.err, second.out, second.err]) expect(out.includes(KEY)).toBe(false);
      const answers = readFileSync(join(dir, 'runs', 'r2', 'records.jsonl'), 'utf8');
      expect(answers).toContain('the key is [REDACTED]');
    } finally {
      delete process.env.TB_TEST_SECRET_KEY;
    }
  }, 120_000);
});

describe('the embedding cache', () => {
  it('writes its key file without a password from a base URL', () => {
    const root = tmp();
    const cache = EmbeddingCache.open(root, `openai:text-embedding-3-small baseURL=http://user:${'hunter2pass'}@proxy.local/v1`);
    cache.close();
    const keyFile = filesUnder(root).find((f) => f.endsWith('key.json'))!;
    expect(readFileSync(keyFile, 'utf8')).not.toContain('hunter2pass');
    expect(readFileSync(keyFile, 'utf8')).toContain('[REDACTED]@proxy.local');
  });
});

describe('redacting messages about the apiKey field', () => {
  it('keeps them readable, and still removes key values in every form a key is written', () => {
    expect(redactSecrets('model.apiKey: API keys must never be written in a config')).toBe('model.apiKey: API keys must never be written in a config');
    expect(redactSecrets('apiKey: expected string, received undefined')).toBe('apiKey: expected string, received undefined');
    expect(redactSecrets('{"api_key": "placeholder"}')).toBe('{"api_key": "[REDACTED]"}');
    expect(redactSecrets('curl ...?apikey=letmein&q=1')).toBe('curl ...?apikey=[REDACTED]&q=1');
    expect(redactSecrets('x-api-key: ab12cd34ef56')).toBe('x-api-key: [REDACTED]');
  });

  it("a run id of a config named \"sk\" is a run id, not a key; anything longer after it still is one", () => {
    expect(redactSecrets('run folder: runs/sk-20261203-064043Z')).toBe('run folder: runs/sk-20261203-064043Z');
    expect(redactSecrets('runs/sk-20261203-064043Z-2/report.md')).toBe('runs/sk-20261203-064043Z-2/report.md');
    // Key-shaped values are assembled here, so no key-like literal sits in the repository.
    const keyLike = (...parts: string[]) => ['sk', ...parts].join('-');
    expect(redactSecrets(`key ${keyLike('20261203', `064043Z${'x'.repeat(10)}`)}`)).toBe('key [REDACTED]');
    expect(redactSecrets(`key ${keyLike('proj', 'x'.repeat(16))}`)).toBe('key [REDACTED]');
  });

  it('a config holding a key is refused with a message that names the field and not the key', async () => {
    const dir = tmp();
    const key = `sk-${'abcdefghijklmnop0123456789'}`;
    const config = writeConfig(dir, { model: { provider: 'openai', model: 'x', apiKey: key } });
    const r = await cli('run', config);
    expect(r.code).toBe(2);
    expect(r.err).toContain('model.apiKey: API keys must never be written in a config');
    expect(r.err).not.toContain(key);
  });
});
