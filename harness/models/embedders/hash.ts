// The offline default embedder: feature-hashed TF-IDF vectors. No model, no network, deterministic.
// Features are stemmed non-stopword unigrams plus adjacent-pair bigrams (lower weight), hashed with
// FNV-1a (+ a murmur finaliser) into `dim` buckets with a sign bit so collisions cancel on average
// instead of piling up. Term weight = (1 + ln tf) · idf; vectors are L2-normalised.
import type { EmbedResult, Embedder } from '../../types.ts';
import { fold, isAscii, isStopword, stem, tokenize, tokenWord, wordsOfFolded } from '../../text/tokenize.ts';

/** FNV-1a over the UTF-16 code units of `s`, as an unsigned 32-bit integer. */
export function fnv1a(s: string): number {
  return fnvOver(0x811c9dc5, s) >>> 0;
}

/** FNV-1a continued from state `h` over the code units of `s` (as a signed 32-bit integer). */
function fnvOver(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
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

/** Surface words remembered (word → term id); cleared wholesale when full. */
const WORD_CACHE_LIMIT = 500_000;

// How a text becomes a vector, fast (the build rate of a large index is this loop):
//  - ASCII texts are scanned char by char, matching TOKEN_RE of text/tokenize.ts exactly; each
//    token's lowercased span is hashed while scanning and looked up in an open-addressing table of
//    surface words → term id (stopwords → -1), so a known word costs no string at all. Other texts
//    are folded first (as words() does) and scanned the same way when no letter outside a–z is
//    left (accents, curly quotes, dashes); the rest go through words() and a Map of words.
//  - Terms have integer ids. A bigram has an id too, given when first seen, found through an
//    open-addressing table keyed by the two term ids (typed arrays: no Map entry limit, no
//    objects). A feature's key is 2 × term id (unigram) or 2 × bigram id + 1.
//  - Per feature, in dense typed arrays by id: its bucket and sign (from the hash — FNV-1a of the
//    feature string `w:<term>` / `b:<term> <term>`, computed once from per-term FNV states) and
//    its document frequency from the last fit. A bigram's table slot (16 bytes) holds its id and,
//    while fitting, its document frequency, so counting it costs one cache miss on corpora whose
//    bigram table outgrows the CPU caches. The table grows only between texts.
//  - Within one text, features are counted in a small set keyed by feature key (it stays in the
//    L1 cache), in first-seen order.
//  - fit() keeps what it counted for each text (FitStream): embedding a fitted text again, as the
//    value index does for every chunk, reads its features back instead of scanning and looking
//    them up a second time. That halves the table lookups of an index build, and the second pass
//    reads dense arrays, whose loads the CPU can overlap, instead of chasing the table.
// The vector adds each feature's weight in first-seen order, the order of hashFeatures' Map, so
// the float32 sums (and the vectors) are bit-identical to the string definition above.

/** Growable Int32Array helper: a copy with room for at least `need` elements. */
function grow<T extends Int32Array | Uint32Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const b = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2, 16));
  b.set(a);
  return b;
}

export class HashEmbedder implements Embedder {
  readonly id = 'hash';
  readonly dim: number;
  private readonly bigramWeight: number;

  // Terms (stemmed content words). Per term, interleaved: [bucket code of 'w:' + term, df].
  // A bucket code is 2 × (hash % dim) + the hash's top bit (1 = subtract).
  private readonly termIds = new Map<string, number>();
  private readonly termText: string[] = [];
  private uni = new Int32Array(0);
  private bigramPrefix = new Int32Array(0); // FNV state after 'b:' + term + ' '

  // Bigrams: open addressing over (first term, second term), BIGRAM_INTS ints per slot:
  // [first term + 1 (0 = empty), second term, bigram id, df while fitting]. By bigram id: its
  // bucket code, and its df as of the last fit (bDf; ids given since have df 0).
  private bTab = new Int32Array(BIGRAM_INTS * 1024);
  private bMask = 1023;
  private bSize = 0;
  private bCode = new Int32Array(0);
  private bDf = new Int32Array(0);

