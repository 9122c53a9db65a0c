// A 401 is a refused key, not a server that will answer later: both ways a run can meet one (the
// chat calls, and the embedding of the corpus before any record) say so and name the variable.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiError, useFakeOpenAIServer } from '../helpers/fake-openai-server.ts';
import { cli, tmp, writeConfig } from '../resilience/helpers.ts';

const server = useFakeOpenAIServer();

describe('a refused API key', () => {
  it('on chat calls: the run stops saying the server refused the key', async () => {
    server.onChat = apiError(401, 'Incorrect API key provided', { code: 'invalid_api_key' });
    const dir = tmp();
    const cfg = writeConfig(dir, { model: { provider: 'openai', model: 'gpt-4o-mini', baseURL: server.baseURL, maxRetries: 0, apiKeyEnv: 'MY_TEST_KEY' }, strategies: ['vector'], run: { outDir: join(dir, 'runs'), limit: 3, concurrency: 1 } });
    process.env.MY_TEST_KEY = 'sk-refused-0123456789';
    try {
      const res = await cli('run', cfg, '--quiet');
      expect(res.code).toBe(1);
      expect(res.err).toMatch(/run stopped: authentication failed: the server refused the API key \(check the key in the env var named by model\.apiKeyEnv/);
      expect(res.err).not.toMatch(/once the server answers/);
      expect(res.err).not.toContain('sk-refused');
    } finally {
      delete process.env.MY_TEST_KEY;
    }
  }, 60_000);

  it('while the corpus is embedded: names the variable to fix, not "once the server answers"', async () => {
    server.onEmbeddings = apiError(401, 'Incorrect API key provided', { code: 'invalid_api_key' });
    const dir = tmp();
    const cfg = writeConfig(dir, {
      model: { provider: 'openai', model: 'gpt-4o-mini', baseURL: server.baseURL, maxRetries: 0, apiKeyEnv: 'MY_TEST_KEY' },
      embedder: 'openai:text-embedding-3-small',
      index: { cache: { enabled: false } },
      strategies: ['vector'],
      run: { outDir: join(dir, 'runs'), limit: 2 },
    });
    process.env.MY_TEST_KEY = 'sk-refused-0123456789';
    try {
      const res = await cli('run', cfg, '--quiet');
      expect(res.code).toBe(1);
      expect(res.err).toMatch(/no record written; the server refused the API key \(check \$MY_TEST_KEY, named by model\.apiKeyEnv\); once the key is right, resume with:/);
      expect(res.err).not.toContain('sk-refused');
    } finally {
      delete process.env.MY_TEST_KEY;
    }
  }, 60_000);
});
