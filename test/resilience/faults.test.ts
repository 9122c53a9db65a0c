// Transient faults are retried and counted; failures of the environment stop the run with a
// reason and leave the work resumable; too many errors exit 3; embeddings go to the configured host.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FaultServer, TRANSIENT_FAULTS } from '../harness/run/chaos/faultServer.ts';
import { chaosPassed, formatChaos, runChaos } from '../harness/run/chaos/chaos.ts';
import { createProvider } from '../../harness/models/providers/registry.ts';
import { cli, recordLines, tmp, writeConfig } from './helpers.ts';

const servers: FaultServer[] = [];
async function server(opts: Parameters<typeof FaultServer.start>[0]): Promise<FaultServer> {
  const s = await FaultServer.start(opts);
  servers.push(s);
  return s;
}
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

const msgs = [{ role: 'user' as const, content: 'Say hello.' }];
const fastRetries = { maxRetries: 10, timeoutMs: 400, retryBaseMs: 1, retryMaxMs: 5 };

describe('transient faults', () => {
  it.each(TRANSIENT_FAULTS)('retries "%s" and counts every retry on the call', async (kind) => {
    const s = await server({ faultRate: 0.5, faults: { [kind]: 1 }, seed: 11, retryAfterSeconds: 3 });
    const provider = createProvider({ provider: 'openai', model: 'm', baseURL: s.baseURL, ...fastRetries });
    let retries = 0;
    for (let i = 0; i < 40 && (i < 6 || s.injected[kind] < 3); i++) {
      const res = await provider.chat(msgs, {});
      expect(typeof res.text).toBe('string');
      retries += res.retries ?? 0;
    }
    expect(s.injected[kind]).toBeGreaterThan(0);
    expect(retries).toBe(s.injected[kind]);
  });

  it('keeps an enormous but valid reply as the model answer (no retry), capped in the record', async () => {
    const s = await server({ enormousRate: 1, enormousChars: 300_000 });
    const provider = createProvider({ provider: 'openai', model: 'm', baseURL: s.baseURL, ...fastRetries });
    const res = await provider.chat(msgs, {});
    expect(res.text.length).toBe(300_000);
    expect(res.retries).toBe(0);

    const dir = tmp();
    const config = writeConfig(dir, { model: { provider: 'openai', model: 'm', baseURL: s.baseURL, ...fastRetries, timeoutMs: 5000 }, run: { limit: 2, outDir: join(dir, 'runs') } });
    const run = await cli('run', config, '--run-id', 'big', '--quiet');
    expect(run.code).toBe(0);
    const records = recordLines(join(dir, 'runs', 'big', 'records.jsonl'));
    expect(records).toHaveLength(2);
    for (const r of records) {
      expect(r.error).toBeNull();
      expect(r.parseFailures).toBeGreaterThan(0);
      expect(r.answer.length).toBeLessThan(4100);
      expect(r.answer).toMatch(/more characters cut\]$/);
    }
  });

  it('a small chaos run: nothing lost or duplicated, no error records, retries == injected faults', async () => {
    const f = await runChaos({ records: 80, faultRate: 0.3, concurrency: 8, seed: 5, hangMs: 300, enormousRate: 0 });
    expect(f.faultsInjected).toBeGreaterThan(30);
    expect(chaosPassed(f), formatChaos(f, 0.3, 8)).toBe(true);
    // What is checked is what was lost, not how long it took: 46 s at a load average of 5–8 on
    // two cores, past the default 60 s at 10.
  }, 180_000);
});

