// Tree from a printed table of contents.
//
// Algorithm:
// 1. Entries. On each of the first pages, a line ending in a page number (after blanks or a dot
//    leader: "1.2 Charging ........ 7", "Item 7. Management's Discussion 23") is an entry; so is
//    a title line followed, on the same row (a table laid out in cells), by a line holding only a
//    number. Lines in the TOC without a number that carry a part or chapter numbering ("Part II")
//    are group entries: they take the page of the entry that follows. An entry begun on the line
//    above under its item label ("Item 2." alone, or "Item 5. Market … of Equity" wrapped before
//    "Securities 19") takes that line's text in front of its own. An item without a page number
//    with two entries or more indented under it ("Item 1." over "Financial Statements", then the
//    statements) is a group entry too; its "(continued)" repeat on the next TOC page is not.
// 2. TOC pages. A page is a TOC page when at least 4 entries make up at least 30% of its lines
//    (3 entries when the page says "contents"), their titles are words rather than figures, their
//    numbers are not all equal and mostly do not decrease (a table of figures fails here), and no
//    number is beyond the document by far. A page whose entries are mostly captions ("Figure 3
//    …", "Table 2 …") is a list of figures or tables, not contents. The TOC is the first run of
//    consecutive TOC pages starting among the first MAX_TOC_START + 1 pages, or, on a page that
//    says "Contents", the first 15% of a longer document (contents after a long cover and front
//    matter). TOC-like pages elsewhere
//    (an exhibit's own contents) are no headings either: tocLikeSpans finds them for the layout.
// 3. Levels. Part/chapter entries are level 1; the others are nested under them. Among the rest,
//    numbered entries ("1", "1.2", "1.2.3") take their numbering depth; otherwise indentation
//    (distinct left edges, in steps of 4 pt or more) gives the level.
// 4. Physical pages. The printed number is not the physical page: cover pages, roman front
//    matter and inserted exhibits shift it, and not by a constant. Each entry's title is looked
//    up on every page after the TOC (findTitle, loose forms included: see locate.ts); an entry
//    found on exactly one page by its best kind of match gives an offset (physical − printed).
//    Each entry then takes, within MAX_DRIFT pages of its printed number plus the median offset
//    of its nearest confidently located neighbours (so each part of a filing keeps its own
//    offset), the match of the best kind closest to that page. An entry found nowhere near is
//    unlocated: reported, not guessed, and left out of the tree. Entries need not be in page
//    order (a contents may list Part II before Part I's notes): those in the longest run going
//    forward in TOC order are kept, and each other one on its own evidence (its title printed
//    as a heading, not a loose form); the tree nests them in page order.
//    Group entries are placed last to first: "PART I" starts where its first item group does.
// 5. The TOC pages become a node of their own, titled by their heading ("Contents").
import type { PdfContent } from './types.ts';
import type { Heading } from './assemble.ts';
import { findTitle, type Match } from './locate.ts';
import { digitShare, numbering, pageLines, runningLines, type Line } from './text.ts';

export interface TocEntry {
  title: string;
  /** The printed page number; null for a group entry ("Part II") or a roman one. */
  printed: number | null;
  level: number;
  /** Where the entry sits in the TOC. */
  tocPage: number;
  x: number;
}

export interface TocResult {
  tocPages: number[];
  entries: TocEntry[];
  headings: Heading[];
  unlocated: string[];
}

const MAX_TOC_START = 20;
/** In a long document, the table of contents may start this far in (share of its pages). */
const TOC_START_SHARE = 0.15;
const MAX_DRIFT = 4;
export const ENTRY = /^(.*?\p{L}.*?)(?:\s*(?:\.\s*){2,}|\s*[·…_]{2,}\s*|\s+)(\d{1,4}|[ivxlc]{1,6})$/u;
/**
 * ENTRY's match of a trimmed line. Its lazy groups make the regex slow on a long line that does
 * not match, and most lines (prose) end in neither a digit nor i, v, x, l, c: those are refused
 * before it runs (ENTRY cannot match them), which leaves the result unchanged.
 */
export function entryMatch(trimmed: string): RegExpMatchArray | null {
  const c = trimmed.charCodeAt(trimmed.length - 1);
  if (!((c >= 48 && c <= 57) || c === 105 || c === 118 || c === 120 || c === 108 || c === 99)) return null;
  return trimmed.match(ENTRY);
}
const isEntry = (trimmed: string): boolean => entryMatch(trimmed) !== null;

