// Finding a title on a page: the line where a heading with that title starts.
//
// A line matches when its normalised text equals the title, or is the start of the title and
// the next one or two lines complete it (a heading wrapped over lines), or begins with the
// title and adds at most a few words (a page number, "(continued)"). Case, punctuation,
// typographic quotes and blanks are ignored; so are blanks inside words, because extraction
// often splits a word where the font kerns it ("Busines s.", "RESULTS OF OPERATI ONS").
//
// Looser forms, tried only when asked (a TOC entry is looked up near its expected page, where a
// loose match is safe; elsewhere it would find prose):
// - a line whose own numbering prefix the title lacks ("ITEM 2. MANAGEMENT'S DISCUSSION…" for
//   the entry "Management's Discussion…" printed under a separate "Item 2." label);
// - a title's list label dropped ("a) Condensed Consolidated Balance Sheets") and its qualifier
//   cut off: the printed heading is often the title's head, with the dates and periods left to a
//   subtitle ("Condensed Consolidated Balance Sheets" for "… Balance Sheets as of July 29, 2023").
//   The head must end where a qualifier starts (",", "(", "as of", "for the", …) and keep at
//   least two words;
// - a line that continues the title by a few more words (the TOC shortened the heading), or
//   stops short of it (the heading is the shorter one: three words and half the title at least);
// - a line with the same item or note number as the title and mostly the same words ("Item 15.
//   Exhibits and Financial Statement Schedules" for "Item 15. Exhibits, Financial Statement
//   Schedules"): the number anchors it, the words only have to agree.
import { normText, numbering, type Line } from './text.ts';

export interface Match {
  line: Line;
  /**
   * 0 exact, 1 wrapped over lines, 2 with a short tail, 3 the line's numbering prefix ignored,
   * 4 the title's head only, cut short or with a longer tail, 5 the same number reworded (loose forms).
   */
  quality: number;
}

export interface FindOptions {
  skip?: (l: Line) => boolean;
  /** Also try the loose forms (qualities 3 to 5, see Match.quality). */
  loose?: boolean;
}

const MAX_TAIL_CHARS = 16;
/** A TOC may shorten a heading: "Note 5. Restructuring Actions" for "… Actions and Exit Activities". */
const MAX_LOOSE_TAIL_CHARS = 48;

// What the search reads of a line, computed once per line: findTitle visits every line of the
// pages searched, once per title looked up (a TOC entry is looked up on every page).
function perLine<T>(f: (l: Line) => T): (l: Line) => T {
  const memo = new WeakMap<Line, T>();
  return (l) => {
    if (memo.has(l)) return memo.get(l)!;
    const v = f(l);
    memo.set(l, v);
    return v;
  };
}
const compact = (s: string) => s.replace(/ /g, '');
/** The line's normalised text. */
const norm = perLine((l) => normText(l.text));
const lineNumbering = perLine((l) => numbering(l.text));
/** The line without its numbering prefix ("Item 2.", "A.", "Note 4 –"), normalised; "" if none. */
const normRest = perLine((l) => {
  const num = lineNumbering(l);
  return num && num.rest ? normText(num.rest) : '';
});
const normCompact = perLine((l) => compact(norm(l)));
const restCompact = perLine((l) => compact(normRest(l)));

