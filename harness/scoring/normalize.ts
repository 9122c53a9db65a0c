// SQuAD v1.1 answer normalization, shared by the answer metrics and the yes/no reader.

import { RecentTexts } from './recentTexts.ts';

// Python's string.punctuation: ASCII only, as in the official script.
const PUNCTUATION_RE = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
// Python's `re` \b with a str pattern is Unicode-aware (\w = alphanumerics and `_`); JavaScript's
// \b is ASCII-only, so `\b(a|an|the)\b` is spelled out with Unicode look-arounds.
const ARTICLES_RE = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;
// Python's str.split() whitespace (it includes \x1c-\x1f and \x85, and not \ufeff, unlike JS \s).
const PY_WHITESPACE_RE = /[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** SQuAD v1.1 `normalize_answer`: lowercase, drop punctuation, drop articles, collapse whitespace. */
export function normalizeAnswer(s: string): string {
  return recentNormalized.get(s);
}
const recentNormalized = new RecentTexts((s) => pySplit(s.toLowerCase().replace(PUNCTUATION_RE, '').replace(ARTICLES_RE, ' ')).join(' '));

function pySplit(s: string): string[] {
  return s.split(PY_WHITESPACE_RE).filter((t) => t.length > 0);
}

export function answerTokens(s: string): string[] {
  return pySplit(normalizeAnswer(s));
}


// The complement of PY_WHITESPACE_RE: the chunks pySplit keeps.
const PY_CHUNK_RE = /[^\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

/**
 * The answer's tokens (as `answerTokens` gives them) with the span of text each comes from, its
 * leading and trailing punctuation left out, so a rule can read the words around a phrase the
 * normalized answer contains ("It is not Canberra.").
 */
export function answerTokenSpans(s: string): Array<{ token: string; start: number; end: number }> {
  const out: Array<{ token: string; start: number; end: number }> = [];
  for (const m of s.matchAll(PY_CHUNK_RE)) {
    const chunk = m[0];
    const lead = /^[^\p{L}\p{N}]*/u.exec(chunk)![0].length;
    const trail = /[^\p{L}\p{N}]*$/u.exec(chunk)![0].length;
    const start = (m.index ?? 0) + Math.min(lead, chunk.length);
    const end = Math.max(start, (m.index ?? 0) + chunk.length - trail);
    for (const token of pySplit(normalizeAnswer(chunk))) out.push({ token, start, end });
  }
  return out;
}