interface RawEntry {
  title: string;
  num: string | null;
  line: Line;
}

/** "ITEM 8 … (continued)": an entry repeated at the top of the TOC's next page. */
const CONTINUED = /\bcontinued\W*$/i;

/**
 * An entry's title begun on the line above: "Item 2." alone, or "Item 5. Market for … of Equity"
 * wrapped before "Securities 19". The line above carries an item, note or section number and no
 * page number, the entry line has no number of its own, starts at or right of it and sits just
 * below. Returns that line's index, or null.
 */
function wrappedHead(page: Line[], i: number, used: Set<number>, title: string): number | null {
  const prev = page[i - 1];
  const l = page[i];
  if (!prev || used.has(i - 1) || numbering(title)) return null;
  const num = numbering(prev.text);
  if (!num || num.kind === 'part' || num.kind === 'chapter' || isEntry(prev.text.trim()) || CONTINUED.test(prev.text)) return null;
  const size = l.size || prev.size;
  const close = size > 0 ? Math.abs(prev.y - l.y) <= 1.8 * size : true;
  return close && l.x >= prev.x - 1 ? i - 1 : null;
}

/**
 * An item without a page number whose entries follow indented under it ("Item 1." over
 * "Financial Statements", then "Condensed … Income 5" further right): a group entry, titled
 * with its label and the title line below it. An item with no page number and fewer than two
 * entries indented under it ("Item 6. [Reserved]", a title wrapped before its number) is no group,
 * nor is an item repeated "(continued)" on the TOC's next page.
 */
function itemGroup(page: Line[], i: number): { title: string; last: number } | null {
  const l = page[i];
  const num = numbering(l.text);
  if (!num || isEntry(l.text.trim())) return null;
  let title = l.text.trim();
  let last = i;
  const next = page[i + 1];
  const below = (a: Line, b: Line) => (b.size || a.size) === 0 || Math.abs(a.y - b.y) <= 1.8 * (b.size || a.size);
  if (num.rest === '' && next && !numbering(next.text) && !isEntry(next.text.trim()) && below(l, next)) {
    title = `${title} ${next.text.trim()}`;
    last = i + 1;
  }
  // "ITEM 8 … (continued)" at the top of a TOC's second page repeats an entry of the first
  if (!/\p{L}{2}/u.test(numbering(title)?.rest ?? '') || CONTINUED.test(title)) return null;
  // two entries or more indented under it: one alone is more likely the item's own title
  // wrapped onto the next line ("Item 5. Market for … of Equity" over "Securities 19")
  const indent = Math.max(l.x, page[last].x) + 4;
  let under = 0;
  for (let j = last + 1; j < page.length && isEntry(page[j].text.trim()) && !numbering(page[j].text) && page[j].x >= indent; j++) under++;
  return under >= 2 ? { title, last } : null;
}

/** Entries of one page (numbered ones and group candidates). */
function pageEntries(page: Line[]): RawEntry[] {
  const out: RawEntry[] = [];
  const used = new Set<number>();
  page.forEach((l, i) => {
    const t = l.text.trim();
    // a number alone on its line: the page number of the same row's title (table layout)
    if (/^\d{1,4}$/.test(t)) {
      for (let j = i - 1; j >= Math.max(0, i - 4); j--) {
        const row = page[j];
        if (used.has(j)) break;
        if (Math.abs(row.y - l.y) <= Math.max(2, 0.5 * l.size) && row.size > 0 && /\p{L}{2}/u.test(row.text)) {
          const title = page.slice(j, i).map((x) => x.text.trim()).join(' ');
          for (let k = j; k < i; k++) used.add(k);
          used.add(i);
          out.push({ title, num: t, line: row });
          break;
        }
      }
      return;
    }
    if (used.has(i)) return;
    const m = entryMatch(t);
    if (m && !/[$€£%]/.test(m[1]) && digitShare(numbering(m[1])?.rest ?? m[1]) < 0.3) {
      const title = m[1].replace(/[\s.·…_]+$/, '').trim();
      const head = wrappedHead(page, i, used, title);
      if (head !== null) used.add(i - 1);
      out.push(head !== null ? { title: `${page[i - 1].text.trim()} ${title}`, num: m[2], line: page[i - 1] } : { title, num: m[2], line: l });
      used.add(i);
      return;
    }
    const num = numbering(t);
    // the column header "Page" often shares the first group's row
    if (num && (num.kind === 'part' || num.kind === 'chapter') && t.split(/\s+/).length <= 12) out.push({ title: t.replace(/\s+page$/i, ''), num: null, line: l });
    else if (num?.kind === 'item') {
      const group = itemGroup(page, i);
      if (group) {
        for (let k = i; k <= group.last; k++) used.add(k);
        out.push({ title: group.title, num: null, line: l });
      }
    }
  });
  return out;
}

