// Text helpers shared by the builders: title normalisation, numbering kinds, the page lines a
// builder reads (layout lines when extraction gave them, plain text lines otherwise), and
// running headers/footers.
//
// Positions: a heading sits at { page, line } where `line` indexes the page text split on "\n"
// (empty lines included), so a node's own text is a slice of the page texts between two positions.
import type { LayoutSpan, PdfContent } from './types.ts';

/** One non-empty line of a page with its position in the page text and its style. */
export interface Line {
  text: string;
  page: number;
  /** Index into `pages[page - 1].split('\n')`. */
  line: number;
  /** Index among the page's non-empty lines. */
  k: number;
  x: number;
  y: number;
  size: number;
  bold: boolean;
  /** Font name ("" when unknown). */
  font: string;
  /** Style runs when the line mixes fonts (LayoutLine.spans). */
  spans?: readonly LayoutSpan[];
}

// One Line[][] per content object: every builder reads the same lines (and caches by Line).
const linesCache = new WeakMap<PdfContent, Line[][]>();

/**
 * The non-empty lines of every page (index 0 = page 1). Without layout, sizes are 0 and y counts
 * down. Computed once per content object; treat the result as read-only.
 */
export function pageLines(content: PdfContent): Line[][] {
  let hit = linesCache.get(content);
  if (!hit) {
    hit = computeLines(content);
    linesCache.set(content, hit);
  }
  return hit;
}

function computeLines(content: PdfContent): Line[][] {
  return content.pages.map((text, i) => {
    const layout = content.layout?.[i];
    const out: Line[] = [];
    let k = 0;
    text.split('\n').forEach((t, line) => {
      if (t.trim() === '') return;
      const l = layout?.lines[k];
      const same = l && l.text === t;
      const o: Line = { text: t, page: i + 1, line, k, x: same ? l.x : 0, y: same ? l.y : -k, size: same ? l.size : 0, bold: same ? l.bold : false, font: same ? l.font : '' };
      if (same && l.spans) o.spans = l.spans;
      out.push(o);
      k++;
    });
    return out;
  });
}