  // Surface words of ASCII texts: open addressing over the lowercased span's hash; slot =
  // [hash, word index + 1 (0 = empty)]. Word i's lowercased characters are wChars[wAt[i] ..
  // wAt[i + 1]) (one contiguous pool, compared in place) and its term id wTerm[i].
  private wSlots = new Int32Array(2 << 16);
  private wMask = (1 << 16) - 1;
  private wTerm = new Int32Array(0);
  private wAt = new Int32Array(1);
  private wChars = new Uint8Array(1 << 16);
  private wCount = 0;
  /** Words of non-ASCII texts (after folding) → term id. */
  private readonly wordIds = new Map<string, number>();

  // Scratch per text: its term ids; its features (keys) in first-seen order and their counts; the
  // set of keys seen in it: open addressing, slot = [stamp, key, position in feats], a slot whose
  // stamp is not the text's being empty (no clearing between texts).
  private terms = new Int32Array(1024);
  private feats = new Int32Array(2048);
  private counts = new Int32Array(2048);
  private nFeats = 0;
  private seen = new Int32Array(3 * 1024);
  private seenShift = 22; // 32 − log2(slots)
  private stamp = 0;
  private probeSink = 0;

  private fitted = false;
  private fittedDocs = 0;
  /** The texts of the last fit and what was counted for each, until releaseFit(). */
  private fitTexts: string[] | null = null;
  private fitStream: FitStream | null = null;
  /** IDF by document frequency under the current fit. */
  private idfByDf = new Float64Array(1).fill(1);
  /** The buckets of the vector being embedded that features were added to, a bit each. */
  private readonly touchedBuckets: Int32Array;

  constructor(opts: HashEmbedderOptions = {}) {
    const dim = opts.dim ?? 1024;
    if (!Number.isInteger(dim) || dim < 1) throw new Error(`hash embedder: "dim" must be a positive integer, got ${dim}`);
    const bw = opts.bigramWeight ?? 0.5;
    if (!Number.isFinite(bw) || bw < 0) throw new Error(`hash embedder: "bigramWeight" must be >= 0, got ${bw}`);
    this.dim = dim;
    this.bigramWeight = bw;
    this.touchedBuckets = new Int32Array(Math.ceil(dim / 32));
  }