/** A printed page number beyond this is a year or an amount, not a page. */
const maxPrinted = (pageCount: number) => pageCount + 20;

/**
 * How far into a document its table of contents may start: the first MAX_TOC_START + 1 pages, or
 * the first TOC_START_SHARE of a longer document (a manual's contents after a long cover, legal
 * notices and a preface), so the search stays proportional to the document.
 */
export function tocSearchPages(pageCount: number): number {
  return Math.max(MAX_TOC_START + 1, Math.ceil(TOC_START_SHARE * pageCount));
}

const saysContents = (page: Line[]) => page.some((l) => /\bcontents\b/i.test(l.text) && l.text.trim().length < 60);

/** The page's entries, without numbers beyond the document (years, amounts). */
function tocEntriesOf(page: Line[], pageCount: number): RawEntry[] {
  return pageEntries(page).filter((e) => e.num === null || !/^\d+$/.test(e.num) || Number(e.num) <= maxPrinted(pageCount));
}

/** The next page of a table of contents already begun: two numbered entries or more, 30% of its lines. */
function continuesToc(page: Line[], entries: RawEntry[]): boolean {
  const numbered = entries.filter((e) => e.num).length;
  return numbered >= 2 && numbered >= 0.3 * page.length;
}

/**
 * A list of figures or tables ("Figure 3 Revenue by segment …… 45"): most entries are captions.
 * It reads like a table of contents but lists no sections.
 */
const CAPTION = /^(figure|fig\.|table|chart|exhibit|plate|map|graph|illustration)\s*[\dIVX]/i;
function isListOfCaptions(entries: RawEntry[]): boolean {
  const numbered = entries.filter((e) => e.num !== null);
  return numbered.length > 0 && numbered.filter((e) => CAPTION.test(e.title)).length >= 0.5 * numbered.length;
}

/**
 * Pages that read as a table of contents or a list of figures, wherever they are (an exhibit's
 * own contents near the end of a filing, the index to a 10-K's financial statements), each with
 * the span of its entry lines (first and last line index, `Line.k`): those lines are entries, not
 * headings, so the layout builder skips them. The lines above the entries ("Item 8. Financial
 * Statements…" over an index) stay candidates.
 */
export function tocLikeSpans(content: PdfContent): ReadonlyMap<number, [number, number]> {
  // Asked for by both the TOC builder (for inner headings) and the layout builder in `auto`.
  let spans = spansCache.get(content);
  if (!spans) spansCache.set(content, (spans = findTocLikeSpans(content)));
  return spans;
}
const spansCache = new WeakMap<PdfContent, ReadonlyMap<number, [number, number]>>();

function findTocLikeSpans(content: PdfContent): Map<number, [number, number]> {
  const all = pageLines(content);
  const isRunning = runningLines(all);
  const out = new Map<number, [number, number]>();
  all.forEach((page, i) => {
    const lines = page.filter((l) => !isRunning(l));
    const entries = tocEntriesOf(lines, content.pageCount);
    if (!isTocPage(lines, entries)) return;
    const ks = entries.map((e) => e.line.k);
    out.set(i + 1, [Math.min(...ks), Math.max(...ks)]);
  });
  return out;
}

function isTocPage(page: Line[], entries: RawEntry[]): boolean {
  const numbered = entries.filter((e) => e.num !== null);
  const says = page.some((l) => /\b(contents|index)\b/i.test(l.text) && l.text.length < 60);
  if (numbered.length < (says ? 3 : 4) || numbered.length < 0.3 * page.length) return false;
  const values = numbered.map((e) => (/^\d+$/.test(e.num!) ? Number(e.num) : -1)).filter((v) => v >= 0);
  if (values.length < Math.min(3, numbered.length)) return values.length === 0 && says; // roman-only front matter TOC
  if (new Set(values).size < 2 && values.length > 2) return false;
  let ups = 0;
  for (let i = 1; i < values.length; i++) if (values[i] >= values[i - 1]) ups++;
  return ups >= 0.8 * (values.length - 1);
}