/** Lower case, typographic quotes and dashes folded, punctuation to spaces, blanks collapsed. */
export function normText(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(/'s\b/g, 's')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A numbering prefix and what it says about depth. */
export interface Numbering {
  /** part > chapter > item > section (1.2.3, A.1, I., A., Appendix B) > note; `depth` orders sections. */
  kind: 'part' | 'chapter' | 'item' | 'section' | 'note';
  depth: number;
  /** The title without the prefix (may be empty: "Item 7." alone). */
  rest: string;
}

const capsRest = (m: RegExpMatchArray) => {
  const rest = (m.input ?? '').slice(m[0].length).replace(/[^\p{L}]/gu, '');
  return rest.length > 1 && rest === rest.toUpperCase();
};
const ROMAN = '(?:[IVXLC]{1,6})';
const NUMBERING: [RegExp, (m: RegExpMatchArray) => Omit<Numbering, 'rest'>][] = [
  [new RegExp(`^part\\s+(${ROMAN}|[A-Z]|\\d{1,2})\\b[.:—–-]?\\s*`, 'i'), () => ({ kind: 'part', depth: 0 })],
  [/^(chapter|book|volume)\s+(\d{1,3}|[IVXLC]{1,6})\b[.:—–-]?\s*/i, () => ({ kind: 'chapter', depth: 0 })],
  [/^item\s+\d{1,2}[a-z]?\b[.:—–-]?\s*/i, () => ({ kind: 'item', depth: 0 })],
  // An appendix is a top-level section of its own (its "A.1" subsections nest under it), not a note.
  [/^(appendix|annex)\s+([a-z]|\d{1,3}|[IVXLC]{1,6})\b[.:—–-]?\s*/i, () => ({ kind: 'section', depth: 1 })],
  [/^(note|schedule|exhibit)\s+([a-z]|\d{1,3}(\.\d+)?)\b[.:—–-]?\s*/i, () => ({ kind: 'note', depth: 0 })],
  [/^(section|article)\s+\d{1,3}(\.\d{1,3})*\b[.:—–-]?\s*/i, () => ({ kind: 'section', depth: 1 })],
  [/^(\d{1,3}(?:\.\d{1,3}){0,4})\.?\s+(?=\p{L})/u, (m) => ({ kind: 'section', depth: m[1].split('.').length })],
  // appendix numbering: "A.1 Proofs", "B.2.3 Details" (a letter, then numbers)
  [/^([A-Z](?:\.\d{1,3}){1,4})\.?\s+(?=\p{L})/u, (m) => ({ kind: 'section', depth: m[1].split('.').length })],
  [/^(\d{1,3}(?:\.\d{1,3}){1,4})\s+(?=\S)/u, (m) => ({ kind: 'section', depth: m[1].split('.').length })], // "2.7 100 workout modes"
  // "IV. RESULTS" (roman, depth 1) versus "C. Methods" (a letter, depth 2): a lone letter that
  // could be either is roman only before a title in capitals.
  [new RegExp(`^(${ROMAN})\\.\\s+(?=\\p{L})`, 'u'), (m) => ({ kind: 'section', depth: m[1].length === 1 && !capsRest(m) ? 2 : 1 })],
  [/^([A-Z])\.\s+(?=\p{Lu})/u, () => ({ kind: 'section', depth: 2 })],
];

/** The numbering prefix of a heading ("PART II", "Item 7A.", "Note 12 –", "1.2.3", "A.1", "Appendix B", "IV.", "B."), or null. */
export function numbering(title: string): Numbering | null {
  const t = title.trim();
  for (const [re, f] of NUMBERING) {
    const m = t.match(re);
    if (m) return { ...f(m), rest: t.slice(m[0].length).trim() };
  }
  return null;
}

const romanValue = (r: string): number => {
  const v: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100 };
  let n = 0;
  for (let i = 0; i < r.length; i++) n += v[r[i]] < (v[r[i + 1]] ?? 0) ? -v[r[i]] : v[r[i]];
  return n;
};

/**
 * A section number as a sequence position: its parent ("2" of "2.3", "A" of "A.1", "" for a
 * top-level number, with a marker for its kind of numbering) and its last part as a number
 * ("3", "C" = 3, "IV" = 4). Null when the title has no section number. Sequence checks ask
 * whether a heading's predecessor or successor (or its first sibling) is printed too.
 */
export function sectionKey(title: string): { parent: string; last: number } | null {
  const t = title.trim();
  let m = t.match(/^(?:appendix|annex)\s+([A-Z]|\d{1,3})\b/i);
  if (m) return /\d/.test(m[1]) ? { parent: 'app#', last: Number(m[1]) } : { parent: 'app', last: m[1].toUpperCase().charCodeAt(0) - 64 };
  m = t.match(/^((?:\d{1,3}|[A-Z])(?:\.\d{1,3}){0,4})\.?\s+(?=\p{L})/u) ?? t.match(/^(\d{1,3}(?:\.\d{1,3}){1,4})\s/);
  if (m && numbering(t)?.kind === 'section') {
    const parts = m[1].split('.');
    const last = parts[parts.length - 1];
    const parent = parts.length === 1 ? (/\d/.test(last) ? '#' : 'A') : parts.slice(0, -1).join('.');
    return { parent, last: /\d/.test(last) ? Number(last) : last.charCodeAt(0) - 64 };
  }
  m = t.match(new RegExp(`^(${ROMAN})\\.\\s`));
  if (m) return { parent: 'I', last: romanValue(m[1]) };
  return null;
}

/** Rank of a numbering kind: lower is more important. Unnumbered headings rank last. */
export function numberingRank(n: Numbering | null): number {
  if (!n) return 20;
  switch (n.kind) {
    case 'part':
      return 0;
    case 'chapter':
      return 1;
    case 'item':
      return 2;
    case 'section':
      return 2 + Math.min(n.depth, 6);
    case 'note':
      return 10;
  }
}

/** Font size to the half point: sizes that differ by rounding in the PDF are one size. */
export const sizeBucket = (size: number): number => Math.round(size * 2) / 2;

/** Set in capitals (at least four letters, all upper case). */
export function isCaps(t: string): boolean {
  // A closing parenthesised qualifier is the title's scope, set in the text's own case:
  // "RECENT NOTABLE DEVELOPMENTS (Since May 2, 2023)", "QUARTERLY HIGHLIGHTS (Second-Quarter 2023 vs. …)".
  const letters = t.replace(/\s\([^()]*\)\s*$/, '').replace(/[^\p{L}]/gu, '');
  return letters.length >= 4 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
}

/**
 * A heading's style rank, compared element by element (lower is more important): font size,
 * numbering, bold, capitals. The layout builder nests headings by it; the fanout cap splits a
 * level by it.
 */
export function styleRank(size: number, num: Numbering | null, bold: boolean, title: string): number[] {
  return [-sizeBucket(size), numberingRank(num), bold ? 0 : 1, isCaps(title) ? 0 : 1];
}

export function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** A line that is only a page number ("12", "iv", "Page 3", "3 of 20", "- 4 -"). */
export function isPageNumberLine(text: string): boolean {
  return /^[-–—\s]*(page\s*)?(\d{1,4}|[ivxlc]{1,6})(\s*(of|\/)\s*\d{1,4})?[-–—\s]*$/i.test(text.trim());
}

/** Digits folded to "#": a running header's page number differs from page to page. */
const runningKey = (text: string) => normText(text).replace(/\d+/g, '#').replace(/\b[ivxlc]{1,6}\b$/, '#');

/**
 * Running headers and footers: texts (digits folded) that appear among the first or last three
 * lines of at least a fifth of the pages (and at least three). Returns a predicate that says
 * whether one line is such a running line.
 */
export function runningLines(lines: Line[][]): (l: Line) => boolean {
  // The same document's pages are asked about by the TOC finder, the TOC-like span scan and the
  // layout builder: count once per page set (pageLines caches the pages per content).
  let test = runningCache.get(lines);
  if (!test) runningCache.set(lines, (test = findRunningLines(lines)));
  return test;
}
const runningCache = new WeakMap<Line[][], (l: Line) => boolean>();

function findRunningLines(lines: Line[][]): (l: Line) => boolean {
  const pagesWith = new Map<string, number>();
  // A page's edge lines are its three topmost and three bottommost as printed (a header drawn
  // after the page's table, as statements often are, is still at the top), in content order
  // where the layout gives no positions.
  const atEdge = new Set<Line>();
  for (const page of lines) {
    const printed = page.some((l) => l.y !== page[0].y) ? [...page].sort((a, b) => b.y - a.y || a.k - b.k) : page;
    const edge = new Set<string>();
    for (const l of [...printed.slice(0, 3), ...printed.slice(-3)]) {
      atEdge.add(l);
      edge.add(runningKey(l.text));
    }
    for (const key of edge) pagesWith.set(key, (pagesWith.get(key) ?? 0) + 1);
  }
  const min = Math.max(3, Math.ceil(lines.length / 5));
  const running = new Set([...pagesWith].filter(([, n]) => n >= min).map(([k]) => k));
  return (l: Line) => atEdge.has(l) && running.has(runningKey(l.text));
}

/**
 * Share of the characters that are digits or amount punctuation (table rows, figures). Footnote
 * markers ("(4)") do not count, and a year counts as one letter ("2023 Financial Guidance").
 */
export function digitShare(text: string): number {
  const chars = text.replace(/\(\d{1,2}\)/g, '').replace(/\b(19|20)\d\d\b/g, 'Y').replace(/\s/g, '');
  if (!chars) return 0;
  // separators count only next to a digit ("1,234.5", "(62)"), not in prose ("Roberts, E.")
  return (chars.match(/[\d$€£%]|(?<=\d)[,.)]|[(.-](?=\d)/g)?.length ?? 0) / chars.length;
}
