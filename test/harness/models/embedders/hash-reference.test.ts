// The hash embedder's fast path (numeric feature keys, per-word memo, cached hashes and IDF)
// against its definition written out with feature strings, as it was before issue 14.
import { describe, expect, it } from 'vitest';
import { HashEmbedder, fnv1a, hashFeatures } from '../../../../harness/models/embedders/hash.ts';
import { l2normalize } from '../../../../harness/models/embedders/vector.ts';
import { loadBenchmarkData } from '../../../../datasets/registry.ts';
import { validateConfig } from '../../../../harness/config/runConfig.ts';
import { ValueIndex } from '../../../../harness/retrieval/valueIndex.ts';

// Written out again on purpose: the reference shares no code with the embedder it checks.
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function reference(fitTexts: string[], dim = 1024, bw = 0.5) {
  const df = new Map<string, number>();
  for (const t of fitTexts) for (const f of hashFeatures(t).keys()) df.set(f, (df.get(f) ?? 0) + 1);
  const idf = (f: string) => Math.log((fitTexts.length + 1) / ((df.get(f) ?? 0) + 1)) + 1;
  return (text: string) => {
    const v = new Float32Array(dim);
    for (const [f, count] of hashFeatures(text)) {
      const w = (1 + Math.log(count)) * idf(f) * (f.startsWith('b:') ? bw : 1);
      if (w === 0) continue;
      const h = fmix32(fnv1a(f));
      v[h % dim] += h & 0x80000000 ? -w : w;
    }
    return l2normalize(v);
  };
}

/** The first text whose vectors differ in any bit (−1: none); toEqual over 12,000 vectors takes seconds. */
function firstDifference(a: Float32Array[], b: Float32Array[]): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  return a.findIndex((v, i) => v.length !== b[i].length || !Buffer.from(v.buffer, v.byteOffset, v.byteLength).equals(Buffer.from(b[i].buffer, b[i].byteOffset, b[i].byteLength)));
}

/** Each fitted text embedded the way the value index does it: from what the fit counted (fitIndex). */
function fromFit(e: HashEmbedder, texts: string[]): Float32Array[] {
  return texts.map((t, i) => e.embedInto(t, new Float32Array(e.dim), i));
}