/** Detects and parses the printed TOC; null when there is none. */
export function findToc(content: PdfContent): { tocPages: number[]; entries: TocEntry[] } | null {
  const all = pageLines(content);
  const isRunning = runningLines(all);
  const lines = all.map((page) => page.filter((l) => !isRunning(l)));
  const pageCount = content.pageCount;
  const tocPages: number[] = [];
  const raw: RawEntry[] = [];
  for (let p = 1; p <= Math.min(pageCount, tocSearchPages(pageCount)); p++) {
    const entries = tocEntriesOf(lines[p - 1], pageCount);
    // past the first pages, a run starts only on a page titled "Contents" (a table of figures
    // whose numbers grow down the page reads like one too)
    const starts = isTocPage(lines[p - 1], entries) && (p <= MAX_TOC_START + 1 || saysContents(lines[p - 1]));
    const is = !isListOfCaptions(entries) && (starts || (tocPages.length > 0 && continuesToc(lines[p - 1], entries)));
    if (is) {
      tocPages.push(p);
      raw.push(...entries);
    } else if (tocPages.length) break;
  }
  if (!tocPages.length) return null;
  // group entries only count between numbered ones
  const firstNum = raw.findIndex((e) => e.num !== null);
  // (and the one or two just before the first: "PART I", "Item 1. Financial Statements")
  const item = (e: RawEntry | undefined) => e !== undefined && e.num === null && numbering(e.title)?.kind === 'item';
  const kept = raw.filter((e, i) => e.num !== null || i >= firstNum - (item(raw[firstNum - 1]) ? 2 : 1));
  return { tocPages, entries: levels(kept) };
}

function levels(raw: RawEntry[]): TocEntry[] {
  const nums = raw.map((e) => numbering(e.title));
  const groups = nums.map((n) => n !== null && (n.kind === 'part' || n.kind === 'chapter'));
  const hasGroups = groups.some(Boolean) && groups.some((g) => !g);
  const sectioned = nums.filter((n) => n?.kind === 'section').length >= 0.6 * raw.filter((_, i) => !groups[i]).length;
  const xs = [...new Set(raw.filter((_, i) => !groups[i]).map((e) => Math.round(e.line.x)))].sort((a, b) => a - b);
  const xLevels: number[] = [];
  for (const x of xs) if (!xLevels.length || x - xLevels[xLevels.length - 1] >= 4) xLevels.push(x);
  const xLevel = (x: number) => {
    let lv = 0;
    for (let i = 0; i < xLevels.length; i++) if (Math.round(x) >= xLevels[i]) lv = i;
    return lv + 1;
  };
  return raw.map((e, i) => {
    let level: number;
    if (groups[i]) level = 1;
    else {
      const n = nums[i];
      level = sectioned && n?.kind === 'section' ? n.depth : sectioned ? 1 : Math.min(xLevel(e.line.x), 4);
      if (hasGroups) level += 1;
    }
    const printed = e.num !== null && /^\d+$/.test(e.num) ? Number(e.num) : null;
    return { title: e.title, printed, level, tocPage: e.line.page, x: e.line.x };
  });
}

/**
 * The indices of the longest non-decreasing subsequence of the given positions (nulls skipped),
 * the earliest such run on ties: the entries that agree with each other on page order.
 */
export function forwardChain(pos: (number | null)[]): Set<number> {
  const idx = pos.map((p, i) => (p === null ? -1 : i)).filter((i) => i >= 0);
  // patience sorting, O(n log n): tails[k] = index ending the best run of length k + 1
  const tails: number[] = [];
  const prev = new Map<number, number>();
  for (const i of idx) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pos[tails[mid]]! <= pos[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev.set(i, tails[lo - 1]);
    tails[lo] = i;
  }
  const out = new Set<number>();
  let k = tails.length ? tails[tails.length - 1] : undefined;
  while (k !== undefined) {
    out.add(k);
    k = prev.get(k);
  }
  return out;
}

