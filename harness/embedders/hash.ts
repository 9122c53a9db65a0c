// The offline default embedder: feature-hashed TF-IDF vectors. No model, no network, deterministic.
// Features are stemmed non-stopword unigrams plus adjacent-pair bigrams (lower weight), hashed with
// FNV-1a (+ a murmur finaliser) into `dim` buckets with a sign bit so collisions cancel on average
// instead of piling up. Term weight = (1 + ln tf) · idf; vectors are L2-normalised.
import type { EmbedResult, Embedder } from '../types.ts';
import { isStopword, stem, tokenize, words } from '../text/tokenize.ts';
import { l2normalize } from './vector.ts';

/** FNV-1a over the UTF-16 code units of `s`, as an unsigned 32-bit integer. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Murmur3's 32-bit finaliser: spreads FNV's weak low bits so bucket and sign bits are independent. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export interface HashEmbedderOptions {
  /** Vector size (default 1024). */
  dim?: number;
  /** Weight of bigram features relative to unigrams (default 0.5). */
  bigramWeight?: number;
}

/** Feature string → raw count. Unigrams are `w:<term>`, bigrams `b:<term> <term>`. */
export function hashFeatures(text: string): Map<string, number> {
  const terms = tokenize(text);
  const counts = new Map<string, number>();
  const add = (f: string) => counts.set(f, (counts.get(f) ?? 0) + 1);
  for (let i = 0; i < terms.length; i++) {
    add(`w:${terms[i]}`);
    if (i + 1 < terms.length) add(`b:${terms[i]} ${terms[i + 1]}`);
  }
  return counts;
}

/** Bigram keys start here: key = (first term id + 1) · 2^26 + second term id; unigram key = term id. */
const BIGRAM_BASE = 2 ** 26;
/** Surface words remembered (word → term id); cleared wholesale when full. */
const WORD_CACHE_LIMIT = 500_000;

export class HashEmbedder implements Embedder {
  readonly id = 'hash';
  readonly dim: number;
  private readonly bigramWeight: number;
  // Features are handled as numbers, not strings: each term gets an id on first sight, a unigram's
  // key is its id, a bigram's key is built from the two ids (a bijection with the feature strings
  // of hashFeatures, in the same first-seen order). Each feature's hash and IDF are computed once
  // per fit, not once per occurrence. The vectors are exactly those of the string definition.
  private readonly termIds = new Map<string, number>();
  private readonly termText: string[] = [];
  private readonly wordIds = new Map<string, number>();
  /** Document frequencies by feature key from the last `fit()`; null before any fit (idf = 1 then). */
  private df: Map<number, number> | null = null;
  private fittedDocs = 0;
  /** Per feature key: its signed bucket hash and IDF under the current fit. */
  private info = new Map<number, { h: number; idf: number }>();

  constructor(opts: HashEmbedderOptions = {}) {
    const dim = opts.dim ?? 1024;
    if (!Number.isInteger(dim) || dim < 1) throw new Error(`hash embedder: "dim" must be a positive integer, got ${dim}`);
    const bw = opts.bigramWeight ?? 0.5;
    if (!Number.isFinite(bw) || bw < 0) throw new Error(`hash embedder: "bigramWeight" must be >= 0, got ${bw}`);
    this.dim = dim;
    this.bigramWeight = bw;
  }

  /** Vectors also depend on the fit (IDF); the index adds a fingerprint of the fitted corpus. */
  get cacheKey(): string {
    return `hash/v1 dim=${this.dim} bigramWeight=${this.bigramWeight}`;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termText.length;
      if (id >= BIGRAM_BASE - 1) throw new Error(`hash embedder: more than ${BIGRAM_BASE - 1} distinct terms`);
      this.termIds.set(term, id);
      this.termText.push(term);
    }
    return id;
  }

  /** The feature string of a key (`w:<term>` or `b:<term> <term>`), as hashFeatures names it. */
  private featureString(key: number): string {
    if (key < BIGRAM_BASE) return `w:${this.termText[key]}`;
    const a = Math.floor(key / BIGRAM_BASE) - 1;
    return `b:${this.termText[a]} ${this.termText[key - (a + 1) * BIGRAM_BASE]}`;
  }

  /**
   * Term id of a surface word (what tokenize() would make of it: stopword → -1, else its stem),
   * remembered per word: words repeat (Zipf), stemming them again is most of the work.
   */
  private wordTerm(word: string): number {
    let id = this.wordIds.get(word);
    if (id === undefined) {
      id = isStopword(word) ? -1 : this.termId(stem(word));
      if (this.wordIds.size >= WORD_CACHE_LIMIT) this.wordIds.clear();
      this.wordIds.set(word, id);
    }
    return id;
  }

  /** Feature key → raw count, in hashFeatures' order (the terms of tokenize(text)). */
  private featureCounts(text: string): Map<number, number> {
    const counts = new Map<number, number>();
    let prev = -1;
    for (const word of words(text)) {
      const id = this.wordTerm(word);
      if (id < 0) continue;
      if (prev >= 0) {
        const b = (prev + 1) * BIGRAM_BASE + id;
        counts.set(b, (counts.get(b) ?? 0) + 1);
      }
      counts.set(id, (counts.get(id) ?? 0) + 1);
      prev = id;
    }
    return counts;
  }

  /**
   * Learns document frequencies from `texts` (replacing any earlier fit). Smoothed IDF:
   * ln((N + 1) / (df + 1)) + 1, so unseen features get the highest weight and none gets 0.
   */
  fit(texts: string[]): void {
    const df = new Map<number, number>();
    for (const t of texts) for (const key of this.featureCounts(t).keys()) df.set(key, (df.get(key) ?? 0) + 1);
    this.df = df;
    this.fittedDocs = texts.length;
    this.info = new Map();
  }

  private idfOf(key: number): number {
    if (!this.df) return 1;
    return Math.log((this.fittedDocs + 1) / ((this.df.get(key) ?? 0) + 1)) + 1;
  }

  /** IDF of a feature string under the current fit (1 before any fit). */
  idf(feature: string): number {
    if (!this.df) return 1;
    const key = this.keyOf(feature);
    return key === undefined ? this.idfOf(-1) : this.idfOf(key);
  }

  private keyOf(feature: string): number | undefined {
    const body = feature.slice(2);
    if (feature.startsWith('w:')) return this.termIds.get(body);
    const [a, b] = body.split(' ');
    const ia = this.termIds.get(a);
    const ib = this.termIds.get(b);
    return ia === undefined || ib === undefined ? undefined : (ia + 1) * BIGRAM_BASE + ib;
  }

  /** One unit vector (all zeros for a text without content terms). */
  embedOne(text: string): Float32Array {
    const v = new Float32Array(this.dim);
    for (const [key, count] of this.featureCounts(text)) {
      let f = this.info.get(key);
      if (!f) {
        f = { h: fmix32(fnv1a(this.featureString(key))), idf: this.idfOf(key) };
        this.info.set(key, f);
      }
      const w = (1 + Math.log(count)) * f.idf * (key >= BIGRAM_BASE ? this.bigramWeight : 1);
      if (w === 0) continue;
      v[f.h % this.dim] += f.h & 0x80000000 ? -w : w;
    }
    return l2normalize(v);
  }

  async embed(texts: string[]): Promise<EmbedResult> {
    return { vectors: texts.map((t) => this.embedOne(t)) };
  }
}
