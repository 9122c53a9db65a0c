// Value search after the rewrite (contiguous / inverted layouts, bounded top-k, approximate index)
// against the full scan it replaced, kept here verbatim as the reference.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../harness/config/runConfig.ts';
import { loadBenchmarkData } from '../../../datasets/registry.ts';
import { createEmbedder } from '../../../harness/models/providers/registry.ts';
import { ValueIndex, type Chunk } from '../../../harness/retrieval/valueIndex.ts';
import { TopK } from '../../../harness/retrieval/vectorSearch/topK.ts';
import type { ChunkHit } from '../../../strategies/types.ts';
import type { Embedder } from '../../../harness/types.ts';
import { mulberry32 } from '../../../harness/run/random.ts';
import { l2normalize } from '../../../harness/models/embedders/vector.ts';

/** The value search as it was before issue 14: full scan, an object per positive score, full sort. */
function referenceSearch(chunks: Chunk[], vectors: Float32Array[], query: Float32Array, opts: { topK: number; docIds?: string[] }): ChunkHit[] {
  const allowed = opts.docIds ? new Set(opts.docIds) : null;
  const scored: ChunkHit[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i];
    if (allowed && !allowed.has(c.docId)) continue;
    const v = vectors[i];
    let dot = 0;
    for (let j = 0; j < v.length; j++) dot += v[j] * query[j];
    if (dot > 0) scored.push({ ...c, score: dot });
  }
  scored.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
  return scored.slice(0, opts.topK);
}

const configsDir = join(import.meta.dirname, '../../../configs');
const shipped = readdirSync(configsDir)
  .filter((f) => f.endsWith('.yaml') && !['prices.yaml', 'gates.yaml'].includes(f))
  .map((f) => join(configsDir, f));

describe('value search on the shipped configs', () => {
  it.each(shipped)('%s: identical to the old exact ranking (scores to the bit)', async (path) => {
    const loaded = loadConfig(path);
    const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
    const embedder = createEmbedder(loaded.config.embedder);
    const index = await ValueIndex.build(data.corpus, embedder, { ...loaded.config.index });
    // Reference vectors embedded the old way, one array per chunk, after the same fit.
    const vectors = (await embedder.embed(index.chunks.map((c) => c.text))).vectors;
    const docIds = data.corpus.docs.map((d) => d.docId);
    const questions = data.questions.slice(0, 15);
    expect(questions.length).toBeGreaterThan(0);
    let compared = 0;
    for (const [qi, q] of questions.entries()) {
      const [v] = (await embedder.embed([q.question])).vectors;
      for (const topK of [1, 50]) {
        expect(index.search(v, { topK })).toEqual(referenceSearch(index.chunks, vectors, v, { topK }));
        // A document filter: the question's own documents, or a rotating pair of the corpus's.
        const some = q.docIds?.length ? q.docIds : [docIds[qi % docIds.length], docIds[(qi * 7 + 3) % docIds.length]];
        const got = index.search(v, { topK, docIds: some });
        expect(got).toEqual(referenceSearch(index.chunks, vectors, v, { topK, docIds: some }));
        compared += got.length;
      }
    }
    expect(compared).toBeGreaterThan(0);
  }, 120_000);
});

/** A fake embedder with dense vectors from a seeded RNG (clustered, like real embeddings). */
function denseEmbedder(dim: number, seed = 1): Embedder & { vectorOf(text: string): Float32Array } {
  const centres = Array.from({ length: 8 }, (_, c) => {
    const r = mulberry32(seed * 100 + c);
    return Float32Array.from({ length: dim }, () => r() * 2 - 1);
  });
  const vectorOf = (text: string) => {
    let h = 0;
    for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
    const r = mulberry32(h);
    const c = centres[Math.abs(h) % centres.length];
    return l2normalize(Float32Array.from({ length: dim }, (_, j) => c[j] + (r() * 2 - 1) * 0.8));
  };
  return { id: 'fake-dense', dim, vectorOf, embed: async (texts) => ({ vectors: texts.map(vectorOf) }) };
}

const chunksOf = (n: number, docs = 5): Chunk[] =>
  Array.from({ length: n }, (_, i) => ({ docId: `d${Math.floor((i * docs) / n)}`, nodeId: `n${i}`, chunkId: i, text: `chunk ${i}` }));

