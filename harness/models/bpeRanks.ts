// A BPE encoder over a binary rank file, so building an encoder costs a file read rather than
// parsing megabytes of JSON into 200,000 strings and a Map (o200k: ~350 ms and most of a
// one-question run's garbage collection with gpt-tokenizer's own tables).
//
// The file (`npm run build` writes it from gpt-tokenizer's vocabulary, bin/build.mjs) holds, as
// little-endian 32-bit words: a header (magic, version, token count N, hash-table size M, byte
// count), N + 1 offsets into the token bytes (by rank; a hole has none), an open-addressing hash
// table of M slots (FNV-1a of a token's bytes → rank + 1, 0 for empty, linear probing), then the
// tokens' bytes. Loading takes typed-array views of it, nothing more.
//
// Encoding is tiktoken's (and gpt-tokenizer's): split the text with the encoding's regex; a piece
// that is a token is that token; otherwise its UTF-8 bytes are merged pairwise, always the pair
// whose concatenation has the lowest rank, until no adjacent pair is a token.
// test/harness/models/tokenizer-ranks.test.ts checks it against gpt-tokenizer, token for token.

const MAGIC = 0x50424254; // "TBBP"
const VERSION = 1;
const HEADER_WORDS = 5;

/** An encoding's vocabulary: rank → the token's text, or its bytes when they are not whole UTF-8. */
export type Vocabulary = ReadonlyArray<string | number[]>;

function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** The binary rank file of `vocabulary` (see the header comment). */
export function rankFileOf(vocabulary: Vocabulary): Uint8Array {
  const n = vocabulary.length;
  const tokens = vocabulary.map((v) => (v === undefined || v === null ? new Uint8Array(0) : typeof v === 'string' ? Buffer.from(v, 'utf8') : Uint8Array.from(v)));
  const byteCount = tokens.reduce((s, t) => s + t.length, 0);
  let m = 1;
  while (m < n * 2) m *= 2;
  const words = HEADER_WORDS + n + 1 + m;
  const out = new Uint8Array(words * 4 + byteCount);
  const w = new Uint32Array(out.buffer, 0, words);
  w.set([MAGIC, VERSION, n, m, byteCount]);
  const offsets = w.subarray(HEADER_WORDS, HEADER_WORDS + n + 1);
  const table = w.subarray(HEADER_WORDS + n + 1);
  const blob = out.subarray(words * 4);
  let at = 0;
  tokens.forEach((t, rank) => {
    offsets[rank] = at;
    blob.set(t, at);
    at += t.length;
    if (t.length === 0) return;
    let slot = fnv1a(t, 0, t.length) & (m - 1);
    while (table[slot] !== 0) slot = (slot + 1) & (m - 1);
    table[slot] = rank + 1;
  });
  offsets[n] = at;
  return out;
}

/** Token bytes and rank lookup over a binary rank file. */
export class RankTable {
  readonly count: number;
  private readonly offsets: Uint32Array;
  private readonly table: Uint32Array;
  private readonly mask: number;
  private readonly blob: Uint8Array;

  constructor(file: Uint8Array) {
    // Typed-array views need 4-byte alignment; a Buffer from a pool may not have it.
    const buf = file.byteOffset % 4 === 0 ? file : Uint8Array.from(file);
    const head = new Uint32Array(buf.buffer, buf.byteOffset, HEADER_WORDS);
    if (head[0] !== MAGIC || head[1] !== VERSION) throw new Error('not a treebench rank file (rebuild with `npm run build`)');
    const n = head[2]!;
    const m = head[3]!;
    const words = HEADER_WORDS + n + 1 + m;
    this.count = n;
    this.offsets = new Uint32Array(buf.buffer, buf.byteOffset + HEADER_WORDS * 4, n + 1);
    this.table = new Uint32Array(buf.buffer, buf.byteOffset + (HEADER_WORDS + n + 1) * 4, m);
    this.mask = m - 1;
    this.blob = new Uint8Array(buf.buffer, buf.byteOffset + words * 4, head[4]!);
  }

  /** The rank of the token whose bytes are bytes[start, end), or -1. */
  rankOf(bytes: Uint8Array, start: number, end: number): number {
    const len = end - start;
    let slot = fnv1a(bytes, start, end) & this.mask;
    for (;;) {
      const r = this.table[slot]!;
      if (r === 0) return -1;
      const rank = r - 1;
      const o = this.offsets[rank]!;
      if (this.offsets[rank + 1]! - o === len) {
        let i = 0;
        while (i < len && this.blob[o + i] === bytes[start + i]) i++;
        if (i === len) return rank;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /** The token's bytes (a view), or undefined for a rank with none. */
  bytesOf(rank: number): Uint8Array | undefined {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.count) return undefined;
    const o = this.offsets[rank]!;
    const e = this.offsets[rank + 1]!;
    return e > o ? this.blob.subarray(o, e) : undefined;
  }

  /** The token's length in UTF-8 bytes (0 for a rank with none). */
  byteLength(rank: number): number {
    return rank >= 0 && rank < this.count ? this.offsets[rank + 1]! - this.offsets[rank]! : 0;
  }
}

const utf8 = new TextEncoder();
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Encodes text as tokens of `ranks`, splitting it with `pattern` (global, unicode) first. */
export function encodeWithRanks(ranks: RankTable, pattern: RegExp, text: string): number[] {
  const out: number[] = [];
  for (const [piece] of text.matchAll(pattern)) {
    const bytes = utf8.encode(piece);
    // A piece that is one token. (A lone surrogate reads as U+FFFD's bytes, which gpt-tokenizer
    // never looks up whole: merged instead, as it does.)
    const whole = !LONE_SURROGATE.test(piece) ? ranks.rankOf(bytes, 0, bytes.length) : -1;
    if (whole >= 0) out.push(whole);
    else mergePairs(ranks, bytes, out);
  }
  return out;
}

/** tiktoken's byte-pair merge of one piece, its tokens appended to `out`. */
function mergePairs(ranks: RankTable, piece: Uint8Array, out: number[]): void {
  const starts: number[] = [];
  const pairRanks: number[] = [];
  const rankAt = (i: number): number => {
    const end = starts[i + 2];
    if (end === undefined) return Infinity;
    const r = ranks.rankOf(piece, starts[i]!, end);
    return r < 0 ? Infinity : r;
  };
  for (let i = 0; i <= piece.length; i++) starts.push(i);
  for (let i = 0; i <= piece.length; i++) pairRanks.push(rankAt(i));
  while (starts.length > 1) {
    let lowest = Infinity;
    let at = -1;
    for (let i = 0; i < pairRanks.length - 1; i++) {
      if (pairRanks[i]! < lowest) {
        lowest = pairRanks[i]!;
        at = i;
      }
    }
    if (at < 0) break;
    starts.splice(at + 1, 1);
    pairRanks.splice(at, 1);
    pairRanks[at] = rankAt(at);
    if (at > 0) pairRanks[at - 1] = rankAt(at - 1);
  }
  for (let i = 0; i < starts.length - 1; i++) {
    const r = ranks.rankOf(piece, starts[i]!, starts[i + 1]!);
    if (r < 0) throw new Error(`byte ${piece[starts[i]!]} is not a token`);
    out.push(r);
  }
}
