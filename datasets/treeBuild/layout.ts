// Headings from the page layout (font sizes, bold fonts, numbering, capitals).
//
// Algorithm:
// 1. The body style is the font size carrying most characters (rounded to 0.5 pt) and whether
//    most of those characters are bold.
// 2. A line is a heading candidate when it is short (at most 16 words, 150 characters), starts
//    with a capital or a number, has letters, is not mostly figures or amounts, does not end like
//    a sentence or a clause (".", ",", ";", ":"), is not a running header or footer (a text, digits
//    folded, on the first or last three lines of a fifth of the pages), not a page number, not on
//    a printed table-of-contents page — and stands out: a larger font than the body (x1.12), or
//    bold where the body is not, or a numbering ("PART II", "Item 7A.", "Note 12", "1.2.3",
//    "Chapter 4") in bold, capitals or a larger font, or all capitals at body size or above.
// 3. A heading continued on the next line in the same style (close below it, not numbered
//    itself) is one heading.
// 4. Styles that mark table rows are dropped: a style (size, bold) at body size where fewer than
//    40% of the lines are candidates is a table or emphasis style, unless the line is numbered.
// 5. A style used once, ranking above every other heading, on the first pages, is the document's
//    title, not a section.
// 6. Levels: each heading gets a rank (font size first, then numbering kind: part > chapter >
//    item > 1 > 1.2 > ... > note > unnumbered, then bold, then capitals); a stack nests each
//    heading under the nearest earlier heading of a strictly better rank.
import type { PdfContent } from '../pdf.ts';
import type { Heading } from './assemble.ts';
import { digitShare, isPageNumberLine, numbering, numberingRank, pageLines, runningLines, type Line } from './text.ts';

export interface LayoutHeading extends Heading {
  size: number;
  bold: boolean;
}

export interface LayoutOptions {
  /** Pages to ignore (e.g. the printed table of contents). */
  skipPages?: Set<number>;
}

const MAX_WORDS = 16;
const MAX_CHARS = 150;
const BIGGER = 1.12;

const bucket = (size: number) => Math.round(size * 2) / 2;
const isCaps = (t: string) => {
  const letters = t.replace(/[^\p{L}]/gu, '');
  return letters.length >= 4 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
};

export function layoutHeadings(content: PdfContent, opts: LayoutOptions = {}): LayoutHeading[] {
  const lines = pageLines(content);
  const isRunning = runningLines(lines);
  // 1. body style
  const bySize = new Map<number, number>();
  let boldChars = 0;
  let allChars = 0;
  for (const page of lines) for (const l of page) {
    const n = l.text.length;
    bySize.set(bucket(l.size), (bySize.get(bucket(l.size)) ?? 0) + n);
  }
  const body = [...bySize].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  for (const page of lines) for (const l of page) if (bucket(l.size) === body) {
    allChars += l.text.length;
    if (l.bold) boldChars += l.text.length;
  }
  const bodyBold = boldChars > allChars / 2;
  const hasLayout = body > 0;

  // 2. candidates
  const shapeOk = (l: Line) => {
    const t = l.text.trim();
    if (t.length < 2 || t.length > MAX_CHARS || t.split(/\s+/).length > MAX_WORDS) return false;
    if (!/\p{L}{2}/u.test(t) || !/^[\p{Lu}\p{N}(“"']/u.test(t)) return false;
    const num = numbering(t);
    const rest = num ? num.rest : t;
    if (digitShare(rest) > 0.25 || /[$€£]/.test(rest)) return false;
    if (/[,;:]$/.test(t)) return false;
    if (/\.$/.test(t) && !(num && num.rest === '') && rest.split(/\s+/).length > 3) return false;
    if (isPageNumberLine(t)) return false;
    return true;
  };
  const standsOut = (l: Line) => {
    if (!hasLayout) return numbering(l.text) !== null;
    const bigger = l.size >= body * BIGGER;
    const bold = l.bold && !bodyBold;
    const caps = isCaps(l.text) && l.size >= body - 0.25;
    const num = numbering(l.text);
    return bigger || bold || (num !== null && (bold || caps || l.size > body)) || caps;
  };
  const styleKey = (l: Line) => `${bucket(l.size)}|${l.bold ? 'b' : ''}`;
  const styleAll = new Map<string, number>();
  const styleCand = new Map<string, number>();
  const cands: Line[] = [];
  for (const page of lines) {
    if (opts.skipPages?.has(page[0]?.page ?? 0)) continue;
    for (const l of page) {
      styleAll.set(styleKey(l), (styleAll.get(styleKey(l)) ?? 0) + 1);
      if (isRunning(l) || !shapeOk(l) || !standsOut(l)) continue;
      styleCand.set(styleKey(l), (styleCand.get(styleKey(l)) ?? 0) + 1);
      cands.push(l);
    }
  }
  // 4. table and emphasis styles
  const kept = cands.filter((l) => {
    if (!hasLayout || l.size >= body * 1.3 || numbering(l.text)) return true;
    const k = styleKey(l);
    return (styleCand.get(k) ?? 0) >= 0.4 * (styleAll.get(k) ?? 1);
  });
  // 3. merge continuation lines
  const heads: { first: Line; title: string; num: ReturnType<typeof numbering> }[] = [];
  for (const l of kept) {
    const prev = heads[heads.length - 1];
    const last = prev && (prev as { lastLine?: Line }).lastLine;
    if (
      prev && last && last.page === l.page && l.k === last.k + 1 && bucket(l.size) === bucket(last.size) && l.bold === last.bold &&
      !numbering(l.text) && Math.abs(last.y - l.y) <= 1.6 * Math.max(l.size, 1) && prev.title.length + l.text.length <= MAX_CHARS
    ) {
      prev.title = `${prev.title} ${l.text.trim()}`;
      (prev as { lastLine?: Line }).lastLine = l;
      continue;
    }
    const h = { first: l, title: l.text.trim(), num: numbering(l.text), lastLine: l };
    heads.push(h);
  }
  // 6. ranks
  const rank = (h: (typeof heads)[number]) => [-bucket(h.first.size), numberingRank(h.num), h.first.bold ? 0 : 1, isCaps(h.title) ? 0 : 1];
  const cmp = (a: number[], b: number[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return 0;
  };
  // 5. the document title
  if (heads.length > 2) {
    const ranks = heads.map(rank);
    let best = 0;
    for (let i = 1; i < heads.length; i++) if (cmp(ranks[i], ranks[best]) < 0) best = i;
    const same = ranks.filter((r) => cmp(r, ranks[best]) === 0).length;
    if (same === 1 && heads[best].first.page <= 2 && !heads[best].num) heads.splice(best, 1);
  }
  const out: LayoutHeading[] = [];
  const stack: number[][] = [];
  for (const h of heads) {
    const r = rank(h);
    while (stack.length && cmp(stack[stack.length - 1], r) >= 0) stack.pop();
    stack.push(r);
    out.push({ title: h.title, page: h.first.page, line: h.first.line, level: stack.length, size: h.first.size, bold: h.first.bold });
  }
  return out;
}
