// Where the chunk vectors of a value index live, and the exact search over them.
//
// Two layouts, chosen from the vectors themselves (not from the embedder's name):
//  - DenseStore: one contiguous Float32Array of n × dim (no per-vector objects for the GC to walk),
//    in WebAssembly memory where it fits, so the SIMD kernel of denseKernel.ts can scan it.
//  - SparseStore: an inverted index, one posting list (chunk ids + weights) per dimension. Feature-
//    hashed vectors (the hash embedder) are mostly zeros and a query has only a few non-zero
//    dimensions, so a query touches a small share of the postings instead of n × dim floats.
//
// The sparse store computes every score exactly as the old full scan did: the sum, in ascending
// dimension order, of float32 × float32 products accumulated in a double. Terms where either side
// is zero add ±0 and change nothing, so skipping them gives bit-identical scores and identical
// rankings (the shipped configs all use the hash embedder, hence this layout). The dense scan
// sums in eight interleaved partial sums for speed: the same products in double precision, added
// in another order, so a score may differ from a plain loop's in its last bits (about 1e-16); the
// SIMD kernel and the JavaScript dot8 form those same sums bit for bit.
import { TopK } from './topK.ts';
import { BLOCK_ROWS, WasmMatrix } from './denseKernel.ts';

/** Half-open chunk-id ranges [start, end), sorted and disjoint; null = every chunk. */
export type Ranges = Int32Array | null;

export interface VectorStore {
  readonly kind: 'dense' | 'sparse';
  readonly dim: number;
  readonly size: number;
  /** Bytes held by the vectors (and postings). */
  readonly bytes: number;
  /** Appends the next chunk's vector (chunk ids are assigned in call order). */
  add(v: Float32Array): void;
  /**
   * Called once every vector is in: trims spare capacity (dense) or lays the postings out
   * (sparse, which then takes no more add() and which its searches finish if the caller did not).
   */
  finish(): void;
  /** Feeds every chunk within `ranges` with a score > 0 into `top`. */
  searchExact(query: Float32Array, top: TopK, ranges: Ranges): void;
  /** Exact score of one chunk. */
  score(query: Float32Array, id: number): number;
}

