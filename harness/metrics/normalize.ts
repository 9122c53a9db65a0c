// SQuAD v1.1 answer normalization, shared by the answer metrics and the yes/no reader.

// Python's string.punctuation: ASCII only, as in the official script.
const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
// Python's `re` \b with a str pattern is Unicode-aware (\w = alphanumerics and `_`); JavaScript's
// \b is ASCII-only, so `\b(a|an|the)\b` is spelled out with Unicode look-arounds.
const ARTICLES_RE = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;
// Python's str.split() whitespace (it includes \x1c-\x1f and \x85, and not \ufeff, unlike JS \s).
const PY_WHITESPACE_RE = /[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** SQuAD v1.1 `normalize_answer`: lowercase, drop punctuation, drop articles, collapse whitespace. */
export function normalizeAnswer(s: string): string {
  let text = s.toLowerCase();
  text = Array.from(text)
    .filter((ch) => !PUNCTUATION.has(ch))
    .join('');
  text = text.replace(ARTICLES_RE, ' ');
  return pySplit(text).join(' ');
}

function pySplit(s: string): string[] {
  return s.split(PY_WHITESPACE_RE).filter((t) => t.length > 0);
}

export function answerTokens(s: string): string[] {
  return pySplit(normalizeAnswer(s));
}

