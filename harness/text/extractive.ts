// Extractive summaries: a text's most *central* sentences, in document order, bounded to about
// `maxTokens` tokens. Centrality is TextRank-style without the iteration: each sentence is a
// TF-IDF vector over the text's sentences, and its score is the sum of its cosine similarities to
// every other sentence (a sentence that shares vocabulary with much of the section says what the
// section is about). Sentences that carry no prose (table rows: mostly numbers; fragments of
// fewer than four words) are not candidates unless nothing else is left, and a repeated
// sentence counts once. Ties go to the earlier
// sentence. Used for node summaries at ingestion (datasets/summaries.ts) and by the offline
// reasoner when it is asked to summarise.

/** Approximate tokens: words x 1.3 (the same estimate `datasets inspect` prints). */
export function approxTokens(text: string): number {
  const words = text.match(/\S+/g)?.length ?? 0;
  return Math.round(words * 1.3);
}

export interface ExtractiveOptions {
  /** Upper bound on a summary's length, in (approximate) tokens. */
  maxTokens: number;
}

export const DEFAULT_SUMMARY_TOKENS = 60;

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
const STOP = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was were will with which our we you your their they not may can all any been also'.split(' '),
);

/** Splits text into sentences: at . ! ? followed by a space and a capital or digit, and at line breaks between complete lines. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    // Lines that end without punctuation and are followed by a lower-case start are wrapped prose.
    const joined = block
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .reduce<string[]>((acc, line) => {
        const prev = acc[acc.length - 1];
        if (prev !== undefined && !/[.!?:;]$/.test(prev) && /^[\p{Ll}(,]/u.test(line)) acc[acc.length - 1] = `${prev} ${line}`;
        else acc.push(line);
        return acc;
      }, []);
    for (const line of joined) {
      for (const s of line.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u)) {
        const t = s.trim();
        if (t) out.push(t);
      }
    }
  }
  return out;
}

function terms(sentence: string): string[] {
  return (sentence.toLowerCase().match(WORD) ?? []).filter((w) => !STOP.has(w) && !/^\d+$/.test(w));
}

/** Prose, not a table row or a fragment: at least four words, and more letters than digits. */
function isProse(sentence: string): boolean {
  const words = sentence.match(/\S+/g) ?? [];
  if (words.length < 4) return false;
  const letters = (sentence.match(/\p{L}/gu) ?? []).length;
  const digits = (sentence.match(/\p{N}/gu) ?? []).length;
  return letters > 2 * digits;
}

/** The most central sentences of `text`, in their original order, within `maxTokens`; '' for empty text. */
export function extractiveSummary(text: string, opts: ExtractiveOptions = { maxTokens: DEFAULT_SUMMARY_TOKENS }): string {
  const compact = text.replace(/\s+/g, ' ').trim();
  if (!compact) return '';
  if (approxTokens(compact) <= opts.maxTokens) return compact;
  const all = splitSentences(text);
  let candidates = all.map((s, i) => ({ s, i })).filter((c) => isProse(c.s));
  if (candidates.length === 0) candidates = all.map((s, i) => ({ s, i }));
  // A repeated sentence (letterheads, table captions) counts once, at its first place.
  const seen = new Set<string>();
  candidates = candidates.filter((c) => {
    const key = c.s.toLowerCase().replace(/\s+/g, ' ');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const vecs = candidates.map((c) => {
    const tf = new Map<string, number>();
    for (const t of terms(c.s)) tf.set(t, (tf.get(t) ?? 0) + 1);
    return tf;
  });
  const df = new Map<string, number>();
  for (const v of vecs) for (const t of v.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = vecs.length;
  const weighted = vecs.map((v) => {
    const w = new Map<string, number>();
    let norm = 0;
    for (const [t, f] of v) {
      const x = (1 + Math.log(f)) * Math.log(1 + n / df.get(t)!);
      w.set(t, x);
      norm += x * x;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [t, x] of w) w.set(t, x / norm);
    return w;
  });
  const score = weighted.map((a, i) => {
    let sum = 0;
    weighted.forEach((b, j) => {
      if (i === j) return;
      const [small, big] = a.size <= b.size ? [a, b] : [b, a];
      for (const [t, x] of small) sum += x * (big.get(t) ?? 0);
    });
    return sum;
  });
  // Highest score first; ties go to the earlier sentence (leads tend to state the topic).
  const ranked = candidates.map((c, k) => ({ ...c, score: score[k] })).sort((a, b) => b.score - a.score || a.i - b.i);
  const chosen: typeof ranked = [];
  let used = 0;
  for (const c of ranked) {
    const t = approxTokens(c.s);
    if (used + t > opts.maxTokens) continue;
    chosen.push(c);
    used += t;
  }
  if (chosen.length === 0) {
    // Every sentence is longer than the bound: clip the most central one at a word boundary.
    const words = ranked[0].s.split(/\s+/);
    const keep = Math.max(1, Math.floor(opts.maxTokens / 1.3));
    return words.slice(0, keep).join(' ') + (words.length > keep ? ' …' : '');
  }
  return chosen
    .sort((a, b) => a.i - b.i)
    .map((c) => c.s)
    .join(' ');
}