export function inRanges(ranges: Int32Array, id: number): boolean {
  // Binary search over the range starts; ranges are few (one per selected document) so this is cheap.
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (id < ranges[2 * mid]) hi = mid - 1;
    else if (id >= ranges[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

export class DenseStore implements VectorStore {
  readonly kind = 'dense';
  private data: Float32Array;
  /** The vectors in WebAssembly memory, scanned by the SIMD kernel; null = a plain array, scanned in JS. */
  private wasm: WasmMatrix | null;
  size = 0;

  constructor(
    readonly dim: number,
    capacity: number,
    opts: { simd?: boolean } = {},
  ) {
    this.wasm = opts.simd === false ? null : WasmMatrix.create(dim, Math.max(1, capacity));
    this.data = this.wasm ? this.wasm.data : new Float32Array(Math.max(1, capacity) * dim);
  }

  /** Which scan answers queries: the WebAssembly SIMD kernel or the JavaScript loop (same scores). */
  get scanner(): 'simd' | 'js' {
    return this.wasm ? 'simd' : 'js';
  }

  get bytes(): number {
    return this.wasm ? this.wasm.bytes : this.data.byteLength;
  }

  /** The contiguous vectors (n × dim), for building an approximate index over them. */
  get matrix(): Float32Array {
    return this.data.subarray(0, this.size * this.dim);
  }

  add(v: Float32Array): void {
    if (v.length !== this.dim) throw new Error(`vector dimensions differ: ${v.length} vs ${this.dim}`);
    if ((this.size + 1) * this.dim > this.data.length) {
      const rows = 2 * Math.max(1, this.data.length / this.dim);
      if (this.wasm?.grow(rows)) this.data = this.wasm.data;
      else {
        // A plain array (also when WebAssembly memory cannot grow that far: the JS scan takes over).
        const grown = new Float32Array(rows * this.dim);
        grown.set(this.data);
        this.data = grown;
        this.wasm = null;
      }
    }
    this.data.set(v, this.size * this.dim);
    this.size++;
  }

  finish(): void {
    // WebAssembly memory cannot shrink (and the index allocates the exact number of rows up front).
    if (!this.wasm && this.data.length > this.size * this.dim) this.data = this.data.slice(0, Math.max(1, this.size) * this.dim);
  }

  /** The query widened to float64 (same values): the hot loop then converts only the chunk side. */
  private q64 = new Float64Array(0);

  private widen(query: Float32Array): Float64Array {
    if (this.q64.length !== query.length) this.q64 = new Float64Array(query.length);
    this.q64.set(query);
    return this.q64;
  }

  score(query: Float32Array, id: number): number {
    return dot8(this.data, id * this.dim, this.widen(query), this.dim);
  }

  searchExact(query: Float32Array, top: TopK, ranges: Ranges): void {
    if (this.size === 0) return; // an empty index (its dimension may not even be known)
    if (query.length !== this.dim) throw new Error(`vector dimensions differ: ${query.length} vs ${this.dim}`);
    const q = this.widen(query);
    const scan = this.wasm ? this.scanSimd : this.scan;
    if (!ranges) return scan.call(this, q, top, 0, this.size);
    for (let r = 0; r < ranges.length; r += 2) scan.call(this, q, top, ranges[r], Math.min(ranges[r + 1], this.size));
  }

  /** The scan with the SIMD kernel: scores of BLOCK_ROWS rows at a time, then the same top-k feed. */
  private scanSimd(query: Float64Array, top: TopK, from: number, to: number): void {
    const m = this.wasm!;
    m.query.set(query);
    const scores = m.scores;
    let threshold = top.threshold;
    for (let i = from; i < to; i += BLOCK_ROWS) {
      const rows = Math.min(BLOCK_ROWS, to - i);
      m.score(i, rows);
      for (let r = 0; r < rows; r++) {
        const dot = scores[r];
        if (dot > 0 && dot >= threshold) {
          top.push(dot, i + r);
          threshold = top.threshold;
        }
      }
    }
  }

  private scan(query: Float64Array, top: TopK, from: number, to: number): void {
    const { data, dim } = this;
    // The heap is touched only by a score that beats its current k-th (TopK.push re-checks ties).
    let threshold = top.threshold;
    for (let i = from; i < to; i++) {
      const dot = dot8(data, i * dim, query, dim);
      if (dot > 0 && dot >= threshold) {
        top.push(dot, i);
        threshold = top.threshold;
      }
    }
  }
}

/**
 * Dot product of data[o .. o+dim) with the query, in eight partial sums: sum k takes the elements
 * j ≡ k (mod 8) in order, the dim % 8 elements past the last full eight go into sum 0, and the
 * result is ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)). A running sum is bound by the
 * latency of each add; eight independent ones let the SIMD kernel (denseDot.wat, which forms the
 * same sums bit for bit) run within 1.5× of one pass over the vectors (figures in denseDot.wat).
 * Every dense score (scan and re-scoring) goes through this arithmetic, so the same chunk always
 * gets the same score. The query is float64 (the float32 values widened), so the products are
 * exactly those of float32 × float32 in double precision.
 */
function dot8(data: Float32Array, o: number, query: Float64Array, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let s5 = 0;
  let s6 = 0;
  let s7 = 0;
  let j = 0;
  const end8 = dim - (dim % 8);
  for (; j < end8; j += 8) {
    const p = o + j;
    s0 += data[p] * query[j];
    s1 += data[p + 1] * query[j + 1];
    s2 += data[p + 2] * query[j + 2];
    s3 += data[p + 3] * query[j + 3];
    s4 += data[p + 4] * query[j + 4];
    s5 += data[p + 5] * query[j + 5];
    s6 += data[p + 6] * query[j + 6];
    s7 += data[p + 7] * query[j + 7];
  }
  for (; j < dim; j++) s0 += data[o + j] * query[j];
  return s0 + s1 + (s2 + s3) + (s4 + s5 + (s6 + s7));
}

export class SparseStore implements VectorStore {
  readonly kind = 'sparse';
  size = 0;
  // One posting list per dimension (chunk ids ascending, their weights), each allocated at its
  // exact size, once (one array per list: no limit on the total beyond memory). Two ways there:
  //  - Given a bound of each dimension's non-zeros (the hash embedder knows, from its fit, which
  //    buckets each text's features fall in), the lists are allocated at that size up front and
  //    add() writes each entry straight into its list; finish() trims a list whose bound was
  //    above its count (features that cancelled out), and grows one that runs out (a wrong bound
  //    costs copies, never a wrong result). Nothing is held beside the lists while building.
  //  - Without one, add() appends each vector's non-zero entries to a log (dimension and weight,
  //    in blocks) and counts them per dimension, and finish() lays the log out into the lists: no
  //    list grows and copies itself, so the garbage collector sees a few large blocks and then one
  //    exact-size array per list (at a million chunks, thousands of doubling lists meant dozens of
  //    full collections). The log (6 bytes an entry) is held beside the lists (8) until then.
  private ids: Int32Array[] = [];
  private vals: Float32Array[] = [];
  private readonly lens: Int32Array;
  private log: PostingLog | null = null;
  /** True once finish() has run: no more add(). */
  private finished = false;
  // Per-query scratch, reused: accumulators, an epoch mark per chunk, the list of touched chunks.
  private acc = new Float64Array(0);
  private mark = new Uint32Array(0);
  private touched = new Int32Array(0);
  private epoch = 0;

  /** `bound`: per dimension, at most how many of the vectors to come are non-zero there (optional). */
  constructor(
    readonly dim: number,
    bound?: Int32Array | null,
  ) {
    this.lens = new Int32Array(dim);
    if (bound && bound.length === dim) {
      for (let j = 0; j < dim; j++) {
        this.ids.push(new Int32Array(bound[j]));
        this.vals.push(new Float32Array(bound[j]));
      }
    } else this.log = new PostingLog(dim);
  }

  get bytes(): number {
    let n = this.lens.byteLength + (this.log?.bytes ?? 0);
    for (let j = 0; j < this.ids.length; j++) n += this.ids[j].byteLength + this.vals[j].byteLength;
    return n + this.acc.byteLength + this.mark.byteLength + this.touched.byteLength;
  }

  /** Non-zero weights stored. */
  get nonZeros(): number {
    let n = 0;
    for (let j = 0; j < this.dim; j++) n += this.lens[j];
    return n;
  }

  add(v: Float32Array): void {
    if (v.length !== this.dim) throw new Error(`vector dimensions differ: ${v.length} vs ${this.dim}`);
    if (this.finished) throw new Error('sparse store: add() after finish()');
    if (this.log) this.log.add(v, this.lens);
    else {
      const { ids, vals, lens } = this;
      const row = this.size;
      for (let j = 0; j < v.length; j++) {
        const x = v[j];
        if (x === 0) continue;
        const n = lens[j];
        if (n === ids[j].length) this.growList(j);
        ids[j][n] = row;
        vals[j][n] = x;
        lens[j] = n + 1;
      }
    }
    this.size++;
  }

  /** A list that outgrew its bound: twice the room. */
  private growList(j: number): void {
    const room = Math.max(16, 2 * this.ids[j].length);
    const ids = new Int32Array(room);
    ids.set(this.ids[j]);
    const vals = new Float32Array(room);
    vals.set(this.vals[j]);
    this.ids[j] = ids;
    this.vals[j] = vals;
  }

  /** Lays the postings out as one exact-size list per dimension (idempotent; searching calls it). */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    const log = this.log;
    if (!log) {
      for (let j = 0; j < this.dim; j++) {
        if (this.ids[j].length === this.lens[j]) continue;
        this.ids[j] = this.ids[j].slice(0, this.lens[j]);
        this.vals[j] = this.vals[j].slice(0, this.lens[j]);
      }
      return;
    }
    this.log = null;
    for (let j = 0; j < this.dim; j++) {
      this.ids.push(new Int32Array(this.lens[j]));
      this.vals.push(new Float32Array(this.lens[j]));
    }
    log.scatter(this.ids, this.vals);
  }

  score(query: Float32Array, id: number): number {
    this.finish();
    let dot = 0;
    for (let j = 0; j < this.dim; j++) {
      const q = query[j];
      if (q === 0) continue;
      const ids = this.ids[j];
      const len = this.lens[j];
      const k = lowerBound(ids, len, id);
      if (k < len && ids[k] === id) dot += this.vals[j][k] * q;
    }
    return dot;
  }

  searchExact(query: Float32Array, top: TopK, ranges: Ranges): void {
    if (this.size === 0) return; // an empty index (its dimension may not even be known)
    this.finish();
    if (query.length !== this.dim) throw new Error(`vector dimensions differ: ${query.length} vs ${this.dim}`);
    if (this.acc.length < this.size) {
      this.acc = new Float64Array(this.size);
      this.mark = new Uint32Array(this.size);
      this.touched = new Int32Array(this.size);
      this.epoch = 0;
    }
    const { acc, mark, touched } = this;
    if (++this.epoch === 0xffffffff) {
      mark.fill(0);
      this.epoch = 1;
    }
    const epoch = this.epoch;
    let t = 0;
    // Ascending dimension order: each chunk's sum is formed in the same order as a dense scan.
    // With a document filter, only the postings inside the selected chunk ranges are visited
    // (posting ids ascend, so each range is one binary search and a run), not every posting.
    const spans = ranges ?? ALL;
    for (let j = 0; j < this.dim; j++) {
      const q = query[j];
      if (q === 0) continue;
      const ids = this.ids[j];
      const vals = this.vals[j];
      const len = this.lens[j];
      for (let r = 0; r < spans.length; r += 2) {
        const end = spans[r + 1];
        for (let k = spans[r] === 0 ? 0 : lowerBound(ids, len, spans[r]); k < len; k++) {
          const i = ids[k];
          if (i >= end) break;
          if (mark[i] !== epoch) {
            mark[i] = epoch;
            acc[i] = 0;
            touched[t++] = i;
          }
          acc[i] += vals[k] * q;
        }
      }
    }
    for (let k = 0; k < t; k++) {
      const i = touched[k];
      const s = acc[i];
      if (s > 0 && s >= top.threshold) top.push(s, i);
    }
  }
}

/**
 * The non-zero entries of the vectors added to a sparse store, in order: per vector its count of
 * entries, and per entry its dimension and weight, in blocks (up to LOG_BLOCK entries) that no
 * vector straddles.
 */
class PostingLog {
  private readonly dimBlocks: Array<Uint16Array | Int32Array> = [];
  private readonly valBlocks: Float32Array[] = [];
  /** Per block, the entries written to it. */
  private readonly blockUsed: number[] = [];
  private dims: Uint16Array | Int32Array = new Uint16Array(0);
  private vals = new Float32Array(0);
  private used = 0;
  private rowLens = new Int32Array(1024);
  private rows = 0;

  constructor(private readonly dim: number) {}

  get bytes(): number {
    let n = this.rowLens.byteLength;
    for (let b = 0; b < this.dimBlocks.length; b++) n += this.dimBlocks[b].byteLength + this.valBlocks[b].byteLength;
    return n;
  }

  /** Logs the non-zero entries of `v` and counts them into `lens` by dimension. */
  add(v: Float32Array, lens: Int32Array): void {
    if (this.rows === this.rowLens.length) {
      const grown = new Int32Array(2 * this.rows);
      grown.set(this.rowLens);
      this.rowLens = grown;
    }
    if (this.used + v.length > this.dims.length) this.newBlock();
    const { dims, vals } = this;
    const start = this.used;
    let used = start;
    // Every entry is written and the end advances only past non-zero ones: no branch on the
    // value, which would mispredict every few entries of a sparse vector.
    for (let j = 0; j < v.length; j++) {
      const x = v[j];
      dims[used] = j;
      vals[used] = x;
      used += x !== 0 ? 1 : 0;
    }
    for (let e = start; e < used; e++) lens[dims[e]]++;
    this.used = used;
    this.blockUsed[this.blockUsed.length - 1] = used;
    this.rowLens[this.rows++] = used - start;
  }

  private newBlock(): void {
    // Blocks start small (room for a few vectors, not the 96–128 MB of a full block) and double
    // up to LOG_BLOCK; a block always has room for one whole vector.
    const first = Math.max(65_536, 4 * this.dim);
    const size = Math.max(Math.min(LOG_BLOCK, first * 2 ** Math.min(this.dimBlocks.length, 20)), this.dim);
    this.dims = this.dim <= 0x10000 ? new Uint16Array(size) : new Int32Array(size);
    this.vals = new Float32Array(size);
    this.used = 0;
    this.dimBlocks.push(this.dims);
    this.valBlocks.push(this.vals);
    this.blockUsed.push(0);
  }

  /** Writes every entry into its dimension's list, in order, dropping each block once read. */
  scatter(ids: Int32Array[], weights: Float32Array[]): void {
    const next = new Int32Array(this.dim); // where list j's next entry goes
    let b = -1;
    let dims: Uint16Array | Int32Array = new Uint16Array(0);
    let vals: Float32Array = new Float32Array(0);
    let k = 0;
    let end = 0;
    for (let row = 0; row < this.rows; row++) {
      const len = this.rowLens[row];
      if (k + len > end) {
        // This vector is in the next block: let the one read go.
        if (b >= 0) {
          this.dimBlocks[b] = new Uint16Array(0);
          this.valBlocks[b] = new Float32Array(0);
        }
        b++;
        dims = this.dimBlocks[b];
        vals = this.valBlocks[b];
        end = this.blockUsed[b];
        k = 0;
      }
      for (let e = 0; e < len; e++) {
        const j = dims[k];
        const at = next[j]++;
        ids[j][at] = row;
        weights[j][at] = vals[k++];
      }
    }
  }
}

/**
 * Entries per PostingLog block, at most (16M: 32–64 MB of dimensions and 64 MB of weights), sizes
 * the C allocator always maps on their own and returns to the system when freed.
 */
const LOG_BLOCK = 1 << 24;

/** One range covering every chunk id (no document filter). */
const ALL = new Int32Array([0, 0x7fffffff]);

function lowerBound(a: Int32Array, len: number, x: number): number {
  let lo = 0;
  let hi = len;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
