// `treebench estimate`: the offline dry run prices each strategy within ±15% of an offline run
// priced as the same model (the quickstart as gpt-4o-mini), prints the JSON shape the issue
// fixes, sends nothing and writes nothing.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, recordLines, tmp } from '../../resilience/helpers.ts';

describe('treebench estimate', () => {
  it('is within ±15% of the offline priced run for every strategy of the quickstart', async () => {
    const out = tmp();
    const run = await cli('run', 'configs/quickstart.yaml', '--limit', '12', '--out', out, '--run-id', 'r', '--quiet');
    expect(run.code, run.err).toBe(0);
    const records = recordLines(join(out, 'r', 'records.jsonl'));
    const est = await cli('estimate', 'configs/quickstart.yaml', '--price-as', 'gpt-4o-mini', '--limit', '12', '--format', 'json');
    expect(est.code, est.err).toBe(0);
    const e = JSON.parse(est.out) as { strategies: Array<{ strategy: string; questions: number; calls: number; inputTokens: number; outputTokens: number; dollars: { low: number; expected: number; high: number } }> };
    expect(e.strategies.map((s) => s.strategy)).toEqual(['vector', 'node-list', 'layerwise', 'hybrid-beam', 'mcts', 'agent']);
    for (const s of e.strategies) {
      const mine = records.filter((r) => r.strategy === s.strategy);
      const paid = mine.reduce((n, r) => n + r.costUsd!, 0);
      expect(s.questions).toBe(12);
      expect(paid).toBeGreaterThan(0);
      expect(Math.abs(s.dollars.expected - paid) / paid, s.strategy).toBeLessThanOrEqual(0.15);
      expect(s.dollars.low).toBeLessThanOrEqual(s.dollars.expected);
      expect(s.dollars.high).toBeGreaterThanOrEqual(s.dollars.expected);
      expect(s.calls).toBe(mine.reduce((n, r) => n + r.calls, 0));
    }
    // Nothing written: no run folder where the run would put one.
    expect(existsSync('runs') ? readdirSync('runs').some((d) => d.startsWith('estimate')) : false).toBe(false);
  }, 180_000);

  it('runs the extra seeds only where a strategy used its seed, and the spread equals one-seed estimates at each seed', async () => {
    type E = { strategies: Array<{ strategy: string; range: { inputTokens: { low: number; expected: number; high: number } } }> };
    const est = async (...extra: string[]) => JSON.parse((await cli('estimate', 'configs/quickstart.yaml', '--price-as', 'gpt-4o-mini', '--strategies', 'mcts,vector', '--format', 'json', ...extra)).out) as E;
    const three = await est('--seeds', '3');
    // One after another: cli() captures this process's stdout.
    const singles: E[] = [];
    for (const seed of [42, 43, 44]) singles.push(await est('--seeds', '1', '--set', `run.seed=${seed}`));
    for (const id of ['mcts', 'vector']) {
      const each = singles.map((e) => e.strategies.find((s) => s.strategy === id)!.range.inputTokens.expected);
      const r = three.strategies.find((s) => s.strategy === id)!.range.inputTokens;
      expect([r.low, r.expected, r.high], id).toEqual([Math.min(...each), each[0], Math.max(...each)]);
    }
    // mcts breaks ties with its seeded random numbers: its branches (and tokens) move with the seed.
    const mcts = three.strategies.find((s) => s.strategy === 'mcts')!.range.inputTokens;
    expect(mcts.high).toBeGreaterThan(mcts.low);
  }, 120_000);

  it("prices a remote embedder's query embeddings into each strategy's dollars, and shows them apart", async () => {
    type E = { strategies: Array<{ strategy: string; dollars: { expected: number } }>; queryEmbedding: { calls: number; inputTokens: number; dollars: number } };
    const est = async (...extra: string[]) => JSON.parse((await cli('estimate', 'configs/quickstart.yaml', '--price-as', 'gpt-4o-mini', '--limit', '10', '--strategies', 'vector', '--seeds', '1', '--format', 'json', ...extra)).out) as E;
    const local = await est();
    const remote = await est('--set', 'embedder=openai:text-embedding-3-small');
    expect(local.queryEmbedding).toEqual({ calls: 10, inputTokens: 0, dollars: 0 });
    expect(remote.queryEmbedding.calls).toBe(10);
    expect(remote.queryEmbedding.inputTokens).toBeGreaterThan(10);
    // text-embedding-3-small: $0.02 per 1M input tokens.
    expect(remote.queryEmbedding.dollars).toBeCloseTo((remote.queryEmbedding.inputTokens * 0.02) / 1e6, 12);
    expect(remote.strategies[0]!.dollars.expected - local.strategies[0]!.dollars.expected).toBeCloseTo(remote.queryEmbedding.dollars, 12);
  }, 60_000);

  it('table output names the model and the spread; bad flags exit 2', async () => {
    const t = await cli('estimate', 'configs/quickstart.yaml', '--limit', '2', '--seeds', '1', '--strategies', 'vector');
    expect(t.code, t.err).toBe(0);
    expect(t.out).toMatch(/prices as gpt-4o-mini, table as of 2025-08/);
    expect(t.out).toMatch(/^vector +2 +2 /m);
    expect(t.out).toMatch(/min–max over 1 seed\(s\) \(42\)/);
    const bad = await cli('estimate', 'configs/quickstart.yaml', '--seeds', '0');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--seeds: expected a whole number from 1 to 20/);
    const unknown = await cli('estimate', 'configs/quickstart.yaml', '--strategies', 'nope');
    expect(unknown.code).toBe(2);
  }, 120_000);
});
