// The WebAssembly SIMD replicate kernel against the JavaScript loops it speeds up: every
// replicate's value the same to the bit (so every interval), for every remainder of k by four,
// every number of columns by four, columns with and without counts, repeated columns, and both
// ways of getting multiplicities (drawn here, read from shared draws); and the embedded binary
// is its source.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import wabtInit from 'wabt';
import { clusterBootstrap, drawMultiplicities, drawsBytes, replicatesFromDraws, type ClusterBootstrapJob } from '../../../harness/stats/clusterBootstrap.ts';
import { REPLICATE_DOTS_WASM, ReplicateKernel } from '../../../harness/stats/replicateKernel.ts';
import { mulberry32 } from '../../../harness/run/random.ts';

/** A job of k questions and `cols` columns: values of several kinds, some columns with counts, one repeated. */
function job(k: number, cols: number, seed: number, resamples = 301): ClusterBootstrapJob {
  const r = mulberry32(seed);
  const columns = Array.from({ length: cols }, (_, i) => {
    const counts = new Float64Array(k).fill(1);
    // Every third column applies to some questions only, or has repeats (counts 0 … 3).
    if (i % 3 === 2) for (let j = 0; j < k; j++) counts[j] = Math.floor(r() * 4);
    const kind = i % 4;
    const sums = Float64Array.from({ length: k }, (_, j) =>
      kind === 0 ? Math.floor(r() * 3) / 3 : kind === 1 ? r() * 1e4 - 2e3 : kind === 2 ? counts[j] * (r() < 0.3 ? 1 : 0) : Math.round(r() * 900) + 0.1,
    );
    return { sums, counts };
  });
  if (cols > 4) columns[4] = { sums: columns[1].sums.slice(), counts: columns[1].counts.slice() };
  const lat = Float64Array.from({ length: k }, () => 50 + r() * 900).sort();
  const latency = { values: lat, cluster: Int32Array.from({ length: k }, (_, i) => (i * 7 + 3) % k), sizes: new Float64Array(k).fill(1), qs: [0.5, 0.95, 0.99] };
  return { k, columns, latency, resamples, alpha: 0.05, seed };
}

describe('replicate SIMD kernel', () => {
  it('is replicateDots.wat compiled', async () => {
    const wabt = await wabtInit();
    const src = readFileSync(join(import.meta.dirname, '../../../harness/stats/replicateDots.wat'), 'utf8');
    const mod = wabt.parseWat('replicateDots.wat', src, { simd: true });
    mod.validate();
    expect(Buffer.from(mod.toBinary({}).buffer).toString('base64')).toBe(REPLICATE_DOTS_WASM);
  });

  it('is available here (else every test below would compare the JavaScript path with itself)', () => {
    expect(ReplicateKernel.create(3, [new Float64Array(3)])).not.toBeNull();
  });

  it.each([1, 2, 3, 4, 5, 7, 8, 9, 31, 64, 257, 258, 2003])('gives every replicate bit for bit as the JavaScript loops (k = %i)', (k) => {
    for (const cols of [0, 1, 3, 4, 5, 9]) {
      const j = job(k, cols, k * 31 + cols);
      const draws = new Uint8Array(drawsBytes(k, j.resamples));
      expect(drawMultiplicities(k, j.resamples, j.seed, draws)).toBe(true);
      // From shared draws, in two ranges (an odd start: a row's second replicate first).
      for (const [from, to] of [
        [0, 150],
        [151, j.resamples],
      ]) {
        const simd = replicatesFromDraws(j, draws, from, to);
        const js = replicatesFromDraws(j, draws, from, to, { simd: false });
        expect(simd.means.map((x) => Array.from(x))).toEqual(js.means.map((x) => Array.from(x)));
        expect(simd.percentiles.map((x) => Array.from(x))).toEqual(js.percentiles.map((x) => Array.from(x)));
      }
      // Drawn here.
      expect(clusterBootstrap(j)).toEqual(clusterBootstrap(j, { simd: false }));
    }
  });

  it('computes each dot product with dot()’s four partial sums (another order gives another result)', () => {
    // With 1e16 in lane 0, each 1 added to lane 0 rounds away, while the 1s of the other lanes
    // add up before they meet it: the four lanes give 1e16 + 6, a sum from left to right 1e16.
    const v = Float64Array.from([1e16, 1, 1, 1, 1, 1, 1, 1, 1]);
    const kern = ReplicateKernel.create(v.length, [v])!;
    kern.c.fill(1);
    kern.dots();
    const lanes = [0, 0, 0, 0];
    const body = v.length - (v.length % 4);
    for (let j = 0; j < body; j++) lanes[j % 4] += v[j];
    for (let j = body; j < v.length; j++) lanes[0] += v[j];
    expect(kern.out[0]).toBe(lanes[0] + lanes[1] + (lanes[2] + lanes[3]));
    expect(kern.out[0]).toBe(1e16 + 6);
    expect(kern.out[0]).not.toBe(v.reduce((a, b) => a + b, 0));
  });
});
