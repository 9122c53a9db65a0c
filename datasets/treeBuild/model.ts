// Model-built trees (corpus.tree: model, and `auto` when the offline tree is poor; see
// datasets/treeBuild/withModel.ts): PageIndex's pipeline, in treebench's terms and with as few
// calls as it takes.
//
//   1. Contents pages: one call shows the model the start of each of the first pages and asks
//      which of them print the document's table of contents.
//   2. The hierarchy: from those pages (one call: the entries with their level and printed page
//      number), or, without a contents, generated from the page texts: pages go in batches that
//      fit a token bound, each call returning the sections that start in its pages (title as
//      printed, level, physical start page), with the last sections found so far for context.
//   3. Physical pages: a contents' printed page numbers are mapped to physical pages by the
//      offset most of its titles agree on (a title printed on page p + offset).
//   4. Verification: each start page is checked against that page's text (the title is on it,
//      matched as `tree compare` matches titles: case, numbering, spacing and `&` forgiven). A
//      start that fails is looked for on the neighbouring pages, then the model is asked again
//      with the pages around it; a title found nowhere is left out (and listed).
//   5. The tree: the verified headings go through the offline builders' assembly and fanout cap
//      (build.ts: assemble.ts, fanout.ts), so it is the same node type, ids and page
//      ranges as every other tree.
//
// Model replies are data: a reply that is not the JSON asked for (after one retry with the
// error spelled out, harness/protocol/ask.ts) is a ModelTreeError, which the caller turns into
// a warning and the offline tree. Titles are cut to MAX_TITLE_CHARS and control characters
// removed; levels are clamped to 1..MAX_LEVEL.
import type { ChatMessage, TreeNode } from '../../harness/types.ts';
import type { AskOptions, AskResult, Validator } from '../../harness/protocol/ask.ts';
import { approxTokens } from '../../harness/text/extractive.ts';
import type { PdfContent } from './types.ts';
import type { Heading } from './assemble.ts';
import { cappedTree } from './build.ts';
import { normalizeTitle } from './compare.ts';

/** Bump when the prompts or the pipeline change (the tree cache keys on it). */
export const MODEL_TREE_VERSION = 'm1';

/** What the pipeline needs of the metered door (harness/run/ingestionModel.ts: IngestionMeter). */
export interface ModelAsker {
  ask<T>(task: string, prompt: ChatMessage[], validate: Validator<T>, opts?: AskOptions): Promise<AskResult<T>>;
}

/** A model reply that could not be used (after its retry): the caller keeps the offline tree. */
export class ModelTreeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelTreeError';
  }
}

/** Pages shown to the contents detector, and characters of each. */
const SCAN_PAGES = 20;
const SCAN_PAGE_CHARS = 1200;
/** Characters of contents text sent for extraction. */
const TOC_CHARS = 16_000;
/** Page text per generation call (approximate tokens). */
const BATCH_TOKENS = 6000;
/** A single page is cut to this many characters in a batch (a page of tables can be huge). */
const PAGE_CHARS = 12_000;
/** Sections found so far shown to the next batch. */
const CONTEXT_SECTIONS = 8;
/** A failed start page is looked for this many pages either side before asking the model. */
const NEIGHBOUR_PAGES = 2;
/** Pages shown to the model to find one title again. */
const LOCATE_PAGES = 6;
const MAX_TITLE_CHARS = 200;
const MAX_LEVEL = 4;

export interface Entry {
  title: string;
  level: number;
  /** Physical (1-based) start page; null when not known yet. */
  page: number | null;
}

export interface ModelTreeResult {
  nodes: TreeNode[];
  /** What was done, for the build report's reason. */
  note: string;
  /** Contents pages found (empty: generated from the page texts). */
  contentsPages: number[];
  /** Entries the model gave. */
  entries: number;
  /** Start pages that were right as given. */
  verified: number;
  /** Start pages fixed: found on a neighbouring page, or by asking the model again. */
  fixedBySearch: number;
  fixedByModel: number;
  /** Titles found on no page (left out). */
  unlocated: string[];
  headings: number;
}