  /** Vectors also depend on the fit (IDF); the index adds a fingerprint of the fitted corpus. */
  get cacheKey(): string {
    return `hash/v1 dim=${this.dim} bigramWeight=${this.bigramWeight}`;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termText.length;
      this.termIds.set(term, id);
      this.termText.push(term);
      const need = id + 1;
      if (need > this.bigramPrefix.length) {
        this.bigramPrefix = grow(this.bigramPrefix, need);
        this.uni = grow(this.uni, 2 * this.bigramPrefix.length);
      }
      this.uni[2 * id] = this.bucketCode(fmix32(fnv1a(`w:${term}`)));
      this.bigramPrefix[id] = fnvOver(fnvOver(0x811c9dc5, 'b:'), term + ' ');
    }
    return id;
  }

  /** Term id of a folded word (stopword → -1, else its stem). */
  private termOfWord(word: string): number {
    return isStopword(word) ? -1 : this.termId(stem(word));
  }

  /** 2 × (h % dim) + sign bit of an unsigned 32-bit feature hash (computed once per feature). */
  private bucketCode(h: number): number {
    return 2 * (h % this.dim) + (h >>> 31);
  }

  /** Slot of the bigram (a, b), or -1 when it has none. */
  private findBigram(a: number, b: number): number {
    const tab = this.bTab;
    const mask = this.bMask;
    for (let s = bigramSlotHash(a, b) & mask; ; s = (s + 1) & mask) {
      const first = tab[s * BIGRAM_INTS];
      if (first === 0) return -1;
      if (first === a + 1 && tab[s * BIGRAM_INTS + 1] === b) return s;
    }
  }

  /** Slot of the bigram (a, b), added when new (df 0). The caller has made room (ensureBigramRoom). */
  private bigram(a: number, b: number): number {
    const tab = this.bTab;
    const mask = this.bMask;
    let s = bigramSlotHash(a, b) & mask;
    for (;;) {
      const o = s * BIGRAM_INTS;
      const first = tab[o];
      if (first === 0) break;
      if (first === a + 1 && tab[o + 1] === b) return s;
      s = (s + 1) & mask;
    }
    const id = this.bSize++;
    const o = s * BIGRAM_INTS;
    tab[o] = a + 1;
    tab[o + 1] = b;
    tab[o + 2] = id;
    tab[o + 3] = 0;
    if (id === this.bCode.length) this.bCode = grow(this.bCode, id + 1);
    this.bCode[id] = this.bucketCode(fmix32(fnvOver(this.bigramPrefix[a], this.termText[b]) >>> 0));
    return s;
  }

  /** Grows the bigram table (keeping load ≤ 1/2) so that `more` new bigrams fit without a rehash. */
  private ensureBigramRoom(more: number): void {
    let cap = this.bMask + 1;
    if ((this.bSize + more) * 2 <= cap) return;
    while ((this.bSize + more) * 2 > cap) cap *= 2;
    const old = this.bTab;
    const tab = new Int32Array(BIGRAM_INTS * cap);
    const mask = cap - 1;
    for (let o = 0; o < old.length; o += BIGRAM_INTS) {
      if (old[o] === 0) continue;
      let s = bigramSlotHash(old[o] - 1, old[o + 1]) & mask;
      while (tab[s * BIGRAM_INTS] !== 0) s = (s + 1) & mask;
      const t = s * BIGRAM_INTS;
      for (let k = 0; k < BIGRAM_INTS; k++) tab[t + k] = old[o + k];
    }
    this.bTab = tab;
    this.bMask = mask;
  }

  /** Term id of the surface word text[start, end) (lowercased hash `h`) of an ASCII text. */
  private surfaceTerm(text: string, start: number, end: number, h: number): number {
    const slots = this.wSlots;
    const mask = this.wMask;
    const len = end - start;
    let s = h & mask;
    for (;;) {
      const e = slots[2 * s + 1];
      if (e === 0) break;
      if (slots[2 * s] === h) {
        const at = this.wAt[e - 1];
        if (this.wAt[e] - at === len) {
          const chars = this.wChars;
          let k = 0;
          for (; k < len; k++) {
            let c = text.charCodeAt(start + k);
            if (c >= 65 && c <= 90) c += 32;
            else if (c === RIGHT_QUOTE) c = 39;
            if (c !== chars[at + k]) break;
          }
          if (k === len) return this.wTerm[e - 1];
        }
      }
      s = (s + 1) & mask;
    }
    if (this.wCount >= WORD_CACHE_LIMIT) {
      this.wSlots.fill(0);
      this.wCount = 0;
      return this.surfaceTerm(text, start, end, h);
    }
    const surface = text.slice(start, end).toLowerCase();
    const term = this.termOfWord(tokenWord(surface));
    const i = this.wCount++;
    const at = this.wAt[i];
    this.wAt = grow(this.wAt, i + 2);
    this.wAt[i + 1] = at + len;
    if (at + len > this.wChars.length) {
      const chars = new Uint8Array(Math.max(at + len, 2 * this.wChars.length));
      chars.set(this.wChars);
      this.wChars = chars;
    }
    // ’ is kept as ' (tokenWord treats both alike), so the pool holds bytes.
    for (let k = 0; k < len; k++) {
      const c = surface.charCodeAt(k);
      this.wChars[at + k] = c === RIGHT_QUOTE ? 39 : c;
    }
    this.wTerm = grow(this.wTerm, i + 1);
    this.wTerm[i] = term;
    slots[2 * s] = h;
    slots[2 * s + 1] = i + 1;
    if ((i + 1) * 2 > mask + 1) {
      const cap = (mask + 1) * 2;
      const ns = new Int32Array(2 * cap);
      for (let o = 0; o < slots.length; o += 2) {
        if (slots[o + 1] === 0) continue;
        let t = slots[o] & (cap - 1);
        while (ns[2 * t + 1] !== 0) t = (t + 1) & (cap - 1);
        ns[2 * t] = slots[o];
        ns[2 * t + 1] = slots[o + 1];
      }
      this.wSlots = ns;
      this.wMask = cap - 1;
    }
    return term;
  }

  /** The content terms of `text` into this.terms; returns how many. */
  private scanTerms(text: string): number {
    if (isAscii(text) || allInert(text)) return this.scanAscii(text);
    // Folded (NFKD, marks stripped, lowercased) as words() does; when no letter but a–z is left,
    // TOKEN_RE reads it as it reads ASCII text, with ’ as an apostrophe and every other non-ASCII
    // character a separator: the character scanner again.
    const folded = fold(text);
    if (!OTHER_LETTER.test(folded)) return this.scanAscii(folded);
    let n = 0;
    for (const word of wordsOfFolded(folded)) {
      let id = this.wordIds.get(word);
      if (id === undefined) {
        id = this.termOfWord(word);
        if (this.wordIds.size >= WORD_CACHE_LIMIT) this.wordIds.clear();
        this.wordIds.set(word, id);
      }
      if (id < 0) continue;
      if (n === this.terms.length) this.terms = grow(this.terms, n + 1);
      this.terms[n++] = id;
    }
    return n;
  }

  /**
   * The content terms of a text whose only letters are ASCII ones (an ASCII text, or a folded
   * text checked by scanTerms) into this.terms; returns how many.
   */
  private scanAscii(text: string): number {
    // TOKEN_RE on lowercased ASCII: a number is \d+ (,\d{3} not followed by a digit)* (\.\d+)?;
    // a word is [a-z]+ ('[a-z]+)*. Anything else separates tokens.
    // Each token's hash (FNV-1a over its lowercased characters, ’ read as ', then a shift-xor) is
    // formed while a word is scanned; a number's is formed after, from its span.
    const len = text.length;
    let n = 0;
    let i = 0;
    while (i < len) {
      const c = text.charCodeAt(i);
      const start = i;
      let h = 0x811c9dc5 | 0;
      if (c >= 48 && c <= 57) {
        i++;
        while (i < len && isDigit(text.charCodeAt(i))) i++;
        while (
          i + 3 < len &&
          text.charCodeAt(i) === 44 &&
          isDigit(text.charCodeAt(i + 1)) &&
          isDigit(text.charCodeAt(i + 2)) &&
          isDigit(text.charCodeAt(i + 3)) &&
          !(i + 4 < len && isDigit(text.charCodeAt(i + 4)))
        )
          i += 4;
        if (i + 1 < len && text.charCodeAt(i) === 46 && isDigit(text.charCodeAt(i + 1))) {
          i += 2;
          while (i < len && isDigit(text.charCodeAt(i))) i++;
        }
        for (let k = start; k < i; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
      } else if (isLetter(c)) {
        h = Math.imul(h ^ (c | 32), 0x01000193); // | 32 lowercases A–Z and keeps a–z
        i++;
        for (;;) {
          let x = 0;
          while (i < len && isLetter((x = text.charCodeAt(i)))) {
            h = Math.imul(h ^ (x | 32), 0x01000193);
            i++;
          }
          // An apostrophe (' or ’) between letters stays in the word.
          if ((x === 39 || x === RIGHT_QUOTE) && i + 1 < len && isLetter(text.charCodeAt(i + 1))) {
            h = Math.imul(h ^ 39, 0x01000193);
            i++;
          } else break;
        }
      } else {
        i++;
        continue;
      }
      h ^= h >>> 15;
      const id = this.surfaceTerm(text, start, i, h);
      if (id < 0) continue;
      if (n === this.terms.length) this.terms = grow(this.terms, n + 1);
      this.terms[n++] = id;
    }
    return n;
  }

  /**
   * Counts the features of `text` into this.feats / this.counts in first-seen order (hashFeatures'
   * order: for each term, the bigram ending at it, then its unigram); returns how many. With
   * `fitting`, also adds 1 to each distinct feature's document frequency.
   */
  private countFeatures(text: string, fitting: boolean): number {
    const n = this.scanTerms(text);
    this.ensureBigramRoom(n);
    const most = 2 * n;
    if (this.feats.length < most) {
      this.feats = new Int32Array(most);
      this.counts = new Int32Array(most);
    }
    // The set of seen keys stays at most 1/4 full.
    let bits = 32 - this.seenShift;
    if (1 << bits < 4 * most) {
      while (1 << bits < 4 * most) bits++;
      this.seen = new Int32Array(3 << bits);
      this.seenShift = 32 - bits;
      this.stamp = 0;
    }
    if (++this.stamp === 0x7fffffff) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    this.nFeats = 0;
    const { terms, uni } = this;
    const tab = this.bTab; // no rehash while counting one text (ensureBigramRoom above)
    // Each bigram's slot is read once first, in a loop of independent loads: on a table larger
    // than the CPU caches their misses overlap, where the counting loop below waits for each in
    // turn (its next step depends on what it read). Fits at a million chunks: ~12% faster.
    let read = 0;
    for (let i = 1; i < n; i++) read |= tab[(bigramSlotHash(terms[i - 1], terms[i]) & this.bMask) * BIGRAM_INTS];
    this.probeSink = read; // kept, so the loads are not optimised away
    for (let i = 0; i < n; i++) {
      const id = terms[i];
      if (i > 0) {
        const o = this.bigram(terms[i - 1], id) * BIGRAM_INTS;
        if (this.tally(2 * tab[o + 2] + 1) && fitting) tab[o + 3]++;
      }
      if (this.tally(2 * id) && fitting) uni[2 * id + 1]++;
    }
    return this.nFeats;
  }

  /** Counts feature `key` in the current text; true when this is its first occurrence there. */
  private tally(key: number): boolean {
    const { seen, stamp } = this;
    const mask = (seen.length / 3) - 1;
    for (let s = Math.imul(key, 0x9e3779b1) >>> this.seenShift; ; s = (s + 1) & mask) {
      const o = 3 * s;
      if (seen[o] !== stamp) {
        const at = this.nFeats++;
        seen[o] = stamp;
        seen[o + 1] = key;
        seen[o + 2] = at;
        this.feats[at] = key;
        this.counts[at] = 1;
        return true;
      }
      if (seen[o + 1] === key) {
        this.counts[seen[o + 2]]++;
        return false;
      }
    }
  }

  /**
   * Learns document frequencies from `texts` (replacing any earlier fit). Smoothed IDF:
   * ln((N + 1) / (df + 1)) + 1, so unseen features get the highest weight and none gets 0.
   * What was counted for each text is kept (see embedInto's `fitIndex`) until releaseFit().
   */
  fit(texts: string[]): void {
    this.releaseFit(); // the earlier fit's counts go before this one's are kept
    for (let r = 1; r < this.uni.length; r += 2) this.uni[r] = 0;
    const tab = this.bTab;
    for (let o = 3; o < tab.length; o += BIGRAM_INTS) tab[o] = 0;
    const stream = new FitStream(texts.length);
    for (let i = 0; i < texts.length; i++) {
      const m = this.countFeatures(texts[i], true);
      stream.add(i, this.feats, this.counts, m);
    }
    // The bigram table may have grown: read it again. Its df column, by bigram id.
    this.bDf = new Int32Array(this.bSize);
    for (let o = 0; o < this.bTab.length; o += BIGRAM_INTS) if (this.bTab[o] !== 0) this.bDf[this.bTab[o + 2]] = this.bTab[o + 3];
    this.fitted = true;
    this.fittedDocs = texts.length;
    this.fitTexts = texts;
    this.fitStream = stream;
    const N = texts.length;
    this.idfByDf = new Float64Array(N + 1);
    for (let d = 0; d <= N; d++) this.idfByDf[d] = Math.log((N + 1) / (d + 1)) + 1;
  }

  /**
   * Bytes of the typed-array tables the embedder keeps to embed queries after a fit: term and
   * bigram codes, the bigram table, document frequencies, IDF, the surface-word cache. Part of
   * what a value index holds in memory with the hash embedder (the term strings' Map is not
   * counted; what fit() keeps for the index build itself goes with releaseFit()).
   */
  get tableBytes(): number {
    const tables = [this.uni, this.bigramPrefix, this.bTab, this.bCode, this.bDf, this.wSlots, this.wTerm, this.wAt, this.wChars, this.idfByDf, this.terms, this.feats, this.counts, this.seen];
    return tables.reduce((n, t) => n + t.byteLength, 0);
  }

  /**
   * Per bucket, in how many of the last fit's texts a feature falls there: a bound on how many of
   * their vectors are non-zero in each dimension (a bucket whose features cancel out is zero), so
   * the value index lays its posting lists out at their size before any vector comes (vectorSearch/
   * stores.ts). Read from what fit() kept: null when that is gone (releaseFit) or not all there.
   */
  nonZeroBound(): Int32Array | null {
    const stream = this.fitStream;
    const texts = this.fitTexts;
    if (!stream || !texts) return null;
    for (let i = 0; i < texts.length; i++) if (!stream.has(i)) return null;
    const bound = new Int32Array(this.dim);
    const last = new Int32Array(this.dim).fill(-1); // the last text counted in each bucket
    const bigrams = this.bigramWeight !== 0; // a zero weight adds nothing
    for (let i = 0; i < texts.length; i++) {
      const data = stream.data(i);
      const end = stream.end(i);
      for (let k = stream.start(i); k < end; k++) {
        const e = data[k];
        if (e & 1) k++; // its count follows
        const key = e >> 1;
        if (key & 1 && !bigrams) continue;
        const b = (key & 1 ? this.bCode[key >> 1] : this.uni[key]) >> 1;
        if (last[b] !== i) {
          last[b] = i;
          bound[b]++;
        }
      }
    }
    return bound;
  }

  /** Drops what fit() kept for embedding its texts again (the fit's IDF stays). */
  releaseFit(): void {
    this.fitTexts = null;
    this.fitStream = null;
  }

  private idfOfDf(df: number): number {
    if (!this.fitted) return 1;
    return df < this.idfByDf.length ? this.idfByDf[df] : Math.log((this.fittedDocs + 1) / (df + 1)) + 1;
  }

  /** Document frequency of bigram `id` in the last fit. */
  private bigramDf(id: number): number {
    return id < this.bDf.length ? this.bDf[id] : 0;
  }

  /** IDF of a feature string (`w:<term>` or `b:<term> <term>`) under the current fit (1 before any fit). */
  idf(feature: string): number {
    if (!this.fitted) return 1;
    const body = feature.slice(2);
    if (feature.startsWith('w:')) {
      const t = this.termIds.get(body);
      return this.idfOfDf(t === undefined ? 0 : this.uni[2 * t + 1]);
    }
    const [a, b] = body.split(' ');
    const ia = this.termIds.get(a);
    const ib = this.termIds.get(b);
    const s = ia === undefined || ib === undefined ? -1 : this.findBigram(ia, ib);
    return this.idfOfDf(s < 0 ? 0 : this.bigramDf(this.bTab[s * BIGRAM_INTS + 2]));
  }

  /** One unit vector (all zeros for a text without content terms). */
  embedOne(text: string): Float32Array {
    return this.embedInto(text, new Float32Array(this.dim));
  }

  /**
   * embedOne written into `v` (dim long, all zeros on entry): a caller that consumes each vector
   * at once (the value index) reuses one buffer instead of allocating 4 KB per chunk.
   * `fitIndex`: the text's position in the last fit's texts, when it is one; its features are
   * then read from what the fit counted (the same vector, without scanning the text again).
   */
  embedInto(text: string, v: Float32Array, fitIndex?: number): Float32Array {
    const stream = fitIndex === undefined || this.fitTexts?.[fitIndex] !== text ? null : this.fitStream;
    if (stream?.has(fitIndex!)) {
      const data = stream.data(fitIndex!);
      const end = stream.end(fitIndex!);
      for (let k = stream.start(fitIndex!); k < end; k++) {
        const e = data[k];
        this.addFeature(v, e >> 1, e & 1 ? data[++k] : 1);
      }
      stream.done(fitIndex!);
    } else {
      const m = this.countFeatures(text, false);
      const { feats, counts } = this;
      for (let k = 0; k < m; k++) this.addFeature(v, feats[k], counts[k]);
    }
    return normalizeSparse(v, this.touchedBuckets);
  }

  /** Adds the weight of feature `key`, seen `count` times in the text, to its bucket of `v`. */
  private addFeature(v: Float32Array, key: number, count: number): void {
    let code: number;
    let df: number;
    let scale: number;
    if (key & 1) {
      const id = key >> 1;
      code = this.bCode[id];
      df = this.bigramDf(id);
      scale = this.bigramWeight;
    } else {
      code = this.uni[key]; // 2 × term id
      df = this.uni[key + 1];
      scale = 1;
    }
    const w = (count < LOG_TF.length ? LOG_TF[count] : 1 + Math.log(count)) * this.idfOfDf(df) * scale;
    if (w === 0) return;
    const b = code >> 1;
    v[b] += code & 1 ? -w : w;
    this.touchedBuckets[b >> 5] |= 1 << (b & 31);
  }

  async embed(texts: string[]): Promise<EmbedResult> {
    return { vectors: texts.map((t) => this.embedOne(t)) };
  }
}

