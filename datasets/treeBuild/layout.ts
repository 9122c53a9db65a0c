// Headings from the page layout (font sizes, bold and italic fonts, numbering, capitals).
//
// Algorithm:
// 1. The body style is the font size carrying most characters of prose lines (six words or
//    more, few figures; rounded to 0.5 pt) and whether most of those characters are bold.
// 2. A line is a heading candidate when it is short (at most 16 words, 150 characters), starts
//    with a capital, a digit or a quote, has letters, is not mostly figures or amounts (a dated
//    qualifier in parentheses, "(Since May 2, 2023)", is no figure), does not
//    end like a clause (",", ";", ":" unless in capitals, or in Title Case over prose and not
//    centred nor among a form's labels: "Guidance and Outlook:") or a sentence, is not a
//    running header or footer (a text, digits folded, on the first or last three lines of a
//    fifth of the pages), not a page number,
//    not on a printed table-of-contents page nor among the entries of a TOC-like page elsewhere
//    (an exhibit's own contents: toc.ts's tocLikeSpans), not a figure's or table's caption
//    ("Figure 2: …", "Table 4.1.", "TABLE II") with body text below it on its page — and stands out: a larger font than the body
//    (x1.12), or bold where the body is not, or all capitals (at body size, or, on a page set in
//    smaller type such as a statement or a table of figures, among the page's first three lines
//    and at least 0.9 × the page's own size; first as printed, top down), or a numbering ("PART II",
//    "Item 7A.", "Note 12", "1.2.3", "IV.", "B.", "Chapter 4") in bold, italic, capitals or a
//    larger font.
// 3. Guards for lines that stand out without being headings: a candidate must start a block
//    (not continue the line above it in the same style, at normal line spacing — 1.6 font sizes,
//    or 1.1 × the body's own median pitch in a double-spaced document — starting near the same
//    left edge: wrapped bullet points, a paragraph's last line "U.S. GAAP."); at body size it must not head a table (the
//    next line mostly figures) unless it opens its page, must have no cell (up to 4 words, or
//    mostly figures) beside it on its row, and, unless in capitals or centred, must start in
//    the left 40% of the page (table cells and column headers); no line holding two or more
//    figures is a heading; nor is a line inside a table of figures (between its first and last
//    rows of two figures or more, no prose between them: tableInterior), unless much larger
//    than the body; nor is text drawn inside a figure (figureInterior: a drawn region of the
//    page — a cluster of painted vector paths and images, pdf-worker.mjs "Drawings" — with an
//    image or two paths or more, whose text is at most half prose and which is at least three
//    times as tall as its largest line: a diagram's labels, not a box round one heading nor a
//    framed paragraph), unless it is a caption or its second line (2b decides those) or much
//    larger than the body.
//    A style (size, bold) at body size where fewer than 10% of the lines
//    are candidates is a table or emphasis style, unless the line is numbered or in capitals.
//    Run-in heads: a line whose first style run is bold and ends in ".", ":" or a dash, followed
//    by regular text on the same line ("Depreciation. Depreciation of property is computed …",
//    LayoutLine.spans), opening its paragraph (the line above ends a sentence, is in another
//    style or far above), is a paragraph and never a heading as a whole; when the document prints
//    MIN_RUN_INS of them or more they are its structure, and each head (without its closing
//    punctuation; no dateline, no unbalanced parenthesis) is a heading at its paragraph's line.
// 4. A heading continued on the next line in the same style (close below it, not numbered or
//    parenthesised itself) is one heading, also when that line is no candidate because it
//    starts in lower case (a title wrapped mid-phrase or mid-word, "Match-" / "ing and …": the
//    word is mended), unless it holds figures, an amount or an address or ends with a comma.
//    An unnumbered title printed as a heading on three pages or more is a recurring label (a
//    company name above each statement) after its first occurrence, not a section each time.
//    Headings printed with the same title are told apart by the parenthesised subtitle below each
//    ("(As a percentage of total revenues)"), unless they all share it or it states units or
//    audit status ("(Unaudited)", "(in millions, except per share data)").
// 5. Cover and title lines: headings on the first two pages that outrank every heading after
//    them are the document's title block, not sections.
// 6. A heading drawn visually above every other line of its page but later in the content
//    stream (tables whose title is drawn last) starts at the top of the page.
// 7. Levels: a bare integer counts as a section number only next to its neighbours ("1 Scope",
//    "2 Terms"; not "13 Weeks Ended"). Each heading gets a rank (font size first, then numbering kind: part > chapter >
//    item > 1 > 1.2 > ... > note > unnumbered, then bold, then capitals, then a heading on a
//    line of its own before a run-in head, which ranks as bold); a stack nests each heading
//    under the nearest earlier heading of a strictly better rank.
import type { DrawnRegion, PdfContent } from './types.ts';
import type { Heading } from './assemble.ts';
import { compareRanks, digitShare, isCaps, isPageNumberLine, normText, numbering, pageLines, runningLines, sectionKey, sizeBucket, styleRank, type Line, type Numbering } from './text.ts';