// ---------------------------------------------------------------------------------------------
// Replies

const clean = (s: string) =>
  s
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_TITLE_CHARS);

const asInt = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) return Number(v);
  return null;
};

/** Level from `level` (1 = top) or a `structure` index ("2.1" is level 2). */
function levelOf(item: Record<string, unknown>): number {
  const l = asInt(item.level);
  if (l !== null) return Math.min(Math.max(l, 1), MAX_LEVEL);
  if (typeof item.structure === 'string' && /^\d+(\.\d+)*$/.test(item.structure.trim())) return Math.min(item.structure.trim().split('.').length, MAX_LEVEL);
  return 1;
}

const validateContents =
  (scanned: number): Validator<number[]> =>
  (obj) => {
    const list = obj.contents_pages;
    if (!Array.isArray(list)) return { ok: false, error: 'expected {"contents_pages": [<page number>, ...]} (an empty list when there is none)' };
    const pages = [...new Set(list.map(asInt).filter((p): p is number => p !== null && p >= 1 && p <= scanned))].sort((a, b) => a - b);
    return { ok: true, value: pages };
  };

/** `sections`: a list of {title, level, <pageKey>}; items without a title are dropped, a page outside [lo, hi] becomes null. */
const validateSections =
  (pageKey: 'page' | 'start_page', lo: number, hi: number): Validator<Entry[]> =>
  (obj) => {
    const list = obj.sections;
    if (!Array.isArray(list)) return { ok: false, error: `expected {"sections": [{"title": "...", "level": 1, "${pageKey}": <number>}, ...]}` };
    const out: Entry[] = [];
    for (const item of list) {
      if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
      const it = item as Record<string, unknown>;
      const title = typeof it.title === 'string' ? clean(it.title) : '';
      if (!title) continue;
      const p = asInt(it[pageKey] ?? it.page ?? it.start_page);
      out.push({ title, level: levelOf(it), page: p !== null && p >= lo && p <= hi ? p : null });
    }
    if (list.length && !out.length) return { ok: false, error: `none of the ${list.length} sections has a "title" string` };
    return { ok: true, value: out };
  };

const validateLocate =
  (lo: number, hi: number): Validator<number | null> =>
  (obj) => {
    if (!('start_page' in obj)) return { ok: false, error: 'expected {"start_page": <page number or null>}' };
    const p = asInt(obj.start_page);
    return { ok: true, value: p !== null && p >= lo && p <= hi ? p : null };
  };

// ---------------------------------------------------------------------------------------------
// Prompts (the first line names the task, for people reading a cache entry or a server log)

const tagged = (pages: string[], from: number, to: number, maxChars: number) => {
  const parts: string[] = [];
  for (let p = from; p <= to; p++) parts.push(`<page ${p}>\n${(pages[p - 1] ?? '').slice(0, maxChars)}\n</page ${p}>`);
  return parts.join('\n');
};

const CONTENTS_INSTRUCTION = [
  'Task: tree-contents.',
  'You are shown the beginning of each of the first pages of a document, each between <page N> and </page N>.',
  'Which pages print the table of contents of the document itself (section titles, usually with page numbers)?',
  'A list of figures or tables, an index, a summary or an abstract is not a table of contents.',
  'Reply with JSON only: {"contents_pages": [<page number>, ...]} (an empty list when there is none).',
].join('\n');

const TOC_INSTRUCTION = [
  'Task: tree-toc.',
  'You are shown the pages that print the table of contents of a document.',
  'List its entries in order, with their titles exactly as printed (without leader dots and page numbers), their level (1 = top level, 2 = below it, ...) and the page number printed for them (null when none is printed).',
  'Reply with JSON only: {"sections": [{"title": "...", "level": 1, "page": 3}, ...]}',
].join('\n');

