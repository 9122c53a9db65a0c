// The offline default embedder: feature-hashed TF-IDF vectors. No model, no network, deterministic.
// Features are stemmed non-stopword unigrams plus adjacent-pair bigrams (lower weight), hashed with
// FNV-1a (+ a murmur finaliser) into `dim` buckets with a sign bit so collisions cancel on average
// instead of piling up. Term weight = (1 + ln tf) · idf; vectors are L2-normalised.
import type { EmbedResult, Embedder } from '../types.ts';
import { tokenize } from '../text/tokenize.ts';
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

export class HashEmbedder implements Embedder {
  readonly id = 'hash';
  readonly dim: number;
  private readonly bigramWeight: number;
  /** Document frequencies from the last `fit()`; null before any fit (idf = 1 then). */
  private df: Map<string, number> | null = null;
  private fittedDocs = 0;

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

  /**
   * Learns document frequencies from `texts` (replacing any earlier fit). Smoothed IDF:
   * ln((N + 1) / (df + 1)) + 1, so unseen features get the highest weight and none gets 0.
   */
  fit(texts: string[]): void {
    const df = new Map<string, number>();
    for (const t of texts) for (const f of hashFeatures(t).keys()) df.set(f, (df.get(f) ?? 0) + 1);
    this.df = df;
    this.fittedDocs = texts.length;
  }

  /** IDF of a feature string under the current fit (1 before any fit). */
  idf(feature: string): number {
    if (!this.df) return 1;
    return Math.log((this.fittedDocs + 1) / ((this.df.get(feature) ?? 0) + 1)) + 1;
  }

  /** One unit vector (all zeros for a text without content terms). */
  embedOne(text: string): Float32Array {
    const v = new Float32Array(this.dim);
    for (const [f, count] of hashFeatures(text)) {
      const w = (1 + Math.log(count)) * this.idf(f) * (f.startsWith('b:') ? this.bigramWeight : 1);
      if (w === 0) continue;
      const h = fmix32(fnv1a(f));
      v[h % this.dim] += h & 0x80000000 ? -w : w;
    }
    return l2normalize(v);
  }

  async embed(texts: string[]): Promise<EmbedResult> {
    return { vectors: texts.map((t) => this.embedOne(t)) };
  }
}
