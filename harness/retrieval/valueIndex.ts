// The run's shared chunk index for value search: every node's own text (for paged sources, the
// pages no child covers) is cut into token-bounded chunks, each chunk remembers the (deepest)
// node it came from, so no text is indexed twice, and the whole
// corpus is embedded once per run. Strategies query it through ctx.valueSearch.
//
// Vectors live in one of two layouts (harness/retrieval/vectorSearch/stores.ts), chosen from the vectors:
// an inverted index when they are mostly zeros (the hash embedder), else one contiguous
// Float32Array. Exact search keeps a bounded top-k, never an object per scored chunk. Above
// `approximate.minChunks` dense vectors also get an HNSW graph (vectorSearch/approximate.ts)
// that proposes candidates, re-scored exactly. Chunk vectors come from the on-disk embedding
// cache when the same embedder has embedded the same text before (harness/models/embeddingCache.ts).
import { createHash } from 'node:crypto';
import type { Corpus, Embedder } from '../types.ts';
import type { ChunkHit } from '../strategy/context.ts';
import { indexDoc, ownText } from '../trees/tree.ts';
import { countTokens, splitByTokens } from '../models/tokenizer.ts';
import { EmbeddingCache, textHash } from '../models/embeddingCache.ts';
import { DenseStore, inRanges, SparseStore, type Ranges, type VectorStore } from './vectorSearch/stores.ts';
import { TopK } from './vectorSearch/topK.ts';
import { ApproximateIndex, DEFAULT_APPROXIMATE, type ApproximateOptions } from './vectorSearch/approximate.ts';

export interface Chunk {
  docId: string;
  nodeId: string;
  chunkId: number;
  text: string;
}

export interface IndexStats {
  chunks: number;
  embedCalls: number;
  inputTokens: number;
  ms: number;
  /** Chunks whose vectors came from the embedding cache. */
  cachedChunks?: number;
  /** True when the server reported no usage for some embedding call and its tokens were counted with a tokenizer. */
  estimated?: boolean;
  /** Dollars for the embedding calls (the runner prices them; not in any question's cost). */
  costUsd?: number;
  /** False when the embedder has no price (the cost is unknown, not $0). */
  priced?: boolean;
  /** Time spent cutting the corpus into chunks (part of ms). */
  chunkMs?: number;
  layout?: 'dense' | 'sparse';
  /** True when an approximate (HNSW) index answers unfiltered queries. */
  approximate?: boolean;
  /** Bytes held by vectors and postings (excluding the approximate graph). */
  vectorBytes?: number;
}

export interface ApproximateSettings extends Partial<ApproximateOptions> {
  /** Dense corpora with at least this many chunks get the approximate index. */
  minChunks: number;
}

export const DEFAULT_APPROXIMATE_MIN_CHUNKS = 50_000;

export interface BuildOptions {
  chunkTokens: number;
  overlap: number;
  onProgress?: (done: number, total: number) => void;
  /** Reports documents cut into chunks, before any is embedded (a large corpus takes seconds). */
  onChunking?: (doneDocs: number, totalDocs: number) => void;
  /** Embedding cache root (e.g. `.treebench/embeddings`); off when absent. */
  cacheDir?: string;
  /** Approximate index settings; false = always exact. Default: minChunks 50 000. */
  approximate?: ApproximateSettings | false;
  /**
   * Under `cache.mode: replay` with a remote embedder: the vectors must all come from the cache.
   * Called with the number of chunks that would need an embedding request; what it returns is thrown.
   */
  refuseEmbedCalls?: (missingChunks: number) => Error;
}

const EMBED_BATCH = 128;
const HASH_BYTES = 32;
const EMPTY = Buffer.alloc(0);

export class ValueIndex {
  private constructor(
    readonly chunks: Chunk[],
    private readonly store: VectorStore,
    private readonly docRanges: Map<string, number[]>,
    private readonly ann: ApproximateIndex | null,
    private readonly annMinChunks: number,
    readonly stats: IndexStats,
  ) {}