/**
 * l2normalize (vector.ts) for a mostly-zero vector, bit for bit: the squared norm is summed in the
 * same ascending order (a zero adds +0, which changes nothing) and only non-zero entries are
 * divided (0 / n is 0; entries are never -0 — a float32 sum that cancels is +0).
 */
function normalizeSparse(v: Float32Array, touched: Int32Array): Float32Array {
  // Only the entries marked in `touched` (a bit per entry, cleared here) can be non-zero; they
  // are visited in ascending order through the set bits, without a test per entry of `v` (a
  // branch that, at ~150 non-zeros in 1,024, mispredicted often enough to cost ~10% of a build).
  let s = 0;
  for (let w = 0; w < touched.length; w++) {
    for (let bits = touched[w]; bits !== 0; bits &= bits - 1) {
      const x = v[(w << 5) + 31 - Math.clz32(bits & -bits)];
      s += x * x;
    }
  }
  const n = Math.sqrt(s);
  for (let w = 0; w < touched.length; w++) {
    if (n > 0) {
      for (let bits = touched[w]; bits !== 0; bits &= bits - 1) {
        const i = (w << 5) + 31 - Math.clz32(bits & -bits);
        if (v[i] !== 0) v[i] /= n;
      }
    }
    touched[w] = 0;
  }
  return v;
}

