// Word tokenizer for lexical relevance (BM25, the hash embedder, the offline reasoner).
// Deliberately small and predictable: lowercase, accents folded, numbers normalised, an English
// stopword list and a light suffix-stripping stemmer. Same input, same tokens, on every machine.

/**
 * One token: a number (`1,250.5` with thousands separators only when followed by exactly three
 * digits) or a run of letters (inner apostrophes kept for now). Letters and digits split, so
 * `FY2018` gives `fy` + `2018` and matches the `2018` column of a table.
 */
const TOKEN_RE = /\d+(?:,\d{3}(?!\d))*(?:\.\d+)?|\p{L}+(?:['’]\p{L}+)*/gu;

/** Common English function words, plus question glue ("how many", "according") that carries no topic. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above according across after again against all almost along also am among an and any are ' +
    'around as at be because been before being below between both but by can could did do does doing ' +
    'done down during each either else etc even ever every few for from further get gets given had has ' +
    'have having he her here hers herself him himself his how however i if in into is it its itself just ' +
    'least less let like many may me might more most much must my myself near need neither no nor not of ' +
    'off often on once one only or other others otherwise our ours ourselves out over own per please quite ' +
    'rather really said same say says shall she should since so some such than that the their theirs them ' +
    'themselves then there therefore these they this those though through thus to too toward towards under ' +
    'until up upon us very via was we were what whatever when whenever where whereas whether which while ' +
    'who whoever whom whose why will with within without would yes yet you your yours yourself yourselves'
  ).split(' '),
);

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** `1,250.50` → `1250.5`, `30.0` → `30`: thousands separators and trailing fractional zeros go. */
export function normalizeNumber(raw: string): string {
  let s = raw.replace(/,/g, '');
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** Folds case and accents (`Café` → `cafe`) so that tokens compare byte for byte. */
export function fold(text: string): string {
  // ASCII has nothing to decompose or strip: skip the (costly) normalisation pass.
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Surface tokens, lowercased, in order: numbers normalised (`30%` → `30`, `$1,250.5` → `1250.5`),
 * possessive `'s` dropped (`company's` → `company`), other apostrophes removed (`don't` → `dont`).
 * No stopword removal, no stemming.
 */
export function words(text: string): string[] {
  return wordsOfFolded(fold(text));
}

/** words() of a text already folded (`fold(text)`), for a caller that needed the fold itself. */
export function wordsOfFolded(folded: string): string[] {
  const out: string[] = [];
  for (const m of folded.matchAll(TOKEN_RE)) out.push(tokenWord(m[0]));
  return out;
}

/** The word of one folded TOKEN_RE match: numbers normalised, apostrophes handled as in words(). */
export function tokenWord(tok: string): string {
  if (tok.charCodeAt(0) >= 48 && tok.charCodeAt(0) <= 57) return normalizeNumber(tok);
  // Most tokens have no apostrophe: skip the two regex passes for them.
  return tok.includes("'") || tok.includes('’') ? tok.replace(/['’]s$/, '').replace(/['’]/g, '') : tok;
}

/** True when `text` is all ASCII (folding is then just lowercasing). */
export function isAscii(text: string): boolean {
  return ASCII_ONLY.test(text);
}

const VOWEL = /[aeiouy]/;

/** `runn` → `run`, `stopp` → `stop`; `fall`, `pass`, `buzz` keep their double letter (as in Porter). */
function undouble(s: string): string {
  const a = s[s.length - 1];
  if (s.length >= 2 && a === s[s.length - 2] && !'aeiouylsz'.includes(a)) return s.slice(0, -1);
  return s;
}

/**
 * Light stemmer, in three fixed steps applied in order (words of 3 letters or fewer and tokens with
 * digits are left alone):
 *  1. plurals: `-ies` → `-y`, `-sses` → `-ss`, `-(sh|ch|x|z)es` → drop `es`, `-s` → drop (but not
 *     `-ss`, `-us`, `-is`);
 *  2. `-ied` → `-y`; `-eed` → `-ee` (words longer than 4); `-ing` / `-ed` dropped when at least three
 *     letters with a vowel remain, then a doubled final consonant is undoubled;
 *  3. a final silent `-e` is dropped (not `-ee`) when more than three letters remain, so that
 *     `increase`, `increases`, `increased`, `increasing` all become `increas`.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let s = word;
  // Step 1: plurals.
  if (s.endsWith('ies') && s.length > 4) s = s.slice(0, -3) + 'y';
  else if (s.endsWith('sses')) s = s.slice(0, -2);
  else if (/(?:sh|ch|x|z)es$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith('s') && !/(?:ss|us|is)$/.test(s)) s = s.slice(0, -1);
  // Step 2: past tense and gerund.
  if (s.endsWith('ied') && s.length > 4) s = s.slice(0, -3) + 'y';
  else if (s.endsWith('eed')) {
    if (s.length > 4) s = s.slice(0, -1);
  } else if (s.endsWith('ing') || s.endsWith('ed')) {
    const rest = s.slice(0, s.endsWith('ing') ? -3 : -2);
    if (rest.length >= 3 && VOWEL.test(rest)) s = undouble(rest);
  }
  // Step 3: silent e.
  if (s.length > 3 && s.endsWith('e') && !s.endsWith('ee')) s = s.slice(0, -1);
  return s;
}

export interface TokenizeOptions {
  /** Drop stopwords (default true). */
  stopwords?: boolean;
  /** Stem words (default true). */
  stem?: boolean;
}

/** Content terms in order (duplicates kept): `words()` minus stopwords, stemmed. */
export function tokenize(text: string, opts: TokenizeOptions = {}): string[] {
  const dropStop = opts.stopwords ?? true;
  const doStem = opts.stem ?? true;
  const out: string[] = [];
  for (const w of words(text)) {
    if (dropStop && STOPWORDS.has(w)) continue;
    out.push(doStem ? stem(w) : w);
  }
  return out;
}

/** Distinct content terms with the first surface word that produced each, in order of appearance. */
export function contentTerms(text: string): Array<{ term: string; word: string }> {
  const seen = new Set<string>();
  const out: Array<{ term: string; word: string }> = [];
  for (const w of words(text)) {
    if (STOPWORDS.has(w)) continue;
    const term = stem(w);
    if (seen.has(term)) continue;
    seen.add(term);
    out.push({ term, word: w });
  }
  return out;
}

/** True when the text contains a digit. */
export function hasNumber(text: string): boolean {
  return /\d/.test(text);
}