/** A list label before an entry: "a)", "(b)", "iv)", "3)". */
const LIST_LABEL = /^\(?(?:[a-z]|[ivx]{1,4}|\d{1,2})\)\s+/i;
/** Where a qualifier starts: punctuation or a phrase of dates and periods. */
const QUALIFIER = /\s*(?:[,:;(–—]|\s-\s)|\s+(?=(?:as of|as at|for the|at|ended|through|dated|from)\b)/gi;

/** The title's head before its first qualifier ("… Balance Sheets" of "… Balance Sheets as of …"). */
export function titleHead(title: string): string | null {
  const t = title.replace(LIST_LABEL, '').trim();
  for (const m of t.matchAll(QUALIFIER)) {
    const head = t.slice(0, m.index).trim();
    if (head.split(/\s+/).length >= 2 && normText(head).length >= 12) return head;
  }
  return null;
}

/** Share of words two texts have in common (Dice coefficient over word sets). */
export function wordOverlap(a: string, b: string): number {
  const x = new Set(normText(a).split(' ').filter(Boolean));
  const y = new Set(normText(b).split(' ').filter(Boolean));
  if (!x.size || !y.size) return 0;
  let common = 0;
  for (const w of x) if (y.has(w)) common++;
  return (2 * common) / (x.size + y.size);
}

const MIN_REWORDED_OVERLAP = 0.7;
const label = (text: string, rest: string) => normText(text.trim().slice(0, text.trim().length - rest.length));

/** Same "Item 5" / "Note 12" number on both, and most of the words after it shared (`a`: the title's numbering). */
function sameNumberReworded(title: string, a: ReturnType<typeof numbering>, l: Line): boolean {
  if (!a || (a.kind !== 'item' && a.kind !== 'note') || a.rest.split(/\s+/).length < 2) return false;
  const b = lineNumbering(l);
  if (!b || b.kind !== a.kind || label(title, a.rest) !== label(l.text, b.rest)) return false;
  return wordOverlap(a.rest, b.rest) >= MIN_REWORDED_OVERLAP;
}

/**
 * The printed heading is the title cut short at a word ("Management's Discussion and Analysis"
 * for "… and Analysis of Financial Condition and Results of Operations"): at least three words
 * and half the title's characters.
 */
const MIN_TRUNCATED_WORDS = 3;
const MIN_TRUNCATED_SHARE = 0.5;
function truncated(t: string, a: string): boolean {
  return t.startsWith(a + ' ') && a.split(' ').length >= MIN_TRUNCATED_WORDS && a.length >= MIN_TRUNCATED_SHARE * t.length;
}

/** How `t` (normalised title; `tc` compacted) matches line i's text `a` (`ac` compacted), or -1. */
function matchAt(t: string, tc: string, a: string, ac: string, lines: Line[], i: number): number {
  if (ac === tc) return 0;
  if (tc.startsWith(ac) && a.length >= Math.min(8, t.length)) {
    let joined = ac;
    for (let j = i + 1; j < Math.min(lines.length, i + 3) && joined.length < tc.length; j++) {
      joined += normCompact(lines[j]);
      if (joined === tc) return 1;
    }
    // a wrapped heading followed by a short tail on its last line
    let words = a;
    for (let j = i + 1; j < Math.min(lines.length, i + 3) && words.length < t.length; j++) {
      words = `${words} ${norm(lines[j])}`;
      if (words.startsWith(t + ' ') && words.length - t.length <= MAX_TAIL_CHARS) return 1;
    }
  }
  if (a.startsWith(t + ' ') && a.length - t.length <= MAX_TAIL_CHARS) return 2;
  return -1;
}

export function findTitle(title: string, lines: Line[], options: FindOptions | ((l: Line) => boolean) = {}): Match | null {
  const { skip, loose } = typeof options === 'function' ? { skip: options, loose: false } : options;
  const t = normText(title);
  if (!t) return null;
  const tc = compact(t);
  const titleNumbering = numbering(title);
  const label = title.replace(LIST_LABEL, '');
  const unlabelled = label !== title ? normText(label) : null;
  const uc = unlabelled === null ? '' : compact(unlabelled);
  const head = loose ? titleHead(title) : null;
  const h = head ? normText(head) : null;
  const hc = h === null ? '' : compact(h);
  let best: Match | null = null;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (skip?.(l)) continue;
    const a = norm(l);
    if (!a) continue;
    const ac = normCompact(l);
    let quality = matchAt(t, tc, a, ac, lines, i);
    if (quality < 0 && loose) {
      const rest = titleNumbering !== null ? '' : normRest(l);
      const rc = rest ? restCompact(l) : '';
      if (unlabelled && (matchAt(unlabelled, uc, a, ac, lines, i) >= 0 || (rest && matchAt(unlabelled, uc, rest, rc, lines, i) >= 0))) quality = 3;
      else if (rest && matchAt(t, tc, rest, rc, lines, i) >= 0) quality = 3;
      else if (h && (ac === hc || (rest && rc === hc))) quality = 4;
      else if (t.length >= 12 && t.includes(' ') && a.startsWith(t + ' ') && a.length - t.length <= MAX_LOOSE_TAIL_CHARS) quality = 4;
      else if (truncated(t, a) || (rest && truncated(t, rest))) quality = 4;
      else if (sameNumberReworded(title, titleNumbering, l)) quality = 5;
    }
    if (quality >= 0 && (!best || quality < best.quality)) best = { line: l, quality };
    if (best?.quality === 0) break;
  }
  return best;
}