/** ’ (U+2019), an apostrophe to TOKEN_RE. */
const RIGHT_QUOTE = 0x2019;

/**
 * Per BMP code unit ≥ 128: 1 = inert (folding leaves it alone — NFKD keeps it and it is neither a
 * letter nor a mark — so it is just a separator to TOKEN_RE, or the apostrophe ’), 2 = not inert,
 * 0 = not yet known. Dashes, curly quotes, bullets and box drawing are inert: text whose only
 * non-ASCII characters are such needs no folding pass at all.
 */
const INERT = new Uint8Array(0x10000);
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;

function allInert(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) continue;
    let k = INERT[c];
    if (k === 0) {
      const ch = String.fromCharCode(c);
      const inert = !(c >= 0xd800 && c <= 0xdfff) && ch.normalize('NFKD') === ch && ch.toLowerCase() === ch && !LETTER_OR_MARK.test(ch);
      INERT[c] = k = inert ? 1 : 2;
    }
    if (k === 2) return false;
  }
  return true;
}

/** A letter other than a–z (in folded, lowercased text). */
const OTHER_LETTER = /(?=\p{L})[^a-z]/u;

/** Ints per bigram slot: 16 bytes, four slots to a cache line. */
const BIGRAM_INTS = 4;

/**
 * What fit() counted for each text, in order: per text a run of ints, 2 × feature key + 1 when
 * its count follows (count > 1), else 2 × key. Kept in blocks that no text straddles, and a block
 * is dropped once its last text has been read (done), so a value-index build holds the stream of
 * the texts it has not embedded yet, not all of it. At most FIT_KEEP_INTS are allocated (1 GiB:
 * a million chunks of ~100 terms take ~0.8 GiB); a text that would need a block past that is not
 * kept, and embedding it counts it again.
 */