/** Maps TOC entries to physical pages and heading lines. */
export function locateToc(content: PdfContent, toc: { tocPages: number[]; entries: TocEntry[] }): TocResult {
  const lines = pageLines(content);
  const after = Math.max(...toc.tocPages) + 1;
  const found: { page: number; match: Match }[][] = toc.entries.map((e) => {
    const hits: { page: number; match: Match }[] = [];
    for (let p = after; p <= content.pageCount; p++) {
      const m = findTitle(e.title, lines[p - 1], { loose: true });
      if (m) hits.push({ page: p, match: m });
    }
    return hits;
  });
  // An offset is trusted from a title printed on one page only, by its best kind of match, and
  // not from a title's head alone (a loose form that short phrases share).
  const confident: { i: number; offset: number }[] = [];
  toc.entries.forEach((e, i) => {
    const best = Math.min(...found[i].map((h) => h.match.quality));
    const top = found[i].filter((h) => h.match.quality === best);
    if (e.printed !== null && top.length === 1 && best < 4) confident.push({ i, offset: top[0].page - e.printed });
  });
  const median = (v: number[]) => {
    const s = [...v].sort((a, b) => a - b);
    return s.length ? s[Math.floor((s.length - 1) / 2)] : 0;
  };
  const globalOffset = median(confident.map((c) => c.offset));
  const quality: (number | undefined)[] = [];
  const located: ({ page: number; line: number } | null)[] = toc.entries.map((e, i) => {
    if (!found[i].length) return null;
    if (e.printed === null) return null; // groups: placed after the others
    const near = [...confident].sort((a, b) => Math.abs(a.i - i) - Math.abs(b.i - i)).slice(0, 3);
    const offset = near.length ? median(near.map((c) => c.offset)) : globalOffset;
    const expected = e.printed + offset;
    // Near the expected page, the closest match of the best kind: a strict match elsewhere in
    // the document (the same words in a note) does not hide a looser one where the entry is.
    const best = found[i]
      .filter((h) => Math.abs(h.page - expected) <= MAX_DRIFT)
      .sort((a, b) => a.match.quality - b.match.quality || Math.abs(a.page - expected) - Math.abs(b.page - expected))[0];
    if (!best) return null;
    quality[i] = best.match.quality;
    return { page: best.page, line: best.match.line.line };
  });
  // group entries ("Part II"): their own title near the next located entry, else that entry's
  // page; the last first, so that "PART I" sees where its first group ("Item 1. …") starts
  for (let i = toc.entries.length - 1; i >= 0; i--) {
    const e = toc.entries[i];
    if (e.printed !== null) continue;
    const next = located.slice(i + 1).find((x) => x !== null);
    if (!next) continue;
    const hit = found[i]
      .filter((h) => (h.page < next.page || (h.page === next.page && h.match.line.line <= next.line)) && h.page >= next.page - 2)
      .sort((a, b) => b.page - a.page || b.match.line.line - a.match.line.line)[0];
    located[i] = hit ? { page: hit.page, line: hit.match.line.line } : { page: next.page, line: next.line };
    // a group takes its evidence from its own title, else from the entry it opens
    quality[i] = hit ? hit.match.quality : quality[located.indexOf(next)];
  }
  // Out of page order. A printed contents may list entries out of page order (a 10-Q that
  // prints Part II before Part I's notes), and a wrong match may jump ahead: the entries in the
  // longest run that goes forward in TOC order are kept; each other entry is kept on its own
  // evidence — its title printed on the page as a heading (an exact, wrapped or short-tailed
  // match, not a loose form) near its expected page — and dropped otherwise.
  const order = (loc: { page: number; line: number }) => loc.page * 1e6 + loc.line;
  const chain = forwardChain(located.map((loc) => (loc ? order(loc) : null)));
  located.forEach((loc, i) => {
    if (!loc || chain.has(i)) return;
    if ((quality[i] ?? Infinity) > 2) located[i] = null;
  });
  const headings: Heading[] = [];
  const unlocated: string[] = [];
  // The table of contents is a section of its own, titled as printed ("Contents").
  const first = toc.tocPages[0];
  const named = lines[first - 1].find((l) => /\b(contents|index)\b/i.test(l.text) && l.text.length <= 40);
  const top = Math.min(...toc.entries.map((e) => e.level));
  headings.push({ title: named?.text.trim() ?? 'Table of contents', page: first, line: named?.line ?? 0, level: top });
  toc.entries.forEach((e, i) => {
    const loc = located[i];
    if (loc) headings.push({ title: e.title, page: loc.page, line: loc.line, level: e.level });
    else unlocated.push(e.title);
  });
  return { tocPages: toc.tocPages, entries: toc.entries, headings, unlocated };
}

