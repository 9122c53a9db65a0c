import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planRungs, spendOf, stratifiedOrder, stratumOf } from '../../../../harness/analysis/tune/halving.ts';
import { record } from '../../summary/summaryFixture.ts';
import { runTune } from '../../../../harness/analysis/tune/run.ts';
import { runBenchmark } from '../../../../harness/run/runner.ts';
import type { Question } from '../../../../harness/types.ts';
import { fullGridCalls, judgeRecommendation, KNOWN_BEST, syntheticConfig, syntheticData, syntheticProvider } from '../../../../bench/lib/syntheticTune.ts';

const dir = mkdtempSync(join(tmpdir(), 'treebench-tune-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }), 300_000);

describe('planRungs', () => {
  it('grows by eta to the full set, the first rung at least minQuestions', () => {
    expect(planRungs(12, 120, 3, 12)).toEqual([14, 40, 120]);
    expect(planRungs(14, 75, 3, 20)).toEqual([25, 75]); // the data allows two rungs only
    expect(planRungs(2, 1000, 3, 20)).toEqual([334, 1000]); // two variants need one halving
    expect(planRungs(12, 10, 3, 20)).toEqual([10]); // fewer questions than a rung: one rung
    expect(planRungs(1, 100, 3, 20)).toEqual([100]);
  });
});

describe('spendOf', () => {
  it('counts chat tokens, as the full-grid figure does (embedding tokens are priced apart), and every uncached dollar', () => {
    const log = (kind: 'chat' | 'embed', inputTokens: number, outputTokens: number, costUsd: number, cached = false) => ({ kind, model: 'm', inputTokens, outputTokens, costUsd, latencyMs: 1, cached, retries: 0 });
    const records = [
      record({ strategy: 'v', questionId: 'q1', inputTokens: 100, outputTokens: 10, embedTokens: 50, callLog: [log('embed', 50, 0, 0.001), log('chat', 100, 10, 0.01)] }),
      record({ strategy: 'v', questionId: 'q2', inputTokens: 80, outputTokens: 5, embedTokens: 20, callLog: [log('embed', 20, 0, 0.0004), log('chat', 80, 5, 0.008)] }),
    ];
    expect(spendOf(records)).toEqual({ calls: 2, tokens: 195, dollars: 0.001 + 0.01 + 0.0004 + 0.008 });
    // The full grid's basis: the records' chat tokens, so spent / full grid is a fraction of like things.
    expect(spendOf(records).tokens).toBe(records.reduce((n, r) => n + r.inputTokens + r.outputTokens, 0));
    // Cache hits cost nothing.
    expect(spendOf([record({ strategy: 'v', questionId: 'q3', callLog: [log('chat', 100, 10, 0.01, true)] })])).toEqual({ calls: 0, tokens: 0, dollars: 0 });
  });
});

describe('stratifiedOrder', () => {
  const qs: Question[] = Array.from({ length: 90 }, (_, i) => ({ id: `q${i}`, question: '?', answers: [], tags: [i < 60 ? 'common' : i < 80 ? 'mid' : 'rare'] }));

  it('every prefix holds each stratum in proportion, give or take one question', () => {
    const order = stratifiedOrder(qs, 5);
    expect(new Set(order.map((q) => q.id)).size).toBe(90);
    const sizes = { 'tags:common': 60, 'tags:mid': 20, 'tags:rare': 10 } as Record<string, number>;
    for (let n = 1; n <= 90; n++) {
      const counts = new Map<string, number>();
      for (const q of order.slice(0, n)) counts.set(stratumOf(q), (counts.get(stratumOf(q)) ?? 0) + 1);
      for (const [s, size] of Object.entries(sizes)) expect(Math.abs((counts.get(s) ?? 0) - (n * size) / 90)).toBeLessThanOrEqual(1);
    }
  });

  it('is a seeded shuffle: same seed, same order; another seed, another order', () => {
    expect(stratifiedOrder(qs, 5).map((q) => q.id)).toEqual(stratifiedOrder(qs, 5).map((q) => q.id));
    expect(stratifiedOrder(qs, 6).map((q) => q.id)).not.toEqual(stratifiedOrder(qs, 5).map((q) => q.id));
  });
});

describe('tune on a synthetic problem with a known best (accuracy rises with beamWidth, cost with maxCalls)', () => {
  const N = 120;
  const data = syntheticData(N);
  const qids = data.questions.map((q) => q.id);

  it('the full grid makes the calls the ratio divides by', async () => {
    const loaded = syntheticConfig(1, { outDir: dir, cacheDir: join(dir, 'cache-full') });
    const full = await runBenchmark({ loaded, data, provider: syntheticProvider(1), outDir: dir, runId: 'full', cache: false });
    expect(full.records.reduce((s, r) => s + r.calls, 0)).toBe(fullGridCalls(N));
  });

  it('the judge can fail: a narrow beam is significantly worse than the known best', () => {
    for (let seed = 1; seed <= 20; seed++) expect(judgeRecommendation(seed, qids, 'synthetic-beam[beamWidth=1,maxCalls=2]').acceptable).toBe(false);
  });

  it('over 20 seeds finds the known best or a variant not significantly worse, spending at most 40% of the full grid calls', { timeout: 600_000 }, async () => {
    const outcomes = [];
    for (let seed = 1; seed <= 20; seed++) {
      const loaded = syntheticConfig(seed, { outDir: dir, cacheDir: join(dir, `cache-${seed}`) });
      const t = await runTune({ loaded, data, provider: syntheticProvider(seed), outDir: dir, runId: `tune-${seed}`, cache: false, tune: { objective: 'accuracy', eta: 3, minQuestions: 12 }, intervals: false });
      const recommended = t.recommendation!.recommended;
      outcomes.push({ seed, recommended, fraction: t.result.spent.calls / fullGridCalls(N), ...judgeRecommendation(seed, qids, recommended) });
      // Every variant that did not survive was dropped once, at a rung, with its reason.
      const dropped = t.result.dropped.map((d) => d.id).sort();
      expect(dropped).toEqual(loaded.strategies.map((s) => s.id).filter((id) => !t.result.survivors.includes(id)).sort());
      for (const d of t.result.dropped) expect(d.reason).toMatch(/^rung \d \(\d+ questions\): accuracy [\d.]+% ranked \d+ of \d+; kept the top \d+/);
    }
    expect(outcomes.filter((o) => !o.acceptable)).toEqual([]);
    for (const o of outcomes) expect(o.fraction).toBeLessThanOrEqual(0.4);
    // Most seeds find exactly the known best.
    expect(outcomes.filter((o) => o.recommended === KNOWN_BEST).length).toBeGreaterThanOrEqual(10);
  });

  it('shares responses through the cache: the same tune again pays nothing and decides the same', { timeout: 120_000 }, async () => {
    const loaded = syntheticConfig(3, { outDir: dir, cacheDir: join(dir, 'cache-shared') });
    const first = await runTune({ loaded, data, provider: syntheticProvider(3), outDir: dir, runId: 'shared-1', tune: { objective: 'accuracy', eta: 3, minQuestions: 12 }, intervals: false });
    const again = await runTune({ loaded, data, provider: syntheticProvider(3), outDir: dir, runId: 'shared-2', tune: { objective: 'accuracy', eta: 3, minQuestions: 12 }, intervals: false });
    expect(first.result.spent.calls).toBeGreaterThan(0);
    expect(again.result.spent).toEqual({ calls: 0, tokens: 0, dollars: 0 });
    expect(again.result.survivors).toEqual(first.result.survivors);
    expect(again.recommendation!.recommended).toBe(first.recommendation!.recommended);
    // The tune folder is a run folder with tune.json beside it.
    const tune = JSON.parse(readFileSync(join(first.dir, 'tune.json'), 'utf8'));
    expect(tune.rungs.map((r: { questions: number }) => r.questions)).toEqual([14, 40, 120]);
    expect(tune.fraction.calls).toBeCloseTo(first.result.spent.calls / first.result.fullGrid.calls, 12);
    const lines = readFileSync(join(first.dir, 'records.jsonl'), 'utf8').trim().split('\n');
    expect(lines.length).toBe(12 * 14 + 4 * 26 + 2 * 80);
  });

  it('drops variants over --max-cost-per-question at the first rung, naming the cap', { timeout: 120_000 }, async () => {
    const loaded = syntheticConfig(2, { outDir: dir, cacheDir: join(dir, 'cache-cap') });
    // maxCalls 8 costs 8 x (40 in + 4 out tokens) at gpt-4o-mini prices; 4 calls cost half that.
    const t = await runTune({ loaded, data, provider: syntheticProvider(2), outDir: dir, runId: 'cap', cache: false, tune: { objective: 'accuracy', eta: 3, minQuestions: 12, maxCostPerQuestion: 0.00006 }, intervals: false });
    const capped = t.result.dropped.filter((d) => d.reason.includes('--max-cost-per-question'));
    expect(capped.map((d) => d.id).sort()).toEqual(loaded.strategies.map((s) => s.id).filter((id) => id.endsWith('maxCalls=8]')).sort());
    expect(capped.every((d) => d.rung === 1)).toBe(true);
    expect(t.result.survivors.some((id) => id.endsWith('maxCalls=8]'))).toBe(false);
  });
});

describe('distributed tune: stages of shards, then a replay', () => {
  it('two shards per stage reach the same survivors, records, spend and recommendation as one machine', { timeout: 300_000 }, async () => {
    const seed = 9;
    const data = syntheticData(60);
    const loaded = syntheticConfig(seed, { outDir: dir, cacheDir: join(dir, 'cache-dist') });
    const tune = { objective: 'accuracy' as const, eta: 3, minQuestions: 6 };
    const single = await runTune({ loaded, data, provider: syntheticProvider(seed), outDir: dir, runId: 'single', cache: false, tune, intervals: false });

    const { loadStages } = await import('../../../../harness/analysis/tune/run.ts');
    const { configHashOf } = await import('../../../../harness/config/overrides.ts');
    const folders: string[] = [];
    let stages = 0;
    for (;;) {
      stages++;
      const outcomes = [];
      for (const index of [1, 2]) {
        outcomes.push(
          await runTune({ loaded, data, provider: syntheticProvider(seed), outDir: dir, runId: `stage${stages}-${index}`, cache: false, tune, intervals: false, reuse: loadStages(folders, configHashOf(loaded)), shard: { index, count: 2 } }),
        );
      }
      folders.push(...outcomes.map((o) => o.dir));
      if (outcomes.every((o) => !o.stage)) break;
      expect(outcomes.every((o) => o.stage?.rung === stages)).toBe(true);
      expect(stages).toBeLessThan(10);
    }
    expect(stages).toBe(single.result.plan.length + 1); // one stage per rung, then nothing left to run

    let calls = 0;
    const counting = syntheticProvider(seed);
    const provider = { ...counting, chat: (m: Parameters<typeof counting.chat>[0], o: Parameters<typeof counting.chat>[1]) => ((calls += 1), counting.chat(m, o)) };
    const final = await runTune({ loaded, data, provider, outDir: dir, runId: 'final', cache: false, tune, intervals: false, reuse: loadStages(folders, configHashOf(loaded)) });
    expect(calls).toBe(0);
    expect(final.result.survivors).toEqual(single.result.survivors);
    expect(final.result.dropped).toEqual(single.result.dropped);
    expect(final.result.spent).toEqual(single.result.spent);
    expect(final.recommendation!.recommended).toBe(single.recommendation!.recommended);
    expect(final.records.length).toBe(single.records.length);
  });

  it('refuses stages of another config', () => {
    const a = syntheticConfig(1, { outDir: dir, cacheDir: join(dir, 'c') });
    return import('../../../../harness/analysis/tune/run.ts').then(({ loadStages }) => {
      expect(() => loadStages([join(dir, 'single')], 'f'.repeat(64))).toThrow(/--reuse .*single: made with a different config/);
      expect(a.strategies.length).toBe(12);
    });
  });
});
