import { describe, expect, it, vi } from 'vitest';
import { BootstrapWorker, bootstrapCost, bootstrapLanes, clusterBootstrapInParallel, PARALLEL_MIN_COST, SHARED_DRAWS_MAX_BYTES } from '../../../harness/stats/parallelBootstrap.ts';
import { clusterBootstrap, drawMultiplicities, drawsBytes, replicateBounds, replicatesFromDraws, type ClusterBootstrapJob } from '../../../harness/stats/clusterBootstrap.ts';
import { Xoshiro128 } from '../../../harness/stats/rng.ts';
import { withIntervals, withIntervalsInParallel } from '../../../harness/summary/intervals.ts';
import { summarize } from '../../../harness/summary/summary.ts';
import type { RunRecord } from '../../../harness/types.ts';
import { record } from '../summary/summaryFixture.ts';

/** A job with `columns` metrics over k questions of `per` records each, some metrics applying to some questions only. */
function job(k: number, columns: number, seed: number, per = 1): ClusterBootstrapJob {
  const rng = new Xoshiro128(seed);
  const cols = Array.from({ length: columns }, (_, m) => {
    const sums = new Float64Array(k);
    const counts = new Float64Array(k);
    for (let j = 0; j < k; j++) {
      if (m % 3 === 2 && rng.int(4) === 0) continue; // not applicable here
      counts[j] = per;
      for (let i = 0; i < per; i++) sums[j] += rng.random() * (m + 1);
    }
    return { sums, counts };
  });
  const n = k * per;
  const latencies = Array.from({ length: n }, () => 50 + rng.int(400));
  const order = Array.from(latencies.keys()).sort((a, b) => latencies[a]! - latencies[b]! || a - b);
  return {
    k,
    columns: cols,
    latency: { values: Float64Array.from(order, (i) => latencies[i]!), cluster: Int32Array.from(order, (i) => Math.floor(i / per)), sizes: new Float64Array(k).fill(per), qs: [0.5, 0.95, 0.99] },
    resamples: 2000,
    alpha: 0.05,
    seed,
  };
}

