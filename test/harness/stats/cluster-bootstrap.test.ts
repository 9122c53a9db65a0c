import { describe, expect, it } from 'vitest';
import { clusterBootstrap } from '../../../harness/stats/clusterBootstrap.ts';
import { Xoshiro128 } from '../../../harness/stats/rng.ts';
import { quantileSorted } from '../../../harness/stats/summary.ts';

/**
 * The reference: each replicate written out as the records it holds (every record of a drawn
 * question, once per draw), sorted, its mean and percentiles read off directly.
 */
function reference(perQuestion: number[][], values: number[][], qs: number[], resamples: number, alpha: number, seed: number) {
  const k = perQuestion.length;
  const rng = new Xoshiro128(seed);
  const means: number[][] = values.map(() => []);
  const pct: number[][] = qs.map(() => []);
  for (let r = 0; r < resamples; r++) {
    const drawn: number[] = [];
    for (let i = 0; i < k; i++) drawn.push(rng.int(k));
    const lat = drawn.flatMap((j) => perQuestion[j]!).sort((a, b) => a - b);
    qs.forEach((q, i) => pct[i]!.push(quantileSorted(lat, q)));
    values.forEach((v, m) => means[m]!.push(drawn.reduce((s, j) => s + v[j]!, 0) / k));
  }
  const bounds = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { lo: quantileSorted(s, alpha / 2), hi: quantileSorted(s, 1 - alpha / 2) };
  };
  return { means: means.map(bounds), percentiles: pct.map(bounds) };
}

describe('clusterBootstrap', () => {
  it('reads latency percentiles off multiplicities exactly as from the written-out resamples: repeats, ties, both ends', () => {
    const rng = new Xoshiro128(5);
    for (const [k, per] of [
      [37, 1],
      [25, 3],
      [2, 2],
      [1, 4],
    ] as const) {
      // Latencies, a third of them tied, `per` records per question.
      const perQuestion = Array.from({ length: k }, () => Array.from({ length: per }, () => (rng.int(3) === 0 ? 50 : rng.int(1000))));
      const records = perQuestion.flatMap((ls, j) => ls.map((l) => ({ l, j })));
      const order = records.map((_, i) => i).sort((a, b) => records[a]!.l - records[b]!.l || a - b);
      const means = [Array.from({ length: k }, () => rng.random())];
      const qs = [0.5, 0.9, 0.95, 0.99, 0.1, 0.33, 0.47, 0.61];
      const got = clusterBootstrap({
        k,
        columns: means.map((v) => ({ sums: Float64Array.from(v), counts: new Float64Array(k).fill(1) })),
        latency: { values: Float64Array.from(order, (i) => records[i]!.l), cluster: Int32Array.from(order, (i) => records[i]!.j), sizes: new Float64Array(k).fill(per), qs },
        resamples: 400,
        alpha: 0.05,
        seed: 11,
      });
      const want = reference(perQuestion, means, qs, 400, 0.05, 11);
      got.percentiles.forEach((b, i) => {
        expect(b.lo).toBeCloseTo(want.percentiles[i]!.lo, 9);
        expect(b.hi).toBeCloseTo(want.percentiles[i]!.hi, 9);
      });
      expect(got.means[0]!.lo).toBeCloseTo(want.means[0]!.lo, 12);
      expect(got.means[0]!.hi).toBeCloseTo(want.means[0]!.hi, 12);
    }
  });

  it('gives a column repeated in the job the intervals it has alone; equal sums over other counts stay apart', () => {
    const rng = new Xoshiro128(9);
    const k = 40;
    const col = (sums: number[], counts = new Array<number>(k).fill(1)) => ({ sums: Float64Array.from(sums), counts: Float64Array.from(counts) });
    const a = Array.from({ length: k }, () => rng.int(3) / 2);
    const b = Array.from({ length: k }, () => rng.random());
    // Same sums as `a` over other counts (a third of the questions counted 0): only the counts tell it apart.
    const partial = a.map((_, j) => (j % 3 === 0 ? 0 : 1));
    const columns = [col(a), col(b), col(a), col(a, partial), col(b)];
    const job = { k, latency: null, resamples: 500, alpha: 0.05, seed: 3 };
    const together = clusterBootstrap({ ...job, columns });
    columns.forEach((c, i) => expect(together.means[i]).toEqual(clusterBootstrap({ ...job, columns: [c] }).means[0]));
    expect(together.means[3]).not.toEqual(together.means[0]);
  });
});
