// Value search at scale: index build rate and query time for synthetic corpora of 10k and 100k
// chunks (1M with --large), for the hash embedder (sparse vectors, inverted index) and for dense
// embedding-like vectors (contiguous store, exact scan, and the approximate HNSW index), with
// recall@10 of the approximate index against exact search and the memory the vectors take.
//
// Ideals measured in the same run:
//   exact query  ← the time to stream the index's vectors once from memory (a plain summing pass
//                  over the same bytes); exact dense search should cost ≤ 1.5× that
//   build        ← embedding alone (hash embedder) / copying the vectors (dense)
// The old implementation (array of Float32Arrays, an object per positive score, full sort) is
// timed beside the new one where its memory allows (its dense copies of hash vectors need
// n × 4 KB), so each figure stands next to the one it replaces.
//
//   npm run bench:search               10k and 100k chunks
//   npm run bench:search -- --large    also 1M chunks (several minutes, ~8 GB free memory)
import { parseArgs } from 'node:util';
import { HashEmbedder } from '../harness/embedders/hash.ts';
import { l2normalize } from '../harness/embedders/vector.ts';
import { mulberry32 } from '../harness/random.ts';
import { ValueIndex, type Chunk } from '../harness/valueIndex.ts';
import type { Embedder } from '../harness/types.ts';

const { values } = parseArgs({
  options: {
    large: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    queries: { type: 'string', default: '50' },
    dim: { type: 'string', default: '384' },
    only: { type: 'string' },
  },
});
const sizes = values.sizes ? values.sizes.split(',').map(Number) : values.large ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
const nQueries = Number(values.queries);
const denseDim = Number(values.dim);
const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const gc = () => (globalThis as { gc?: () => void }).gc?.();

// ---------------------------------------------------------------------------------------------
// Synthetic corpora