const GENERATE_INSTRUCTION = [
  'Task: tree-generate.',
  'You build the table of contents of a document that has none. You are shown some of its pages, each between <page N> and </page N>.',
  'List the sections that START on these pages: the headings of the document\'s own structure, with their titles exactly as printed (fix only spacing), their level (1 = top level, 2 = below it, ...) and the page N they start on.',
  'Table rows, column headers, figure labels, running headers and footers are not sections.',
  'Reply with JSON only: {"sections": [{"title": "...", "level": 1, "start_page": 1}, ...]} (an empty list when no section starts on these pages).',
].join('\n');

const LOCATE_INSTRUCTION = [
  'Task: tree-locate.',
  'You are shown some pages of a document, each between <page N> and </page N>, and the title of one of its sections.',
  'On which page does that section start (its heading is printed there)?',
  'Reply with JSON only: {"start_page": <page number>} or {"start_page": null} when it starts on none of them.',
].join('\n');

const prompt = (system: string, user: string): ChatMessage[] => [
  { role: 'system', content: system },
  { role: 'user', content: user },
];

// ---------------------------------------------------------------------------------------------
// Titles on pages

/** Per page, its non-empty lines (index into the page text's lines) with their normalised text, and each line joined with the next (wrapped headings). */
interface PageLines {
  line: number;
  norm: string;
}

function indexPages(pages: string[]): PageLines[][] {
  return pages.map((text) => {
    const lines = text.split('\n');
    const out: PageLines[] = [];
    const nonEmpty = lines.map((t, i) => ({ t, i })).filter((x) => x.t.trim());
    nonEmpty.forEach((x, k) => {
      out.push({ line: x.i, norm: normalizeTitle(x.t) });
      const next = nonEmpty[k + 1];
      if (next) out.push({ line: x.i, norm: normalizeTitle(`${x.t} ${next.t}`) });
    });
    return out;
  });
}

/** Whether a page line says this (normalised) title: equal, equal without spaces, or nearly the same words. */
function sameTitle(x: string, y: string): boolean {
  if (!x || !y) return false;
  if (x === y || x.replace(/ /g, '') === y.replace(/ /g, '')) return true;
  const A = new Set(x.split(' '));
  const B = new Set(y.split(' '));
  let inter = 0;
  for (const w of A) if (B.has(w)) inter++;
  return inter >= 0.8 * Math.min(A.size, B.size) && inter >= 0.5 * Math.max(A.size, B.size);
}

/** Each page's normalised lines joined (with and without spaces), to skip pages that cannot hold a title: the mapping looks on every page. */
const pageWords = new WeakMap<PageLines[][], Array<{ spaced: string; compact: string }>>();

/** The line of `page` that prints `title`, or -1. */
function lineOf(index: PageLines[][], title: string, page: number): number {
  const lines = index[page - 1];
  if (!lines) return -1;
  const t = normalizeTitle(title);
  let words = pageWords.get(index);
  if (!words) {
    words = index.map((ls) => {
      const spaced = ` ${ls.map((l) => l.norm).join(' ')} `;
      return { spaced, compact: spaced.replace(/ /g, '') };
    });
    pageWords.set(index, words);
  }
  // A line that matches holds at least half of the title's words, or all its letters run together.
  const own = [...new Set(t.split(' '))];
  const present = own.filter((w) => words[page - 1]!.spaced.includes(` ${w} `)).length;
  if (present * 2 < own.length && !words[page - 1]!.compact.includes(t.replace(/ /g, ''))) return -1;
  const hit = lines.find((l) => sameTitle(t, l.norm));
  return hit ? hit.line : -1;
}

// ---------------------------------------------------------------------------------------------
// The pipeline

