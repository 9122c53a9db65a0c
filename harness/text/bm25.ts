// Okapi BM25 over a small candidate set given at call time: the IDF comes from the candidates
// themselves (the outline being read, the passages at hand), not from a global corpus. Pure.
import { tokenize } from './tokenize.ts';

export interface Bm25Params {
  /** Term-frequency saturation (default 1.2). */
  k1?: number;
  /** Length normalisation (default 0.75). */
  b?: number;
}

/**
 * Lucene's BM25 IDF, ln(1 + (N − df + 0.5) / (df + 0.5)). Unlike the classic Robertson form it
 * never goes negative, which matters with a handful of candidates where a term is often in most.
 */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * Scores each candidate (a token list) against the query tokens:
 *   Σ_t qtf(t) · idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))
 * A query term repeated n times counts n times (how callers up-weight terms). Returns one score per
 * candidate, in order; 0 for a candidate sharing no term with the query.
 */
export function bm25Scores(
  query: readonly string[],
  docs: ReadonlyArray<readonly string[]>,
  params: Bm25Params = {},
): number[] {
  const k1 = params.k1 ?? 1.2;
  const b = params.b ?? 0.75;
  const n = docs.length;
  if (n === 0) return [];
  const qtf = new Map<string, number>();
  for (const t of query) qtf.set(t, (qtf.get(t) ?? 0) + 1);
  const scores = new Array<number>(n).fill(0);
  if (qtf.size === 0) return scores;

  let totalLen = 0;
  for (const d of docs) totalLen += d.length;
  const avgdl = totalLen / n;

  // Term frequencies of query terms only, per candidate.
  const tfs: Array<Map<string, number>> = docs.map((d) => {
    const tf = new Map<string, number>();
    for (const t of d) if (qtf.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
    return tf;
  });
  const idf = new Map<string, number>();
  for (const t of qtf.keys()) {
    let df = 0;
    for (const tf of tfs) if (tf.has(t)) df++;
    idf.set(t, bm25Idf(n, df));
  }
  for (let i = 0; i < n; i++) {
    const tf = tfs[i];
    if (tf.size === 0) continue; // also keeps avgdl = 0 out of the formula
    const norm = k1 * (1 - b + (b * docs[i].length) / avgdl);
    let s = 0;
    for (const [t, f] of tf) s += qtf.get(t)! * idf.get(t)! * ((f * (k1 + 1)) / (f + norm));
    scores[i] = s;
  }
  return scores;
}

/** Convenience: tokenizes the query and candidate texts with `tokenize()` first. */
export function bm25Text(query: string, texts: readonly string[], params: Bm25Params = {}): number[] {
  return bm25Scores(tokenize(query), texts.map((t) => tokenize(t)), params);
}