describe('dense layout and the approximate index', () => {
  it('dense exact search ranks as the reference, with and without document filters', async () => {
    const emb = denseEmbedder(32);
    const chunks = chunksOf(600);
    const index = await ValueIndex.fromChunks(chunks, emb, { approximate: false });
    expect(index.stats.layout).toBe('dense');
    expect(index.stats.approximate).toBe(false);
    const vectors = chunks.map((c) => emb.vectorOf(c.text));
    // The dense scan sums in four partial sums: same ranking, scores equal up to rounding.
    const same = (got: ChunkHit[], want: ChunkHit[]) => {
      expect(got.map((h) => h.chunkId)).toEqual(want.map((h) => h.chunkId));
      got.forEach((h, i) => expect(Math.abs(h.score - want[i].score)).toBeLessThan(1e-12));
      expect(got.map(({ score: _s, ...c }) => c)).toEqual(want.map(({ score: _s, ...c }) => c));
    };
    for (let q = 0; q < 20; q++) {
      const v = emb.vectorOf(`query ${q}`);
      same(index.search(v, { topK: 10 }), referenceSearch(chunks, vectors, v, { topK: 10 }));
      same(index.search(v, { topK: 7, docIds: ['d1', 'd3'] }), referenceSearch(chunks, vectors, v, { topK: 7, docIds: ['d1', 'd3'] }));
    }
  });

  it('is off below the threshold and on above it; its hits carry exact scores and reach high recall', async () => {
    const emb = denseEmbedder(32);
    const chunks = chunksOf(3000);
    const below = await ValueIndex.fromChunks(chunks, emb, { approximate: { minChunks: 3001 } });
    expect(below.stats.approximate).toBe(false);
    const ann = await ValueIndex.fromChunks(chunks, emb, { approximate: { minChunks: 1000 } });
    expect(ann.stats.approximate).toBe(true);
    let found = 0;
    let total = 0;
    for (let q = 0; q < 30; q++) {
      const v = emb.vectorOf(`query ${q}`);
      const exact = ann.search(v, { topK: 10, exact: true });
      expect(exact).toEqual(below.search(v, { topK: 10 }));
      const approx = ann.search(v, { topK: 10 });
      const exactIds = new Set(exact.map((h) => h.chunkId));
      found += approx.filter((h) => exactIds.has(h.chunkId)).length;
      total += exact.length;
      // Same scores as exact search for every chunk the graph found, ranked by (score, chunk order).
      for (const h of approx) expect(h.score).toBe(exact.find((e) => e.chunkId === h.chunkId)?.score ?? h.score);
      for (let i = 1; i < approx.length; i++) expect(approx[i - 1].score >= approx[i].score).toBe(true);
      // A narrow document filter falls back to the exact scan.
      expect(ann.search(v, { topK: 5, docIds: ['d2'] })).toEqual(below.search(v, { topK: 5, docIds: ['d2'] }));
    }
    expect(found / total).toBeGreaterThanOrEqual(0.95);
    // The same build gives the same answers: the graph is built in chunk order on one thread.
    const again = await ValueIndex.fromChunks(chunks, emb, { approximate: { minChunks: 1000 } });
    const v = emb.vectorOf('query again');
    expect(again.search(v, { topK: 10 })).toEqual(ann.search(v, { topK: 10 }));
  });
});

describe('edge cases', () => {
  it('an empty index answers nothing, whatever the query size', async () => {
    const empty = await ValueIndex.fromChunks([], { id: 'unknown-dim', dim: 0, embed: async () => ({ vectors: [] }) }, {});
    expect(empty.search(new Float32Array(1536).fill(0.1), { topK: 5 })).toEqual([]);
    expect(empty.search(new Float32Array(3), { topK: 5, docIds: ['x'] })).toEqual([]);
  });

  it('unknown document ids match nothing; topK 0 gives nothing', async () => {
    const emb = denseEmbedder(8);
    const index = await ValueIndex.fromChunks(chunksOf(50), emb, {});
    const v = emb.vectorOf('q');
    expect(index.search(v, { topK: 5, docIds: ['nope'] })).toEqual([]);
    expect(index.search(v, { topK: 0 })).toEqual([]);
  });
});

describe('TopK', () => {
  it('keeps the k best by score, ties by lower id, whatever the insertion order', () => {
    const r = mulberry32(7);
    const pairs = Array.from({ length: 500 }, (_, id) => ({ id, score: Math.floor(r() * 20) / 4 }));
    const expected = [...pairs].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, 25);
    for (const order of [pairs, [...pairs].reverse(), [...pairs].sort(() => r() - 0.5)]) {
      const top = new TopK(25);
      for (const p of order) top.push(p.score, p.id);
      expect(top.sorted()).toEqual(expected);
    }
    const none = new TopK(0);
    none.push(1, 1);
    expect(none.sorted()).toEqual([]);
  });
});