export async function modelTree(content: PdfContent, asker: ModelAsker): Promise<ModelTreeResult> {
  const { pages } = content;
  const pageCount = pages.length;
  if (!pageCount) throw new ModelTreeError('the document has no pages');
  const index = indexPages(pages);

  // 1. Contents pages.
  const scanned = Math.min(SCAN_PAGES, pageCount);
  const found = await asker.ask('tree-contents', prompt(CONTENTS_INSTRUCTION, tagged(pages, 1, scanned, SCAN_PAGE_CHARS)), validateContents(scanned), { maxTokens: 200 });
  if (!found.ok) throw new ModelTreeError(`finding the contents pages: ${found.error}`);
  const contentsPages = found.value;

  // 2-3. The hierarchy, from the contents or generated.
  let entries: Entry[] = [];
  let how = '';
  if (contentsPages.length) {
    const text = contentsPages.map((p) => `<page ${p}>\n${pages[p - 1]}\n</page ${p}>`).join('\n').slice(0, TOC_CHARS);
    const toc = await asker.ask('tree-toc', prompt(TOC_INSTRUCTION, text), validateSections('page', -1e6, 1e6), { maxTokens: 4096 });
    if (!toc.ok) throw new ModelTreeError(`reading the contents on page(s) ${contentsPages.join(', ')}: ${toc.error}`);
    entries = mapPrintedPages(toc.value, index, new Set(contentsPages), pageCount);
    how = `contents on page(s) ${contentsPages.join(', ')}: ${entries.length} entries`;
  }
  if (entries.length < 2) {
    const batches = pageBatches(pages);
    const generated: Entry[] = [];
    for (const [from, to] of batches) {
      const context = generated.slice(-CONTEXT_SECTIONS);
      const user = [
        ...(context.length ? [`Sections found so far on earlier pages (the last ${context.length}), for consistent levels:`, JSON.stringify(context.map((e) => ({ title: e.title, level: e.level, start_page: e.page }))), ''] : []),
        tagged(pages, from, to, PAGE_CHARS),
      ].join('\n');
      const r = await asker.ask('tree-generate', prompt(GENERATE_INSTRUCTION, user), validateSections('start_page', from, to), { maxTokens: 2048 });
      if (!r.ok) throw new ModelTreeError(`generating the sections of pages ${from}-${to}: ${r.error}`);
      generated.push(...r.value.map((e) => ({ ...e, page: e.page ?? from })));
    }
    how = `${contentsPages.length ? `${how} (too few); ` : 'no contents pages; '}generated from the page texts in ${batches.length} call(s): ${generated.length} sections`;
    entries = generated;
  }

  // 4. Verify each start page, fix what fails.
  const v = await verifyStarts(entries, index, pages, asker, new Set(contentsPages));
  const dedup = new Map<string, Heading>();
  for (const h of v.headings) dedup.set(`${h.page}:${h.line}`, dedup.get(`${h.page}:${h.line}`) ?? h);
  const headings = [...dedup.values()];
  const top = Math.min(...headings.map((h) => h.level));
  const levelled = headings.map((h) => ({ ...h, level: h.level - top + 1 }));
  const tree = levelled.length ? cappedTree(levelled, content) : { nodes: [], note: '' };
  const fixed = v.fixedBySearch + v.fixedByModel;
  const note = [
    `model: ${how}`,
    `${v.verified} start page(s) verified on their page`,
    ...(fixed ? [`${fixed} fixed (${v.fixedBySearch} on a neighbouring page, ${v.fixedByModel} by asking again)`] : []),
    ...(v.unlocated.length ? [`${v.unlocated.length} title(s) found on no page, left out`] : []),
  ].join('; ');
  return { nodes: tree.nodes, note: note + tree.note, contentsPages, entries: entries.length, verified: v.verified, fixedBySearch: v.fixedBySearch, fixedByModel: v.fixedByModel, unlocated: v.unlocated, headings: levelled.length };
}