describe('circuit breaker', () => {
  it('stops at once on an authentication error: exit 1, the reason, no records, the work resumable', async () => {
    const s = await server({ alwaysStatus: 401 });
    const dir = tmp();
    const config = writeConfig(dir, { model: { provider: 'openai', model: 'm', baseURL: s.baseURL, maxRetries: 3, retryBaseMs: 1 }, run: { limit: 20, concurrency: 2, outDir: join(dir, 'runs') } });
    const res = await cli('run', config, '--run-id', 'auth', '--quiet');
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/run stopped: authentication failed.*401/);
    expect(res.err).toMatch(/20 tasks not run/);
    expect(res.err).toContain(`--resume ${join(dir, 'runs', 'auth')}`);
    // 401 is not retried, and no new work starts after the first one.
    expect(s.requests).toBeLessThanOrEqual(4);
    const recs = join(dir, 'runs', 'auth', 'records.jsonl');
    expect(existsSync(recs) ? recordLines(recs) : []).toHaveLength(0);
    expect(JSON.parse(readFileSync(join(dir, 'runs', 'auth', 'manifest.json'), 'utf8')).finishedAt).toBeNull();
  });

  it('stops after N consecutive connection failures, and a resume against the live server completes', async () => {
    const probe = await FaultServer.start({});
    const port = probe.port;
    await probe.close(); // nothing listens there now: ECONNREFUSED
    const dir = tmp();
    const model = { provider: 'openai', model: 'm', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 1, retryBaseMs: 1, retryMaxMs: 2 };
    const config = writeConfig(dir, { model, run: { limit: 12, concurrency: 1, maxConsecutiveFailures: 3, outDir: join(dir, 'runs') } });
    const down = await cli('run', config, '--run-id', 'down', '--quiet');
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/3 consecutive connection failures/);
    expect(down.err).toMatch(/ECONNREFUSED/);
    expect(down.err).toMatch(/12 tasks not run/);

    const live = await server({ port });
    const resumed = await cli('run', config, '--resume', join(dir, 'runs', 'down'), '--quiet');
    expect(resumed.code).toBe(0);
    expect(live.requests).toBeGreaterThanOrEqual(12);
    const records = recordLines(join(dir, 'runs', 'down', 'records.jsonl'));
    expect(records).toHaveLength(12);
    expect(records.every((r) => r.error === null)).toBe(true);
  });

  it('exits 3 when a finished run has more errors than run.maxErrorRate, naming the commonest', async () => {
    const s = await server({ alwaysStatus: 400 });
    const dir = tmp();
    const model = { provider: 'openai', model: 'm', baseURL: s.baseURL, maxRetries: 0 };
    const config = writeConfig(dir, { model, run: { limit: 4, outDir: join(dir, 'runs') } });
    const res = await cli('run', config, '--run-id', 'bad', '--quiet');
    expect(res.code).toBe(3);
    expect(res.err).toMatch(/4 of 4 records are errors \(100\.0% > run\.maxErrorRate 20\.0%\)/);
    expect(res.err).toMatch(/4x .*scripted status 400/);
    const lenient = writeConfig(dir, { model, run: { limit: 4, outDir: join(dir, 'runs'), maxErrorRate: 1 } }, 'lenient.yaml');
    expect((await cli('run', lenient, '--run-id', 'ok', '--quiet')).code).toBe(0);
  });
});

describe('openai embedder', () => {
  it('sends embeddings (key and corpus text) only to the configured baseURL, never to OPENAI_BASE_URL or OpenAI', async () => {
    const configured = await server({});
    const trap = await server({});
    const before = { url: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };
    process.env.OPENAI_BASE_URL = trap.baseURL;
    process.env.OPENAI_API_KEY = ['fake', 'key', 'for', 'tests'].join('-');
    try {
      const dir = tmp();
      const config = writeConfig(dir, {
        model: { provider: 'openai', model: 'm', baseURL: configured.baseURL },
        embedder: 'openai:emb-test',
        strategies: ['vector'],
        run: { limit: 3, outDir: join(dir, 'runs') },
      });
      const res = await cli('run', config, '--run-id', 'emb', '--quiet');
      expect(res.code, res.err).toBe(0);
      expect(configured.embeddingRequests).toBeGreaterThan(0);
      expect(configured.requests).toBeGreaterThan(0);
      expect(trap.embeddingRequests + trap.requests).toBe(0);
    } finally {
      for (const [k, v] of [['OPENAI_BASE_URL', before.url], ['OPENAI_API_KEY', before.key]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
