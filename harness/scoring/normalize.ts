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