/** Zipf-distributed pseudo-words (a few thousand frequent, a long tail), ~170 words per chunk. */
function synthText(n: number, seed: number): string[] {
  const r = mulberry32(seed);
  const vocab = Array.from({ length: 50_000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}`);
  // Inverse-CDF sampling of Zipf(s≈1.1) via a precomputed table.
  const cdf = new Float64Array(vocab.length);
  let s = 0;
  for (let i = 0; i < vocab.length; i++) cdf[i] = s += 1 / Math.pow(i + 1, 1.1);
  const pick = () => {
    const x = r() * s;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return vocab[lo];
  };
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const words: string[] = [];
    const len = 120 + Math.floor(r() * 100);
    for (let k = 0; k < len; k++) words.push(pick());
    out.push(words.join(' '));
  }
  return out;
}

const chunksOf = (texts: string[]): Chunk[] => texts.map((text, i) => ({ docId: `d${i >> 8}`, nodeId: `n${i}`, chunkId: i, text }));

/**
 * Embedding-like unit vectors: real sentence embeddings fill a low-dimensional, clustered part of
 * their space, so each vector here is a fixed random projection of a 16-dimensional latent point
 * (one of 200 cluster centres plus noise) into `dim` dimensions, plus a little isotropic noise.
 */
function denseVectors(n: number, dim: number, seed: number): Float32Array {
  const LATENT = 16;
  const r = mulberry32(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  const fixed = mulberry32(12345); // the projection and centres are shared by corpus and queries
  const fgauss = () => Math.sqrt(-2 * Math.log(fixed() || 1e-12)) * Math.cos(2 * Math.PI * fixed());
  const proj = Float32Array.from({ length: dim * LATENT }, fgauss);
  const centres = Array.from({ length: 200 }, () => Float32Array.from({ length: LATENT }, fgauss));
  const out = new Float32Array(n * dim);
  const z = new Float32Array(LATENT);
  for (let i = 0; i < n; i++) {
    const c = centres[Math.floor(r() * centres.length)];
    for (let k = 0; k < LATENT; k++) z[k] = c[k] + gauss() * 0.5;
    const v = out.subarray(i * dim, (i + 1) * dim);
    for (let j = 0; j < dim; j++) {
      let x = 0;
      for (let k = 0; k < LATENT; k++) x += proj[j * LATENT + k] * z[k];
      v[j] = x + gauss() * 0.5;
    }
    l2normalize(v);
  }
  return out;
}

/** An embedder over precomputed vectors: chunk text "#i" → row i. */
function matrixEmbedder(m: Float32Array, dim: number): Embedder {
  return { id: 'matrix', dim, embed: async (texts) => ({ vectors: texts.map((t) => m.slice(Number(t.slice(1)) * dim, (Number(t.slice(1)) + 1) * dim)) }) };
}

// ---------------------------------------------------------------------------------------------
// Ideals and the old implementation

/** One summing pass over `bytes` bytes of float32 (four accumulators: memory-bound, not add-bound). */
function streamOnce(data: Float32Array): number {
  const t = performance.now();
  let a = 0, b = 0, c = 0, d = 0;
  const n = data.length - (data.length % 4);
  for (let i = 0; i < n; i += 4) {
    a += data[i];
    b += data[i + 1];
    c += data[i + 2];
    d += data[i + 3];
  }
  if (a + b + c + d === 42.4242) console.log('');
  return performance.now() - t;
}

function oldSearch(chunks: Chunk[], vectors: Float32Array[], query: Float32Array, topK: number) {
  const scored: Array<Chunk & { score: number }> = [];
  for (let i = 0; i < chunks.length; i++) {
    const v = vectors[i];
    let dot = 0;
    for (let j = 0; j < v.length; j++) dot += v[j] * query[j];
    if (dot > 0) scored.push({ ...chunks[i], score: dot });
  }
  scored.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
  return scored.slice(0, topK);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function timeQueries(qs: Float32Array[], fn: (q: Float32Array) => unknown): number {
  fn(qs[0]); // warm the JIT
  const t: number[] = [];
  for (const q of qs) {
    const s = performance.now();
    fn(q);
    t.push(performance.now() - s);
  }
  return median(t);
}

// ---------------------------------------------------------------------------------------------

async function hashCase(n: number): Promise<void> {
  const texts = synthText(n, 7);
  const chunks = chunksOf(texts);
  gc();
  const rss0 = process.memoryUsage().rss;
  const embedder = new HashEmbedder();
  // Ideal: embedding alone (fit + embed), what any index over these vectors must pay.
  const f0 = performance.now();
  embedder.fit(texts);
  const e0 = performance.now();
  for (let i = 0; i < Math.min(n, 20_000); i++) embedder.embedOne(texts[i]);
  // The fit covers all n texts; the embedding of the first 20,000 is scaled to n.
  const embedMs = e0 - f0 + ((performance.now() - e0) / Math.min(n, 20_000)) * n;
  const b0 = performance.now();
  const index = await ValueIndex.fromChunks(chunks, embedder, {});
  const buildMs = performance.now() - b0;
  gc();
  const rss = process.memoryUsage().rss - rss0;
  const qr = mulberry32(11);
  const qs = Array.from({ length: nQueries }, () => {
    const words = texts[Math.floor(qr() * n)].split(' ');
    const at = Math.floor(qr() * (words.length - 8));
    return embedder.embedOne(words.slice(at, at + 8).join(' '));
  });
  const exactMs = timeQueries(qs, (q) => index.search(q, { topK: 10 }));
  const bytes = index.stats.vectorBytes ?? 0;
  const streamMs = median(Array.from({ length: 5 }, () => streamOnce(scratch(bytes))));
  console.log(
    `  hash   ${String(n).padStart(8)}  build ${Math.round(n / (buildMs / 1000)).toLocaleString('en-US').padStart(8)} chunks/s (embedding alone ${Math.round(n / (embedMs / 1000)).toLocaleString('en-US')}/s, ratio ${(buildMs / embedMs).toFixed(2)})` +
      `  exact query ${ms(exactMs)} ms (stream of its ${mb(bytes)} postings ${ms(streamMs)} ms, ratio ${(exactMs / streamMs).toFixed(2)})  memory ${mb(bytes)} postings, RSS +${mb(rss)}`,
  );
  // The old scan over dense copies of the vectors (4 KB each): timed on at most 10,000 chunks and
  // scaled linearly to n (it is a linear scan), so the large sizes fit in memory and time.
  const sub = Math.min(n, 10_000);
  const dense = texts.slice(0, sub).map((t) => embedder.embedOne(t));
  const oldMs = (timeQueries(qs.slice(0, 10), (q) => oldSearch(chunks.slice(0, sub), dense, q, 10)) * n) / sub;
  console.log(`         ${''.padStart(8)}  old full scan ${ms(oldMs)} ms per query${sub < n ? ` (timed on ${sub.toLocaleString('en-US')} chunks, scaled)` : ''} → ${(oldMs / exactMs).toFixed(0)}× faster now`);
}

let scratchBuf: Float32Array | null = null;
/** A float32 buffer of `bytes` bytes to stream (reused). */
function scratch(bytes: number): Float32Array {
  const n = Math.max(1, Math.floor(bytes / 4));
  if (!scratchBuf || scratchBuf.length !== n) scratchBuf = new Float32Array(n).fill(0.5);
  return scratchBuf;
}

async function denseCase(n: number): Promise<void> {
  const dim = denseDim;
  const m = denseVectors(n, dim, 3);
  const chunks = Array.from({ length: n }, (_, i) => ({ docId: `d${i >> 8}`, nodeId: `n${i}`, chunkId: i, text: `#${i}` }));
  const embedder = matrixEmbedder(m, dim);
  gc();
  const rss0 = process.memoryUsage().rss;
  const e0 = performance.now();
  const exactIndex = await ValueIndex.fromChunks(chunks, embedder, { approximate: false });
  const exactBuild = performance.now() - e0;
  const q = denseVectors(nQueries, dim, 99);
  const qs = Array.from({ length: nQueries }, (_, i) => q.slice(i * dim, (i + 1) * dim));
  const exactMs = timeQueries(qs, (v) => exactIndex.search(v, { topK: 10 }));
  const streamMs = median(Array.from({ length: 5 }, () => streamOnce(m)));
  // Printed before the approximate build, which takes minutes at 1M chunks on one thread.
  console.log(
    `  dense  ${String(n).padStart(8)}  dim ${dim}  exact: build ${Math.round(n / (exactBuild / 1000)).toLocaleString('en-US')} chunks/s, query ${ms(exactMs)} ms (stream ${mb(m.byteLength)} once ${ms(streamMs)} ms, ratio ${(exactMs / streamMs).toFixed(2)})`,
  );
  const a0 = performance.now();
  const approx = await ValueIndex.fromChunks(chunks, embedder, { approximate: { minChunks: 1 } });
  const approxBuild = performance.now() - a0;
  gc();
  const rss = process.memoryUsage().rss - rss0;
  const approxMs = timeQueries(qs, (v) => approx.search(v, { topK: 10 }));
  let hit = 0;
  for (const v of qs) {
    const truth = new Set(approx.search(v, { topK: 10, exact: true }).map((h) => h.chunkId));
    hit += approx.search(v, { topK: 10 }).filter((h) => truth.has(h.chunkId)).length;
  }
  const recall = hit / (qs.length * 10);
  console.log(
    `         ${''.padStart(8)}  approximate: build ${Math.round(n / (approxBuild / 1000)).toLocaleString('en-US')} chunks/s, query ${ms(approxMs)} ms (${(exactMs / approxMs).toFixed(1)}× exact), recall@10 ${recall.toFixed(3)}  memory: vectors ${mb(m.byteLength)}, RSS +${mb(rss)} for both indexes`,
  );
  if (n <= 100_000) {
    const rows = qs.slice(0, 10);
    const list = Array.from({ length: n }, (_, i) => m.subarray(i * dim, (i + 1) * dim));
    const oldMs = timeQueries(rows, (v) => oldSearch(chunks, list, v, 10));
    console.log(`         ${''.padStart(8)}  old full scan ${ms(oldMs)} ms per query → exact now ${(oldMs / exactMs).toFixed(1)}× faster`);
  }
}

console.log(`value search (median of ${nQueries} queries, top 10; ${process.execArgv.includes('--expose-gc') ? '' : 'run with --expose-gc for steadier memory figures; '}sizes ${sizes.join(', ')})`);
for (const n of sizes) {
  if (values.only !== 'dense') await hashCase(n);
  if (values.only !== 'hash') await denseCase(n);
}
console.log('  targets (1M chunks): approximate ≤ 20 ms per query with recall@10 ≥ 0.98; exact ≤ 1.5× one stream of the vectors; hash build ≥ 20,000 chunks/s; ≤ 4 GB');
