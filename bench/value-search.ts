// Value search at scale: index build rate and query time for synthetic corpora of 10k and 100k
// chunks (1M with --large), for the hash embedder (sparse vectors, inverted index) and for dense
// embedding-like vectors (contiguous store, exact scan, and the approximate HNSW index), with
// recall@10 of the approximate index against exact search and the memory the vectors take.
//
// Ideals measured in the same run:
//   exact query  ← the time to stream the index's vectors once from memory: a summing pass over
//                  the same bytes in WebAssembly SIMD (four f32x4 sums, 64 bytes a step), the
//                  fastest this process can read them; exact dense search should cost ≤ 1.5× that.
//                  The plain JavaScript summing pass (one float a step) is printed beside it: it
//                  is bound by its own instruction count, not by memory (about half the SIMD
//                  pass's speed here), so it understated the ideal.
//   build        ← embedding alone (hash embedder) / copying the vectors (dense)
// What the hash "build" figure includes: fit (document frequencies over every chunk), embedding
// each chunk and adding it to the inverted index, for chunks handed over ready-made. A real run
// also cuts the corpus into 256-token chunks first (harness/models/tokenizer.ts) and, with the embedding
// cache on (the default), hashes each chunk and reads or writes the cache (bench:second-run
// measures that); the chunking rate is printed on its own line, and with the shared datasets
// present the whole build of a real corpus (aws-docs: chunking + fit + embedding + index) too.
// Two synthetic corpora for the hash embedder (see proseText and heavyText):
//   prose  chunks the size treebench cuts (~190 words, 45% function words): ~105 content terms
//          each, more than a 256-token chunk of any shipped corpus (33–87). The headline figure.
//   heavy  the bench's earlier corpus: ~390 terms per chunk (pseudo-words that split into 2–3
//          terms each), a stress case at 10k and 100k chunks only.
// The old implementation (array of Float32Arrays, an object per positive score, full sort) is
// timed beside the new one where its memory allows (its dense copies of hash vectors need
// n × 4 KB), so each figure stands next to the one it replaces.
//
//   npm run bench:search               10k and 100k chunks
//   npm run bench:search -- --large    also 1M chunks (several minutes, ~8 GB free memory)
import { HashEmbedder } from '../harness/models/embedders/hash.ts';
import { l2normalize } from '../harness/models/embedders/vector.ts';
import { mulberry32 } from '../harness/run/random.ts';
import { ValueIndex, type Chunk } from '../harness/retrieval/valueIndex.ts';
import type { Embedder } from '../harness/types.ts';
import { splitByTokens } from '../harness/models/tokenizer.ts';
import { tokenize } from '../harness/text/tokenize.ts';
import { existsSync } from 'node:fs';
import wabtInit from 'wabt';
import { benchArgs } from './lib/args.ts';
import { registerBuiltinStrategies } from '../strategies/registry.ts';

registerBuiltinStrategies();

const args = benchArgs(import.meta.url, {
  large: { type: 'boolean', default: false, help: 'also 1,000,000 chunks (several minutes, ~8 GB of free memory)' },
  sizes: { type: 'string', number: 'positive-integer-list', help: 'corpus sizes in chunks, comma-separated (default: 10000,100000; with --large also 1000000)' },
  queries: { type: 'string', default: '50', number: 'positive-integer', help: 'queries timed per case' },
  dim: { type: 'string', default: '384', number: 'positive-integer', help: 'dimensions of the dense vectors' },
  only: { type: 'string', choices: ['hash', 'dense'], help: 'run that case only' },
});
const only = args.string('only');
const sizes = args.string('sizes') ? args.numbers('sizes') : args.flag('large') ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
const nQueries = args.number('queries');
const denseDim = args.number('dim');
const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const gc = () => (globalThis as { gc?: () => void }).gc?.();

// ---------------------------------------------------------------------------------------------
// Synthetic corpora

/** Inverse-CDF sampler of Zipf(s) ranks 0..n-1 driven by `r`. */
function zipf(n: number, s: number, r: () => number): () => number {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) cdf[i] = total += 1 / Math.pow(i + 1, s);
  return () => {
    const x = r() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Frequent English function words, most frequent first (all stopwords to the hash embedder). */
const FUNCTION_WORDS = (
  'the of and to a in is that for it as with was on be by at this are from or an which not have ' +
  'has but can will its their these more they been other than also into such would each may some ' +
  'when there only after most over should under both were between through'
).split(' ');

/**
 * Prose-like chunks, the size treebench cuts (256 tokens ≈ 190 words of English prose): 160–220
 * words, 45% function words (Zipf over the list above) and the rest content words, Zipf(1.1) over
 * 50,000 letter-only pseudo-words (one term each). ~105 content terms per chunk: heavier than the
 * 256-token chunks of every shipped corpus (aws-docs 74, FinanceBench 87, emanual 33, quickstart
 * 38 terms per chunk), so the build rate here is a conservative figure for real documents.
 */
function proseText(n: number, seed: number): string[] {
  const r = mulberry32(seed);
  const vocab = Array.from({ length: 50_000 }, (_, i) => `q${letters(i)}${'aeiou'[i % 5]}`);
  const content = zipf(vocab.length, 1.1, r);
  const fn = zipf(FUNCTION_WORDS.length, 1, r);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const words: string[] = [];
    const len = 160 + Math.floor(r() * 61);
    for (let k = 0; k < len; k++) words.push(r() < 0.45 ? FUNCTION_WORDS[fn()] : vocab[content()]);
    out.push(words.join(' '));
  }
  return out;
}