class FitStream {
  private readonly blocks: Array<Int32Array | null> = [];
  /** Per text: its block (−1: not kept), and its start and end within the block. */
  private readonly blockOf: Int32Array;
  private readonly from: Int32Array;
  private readonly to: Int32Array;
  /** Per block: its last text. */
  private readonly lastText: number[] = [];
  private cur = new Int32Array(0);
  private used = 0;
  private kept = 0;

  constructor(texts: number) {
    this.blockOf = new Int32Array(texts).fill(-1);
    this.from = new Int32Array(texts);
    this.to = new Int32Array(texts);
  }

  add(i: number, feats: Int32Array, counts: Int32Array, m: number): void {
    if (this.blocks.length === 0 || this.used + 2 * m > this.cur.length) {
      // Blocks start small (a small corpus should not take 32 MB) and double up to FIT_BLOCK_INTS.
      const size = Math.max(Math.min(FIT_BLOCK_INTS, 65_536 * 2 ** Math.min(this.blocks.length, 20)), 2 * m);
      if (this.kept + size > FIT_KEEP_INTS) return;
      this.kept += size;
      this.cur = new Int32Array(size);
      this.used = 0;
      this.blocks.push(this.cur);
      this.lastText.push(i);
    }
    const b = this.cur;
    let at = this.used;
    this.from[i] = at;
    for (let k = 0; k < m; k++) {
      const c = counts[k];
      if (c === 1) b[at++] = 2 * feats[k];
      else {
        b[at++] = 2 * feats[k] + 1;
        b[at++] = c;
      }
    }
    this.to[i] = this.used = at;
    this.blockOf[i] = this.blocks.length - 1;
    this.lastText[this.blocks.length - 1] = i;
  }

