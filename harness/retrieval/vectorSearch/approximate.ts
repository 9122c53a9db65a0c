// The approximate index for large dense corpora: an HNSW graph (usearch, a native addon shipped
// prebuilt in its npm package, so `npm ci` compiles nothing) over the same vectors the dense
// store holds. HNSW only proposes candidates: each is re-scored exactly from the dense store and
// the final ranking uses the same (score, chunk order) rule as exact search, so scores are always
// exact and only recall can differ. The graph is built single-threaded in chunk order, which
// makes it (and so every result) the same from run to run.
import { UsageError } from '../../errors.ts';
import type { Index } from 'usearch';
import type { DenseStore } from './stores.ts';
import { TopK } from './topK.ts';

export interface ApproximateOptions {
  /** Neighbours per graph node (HNSW M). */
  connectivity: number;
  /** Candidate list size while inserting (efConstruction). */
  expansionAdd: number;
  /** Candidate list size while searching (ef); raised to the number of candidates asked for. */
  expansionSearch: number;
  /** Candidates fetched per query = max(topK × oversample, minCandidates), then re-scored exactly. */
  oversample: number;
  minCandidates: number;
}

export const DEFAULT_APPROXIMATE: ApproximateOptions = {
  connectivity: 16,
  expansionAdd: 128,
  expansionSearch: 256,
  oversample: 4,
  minCandidates: 64,
};

export class ApproximateIndex {
  private constructor(
    private readonly index: Index,
    private readonly store: DenseStore,
    readonly opts: ApproximateOptions,
  ) {}

  /** Builds the graph over every vector now in `store` (call after store.finish()). */
  static async build(store: DenseStore, opts: ApproximateOptions = DEFAULT_APPROXIMATE): Promise<ApproximateIndex> {
    let usearch: typeof import('usearch');
    try {
      usearch = await import('usearch');
    } catch (err) {
      // An optional dependency (a 26 MB native addon): only corpora large enough for the
      // approximate index need it.
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
        throw new UsageError(`this corpus (${store.size} dense chunks) uses the approximate index, which needs the "usearch" package: npm install usearch@2.25.3, or set index.approximate: false for exact search`);
      }
      throw err;
    }
    const index = new usearch.Index({
      dimensions: store.dim,
      metric: usearch.MetricKind.IP,
      quantization: usearch.ScalarKind.F32,
      connectivity: opts.connectivity,
      expansion_add: opts.expansionAdd,
      expansion_search: opts.expansionSearch,
      multi: false,
    });
    const n = store.size;
    const keys = new BigUint64Array(n);
    for (let i = 0; i < n; i++) keys[i] = BigInt(i);
    // One thread: insertion order (and so the graph) is then the same on every run.
    if (n > 0) index.add(keys, store.matrix, 1);
    return new ApproximateIndex(index, store, opts);
  }

  get size(): number {
    return this.store.size;
  }

  /** Top-k by exact score among the graph's candidates; chunk ids, best first. */
  search(query: Float32Array, topK: number, accept?: (id: number) => boolean): Array<{ id: number; score: number }> {
    const want = Math.min(this.store.size, Math.max(topK * this.opts.oversample, this.opts.minCandidates));
    if (want <= 0) return [];
    const found = this.index.search(query, want, 1);
    const top = new TopK(topK);
    for (let r = 0; r < found.keys.length; r++) {
      const id = Number(found.keys[r]);
      if (id < 0 || id >= this.store.size || (accept && !accept(id))) continue; // padding (-1) or filtered out
      const s = this.store.score(query, id);
      if (s > 0) top.push(s, id);
    }
    return top.sorted();
  }
}