/** i in base 26 as the letters a–z. */
function letters(i: number): string {
  let s = '';
  do {
    s = String.fromCharCode(97 + (i % 26)) + s;
    i = Math.floor(i / 26);
  } while (i > 0);
  return s;
}

/**
 * The bench's earlier corpus, kept as a stress case: 120–220 pseudo-words of Zipf(1.1) over
 * 50,000 like "w1k2e", which split into 2–3 terms each (letters and digits apart): ~390 terms and
 * ~490 tokens per chunk, 4.5× the terms of a real 256-token chunk.
 */
function heavyText(n: number, seed: number): string[] {
  const r = mulberry32(seed);
  const vocab = Array.from({ length: 50_000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}`);
  const pick = zipf(vocab.length, 1.1, r);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const words: string[] = [];
    const len = 120 + Math.floor(r() * 100);
    for (let k = 0; k < len; k++) words.push(vocab[pick()]);
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

/** One JavaScript summing pass over the floats (four accumulators). */
function streamOnceJs(data: Float32Array): number {
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

/** The summing pass in WebAssembly SIMD: 4 × f32x4 sums, 64 bytes a step (a tail under 64 bytes is skipped). */
const STREAM_WAT = `(module
  (import "env" "memory" (memory 0))
  (func (export "sum") (param $p i32) (param $end i32) (result f32)
    (local $a v128) (local $b v128) (local $c v128) (local $d v128)
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (local.set $a (f32x4.add (local.get $a) (v128.load (local.get $p))))
      (local.set $b (f32x4.add (local.get $b) (v128.load offset=16 (local.get $p))))
      (local.set $c (f32x4.add (local.get $c) (v128.load offset=32 (local.get $p))))
      (local.set $d (f32x4.add (local.get $d) (v128.load offset=48 (local.get $p))))
      (local.set $p (i32.add (local.get $p) (i32.const 64)))
      (br $next)))
    (f32x4.extract_lane 0 (f32x4.add (f32x4.add (local.get $a) (local.get $b)) (f32x4.add (local.get $c) (local.get $d))))))`;
const wabt = await wabtInit();
const streamModule = new WebAssembly.Module(Uint8Array.from(wabt.parseWat("stream.wat", STREAM_WAT, { simd: true }).toBinary({}).buffer));

/**
 * Median time of one SIMD summing pass over a copy of `data` in WebAssembly memory (the dense
 * index's vectors live in such memory too), after two warm-up passes (the engine compiles hot
 * WebAssembly twice, as it does hot JavaScript). Also the JavaScript pass over `data` itself.
 */
function streamIdeal(data: Float32Array): { simd: number; js: number } {
  const bytes = data.byteLength - (data.byteLength % 64);
  const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) + 1 });
  new Float32Array(memory.buffer, 0, bytes / 4).set(data.subarray(0, bytes / 4));
  const sum = new WebAssembly.Instance(streamModule, { env: { memory } }).exports.sum as (p: number, end: number) => number;
  const simd = () => {
    const t = performance.now();
    if (sum(0, bytes) === 42.4242) console.log('');
    return performance.now() - t;
  };
  simd();
  simd();
  streamOnceJs(data);
  streamOnceJs(data);
  return { simd: median(Array.from({ length: 5 }, simd)), js: median(Array.from({ length: 5 }, () => streamOnceJs(data))) };
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

async function hashCase(n: number, corpus: 'prose' | 'heavy'): Promise<void> {
  const texts = corpus === 'prose' ? proseText(n, 7) : heavyText(n, 7);
  const chunks = chunksOf(texts);
  gc();
  const rss0 = process.memoryUsage().rss;
  const embedder = new HashEmbedder();
  // Ideal: embedding alone (fit + embed into one reused buffer, as the index does), what any index
  // over these vectors must pay.
  const f0 = performance.now();
  embedder.fit(texts);
  const e0 = performance.now();
  const buf = new Float32Array(embedder.dim);
  for (let i = 0; i < Math.min(n, 20_000); i++) embedder.embedInto(texts[i], buf.fill(0), i);
  // The fit covers all n texts; the embedding of the first 20,000 (read back from what the fit
  // kept, as the index does since this round) is scaled to n.
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
  const stream = streamIdeal(scratch(bytes));
  let terms = 0;
  for (let i = 0; i < Math.min(n, 1000); i++) terms += tokenize(texts[i]).length;
  console.log(
    `  hash ${corpus.padEnd(5)} ${String(n).padStart(8)}  build ${Math.round(n / (buildMs / 1000)).toLocaleString('en-US').padStart(8)} chunks/s (fit + embed + index; ${Math.round(terms / Math.min(n, 1000))} terms/chunk; embedding alone ${Math.round(n / (embedMs / 1000)).toLocaleString('en-US')}/s, ratio ${(buildMs / embedMs).toFixed(2)})` +
      `  exact query ${ms(exactMs)} ms (stream of its ${mb(bytes)} postings ${ms(stream.simd)} ms, ratio ${(exactMs / stream.simd).toFixed(2)})  memory ${mb(bytes)} postings, RSS +${mb(rss)}`,
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
  const stream = streamIdeal(m);
  // Printed before the approximate build, which takes minutes at 1M chunks on one thread.
  console.log(
    `  dense  ${String(n).padStart(8)}  dim ${dim}  exact: build ${Math.round(n / (exactBuild / 1000)).toLocaleString('en-US')} chunks/s, query ${ms(exactMs)} ms (stream ${mb(m.byteLength)} once ${ms(stream.simd)} ms, ratio ${(exactMs / stream.simd).toFixed(2)}; JS summing pass ${ms(stream.js)} ms, ratio ${(exactMs / stream.js).toFixed(2)})`,
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

/**
 * Chunking, which a real build does before embedding: the synthetic chunks joined into
 * documents of 50 and cut into 256-token chunks with 32 overlap (harness/models/tokenizer.ts).
 */
function chunkingCase(): void {
  const texts = proseText(5_000, 13);
  const docs = Array.from({ length: texts.length / 50 }, (_, d) => texts.slice(d * 50, d * 50 + 50).join('\n\n'));
  splitByTokens(docs[0], 256, 32); // load the encoder
  const t = performance.now();
  let pieces = 0;
  for (const d of docs) pieces += splitByTokens(d, 256, 32).length;
  const s = (performance.now() - t) / 1000;
  console.log(`  chunking (splitByTokens, 256 tokens, overlap 32): ${Math.round(pieces / s).toLocaleString('en-US')} chunks/s (${pieces.toLocaleString('en-US')} chunks of synthetic text)`);
}

/** The whole build of a real corpus, as a run does it: aws-docs chunked, fitted, embedded, indexed. */
async function realCase(): Promise<void> {
  const path = 'configs/aws-docs.yaml';
  const { loadConfig } = await import('../harness/config/runConfig.ts');
  const { loadBenchmarkData } = await import('../datasets/registry.ts');
  if (!existsSync('../shared/datasets/aws-docs/documents')) {
    console.log('  real corpus: ../shared/datasets/aws-docs absent, skipped');
    return;
  }
  const loaded = loadConfig(path);
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
  let best: { n: number; chunkMs: number; ms: number } | null = null;
  for (let r = 0; r < 3; r++) {
    const index = await ValueIndex.build(data.corpus, new HashEmbedder(), { chunkTokens: 256, overlap: 32, approximate: false });
    const cur = { n: index.stats.chunks, chunkMs: index.stats.chunkMs ?? 0, ms: index.stats.ms };
    if (!best || cur.ms < best.ms) best = cur;
  }
  const { n, chunkMs, ms: total } = best!;
  const chunks = ValueIndex.chunkCorpus(data.corpus, { chunkTokens: 256, overlap: 32 });
  const terms = chunks.slice(0, 1000).reduce((s, c) => s + tokenize(c.text).length, 0) / Math.min(1000, chunks.length);
  const rate = (k: number, t: number) => Math.round(k / (t / 1000)).toLocaleString('en-US');
  console.log(
    `  real corpus (aws-docs, ${n.toLocaleString('en-US')} chunks of 256 tokens, ${Math.round(terms)} terms/chunk; best of 3): whole build ${rate(n, total)} chunks/s = chunking ${rate(n, chunkMs)}/s (${Math.round((100 * chunkMs) / total)}% of it) + fit, embed and index ${rate(n, total - chunkMs)}/s`,
  );
}

console.log(`value search (median of ${nQueries} queries, top 10; ${process.execArgv.includes('--expose-gc') ? '' : 'run with --expose-gc for steadier memory figures; '}sizes ${sizes.join(', ')})`);
if (only !== 'dense') {
  chunkingCase();
  await realCase();
}
for (const n of sizes) {
  if (only !== 'dense') await hashCase(n, 'prose');
  // The heavy corpus at 1M takes minutes more: a stress figure at the smaller sizes only.
  if (only !== 'dense' && n <= 100_000) await hashCase(n, 'heavy');
  if (only !== 'hash') await denseCase(n);
}
console.log('  targets (1M chunks): approximate ≤ 20 ms per query with recall@10 ≥ 0.98; exact ≤ 1.5× one stream of the vectors; hash build ≥ 20,000 chunks/s; ≤ 4 GB');
