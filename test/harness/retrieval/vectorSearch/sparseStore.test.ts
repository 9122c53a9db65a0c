// The sparse store (inverted index) against a plain scan of the same vectors: postings logged
// across several log blocks and laid out by finish(), dimensions too wide for 16-bit indices,
// searching before finish(), and what add() after finish() does; and the lists laid out up front
// from a bound of each dimension's non-zeros (exact, too high, too low: the same postings).
import { describe, expect, it } from 'vitest';
import { SparseStore } from '../../../../harness/retrieval/vectorSearch/stores.ts';
import { TopK } from '../../../../harness/retrieval/vectorSearch/topK.ts';
import { mulberry32 } from '../../../../harness/run/random.ts';

/** `n` vectors of `dim` with about `nnz` non-zero entries each (some vectors all zero). */
function sparseVectors(n: number, dim: number, nnz: number, seed: number): Float32Array[] {
  const r = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => {
    const v = new Float32Array(dim);
    if (i % 97 === 5) return v;
    for (let k = 0; k < nnz; k++) v[Math.floor(r() * dim)] = r() - 0.3;
    return v;
  });
}

/** The old full scan: every chunk's dot product in ascending dimension order, positive ones ranked. */
function plainTop(vectors: Float32Array[], q: Float32Array, k: number, keep: (id: number) => boolean = () => true) {
  const scored: Array<{ id: number; score: number }> = [];
  vectors.forEach((v, id) => {
    let dot = 0;
    for (let j = 0; j < v.length; j++) dot += v[j] * q[j];
    if (dot > 0 && keep(id)) scored.push({ id, score: dot });
  });
  return scored.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, k);
}

function search(store: SparseStore, q: Float32Array, k: number, ranges: Int32Array | null = null) {
  const top = new TopK(k);
  store.searchExact(q, top, ranges);
  return top.sorted();
}

describe('sparse store', () => {
  it('ranks and scores exactly as a plain scan, with postings spread over several log blocks', () => {
    // 22,000 × ~205 non-zeros ≈ 4.4M postings: several blocks of the log (64K entries, doubling).
    const dim = 512;
    const vectors = sparseVectors(22_000, dim, 260, 1);
    const store = new SparseStore(dim);
    for (const v of vectors) store.add(v);
    expect(store.nonZeros).toBeGreaterThan(4_000_000);
    store.finish();
    expect(store.size).toBe(vectors.length);
    const queries = sparseVectors(6, dim, 12, 2);
    for (const q of queries) {
      expect(search(store, q, 10)).toEqual(plainTop(vectors, q, 10));
      for (const id of [0, 5, 4_321, 21_999]) {
        let dot = 0;
        for (let j = 0; j < dim; j++) dot += vectors[id][j] * q[j];
        expect(store.score(q, id)).toBe(dot);
      }
    }
    // A document filter: chunks [1000, 1200) and [9000, 9050).
    const ranges = new Int32Array([1000, 1200, 9000, 9050]);
    const inside = (id: number) => (id >= 1000 && id < 1200) || (id >= 9000 && id < 9050);
    expect(search(store, queries[0], 10, ranges)).toEqual(plainTop(vectors, queries[0], 10, inside));
  });

  it('handles dimensions beyond 16 bits, searches before finish(), and refuses add() after it', () => {
    const dim = 70_000;
    const vectors = sparseVectors(300, dim, 40, 3);
    for (const v of vectors) v[69_999] = 0.5; // the last dimension, above 65,535
    const store = new SparseStore(dim);
    for (const v of vectors) store.add(v);
    const q = new Float32Array(dim);
    q[69_999] = 1;
    q[123] = 0.25;
    // No finish() yet: searching lays the postings out first.
    expect(search(store, q, 5)).toEqual(plainTop(vectors, q, 5));
    expect(store.nonZeros).toBe(vectors.reduce((s, v) => s + v.filter((x) => x !== 0).length, 0));
    expect(() => store.add(vectors[0])).toThrow(/add\(\) after finish\(\)/);
    store.finish(); // idempotent
    expect(search(store, q, 5)).toEqual(plainTop(vectors, q, 5));
  });

  it('with a bound of each dimension\'s non-zeros: the same postings, scores and bytes, whether the bound is exact, too high or too low', () => {
    const dim = 256;
    const vectors = sparseVectors(3_000, dim, 40, 4);
    const logged = new SparseStore(dim);
    for (const v of vectors) logged.add(v);
    logged.finish();
    const exact = new Int32Array(dim);
    for (const v of vectors) for (let j = 0; j < dim; j++) if (v[j] !== 0) exact[j]++;
    const high = exact.map((n, j) => n + (j % 3) * 7);
    const low = exact.map((n, j) => (j % 2 ? Math.floor(n / 3) : 0));
    const queries = sparseVectors(5, dim, 10, 5);
    for (const bound of [exact, high, low]) {
      const store = new SparseStore(dim, bound);
      for (const v of vectors) store.add(v);
      expect(() => store.score(queries[0], 7)).not.toThrow(); // searching finishes it
      expect(() => store.add(vectors[0])).toThrow(/add\(\) after finish\(\)/);
      expect(store.nonZeros).toBe(logged.nonZeros);
      for (const q of queries) {
        expect(search(store, q, 10)).toEqual(search(logged, q, 10));
        for (const id of [0, 5, 1_234, 2_999]) expect(store.score(q, id)).toBe(logged.score(q, id));
      }
      expect(store.bytes).toBe(logged.bytes); // every list at its exact size once finished
    }
    // A bound of another width is ignored (the log is used).
    const other = new SparseStore(dim, new Int32Array(3));
    for (const v of vectors) other.add(v);
    expect(search(other, queries[1], 10)).toEqual(search(logged, queries[1], 10));
  });
});