/** Page ranges [from, to] of about BATCH_TOKENS tokens each (a page longer than that is a batch of its own). */
export function pageBatches(pages: string[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let from = 1;
  let tokens = 0;
  pages.forEach((text, i) => {
    const t = approxTokens(text.slice(0, PAGE_CHARS)) + 8;
    if (tokens > 0 && tokens + t > BATCH_TOKENS) {
      out.push([from, i]);
      from = i + 1;
      tokens = 0;
    }
    tokens += t;
  });
  out.push([from, pages.length]);
  return out;
}

/**
 * Printed page numbers to physical pages: the offset (physical - printed) that most entries'
 * titles agree on, counting an entry for offset d when its title is printed on page p + d (not
 * a contents page). No agreement: offset 0. Entries without a printed number keep null (the
 * verification finds them after the previous entry).
 */
function mapPrintedPages(entries: Entry[], index: PageLines[][], contents: Set<number>, pageCount: number): Entry[] {
  const votes = new Map<number, number>();
  for (const e of entries) {
    if (e.page === null) continue;
    for (let q = 1; q <= pageCount; q++) {
      if (contents.has(q) || lineOf(index, e.title, q) < 0) continue;
      votes.set(q - e.page, (votes.get(q - e.page) ?? 0) + 1);
    }
  }
  let offset = 0;
  let best = 0;
  for (const [d, n] of votes) if (n > best || (n === best && Math.abs(d) < Math.abs(offset))) [offset, best] = [d, n];
  return entries.map((e) => {
    if (e.page === null) return e;
    const p = e.page + offset;
    return { ...e, page: p >= 1 && p <= pageCount ? p : null };
  });
}

interface Verified {
  headings: Heading[];
  verified: number;
  fixedBySearch: number;
  fixedByModel: number;
  unlocated: string[];
}

/**
 * Each entry's start page checked against its page's text. One that fails (or has none) is
 * looked for within NEIGHBOUR_PAGES pages (nearest first, never on a contents page; one without
 * a page from the previous placed entry's page on), then the model is asked with LOCATE_PAGES pages around it; the
 * answer is checked the same way. An entry placed nowhere is left out.
 */
async function verifyStarts(entries: Entry[], index: PageLines[][], pages: string[], asker: ModelAsker, contents: Set<number>): Promise<Verified> {
  const pageCount = pages.length;
  const out: Verified = { headings: [], verified: 0, fixedBySearch: 0, fixedByModel: 0, unlocated: [] };
  let floor = 1; // the previous placed entry's page: sections come in reading order
  const place = (e: Entry, page: number, line: number) => {
    out.headings.push({ title: e.title, level: e.level, page, line });
    floor = page;
  };
  for (const e of entries) {
    const claimed = e.page;
    if (claimed !== null && !contents.has(claimed)) {
      const line = lineOf(index, e.title, claimed);
      if (line >= 0) {
        out.verified++;
        place(e, claimed, line);
        continue;
      }
    }
    // Neighbouring pages, nearest first.
    const around = claimed ?? floor;
    let hit: { page: number; line: number } | null = null;
    for (let d = claimed === null ? 0 : 1; d <= NEIGHBOUR_PAGES && !hit; d++) {
      for (const q of d === 0 ? [around] : [around - d, around + d]) {
        if (q < (claimed === null ? floor : 1) || q > pageCount || contents.has(q)) continue;
        const line = lineOf(index, e.title, q);
        if (line >= 0) {
          hit = { page: q, line };
          break;
        }
      }
    }
    if (hit) {
      out.fixedBySearch++;
      place(e, hit.page, hit.line);
      continue;
    }
    // Ask the model again, with the pages around where it should be.
    const from = Math.max(1, Math.min(around - 1, pageCount - LOCATE_PAGES + 1));
    const to = Math.min(pageCount, from + LOCATE_PAGES - 1);
    const user = `Section title: ${e.title}\n\n${tagged(pages, from, to, PAGE_CHARS)}`;
    const r = await asker.ask('tree-locate', prompt(LOCATE_INSTRUCTION, user), validateLocate(from, to), { maxTokens: 100 });
    const p = r.ok ? r.value : null;
    const line = p !== null && !contents.has(p) ? lineOf(index, e.title, p) : -1;
    if (p !== null && line >= 0) {
      out.fixedByModel++;
      place(e, p, line);
    } else out.unlocated.push(e.title);
  }
  return out;
}
