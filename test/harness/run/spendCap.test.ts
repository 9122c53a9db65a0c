// run.maxDollars / --max-dollars: the run stops launching work once its calls have cost the cap
// (what is in flight finishes: one wave past it at most), records the rest as not run, prints
// what it spent, and the printed --resume finishes the run without running anything twice.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatCompletion, FakeOpenAIServer } from '../../helpers/fake-openai-server.ts';
import { cli, keyCounts, recordLines, tmp, writeConfig } from '../../resilience/helpers.ts';

// gpt-4o-mini at $0.15 / $0.60 per 1M tokens: 1,000 in + 50 out = $0.00018 a call.
const PER_CALL = (1000 * 0.15 + 50 * 0.6) / 1e6;

describe('run.maxDollars', () => {
  it('stops at the cap (± one wave in flight), says what it spent, and --resume finishes the run', async () => {
    const server = await FakeOpenAIServer.start();
    server.onChat = () => ({ ...chatCompletion('{"answer": "x"}', { prompt: 1000, completion: 50 }), delayMs: 5 });
    try {
      const dir = tmp();
      const concurrency = 2;
      const cfg = writeConfig(dir, {
        model: { provider: 'openai', model: 'gpt-4o-mini', baseURL: server.baseURL, maxRetries: 0 },
        strategies: ['vector'],
        run: { outDir: join(dir, 'runs'), limit: 20, concurrency },
      });
      const cap = 0.002;
      const first = await cli('run', cfg, '--max-dollars', String(cap), '--run-id', 'r', '--quiet');
      expect(first.code, first.err).toBe(1);
      const spent = Number(/this invocation spent \$(\d+\.\d+)/.exec(first.err)?.[1]);
      expect(first.err).toMatch(/run stopped: run\.maxDollars \$0\.002 reached/);
      expect(first.err).toMatch(/\d+ tasks not run \(no record written\); resume with:/);
      const done = recordLines(join(dir, 'runs', 'r', 'records.jsonl'));
      // At the cap: the tasks that reached it, plus at most the ones in flight then (questions in flight: 2 × concurrency).
      expect(done.length).toBeGreaterThanOrEqual(Math.ceil(cap / PER_CALL));
      expect(done.length).toBeLessThanOrEqual(Math.ceil(cap / PER_CALL) + 2 * concurrency);
      expect(spent).toBeCloseTo(done.length * PER_CALL, 5);
      expect(server.requestsTo('/v1/chat/completions')).toHaveLength(done.length);

      const resumeLine = first.err.split('\n').find((l) => l.trim().startsWith('treebench run'))!.trim();
      expect(resumeLine).toContain('--max-dollars 0.002');
      const resumed = await cli(...resumeLine.split(' ').slice(1));
      expect(resumed.code, resumed.err).toBe(0);
      expect(resumed.err).toMatch(/spent: \$0\.00\d+ of run\.maxDollars \$0\.002/);
      const all = recordLines(join(dir, 'runs', 'r', 'records.jsonl'));
      expect(all).toHaveLength(20);
      expect([...keyCounts(all).values()].every((n) => n === 1)).toBe(true);
      expect(server.requestsTo('/v1/chat/completions')).toHaveLength(20);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('refuses a cap on unpriced calls and a bad --max-dollars, exit 2', async () => {
    const dir = tmp();
    // Never called: the cap is refused before any work.
    const cfg = writeConfig(dir, { model: { provider: 'openai', model: 'my-local-model', baseURL: 'http://127.0.0.1:9/v1' }, strategies: ['vector'], run: { outDir: join(dir, 'runs'), limit: 2 } });
    const unpriced = await cli('run', cfg, '--max-dollars', '1', '--quiet');
    expect(unpriced.code).toBe(2);
    expect(unpriced.err).toMatch(/run\.maxDollars \(--max-dollars\) needs priced calls, and "my-local-model" is not in the price table/);
    const bad = await cli('run', cfg, '--max-dollars', '-1', '--quiet');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--max-dollars: must be a number of dollars > 0/);
  }, 60_000);
});
