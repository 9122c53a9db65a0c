// The run's shared chunk index for value search: every node's own text (for paged sources, the
// pages no child covers) is cut into token-bounded chunks, each chunk remembers the (deepest)
// node it came from, so no text is indexed twice, and the whole
// corpus is embedded once per run. Strategies query it through ctx.valueSearch.
import type { Corpus, Embedder } from './types.ts';
import type { ChunkHit } from '../strategies/types.ts';
import { indexDoc, ownText } from '../strategies/shared/tree.ts';
import { splitByTokens } from './tokenizer.ts';

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
}

const EMBED_BATCH = 128;

export class ValueIndex {
  private constructor(
    readonly chunks: Chunk[],
    private readonly vectors: Float32Array[],
    readonly stats: IndexStats,
  ) {}

  /** Chunks and embeds the corpus. `onProgress` reports embedded chunks (for long corpora). */
  static async build(
    corpus: Corpus,
    embedder: Embedder,
    opts: { chunkTokens: number; overlap: number; onProgress?: (done: number, total: number) => void },
  ): Promise<ValueIndex> {
    const started = performance.now();
    const chunks: Chunk[] = [];
    for (const doc of corpus.docs) {
      for (const node of indexDoc(doc).order) {
        const text = ownText(doc, node);
        if (!text.trim()) continue;
        for (const piece of splitByTokens(text, opts.chunkTokens, Math.min(opts.overlap, opts.chunkTokens - 1))) {
          if (piece.trim()) chunks.push({ docId: doc.docId, nodeId: node.id, chunkId: chunks.length, text: piece });
        }
      }
    }
    embedder.fit?.(chunks.map((c) => c.text));
    const vectors: Float32Array[] = [];
    let embedCalls = 0;
    let inputTokens = 0;
    for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
      const res = await embedder.embed(chunks.slice(i, i + EMBED_BATCH).map((c) => c.text));
      vectors.push(...res.vectors);
      embedCalls++;
      inputTokens += res.usage?.inputTokens ?? 0;
      opts.onProgress?.(vectors.length, chunks.length);
    }
    return new ValueIndex(chunks, vectors, { chunks: chunks.length, embedCalls, inputTokens, ms: performance.now() - started });
  }

  /** Cosine top-k of a (normalised) query vector, optionally within some documents. */
  search(query: Float32Array, opts: { topK: number; docIds?: string[] }): ChunkHit[] {
    const allowed = opts.docIds ? new Set(opts.docIds) : null;
    const scored: ChunkHit[] = [];
    for (let i = 0; i < this.chunks.length; i++) {
      const c = this.chunks[i];
      if (allowed && !allowed.has(c.docId)) continue;
      const v = this.vectors[i];
      let dot = 0;
      for (let j = 0; j < v.length; j++) dot += v[j] * query[j];
      if (dot > 0) scored.push({ ...c, score: dot });
    }
    // Ties broken by chunk order so the same query always gives the same ranking.
    scored.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
    return scored.slice(0, opts.topK);
  }
}
