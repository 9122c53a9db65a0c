// The WebAssembly SIMD dense scan against the JavaScript one it speeds up: the same scores to the
// bit (so the same rankings, ties by chunk order), for every dimension remainder, block boundary,
// document filter and growth of the WebAssembly memory; and the embedded binary is its source.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import wabtInit from 'wabt';
import { DenseStore } from '../../../../harness/retrieval/vectorSearch/stores.ts';
import { BLOCK_ROWS, DENSE_DOT_WASM } from '../../../../harness/retrieval/vectorSearch/denseKernel.ts';
import { TopK } from '../../../../harness/retrieval/vectorSearch/topK.ts';
import { mulberry32 } from '../../../../harness/run/random.ts';

function rows(n: number, dim: number, seed: number): Float32Array[] {
  const r = mulberry32(seed);
  const out = Array.from({ length: n }, () => Float32Array.from({ length: dim }, () => r() * 2 - 1));
  // Exact duplicates: equal scores, which must rank by chunk order on both paths.
  for (let i = 5; i < n; i += 37) out[i] = out[i - 5].slice();
  return out;
}

function ranked(store: DenseStore, q: Float32Array, k: number, ranges: Int32Array | null) {
  const top = new TopK(k);
  store.searchExact(q, top, ranges);
  return top.sorted();
}

describe('dense SIMD kernel', () => {
  it('is denseDot.wat compiled', async () => {
    const wabt = await wabtInit();
    const src = readFileSync(join(import.meta.dirname, '../../../../harness/retrieval/vectorSearch/denseDot.wat'), 'utf8');
    const mod = wabt.parseWat('denseDot.wat', src, { simd: true });
    mod.validate();
    expect(Buffer.from(mod.toBinary({}).buffer).toString('base64')).toBe(DENSE_DOT_WASM);
  });

  it.each([1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 384, 387])('gives bit-identical scores and rankings to the JS scan (dim %i)', (dim) => {
    const n = 2 * BLOCK_ROWS + 91;
    const vs = rows(n, dim, dim);
    // The SIMD store starts with room for one row, so its WebAssembly memory grows (and its views move).
    const simd = new DenseStore(dim, 1);
    const js = new DenseStore(dim, n, { simd: false });
    for (const v of vs) {
      simd.add(v);
      js.add(v);
    }
    simd.finish();
    js.finish();
    expect(simd.scanner).toBe('simd');
    expect(js.scanner).toBe('js');
    const r = mulberry32(99 + dim);
    for (let t = 0; t < 8; t++) {
      const q = t === 0 ? vs[3] : Float32Array.from({ length: dim }, () => r() * 2 - 1);
      for (const k of [1, 10, n]) {
        const want = ranked(js, q, k, null);
        expect(ranked(simd, q, k, null)).toEqual(want);
        // Every score bit-identical to the one-chunk scorer (used to re-score approximate hits).
        for (const h of want.slice(0, 20)) expect(simd.score(q, h.id)).toBe(h.score);
      }
      const ranges = Int32Array.from([3, 40, BLOCK_ROWS - 2, BLOCK_ROWS + 3, n - 10, n]);
      expect(ranked(simd, q, 15, ranges)).toEqual(ranked(js, q, 15, ranges));
    }
  });
});