export interface LayoutOptions {
  /** Pages to ignore (e.g. the printed table of contents). */
  skipPages?: Set<number>;
  /** Lines to ignore, per page: [first, last] line (`Line.k`), e.g. the entries of a TOC-like page. */
  skipSpans?: ReadonlyMap<number, [number, number]>;
}

const MAX_WORDS = 16;
const MAX_CHARS = 150;
const BIGGER = 1.12;
/** A heading title on this many pages or more is a recurring label. */
const MAX_REPEAT_PAGES = 3;
// Below this share of candidates among its lines, a body-size style marks table rows or emphasis.
const MIN_STYLE_SHARE = 0.1;
/** Parenthesised lines under a heading read as its subtitle (4c). */
const MAX_SUBTITLES = 2;
/** A small-type page's title is among its first lines. */
const PAGE_TITLE_LINES = 3;
/** Units and audit notes under a statement's title say nothing about its content. */
const UNITS = /^(?:(?:amounts |dollars |figures )?in (?:millions|thousands|billions)|unaudited|audited)\b/i;

/** A title that says it continues one printed before. */
const CONTINUED = /(?:^|[\s—–(\[-])continued\s*[)\]]?\s*[.:]?$/i;

const isItalic = (l: Line) => /ital|oblique/i.test(l.font);
/** A month's name, before a day of a date. */
const MONTH = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?$/i;
/** A form's field: a short label, a colon, its value ("Vesting Schedule: The DSUs shall …"). */
const FIELD = /^\p{Lu}[^:.]{0,40}:\s/u;

/**
 * Two words or more, each of four letters or more capitalised ("Financial Results for the
 * Quarter:", "Message From Our CEO:"): a title's case, not a sentence's ("The results were:").
 */
function titleCase(t: string): boolean {
  const words = t.replace(/:$/, '').split(/\s+/).filter((w) => /^\p{L}/u.test(w));
  return words.length >= 2 && words.every((w, i) => (i > 0 && w.length < 4) || /^\p{Lu}/u.test(w));
}

interface Head {
  first: Line;
  last: Line;
  title: string;
  num: Numbering | null;
  line: number;
  /** A run-in head: the bold opening of its paragraph's first line. */
  runIn?: boolean;
}

/** A document uses run-in heads as its structure when it prints at least this many. */
const MIN_RUN_INS = 3;
const RUN_IN_MAX_WORDS = 10;
/** A press release's dateline ends with its date. */
const DATELINE = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+(?:19|20)\d\d$/i;
/**
 * A parenthesised qualifier holding a date ("RECENT NOTABLE DEVELOPMENTS (Since May 2, 2023)",
 * "(As of June 30, 2023)"): a title's scope, not a table row's figures. A column header's dates
 * stand bare ("June 30, 2023   December 31, 2022") and still count.
 */
const PAREN_DATE = /\([^()]*\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+(?:19|20)\d\d[^()]*\)/gi;
/** The loosest line pitch (baseline to baseline, in font sizes) still read as one paragraph's lines, whatever the document's own. */
const MIN_WRAP_PITCH = 1.6;