  has(i: number): boolean {
    const b = this.blockOf[i];
    return b >= 0 && this.blocks[b] !== null;
  }
  data(i: number): Int32Array {
    return this.blocks[this.blockOf[i]]!;
  }
  start(i: number): number {
    return this.from[i];
  }
  end(i: number): number {
    return this.to[i];
  }
  /** Text i has been read: its block goes when i is the block's last text. */
  done(i: number): void {
    const b = this.blockOf[i];
    if (this.lastText[b] === i) {
      this.blocks[b] = null;
      if (b === this.blocks.length - 1) this.cur = new Int32Array(0);
    }
  }
}

/**
 * Ints per FitStream block, at most: 32 MB, a size the C allocator always maps on its own and
 * returns to the system when freed (smaller blocks may stay in its heap after the build).
 */
const FIT_BLOCK_INTS = 1 << 23;
/** Ints a FitStream keeps in all (1 GiB). */
const FIT_KEEP_INTS = 1 << 28;

/** 1 + ln(tf) for small term frequencies (the same doubles Math.log gives, looked up). */
const LOG_TF = Float64Array.from({ length: 64 }, (_, c) => 1 + Math.log(c));

/** Slot hash of the bigram (a, b): a murmur-style mix of both term ids. */
function bigramSlotHash(a: number, b: number): number {
  let h = Math.imul(a ^ 0x5bd1e995, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}