describe('hash embedder fast path', () => {
  it('gives bit-identical vectors to the string definition (sample corpus, questions, awkward text)', async () => {
    const { config } = validateConfig({ name: 't', dataset: { format: 'sample' }, strategies: ['vector'] });
    const data = await loadBenchmarkData(config, process.cwd());
    const texts = ValueIndex.chunkCorpus(data.corpus, { chunkTokens: 256, overlap: 32 }).map((c) => c.text);
    const odd = ["Don't stop: the company's Café ÉCLAIRS, naïve résumé", 'the of and', '', '1,250.50 and 30.0%', 'rock’n’roll ’s', 'x'.repeat(300)];
    for (const dim of [1024, 64]) {
      const e = new HashEmbedder({ dim });
      e.fit([...texts, ...odd]);
      const ref = reference([...texts, ...odd], dim);
      for (const t of [...texts, ...odd, ...data.questions.map((q) => q.question)]) expect(e.embedOne(t)).toEqual(ref(t));
      expect(fromFit(e, [...texts, ...odd])).toEqual([...texts, ...odd].map(ref));
    }
    // Before any fit, IDF is 1 for everything: the reference fitted on nothing (ln(1/1) + 1 = 1).
    const unfitted = new HashEmbedder();
    for (const t of odd) expect(unfitted.embedOne(t)).toEqual(reference([])(t));
  });

  it('reads non-ASCII text exactly as words() does (accents, curly quotes, ligatures, other scripts)', () => {
    // Texts whose non-ASCII characters are all inert (dashes, quotes, bullets) are scanned as they
    // are; others that fold to a–z only are scanned after folding; those with other letters (ß,
    // Greek, CJK, astral letters) take the Unicode path; all must match the string definition.
    let seed = 4242;
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const common = "aAbBsS019,.'  ’’éÉçñ“”—–…ﬁ½²";
    const rare = ['ß', 'Ω', 'д', '中', '𝐀', '😀', 'İ', 'ǅ', '\u0301', '♦', '─', 'Ⓐ', '\u00a0', 'Ⅳ', '©', '·'];
    const texts: string[] = ['Café’s naïve “résumé” — ﬁnal ½ cost: 1,250.50', 'don’t ’s O’Neil’s', 'straße ΩMEGA 中文 𝐀bc'];
    for (let i = 0; i < 3000; i++) {
      const n = 1 + Math.floor(rnd() * 30);
      let t = '';
      for (let k = 0; k < n; k++) t += rnd() < 0.03 ? rare[Math.floor(rnd() * rare.length)] : common[Math.floor(rnd() * common.length)];
      texts.push(t);
    }
    const e = new HashEmbedder({ dim: 64 });
    e.fit(texts);
    const ref = reference(texts, 64);
    for (const t of texts) expect(e.embedOne(t), JSON.stringify(t)).toEqual(ref(t));
    expect(fromFit(e, texts)).toEqual(texts.map(ref));
  });

  it('stays bit-identical while its tables grow (tens of thousands of words, a hundred thousand bigrams)', () => {
    // Enough distinct surface words and bigrams to rehash the word and bigram tables many times
    // and to grow the word character pool; both fitting and embedding texts never seen in the fit.
    let seed = 777;
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const word = (i: number) => {
      let w = '';
      for (let x = i + 1; x > 0; x = Math.floor(x / 26)) w += letters[x % 26];
      return rnd() < 0.1 ? w.toUpperCase() : w;
    };
    const text = () => Array.from({ length: 40 + Math.floor(rnd() * 40) }, () => word(Math.floor(rnd() ** 2 * 60_000))).join(rnd() < 0.5 ? ' ' : ', ');
    const fitTexts = Array.from({ length: 2500 }, text);
    const e = new HashEmbedder({ dim: 384 });
    e.fit(fitTexts);
    const ref = reference(fitTexts, 384);
    for (const t of [...fitTexts.slice(0, 600), ...Array.from({ length: 200 }, text)]) expect(e.embedOne(t)).toEqual(ref(t));
    expect(fromFit(e, fitTexts)).toEqual(fitTexts.map(ref));
  });

  it('embeds fitted texts from what the fit counted, in any order, across its blocks and after release', () => {
    // 12,000 texts of ~100 features each: several blocks of the fit's kept counts (they start at 256 KB).
    let seed = 99;
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const word = (i: number) => `k${i.toString(36).replace(/[0-9]/g, (d) => 'qrstuvwxyz'[Number(d)])}`;
    const texts = Array.from({ length: 12_000 }, () => Array.from({ length: 50 }, () => word(Math.floor(rnd() ** 3 * 30_000))).join(' '));
    texts.push('alpha alpha alpha beta alpha beta', ''); // counts above 1; no features at all
    const e = new HashEmbedder({ dim: 256 });
    e.fit(texts);
    const expected = texts.map((t) => e.embedOne(t));
    // Backwards: each block is dropped at its last text, so the rest of it is counted afresh.
    const order = texts.map((_, i) => texts.length - 1 - i);
    const got: Float32Array[] = [];
    for (const i of order) got[i] = e.embedInto(texts[i], new Float32Array(256), i);
    expect(firstDifference(got, expected)).toBe(-1);
    expect(firstDifference(fromFit(e, texts), expected)).toBe(-1);
    // Forwards after a fresh fit: every text read from the kept counts, block after block.
    e.fit(texts);
    expect(firstDifference(fromFit(e, texts), expected)).toBe(-1);
    // A fitIndex that names another text embeds the text given, not the fit's.
    expect(e.embedInto(texts[1], new Float32Array(256), 0)).toEqual(expected[1]);
    e.releaseFit();
    expect(fromFit(e, texts.slice(0, 50))).toEqual(expected.slice(0, 50));
    expect(e.idf('w:alpha')).toBeCloseTo(Math.log((texts.length + 1) / 2) + 1, 12);
  });

  it('reads ASCII text exactly as the regex tokenizer does (numbers, apostrophes, case, digits in words)', () => {
    // Random strings over the characters where the ASCII scanner's rules live, so it must agree with
    // words() (TOKEN_RE) on every number grouping, apostrophe and letter/digit boundary.
    let seed = 12345;
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const alphabet = "aAbBsS01239,,..''  -_xYz";
    const texts: string[] = ["FY2018 1,234,5678 1,234.50 3. .5 don't's O'Neil's 'quoted' 0.0 10,000,000.000 ab'"];
    for (let i = 0; i < 3000; i++) {
      const n = 1 + Math.floor(rnd() * 24);
      let t = '';
      for (let k = 0; k < n; k++) t += alphabet[Math.floor(rnd() * alphabet.length)];
      texts.push(t);
    }
    const e = new HashEmbedder({ dim: 64 });
    e.fit(texts);
    const ref = reference(texts, 64);
    for (const t of texts) expect(e.embedOne(t), JSON.stringify(t)).toEqual(ref(t));
    expect(fromFit(e, texts)).toEqual(texts.map(ref));
  });
});