  /** Chunks of the corpus, in index order. */
  static chunkCorpus(corpus: Corpus, opts: { chunkTokens: number; overlap: number; onChunking?: (doneDocs: number, totalDocs: number) => void }): Chunk[] {
    const chunks: Chunk[] = [];
    let done = 0;
    for (const doc of corpus.docs) {
      for (const node of indexDoc(doc).order) {
        const text = ownText(doc, node);
        if (!text.trim()) continue;
        for (const piece of splitByTokens(text, opts.chunkTokens, Math.min(opts.overlap, opts.chunkTokens - 1))) {
          if (piece.trim()) chunks.push({ docId: doc.docId, nodeId: node.id, chunkId: chunks.length, text: piece });
        }
      }
      opts.onChunking?.(++done, corpus.docs.length);
    }
    return chunks;
  }

  /** Chunks and embeds the corpus. `onProgress` reports embedded chunks (for long corpora). */
  static async build(corpus: Corpus, embedder: Embedder, opts: BuildOptions): Promise<ValueIndex> {
    const started = performance.now();
    const chunks = ValueIndex.chunkCorpus(corpus, opts);
    const chunkMs = performance.now() - started;
    return ValueIndex.fromChunks(chunks, embedder, opts, { started, chunkMs });
  }

  /** Embeds and indexes ready-made chunks (chunkId must equal the position). */
  static async fromChunks(
    chunks: Chunk[],
    embedder: Embedder,
    opts: Omit<BuildOptions, 'chunkTokens' | 'overlap'>,
    timing: { started: number; chunkMs: number } = { started: performance.now(), chunkMs: 0 },
  ): Promise<ValueIndex> {
    const texts = chunks.map((c) => c.text);
    let cache: EmbeddingCache | null = null;
    let store: VectorStore | null = null;
    // A local embedder that can write into a buffer embeds each chunk as it is added: one buffer
    // for the whole corpus (the store and the cache copy what they keep).
    const into = embedder.embedInto?.bind(embedder);
    const scratch = into ? new Float32Array(embedder.dim) : null;
    let embedCalls = 0;
    let inputTokens = 0;
    let cachedChunks = 0;
    let estimated = false;
    // From the fit on, whatever fails (the cache that cannot be opened, an embedding call) still
    // releases what the fit kept (the hash embedder's per-text counts: up to 1 GiB).
    try {
      embedder.fit?.(texts);
      // Before any text is embedded (which drops what the fit kept of it).
      const bound = embedder.nonZeroBound?.() ?? null;
      // The chunk texts' SHA-256 hashes, 32 bytes each, in one buffer (not a Buffer per chunk).
      let hashes = EMPTY;
      if (opts.cacheDir && embedder.cacheKey) {
        hashes = Buffer.allocUnsafeSlow(HASH_BYTES * texts.length);
        for (let k = 0; k < texts.length; k++) textHash(texts[k]!).copy(hashes, HASH_BYTES * k);
        let key = embedder.cacheKey;
        // A fitted embedder's vectors depend on the whole corpus (IDF): key on its fingerprint too
        // (the hash of the chunk hashes one after another).
        if (embedder.fit) key += ` corpus=${createHash('sha256').update(hashes).digest('hex')}`;
        cache = EmbeddingCache.open(opts.cacheDir, key);
      }
      const hashOf = (k: number) => hashes.subarray(HASH_BYTES * k, HASH_BYTES * (k + 1));
      for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
        const end = Math.min(chunks.length, i + EMBED_BATCH);
        const batch: Array<Float32Array | undefined> = [];
        const missing: number[] = [];
        for (let k = i; k < end; k++) {
          const v = cache?.get(hashOf(k));
          if (!v) missing.push(k);
          batch.push(v);
        }
        cachedChunks += end - i - missing.length;
        if (missing.length && !into && opts.refuseEmbedCalls) {
          let more = 0;
          for (let k = end; k < chunks.length; k++) if (!cache?.has(hashOf(k))) more++;
          throw opts.refuseEmbedCalls(missing.length + more);
        }
        if (missing.length && into) embedCalls++;
        else if (missing.length) {
          const sent = missing.map((k) => texts[k]!);
          const res = await embedder.embed(sent);
          embedCalls++;
          // A server that reports no usage still read the tokens: count them, as ctx.embed does.
          if (res.usage) inputTokens += res.usage.inputTokens;
          else {
            inputTokens += sent.reduce((n, t) => n + countTokens(t, embedder.id), 0);
            estimated = true;
          }
          missing.forEach((k, m) => {
            batch[k - i] = res.vectors[m];
            cache?.put(hashOf(k), res.vectors[m]);
          });
        }
        for (let k = i; k < end; k++) {
          let v = batch[k - i];
          if (!v) {
            scratch!.fill(0);
            v = into!(texts[k], scratch!, k); // texts[k] is the fit's k-th text
            cache?.put(hashOf(k), v);
          }
          store ??= chooseStore(v, chunks.length, bound);
          store.add(v);
        }
        opts.onProgress?.(end, chunks.length);
      }
    } finally {
      cache?.close();
      embedder.releaseFit?.();
    }
    store ??= new DenseStore(Math.max(1, embedder.dim), 0);
    store.finish();