/**
 * The run-in head a line opens with, or null: its first style run bold (the line as a whole is
 * not: the paragraph's text is regular), ending in ".", ":" or a dash (or the rest starting with
 * a dash: "Depreciation — Depreciation, after …"), followed by at least two words of regular
 * text. The head is returned without its closing punctuation.
 */
export function runInHead(l: Line): string | null {
  const spans = l.spans;
  if (!spans || spans.length < 2 || !spans[0].bold) return null;
  const head = spans[0].text.trim();
  const rest = spans.slice(1).map((sp) => sp.text).join(' ').trim();
  if (spans.slice(1).some((sp) => sp.bold) || !l.text.startsWith(head)) return null;
  if (!/[.:—–-]$/.test(head) && !/^[—–-]/.test(rest)) return null;
  if (rest.replace(/^[—–-]\s*/, '').split(/\s+/).filter((w) => /\p{L}/u.test(w)).length < 2) return null;
  const title = head.replace(/\s*[.:—–-]+$/, '').trim();
  if (DATELINE.test(title)) return null; // "SAN FRANCISCO, Calif. - August 30, 2023 - Salesforce …"
  if ((title.match(/\(/g)?.length ?? 0) !== (title.match(/\)/g)?.length ?? 0)) return null; // "FR Y-12A)." closes a parenthesis
  if (!/^[\p{Lu}\p{N}“"']/u.test(title) || !/\p{L}{2}/u.test(title) || title.split(/\s+/).length > RUN_IN_MAX_WORDS || /[,;]$/.test(title)) return null;
  return title;
}

/**
 * A figure's or table's caption or label: "Figure 2: …", "Fig. 3 — …", "Table 4.1.", "TABLE II",
 * "Table 5-1 Specifications", "Figure 5" alone — the word, then a number (digits, a letter, a
 * Roman numeral; dotted or dashed parts) ending there. Often set in the heading face; a section
 * only when the table or figure ends its page (a statistical appendix's tables).
 * ("4 Table Design" and "Tables and Figures" are not captions; "Exhibit 99.1" opens an exhibit.)
 */
const CAPTION = /^(?:fig(?:ure)?s?\.?|tab(?:le)?s?\.?|chart|graph|plate|listing|algorithm|scheme|diagram)\s+(?:\d+|[A-Z]|[IVXLC]+)(?:[.\-–]\d+)*[a-z]?(?=\s|[:.|—–-]|$)/i;

/** Tokens that are figures: amounts, percentages, years, "(62)", "$", "~$7,255", "—". */
const FIGURE = /^[~(]?[$€£]?[(]?\d[\d,.]*%?[)]?$|^[$€£%—–-]$|^\(?\d+\)?%?$/;
/** Fewer lines than this between two figure rows keep them in one table. */
const TABLE_GAP = 2;
const MIN_TABLE_ROWS = 3;

/** A table row: two figures or more, making at least 40% of its words. */
function figureRow(l: Line): boolean {
  const words = l.text.trim().split(/\s+/);
  const figures = words.filter((w) => FIGURE.test(w)).length;
  return figures >= 2 && figures >= 0.4 * words.length;
}

/**
 * The lines (indices into the page) strictly inside a table of figures: between its first and
 * last figure rows, where figure rows follow each other with at most TABLE_GAP other lines
 * between them and no prose line (`prose`) among those; a table has at least MIN_TABLE_ROWS
 * figure rows. Its label rows ("Aerospace and Defense", "Products") and the column headers
 * under its first row of years are cells, not headings.
 */
export function tableInterior(page: Line[], prose: (l: Line) => boolean): Set<number> {
  const inside = new Set<number>();
  let first = -1;
  let last = -1;
  let rows = 0;
  const close = () => {
    if (rows >= MIN_TABLE_ROWS) for (let k = first + 1; k < last; k++) inside.add(k);
    first = last = -1;
    rows = 0;
  };
  page.forEach((l, i) => {
    if (figureRow(l)) {
      if (first >= 0 && i - last - 1 > TABLE_GAP) close();
      if (first < 0) first = i;
      last = i;
      rows++;
    } else if (first >= 0 && (prose(l) || i - last > TABLE_GAP)) close();
  });
  close();
  return inside;
}

/** A drawn region is a figure only when its text is at most this share prose (a framed paragraph is not). */
const FIGURE_MAX_PROSE = 0.5;
/** ... and it is at least this many times as tall as its largest line (a box round a heading is not). */
const FIGURE_MIN_HEIGHT = 3;

/**
 * The lines (indices into the page) inside a figure: a drawn region (pdf-worker.mjs, "Drawings":
 * a cluster of painted paths and images) with an image or two paths or more, whose text is not
 * mostly prose and which is at least FIGURE_MIN_HEIGHT times as tall as its largest line. A line
 * is inside when the start of its baseline (a little above it) is.
 */
export function figureInterior(page: Line[], drawings: readonly DrawnRegion[] | undefined, prose: (l: Line) => boolean): Set<number> {
  const inside = new Set<number>();
  if (!drawings?.length) return inside;
  const within = (l: Line, r: DrawnRegion) => {
    const px = l.x + 0.5;
    const py = l.y + 0.3 * l.size;
    return px >= r.x0 - 1 && px <= r.x1 + 1 && py >= r.y0 - 1 && py <= r.y1 + 1;
  };
  for (const r of drawings) {
    if (r.images === 0 && r.paths < 2) continue;
    const ks: number[] = [];
    let chars = 0;
    let proseChars = 0;
    let size = 0;
    page.forEach((l, i) => {
      if (!within(l, r)) return;
      ks.push(i);
      chars += l.text.length;
      if (prose(l)) proseChars += l.text.length;
      size = Math.max(size, l.size);
    });
    if (!ks.length || proseChars > FIGURE_MAX_PROSE * chars || r.y1 - r.y0 < FIGURE_MIN_HEIGHT * size) continue;
    for (const k of ks) inside.add(k);
  }
  return inside;
}

export function layoutHeadings(content: PdfContent, opts: LayoutOptions = {}): Heading[] {
  const lines = pageLines(content);
  const isRunning = runningLines(lines);
  // 1. body style, from prose lines (tables of figures would otherwise outweigh the text)
  const prose = (l: Line) => l.text.split(/\s+/).length >= 6 && digitShare(l.text) < 0.2;
  const bySize = new Map<number, number>();
  for (const page of lines) for (const l of page) if (prose(l)) bySize.set(sizeBucket(l.size), (bySize.get(sizeBucket(l.size)) ?? 0) + l.text.length);
  if (!bySize.size) for (const page of lines) for (const l of page) bySize.set(sizeBucket(l.size), (bySize.get(sizeBucket(l.size)) ?? 0) + l.text.length);
  const body = [...bySize].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  let boldChars = 0;
  let allChars = 0;
  for (const page of lines) for (const l of page) if (sizeBucket(l.size) === body && prose(l)) {
    allChars += l.text.length;
    if (l.bold) boldChars += l.text.length;
  }
  const bodyBold = boldChars > allChars / 2;
  // The body's own line pitch: the median baseline-to-baseline distance, in font sizes, between
  // consecutive prose lines of the body size on one page and left edge. A document set at 1.75
  // (a press release double-spaced) wraps its paragraphs wider apart than the 1.6 that reads as
  // a paragraph's next line in a document set solid; 10% over its own pitch is still its next line.
  const pitches: number[] = [];
  for (const page of lines)
    for (let i = 1; i < page.length; i++) {
      const [a, b] = [page[i - 1], page[i]];
      const gap = a.y - b.y;
      if (sizeBucket(b.size) === body && sizeBucket(a.size) === body && prose(a) && prose(b) && gap > 0 && gap < 3 * b.size && Math.abs(a.x - b.x) <= 3 * b.size) pitches.push(gap / b.size);
    }
  pitches.sort((x, y) => x - y);
  const wrapPitch = Math.max(MIN_WRAP_PITCH, 1.1 * (pitches[pitches.length >> 1] ?? 0));
  const hasLayout = body > 0;
  const bigger = (l: Line) => hasLayout && l.size >= body * BIGGER;

  // 2. candidates
  const shapeOk = (l: Line) => {
    const t = l.text.trim();
    if (t.length < 2 || t.length > MAX_CHARS || t.split(/\s+/).length > MAX_WORDS) return false;
    if (!/\p{L}{2}/u.test(t) || !/^[\p{Lu}\p{N}“"']/u.test(t)) return false;
    const num = numbering(t);
    const rest = num ? num.rest : t;
    if (digitShare(rest) > 0.25 || /[$€£]/.test(rest)) return false;
    const words = rest.replace(PAREN_DATE, '').split(/\s+/);
    if (words.filter((w) => /\d/.test(w) && /^[\d$(),.%–-]+$/.test(w) && !/^(19|20)\d\d$/.test(w)).length >= 2) return false; // a row of figures
    // "DISCLOSURE NOTICE:" and "Guidance and Outlook:" are headings, "Revenues:" and "The items were:" labels
    if (/[,;]$/.test(t) || (/:$/.test(t) && !isCaps(t) && !titleCase(t))) return false;
    if (/\.$/.test(t) && !(num && num.rest === '') && rest.split(/\s+/).length > 3) return false;
    return !isPageNumberLine(t);
  };
  // A page set in smaller type than the body (a table of figures, a statement) has its title in
  // its own type: a line in capitals among the page's first lines, at least its page's size.
  const pageSize = lines.map((page) => {
    const chars = new Map<number, number>();
    for (const l of page) chars.set(sizeBucket(l.size), (chars.get(sizeBucket(l.size)) ?? 0) + l.text.length);
    return [...chars].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  });
  // Each page's top PAGE_TITLE_LINES lines that are not running headers, found once per page: the
  // topmost as printed, since a statement's title block may be drawn after its table (step 6).
  // The title may be set a little smaller than the table's rows (9 pt over 9.5 pt figures).
  const firstLines = new Map<number, Set<Line>>();
  const smallPageTitle = (l: Line) => {
    const size = pageSize[l.page - 1];
    if (!size || size >= body * 0.9 || sizeBucket(l.size) < 0.9 * size) return false;
    let first = firstLines.get(l.page);
    if (!first) firstLines.set(l.page, (first = new Set(lines[l.page - 1].filter((o) => !isRunning(o)).sort((a, b) => b.y - a.y || a.k - b.k).slice(0, PAGE_TITLE_LINES))));
    return first.has(l);
  };
  const standsOut = (l: Line) => {
    const num = numbering(l.text);
    if (!hasLayout) return num !== null;
    const bold = l.bold && !bodyBold;
    const caps = isCaps(l.text) && (l.size >= body * 0.9 || smallPageTitle(l));
    return bigger(l) || bold || caps || (num !== null && (bold || caps || isItalic(l) || l.size > body));
  };
  const candidate = (l: Line) => !isRunning(l) && shapeOk(l) && standsOut(l);
  /** The line's estimated middle is its page's. */
  const centred = (l: Line) => {
    const width = content.layout?.[l.page - 1]?.width ?? 0;
    return width > 0 && Math.abs(l.x + l.text.length * l.size * 0.25 - width / 2) < 0.05 * width;
  };
  const sameStyle = (a: Line, b: Line) => sizeBucket(a.size) === sizeBucket(b.size) && a.bold === b.bold && a.font === b.font;
  const sameSize = (a: Line, b: Line) => sizeBucket(a.size) === sizeBucket(b.size) && a.bold === b.bold;
  const styleKey = (l: Line) => `${sizeBucket(l.size)}|${l.bold ? 'b' : ''}`;
  const styleAll = new Map<string, number>();
  const styleCand = new Map<string, number>();
  const cands: Line[] = [];
  const runIns = new Map<Line, string>();
  for (const page of lines) {
    if (!page.length || opts.skipPages?.has(page[0].page)) continue;
    const inTable = tableInterior(page, prose);
    const inFigure = figureInterior(page, content.layout?.[page[0].page - 1]?.drawings, prose);
    page.forEach((l, i) => {
      styleAll.set(styleKey(l), (styleAll.get(styleKey(l)) ?? 0) + 1);
      // 2c. a paragraph opening with a bold run-in head is a paragraph, never a heading as a
      // whole; its head is one when the document prints several (step 3c)
      const runIn = hasLayout && !bodyBold && !isRunning(l) ? runInHead(l) : null;
      if (runIn) {
        const prev = page[i - 1];
        const span = opts.skipSpans?.get(l.page);
        // it opens its paragraph: the line above ends a sentence or is not body text
        const opens = !prev || isRunning(prev) || /[.:!?)"”]$/.test(prev.text.trim()) || prev.bold || sizeBucket(prev.size) !== sizeBucket(l.size) || prev.y - l.y > 1.6 * l.size;
        if (opens && !inTable.has(i) && !inFigure.has(i) && !(span && l.k >= span[0] && l.k <= span[1])) runIns.set(l, runIn);
        return;
      }
      if (!candidate(l)) return;
      // 2b. a caption is no heading when the text goes on below it (a figure or table set among
      // the prose); a table or figure that ends its page (a statistical appendix's tables: rows
      // and small-type notes below the caption, nothing else) is a unit a reader looks up
      if (CAPTION.test(l.text.trim()) && page.slice(i + 1).some((o) => !isRunning(o) && prose(o) && (!hasLayout || sizeBucket(o.size) >= body))) return;
      // 3a. a label row or column header inside a table of figures is no heading
      if (inTable.has(i) && !(hasLayout && l.size >= body * 1.3)) return;
      // 3b. text drawn inside a figure (a diagram's labels, a chart's legend) is no heading
      // (a caption set in the figure's frame, and its second line, is the figure's title: 2b decides it)
      const caption = CAPTION.test(l.text.trim()) || (i > 0 && CAPTION.test(page[i - 1].text.trim()) && sameStyle(page[i - 1], l));
      if (inFigure.has(i) && !caption && !(hasLayout && l.size >= body * 1.3)) return;
      const span = opts.skipSpans?.get(l.page);
      if (span && l.k >= span[0] && l.k <= span[1]) return;
      // 3. guards at body size
      const prev = page[i - 1];
      const wraps = (p: Line) => sameStyle(p, l) && p.y - l.y > 0 && p.y - l.y <= wrapPitch * l.size && Math.abs(p.x - l.x) <= 3 * l.size;
      if (hasLayout && prev && !isRunning(prev) && wraps(prev) && !candidate(prev)) return;
      if (hasLayout && !bigger(l) && !numbering(l.text)) {
        // a table's title opens its page; a row label inside a table does not
        const opensPage = page.slice(0, i).every(isRunning);
        const next = page[i + 1];
        if (!opensPage && next && digitShare(next.text) > 0.3) return;
        // table cells and column headers: not alone on their row, or far from the left margin
        // (a longer line beside it is the other column of a two-column page, not a table cell)
        const cell = (o: Line) => o.text.split(/\s+/).length <= 4 || digitShare(o.text) > 0.4;
        if (page.some((o) => o !== l && Math.abs(o.y - l.y) < 0.5 * l.size && cell(o))) return;
        const width = content.layout?.[l.page - 1]?.width ?? 0;
        // (a centred heading is no column header)
        if (width && l.x > 0.4 * width && !isCaps(l.text) && !centred(l)) return;
      }
      // a title ending with a colon heads the prose after it, flush with that prose ("Guidance
      // and Outlook:" over bullets of sentences); centred, it captions a block ("Media
      // Contacts:" over names and numbers); over a value, or next to another label in its style,
      // it is a form's field ("Grant Date:" above "Number of DSUs:" and "Vesting Schedule: …")
      if (/:$/.test(l.text.trim()) && !isCaps(l.text)) {
        const label = (o: Line | undefined) => o !== undefined && /:$/.test(o.text.trim()) && sameStyle(o, l);
        if (centred(l) || label(page[i - 1]) || label(page[i + 1]) || !page.slice(i + 1, i + 3).some((o) => prose(o) && !FIELD.test(o.text))) return;
      }
      styleCand.set(styleKey(l), (styleCand.get(styleKey(l)) ?? 0) + 1);
      cands.push(l);
    });
  }
  const kept = cands.filter((l) => {
    if (!hasLayout || l.size >= body * 1.3 || numbering(l.text) || isCaps(l.text)) return true;
    const k = styleKey(l);
    return (styleCand.get(k) ?? 0) >= MIN_STYLE_SHARE * (styleAll.get(k) ?? 1);
  });
  // 3c. run-in heads are the document's structure when it prints several; they join the
  // candidates in reading order
  if (runIns.size >= MIN_RUN_INS) {
    kept.push(...runIns.keys());
    kept.sort((a, b) => a.page - b.page || a.k - b.k);
  }
  // 4. continuation lines
  const keptSet = new Set(kept);
  /** `l` is the heading's next line in its style, close below it, and no heading of its own. */
  const continues = (h: Head, l: Line) =>
    h.last.page === l.page && sameStyle(h.last, l) && !numbering(l.text) && !/^\(/.test(l.text) &&
    h.last.y - l.y > 0 && h.last.y - l.y <= 1.6 * Math.max(l.size, 1) && h.title.length + l.text.length <= MAX_CHARS;
  const lowerContinuation = (h: Head, l: Line) => {
    const text = l.text.trim();
    // a date ("December 31, 2023") is no figure of a table row
    const words = text.split(/\s+/);
    const figures = words.filter((w, i) => FIGURE.test(w) && !/^(?:19|20)\d\d[,.;]?$/.test(w) && !MONTH.test(words[i - 1] ?? '')).length;
    return /^\p{Ll}/u.test(text) && figures < 2 && !/[$€£]|@|:\/\/|[,;]$/.test(text) && `${h.title} ${text}`.split(/\s+/).length <= MAX_WORDS;
  };
  /** Joins `l` to the heading's title: a word broken at a hyphen before a lower-case letter is mended ("Match-" "ing"), a compound before a capital keeps its hyphen ("Non-" "English"). */
  const joinLine = (h: Head, l: Line) => {
    const text = l.text.trim();
    if (/\p{L}-$/u.test(h.title) && /^\p{L}/u.test(text)) h.title = /^\p{Ll}/u.test(text) ? `${h.title.slice(0, -1)}${text}` : `${h.title}${text}`;
    else h.title = `${h.title} ${text}`;
    h.last = l;
  };
  let heads: Head[] = [];
  for (const l of kept) {
    const prev = heads[heads.length - 1];
    const runIn = runIns.size >= MIN_RUN_INS ? runIns.get(l) : undefined;
    if (runIn !== undefined) {
      heads.push({ first: l, last: l, title: runIn, num: numbering(runIn), line: l.line, runIn: true });
      continue;
    }
    if (prev && !prev.runIn && l.k === prev.last.k + 1 && continues(prev, l)) {
      joinLine(prev, l);
      continue;
    }
    const head: Head = { first: l, last: l, title: l.text.trim(), num: numbering(l.text), line: l.line };
    heads.push(head);
    // A second line in lower case is no candidate of its own ("ing and Its Variants" after
    // "1.2 Coercive Signature Match-"): taken from the page when it continues the heading as a
    // title would — not two figures or an amount, no address, no trailing comma (table rows
    // and contact blocks set in a heading's style), and the whole within a heading's words.
    for (let next = lines[l.page - 1][head.last.k + 1]; next && !keptSet.has(next) && lowerContinuation(head, next) && continues(head, next); next = lines[l.page - 1][head.last.k + 1]) {
      joinLine(head, next);
    }
  }
  // 4b. A title printed as a heading on MAX_REPEAT_PAGES pages or more is a recurring label (the
  // company's name above every statement, "Continued") after its first occurrence: sections are
  // not repeated that often, and a tree of same-named siblings helps no reader.
  const pagesOf = new Map<string, Set<number>>();
  for (const h of heads) {
    const key = normText(h.title);
    if (!pagesOf.has(key)) pagesOf.set(key, new Set());
    pagesOf.get(key)!.add(h.first.page);
  }
  // Its first occurrence stays: a section's name is often repeated later as a table's row group
  // ("Las Vegas Strip Resorts" above its figures on each statement page).
  const seen = new Set<string>();
  heads = heads.filter((h) => {
    const key = normText(h.title);
    const first = !seen.has(key);
    seen.add(key);
    return h.num !== null || first || (pagesOf.get(key)?.size ?? 0) < MAX_REPEAT_PAGES;
  });
  // 4c. Headings printed with the same title ("Condensed Consolidated Statements of Operations"
  // twice: in millions, then as a percentage of revenues) are told apart by the parenthesised
  // subtitle printed right below each in the heading's style, when it differs between them; a
  // subtitle they all share ("(Unaudited)") tells nothing and is left out.
  const byTitle = new Map<string, Head[]>();
  for (const h of heads) {
    const key = normText(h.title);
    byTitle.set(key, [...(byTitle.get(key) ?? []), h]);
  }
  for (const same of byTitle.values()) {
    if (same.length < 2) continue;
    const subtitles = same.map((h) => {
      const page = lines[h.last.page - 1];
      const out: string[] = [];
      for (let k = h.last.k + 1; k < Math.min(page.length, h.last.k + 1 + MAX_SUBTITLES); k++) {
        const m = page[k].text.trim().match(/^\(([^()]+)\)$/);
        if (!m || !sameSize(page[k], h.last)) break;
        out.push(m[1].trim());
      }
      return out;
    });
    const shared = (t: string) => subtitles.every((list) => list.some((x) => normText(x) === normText(t)));
    same.forEach((h, i) => {
      const own = subtitles[i].filter((t) => !shared(t) && !UNITS.test(t));
      if (own.length) h.title = `${h.title} – ${own.join(', ')}`;
    });
  }
  // Numbering must progress in sequence: a section number ("2", "2.3", "A.1", "Appendix B",
  // "IV.") counts as one only when it is the first of its level (1, A, I) or its predecessor or
  // successor under the same parent is printed as a heading too — "13 Weeks Ended" or "52 Weeks
  // Ended" above table columns are not sections 13 and 52, nor is "3.5 Million Members" a 3.5.
  const keys = new Map<Head, { parent: string; last: number }>();
  const present = new Set<string>();
  for (const h of heads) {
    const key = h.num?.kind === 'section' ? sectionKey(h.title) : null;
    if (!key) continue;
    keys.set(h, key);
    present.add(`${key.parent}|${key.last}`);
  }
  for (const [h, key] of keys) {
    if (key.last === 1 || present.has(`${key.parent}|${key.last - 1}`) || present.has(`${key.parent}|${key.last + 1}`)) continue;
    h.num = null;
  }
  // A table continued over pages repeats its title ("Table G.1—continued", "Revenues (continued)"):
  // the continuation opens no section.
  heads = heads.filter((h) => !CONTINUED.test(h.title));
  // a run-in head ranks as its bold face, below a heading of its own line in the same style
  const rank = (h: Head) => [...styleRank(h.first.size, h.num, h.first.bold || h.runIn === true, h.title), h.runIn ? 1 : 0];
  const cmp = compareRanks;
  // 5. title block
  const later = heads.filter((h) => h.first.page > 2);
  if (later.length && content.pageCount >= 4) {
    const bestLater = later.map(rank).reduce((a, b) => (cmp(a, b) <= 0 ? a : b));
    heads = heads.filter((h) => h.first.page > 2 || cmp(rank(h), bestLater) >= 0);
  }
  // 6. titles drawn last
  for (const h of heads) {
    const page = lines[h.first.page - 1].filter((l) => !isRunning(l));
    const above = page.every((l) => l === h.first || l.y < h.first.y - 1 || (l.page === h.last.page && l.k > h.first.k && l.k <= h.last.k));
    const first = page[0];
    if (above && first && first.line < h.line) h.line = first.line;
  }
  // 7. levels
  const out: Heading[] = [];
  const stack: number[][] = [];
  for (const h of heads) {
    const r = rank(h);
    while (stack.length && cmp(stack[stack.length - 1], r) >= 0) stack.pop();
    stack.push(r);
    out.push({ title: h.title, page: h.first.page, line: h.line, level: stack.length });
  }
  return out;
}