describe('the bootstrap over two threads', () => {
  it('computes in a worker thread what this thread computes', async () => {
    const jobs = [job(300, 4, 1, 2), job(200, 2, 2)];
    expect(await new BootstrapWorker().run(jobs)).toEqual(jobs.map((j) => clusterBootstrap(j)));
  });

  it('cuts one large job by columns into two near-equal lanes, latency percentiles on one side only', () => {
    const one = [job(3500, 9, 1, 2)];
    const plan = bootstrapLanes(one, 2)!;
    const [here, there] = plan.lanes;
    expect(here).toHaveLength(1);
    expect(there).toHaveLength(1);
    expect([here[0]!.columns.length + there[0]!.columns.length]).toEqual([9]);
    expect([here[0]!.latency, there[0]!.latency].filter(Boolean)).toHaveLength(1);
    const [a, b] = [bootstrapCost(here[0]!), bootstrapCost(there[0]!)];
    expect(Math.max(a, b) / Math.min(a, b)).toBeLessThan(1.5);
    expect(bootstrapLanes(one, 1)).toBeNull();
  });

  it('gives every interval bit for bit as one thread does: one large job cut in two, and several jobs', async () => {
    const one = [job(3500, 9, 1, 2)];
    expect(bootstrapCost(one[0]!)).toBeGreaterThan(PARALLEL_MIN_COST);
    const plan = bootstrapLanes(one, 2)!;
    expect(plan.assemble(plan.lanes[0].map((j) => clusterBootstrap(j)), plan.lanes[1].map((j) => clusterBootstrap(j)))).toEqual(one.map((j) => clusterBootstrap(j)));
    expect(await clusterBootstrapInParallel(one)).toEqual(one.map((j) => clusterBootstrap(j)));
    const several = [job(2500, 5, 2), job(1500, 7, 3, 3), job(40, 3, 4), job(2000, 1, 5)];
    const lanes = bootstrapLanes(several, 2)!.lanes;
    expect(lanes[0].length + lanes[1].length).toBe(4);
    expect(await clusterBootstrapInParallel(several)).toEqual(several.map((j) => clusterBootstrap(j)));
  });

  it('runs small work on this thread alone, with the same results', async () => {
    const small = [job(30, 4, 6)];
    expect(bootstrapCost(small[0]!)).toBeLessThan(PARALLEL_MIN_COST);
    expect(bootstrapLanes(small, 2)).toBeNull();
    expect(await clusterBootstrapInParallel(small)).toEqual(small.map((j) => clusterBootstrap(j)));
  });

  it('splits the replicates at any point, read from multiplicities drawn ahead, bit for bit as one thread draws them', () => {
    for (const j of [job(300, 4, 1, 2), job(257, 3, 8), job(1, 2, 3, 3), { ...job(40, 2, 5), resamples: 1999 }]) {
      const draws = new Uint8Array(drawsBytes(j.k, j.resamples));
      expect(drawMultiplicities(j.k, j.resamples, j.seed, draws)).toBe(true);
      const whole = clusterBootstrap(j);
      for (const cut of [0, 1, 777, j.resamples - 1, j.resamples]) {
        const parts = [replicatesFromDraws(j, draws, 0, cut), replicatesFromDraws(j, draws, cut, j.resamples)];
        expect(replicateBounds(j, parts)).toEqual(whole);
      }
      // In three pieces, too; and a replicate's values do not depend on where its block starts.
      const thirds = [0, 500, 1300, j.resamples];
      expect(replicateBounds(j, thirds.slice(1).map((to, i) => replicatesFromDraws(j, draws, thirds[i]!, to)))).toEqual(whole);
      expect(replicatesFromDraws(j, draws, 5, 6).means[0]![0]).toBe(replicatesFromDraws(j, draws, 0, 10).means[0]![5]);
    }
    // Too few bytes for the replicates (two share a row: 3 replicates of 2 questions need 4).
    expect(drawMultiplicities(2, 3, 0, new Uint8Array(4))).toBe(true);
    expect(() => drawMultiplicities(2, 3, 0, new Uint8Array(3))).toThrow(RangeError);
  });

  it('splits the replicates between two threads when the worker drew them ahead, and falls back when the draws do not fit the jobs', async () => {
    const jobs = [job(2500, 9, 4, 2), job(2500, 3, 4)];
    const one = jobs.map((j) => clusterBootstrap(j));
    const drawing = new BootstrapWorker();
    drawing.prepareDraws(2500, 2000, 4);
    const drawn = await drawing.drawn();
    expect(drawn).toMatchObject({ k: 2500, resamples: 2000, seed: 4 });
    const split = vi.spyOn(drawing, 'replicates');
    expect(await clusterBootstrapInParallel(jobs, drawing)).toEqual(one);
    expect(split).toHaveBeenCalledWith(jobs, drawn, 1000, 2000);
    // Drawn for another seed: the jobs split by columns, each lane drawing, with the same results.
    const other = new BootstrapWorker();
    other.prepareDraws(2500, 2000, 5);
    const [byReplicates, byColumns] = [vi.spyOn(other, 'replicates'), vi.spyOn(other, 'run')];
    expect(await clusterBootstrapInParallel(jobs, other)).toEqual(one);
    expect(byReplicates).not.toHaveBeenCalled();
    expect(byColumns).toHaveBeenCalledOnce();
    // Too many to draw ahead: nothing is drawn.
    const large = new BootstrapWorker();
    large.prepareDraws(SHARED_DRAWS_MAX_BYTES / 1000 + 1, 1000, 4);
    expect(await large.drawn()).toBeNull();
    large.close();
  });

  it("makes a run's summary identical to the one-thread summary", async () => {
    const records: RunRecord[] = [];
    for (const strategy of ['a', 'b'])
      for (let i = 0; i < 1000; i++)
        records.push(
          record({
            strategy,
            questionId: `q${i}`,
            latencyMs: 20 + ((i * 7919) % 997),
            calls: 1 + (i % 4),
            scores: { correct: i % 3 === 0 ? 1 : 0, exactMatch: 0, f1: (i % 11) / 10, numericMatch: null, yesNo: null, choice: null },
          }),
        );
    expect(await withIntervalsInParallel(summarize(records), records, { seed: 9 })).toEqual(withIntervals(summarize(records), records, { seed: 9 }));
  });
});