    const approx = opts.approximate === false ? null : { minChunks: DEFAULT_APPROXIMATE_MIN_CHUNKS, ...opts.approximate };
    const ann =
      approx && store instanceof DenseStore && store.size >= approx.minChunks
        ? await ApproximateIndex.build(store, { ...DEFAULT_APPROXIMATE, ...stripUndefined(approx) })
        : null;

    const docRanges = new Map<string, number[]>();
    for (const c of chunks) {
      const r = docRanges.get(c.docId);
      if (r && r[r.length - 1] === c.chunkId) r[r.length - 1] = c.chunkId + 1;
      else if (r) r.push(c.chunkId, c.chunkId + 1);
      else docRanges.set(c.docId, [c.chunkId, c.chunkId + 1]);
    }
    const stats: IndexStats = {
      chunks: chunks.length,
      embedCalls,
      inputTokens,
      ms: performance.now() - timing.started,
      cachedChunks,
      ...(estimated ? { estimated } : {}),
      chunkMs: timing.chunkMs,
      layout: store.kind,
      approximate: ann !== null,
      vectorBytes: store.bytes,
    };
    return new ValueIndex(chunks, store, docRanges, ann, approx ? approx.minChunks : Infinity, stats);
  }

  /** Cosine top-k of a (normalised) query vector, optionally within some documents. */
  search(query: Float32Array, opts: { topK: number; docIds?: string[]; exact?: boolean }): ChunkHit[] {
    const ranges = opts.docIds ? this.rangesOf(opts.docIds) : null;
    const topK = Math.max(0, Math.floor(opts.topK));
    let ranked: Array<{ id: number; score: number }> | null = null;
    const candidates = ranges ? countIn(ranges) : this.store.size;
    if (this.ann && !opts.exact && candidates >= this.annMinChunks && topK > 0) {
      ranked = this.ann.search(query, topK, ranges ? (id) => inRanges(ranges, id) : undefined);
      // Too few left after the document filter: the graph's neighbourhood missed them; be exact.
      if (ranges && ranked.length < topK) ranked = null;
    }
    if (!ranked) {
      const top = new TopK(topK);
      this.store.searchExact(query, top, ranges);
      ranked = top.sorted();
    }
    return ranked.map(({ id, score }) => ({ ...this.chunks[id], score }));
  }

  /** Sorted, merged chunk ranges of some documents (unknown ids match nothing). */
  private rangesOf(docIds: string[]): Int32Array {
    const pairs: Array<[number, number]> = [];
    for (const id of new Set(docIds)) {
      const r = this.docRanges.get(id);
      if (r) for (let k = 0; k < r.length; k += 2) pairs.push([r[k], r[k + 1]]);
    }
    pairs.sort((a, b) => a[0] - b[0]);
    const out: number[] = [];
    for (const [s, e] of pairs) {
      if (out.length && out[out.length - 1] >= s) out[out.length - 1] = Math.max(out[out.length - 1], e);
      else out.push(s, e);
    }
    return Int32Array.from(out);
  }
}

/**
 * Sparse layout when at most half of the first vector's entries are non-zero; its posting lists
 * sized up front when the embedder bounds each dimension's non-zeros (the hash embedder, from its fit).
 */
function chooseStore(first: Float32Array, capacity: number, bound: Int32Array | null): VectorStore {
  let nnz = 0;
  for (let j = 0; j < first.length; j++) if (first[j] !== 0) nnz++;
  return nnz * 2 <= first.length ? new SparseStore(first.length, bound) : new DenseStore(first.length, capacity);
}

function countIn(ranges: Ranges): number {
  let n = 0;
  if (ranges) for (let k = 0; k < ranges.length; k += 2) n += ranges[k + 1] - ranges[k];
  return n;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
