// PDF text and outline extraction with pdf.js (pdfjs-dist, legacy build: the one meant for Node),
// or, opted into (`{ extractor: 'poppler' }`, corpus.extractor), poppler's pdftohtml
// (datasets/pdfPoppler.ts), whose runs are packed as the worker's items and assembled here alike.
//
//   readPdf(file, { extractor? }) -> { pages: string[] (index 0 = page 1), outline: OutlineItem[] | null, pageCount,
//                      layout: PageLayout[] (each page's lines with position, font size, font, bold) }
//
// The layout feeds the tree builder (datasets/treeBuild); pdfDocTree builds a document's tree
// with it (outline, printed table of contents, layout headings or page groups).
//
// pdf.js runs in worker threads (datasets/pdf-worker.mjs): its legacy build installs core-js
// polyfills on the globals of whatever realm loads it (Array.prototype.push, JSON.parse, ...),
// and they must not reach the harness; the workers also extract several PDFs in parallel. Nothing
// touches the network: files are read from disk, pdf.js's own worker runs in-thread, font faces
// are never loaded, and fonts/CMaps come from the installed package. The workers send raw text
// items back; lines are assembled here, once for both the page text and the layout. Results are cached per file in process (keyed
// by real path, size and mtime), so a corpus and a dataset naming the same PDF extract it once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import pLimit, { type LimitFunction } from 'p-limit';
import { PDF_EXTRACTORS, type DocTree, type PdfExtractor } from '../harness/types.ts';
import { DataError } from './errors.ts';
import { inputFileProblem } from '../harness/files/inputFile.ts';
import { buildPdfTree, type TreeBuildOptions } from './treeBuild/build.ts';
import { heavierThanBody, type FontDescriptorInfo } from './treeBuild/fontWeight.ts';
import type { DrawnRegion, LayoutLine, LayoutSpan, OutlineItem, PageLayout, PdfContent } from './treeBuild/types.ts';
import { pdftohtmlAvailable, pdftohtmlPath, popplerExtract, PopplerError } from './pdfPoppler.ts';

export type { DrawnRegion, LayoutLine, LayoutSpan, OutlineItem, PageLayout, PdfContent } from './treeBuild/types.ts';

/**
 * A text item as the worker sends it: [str, hasEOL, x, y, width, height, font, size] (PDF user
 * space, y up; font: an index into the document's fonts; size: the font size from the text matrix).
 */
export type TextItem = [str: string, hasEOL: boolean, x: number, y: number, width: number, height: number, font?: number, size?: number];

/**
 * A font as the worker names it: [name (e.g. "ABCDEE+Arial-BoldMT"), bold (its name says
 * bold), what its descriptor says about weight, when the file has one].
 */
export type FontInfo = [name: string, bold: boolean, desc?: FontDescriptorInfo];

/**
 * A page's text items as the worker sends them (datasets/pdf-worker.mjs): `strs[k]` is item k's
 * text, `nums[7k .. 7k+6]` its [hasEOL (1/0), x, y, width, height, font, size]. One string array
 * and one transferred Float64Array per page instead of a small array per item: cheaper to send
 * and to keep.
 */
interface PackedItems {
  strs: string[];
  nums: Float64Array;
}

/** TextItems packed (a missing font is -1, a missing size the item's height, as assembleLines reads them). */
function pack(items: TextItem[]): PackedItems {
  const nums = new Float64Array(items.length * 7);
  items.forEach(([, hasEOL, x, y, width, height, font, size], k) => nums.set([hasEOL ? 1 : 0, x, y, width, height, font ?? -1, size ?? height], 7 * k));
  return { strs: items.map((it) => it[0]), nums };
}

interface WorkerReply {
  id: number;
  ok: boolean;
  pageCount?: number;
  pages?: PackedItems[];
  sizes?: [number, number][];
  /** Per page: flat [x0, y0, x1, y1, paths, images] per drawn region (pdf-worker.mjs, "Drawings"). */
  drawings?: number[][];
  fonts?: FontInfo[];
  outline?: OutlineItem[] | null;
  outlineCutAt?: number;
  name?: string;
  message?: string;
}

// --- worker pool -----------------------------------------------------------------------------

const WORKER_URL = new URL('./pdf-worker.mjs', import.meta.url);
/** Idle workers exit after this long, so a finished load does not hold pdf.js in memory. */
const IDLE_MS = 2000;

interface Job {
  id: number;
  file: string;
  resolve: (r: WorkerReply) => void;
  reject: (e: unknown) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  idle: NodeJS.Timeout | null;
}

class PdfPool {
  private slots: Slot[] = [];
  private queue: Job[] = [];
  private nextId = 1;

  constructor(private readonly size: number) {}

  run(file: string): Promise<WorkerReply> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, file, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      if (slot.idle) clearTimeout(slot.idle);
      slot.idle = null;
      slot.job = job;
      slot.worker.ref(); // a pending extraction keeps the process alive
      slot.worker.postMessage({ id: job.id, file: job.file });
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL);
    const slot: Slot = { worker, job: null, idle: null };
    worker.on('message', (reply: WorkerReply) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      slot.job = null;
      worker.unref();
      slot.idle = setTimeout(() => this.retire(slot), IDLE_MS);
      slot.idle.unref();
      job.resolve(reply);
      this.pump();
    });
    const fail = (err: unknown) => {
      this.slots = this.slots.filter((s) => s !== slot);
      if (slot.idle) clearTimeout(slot.idle);
      const job = slot.job;
      slot.job = null;
      if (job) job.reject(err);
      this.pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the PDF worker exited with code ${code}`)));
    this.slots.push(slot);
    return slot;
  }

  private retire(slot: Slot): void {
    if (slot.job) return;
    this.slots = this.slots.filter((s) => s !== slot);
    void slot.worker.terminate();
  }
}

let pool: PdfPool | null = null;
const poolSize = () => Math.max(1, Math.min(4, (os.availableParallelism?.() ?? os.cpus().length) || 1));

// Which program extracts PDFs (corpus.extractor, listed in harness/types.ts): `pdfjs` (pdf.js in
// worker threads, the default) or `poppler` (poppler's pdftohtml, one process per PDF:
// datasets/pdfPoppler.ts).
export { PDF_EXTRACTORS, type PdfExtractor };

export interface ReadPdfOptions {
  extractor?: PdfExtractor;
}

const missingPdftohtml = () =>
  `corpus.extractor is poppler, which runs poppler's pdftohtml, and ${pdftohtmlPath()} cannot be started: install poppler-utils (Debian, Ubuntu: apt-get install poppler-utils; macOS: brew install poppler), or set corpus.extractor: pdfjs`;

/** A DataError naming corpus.extractor when the extractor asked for cannot run here (poppler without pdftohtml). */
export function assertExtractorAvailable(extractor: PdfExtractor): void {
  if (extractor === 'poppler' && !pdftohtmlAvailable()) throw new DataError(missingPdftohtml(), { field: 'corpus.extractor' });
}

/** pdftohtml processes: as many at once as the pdf.js pool has workers (made at the first PDF poppler reads). */
let popplerLimit: LimitFunction | null = null;

// --- cache -----------------------------------------------------------------------------------

const cache = new Map<string, { stamp: string; content: Promise<PdfContent> }>();

/** Forgets every extracted file. */
export function clearPdfCache(): void {
  cache.clear();
}

/**
 * Reads a PDF's page texts and outline (with pdf.js, or pdftohtml for `extractor: 'poppler'`;
 * the two are cached apart). A missing file, a folder, an encrypted or a corrupt PDF
 * is a DataError naming the file. The same file (same real path, size and mtime) is extracted
 * once per process; every call gets its own copy of the arrays. Calls for different files run
 * in parallel (one worker thread per core, at most 4).
 */
export async function readPdf(file: string, opts: ReadPdfOptions = {}): Promise<PdfContent> {
  const extractor = opts.extractor ?? 'pdfjs';
  const abs = path.resolve(file);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new DataError(code === 'ENOENT' ? 'PDF file not found' : `cannot read the PDF (${code ?? String(err)})`, { file: abs }, { cause: err });
  }
  if (stat.isDirectory()) throw new DataError('is a folder, expected a PDF file', { file: abs });
  const problem = inputFileProblem(abs, Number.POSITIVE_INFINITY);
  if (problem) throw new DataError(problem, { file: abs });
  const stamp = `${stat.size}:${stat.mtimeMs}`;
  // Keyed by the real path: the same file reached through a symlink is extracted once.
  let key = abs;
  try {
    key = fs.realpathSync(abs);
  } catch {
    // keep the given path
  }
  key = `${extractor}:${key}`;
  let hit = cache.get(key);
  if (!hit || hit.stamp !== stamp) {
    hit = { stamp, content: extractor === 'poppler' ? extractPoppler(abs) : extract(abs) };
    cache.set(key, hit);
    const mine = hit;
    // A failed extraction is not cached: the next call tries again (and throws again, if still broken).
    mine.content.catch(() => {
      if (cache.get(key) === mine) cache.delete(key);
    });
  }
  const c = await hit.content;
  const copy: PdfContent = { pages: [...c.pages], outline: c.outline && cloneOutline(c.outline), pageCount: c.pageCount };
  if (c.outlineCutAt) copy.outlineCutAt = c.outlineCutAt;
  if (c.layout) copy.layout = c.layout.map((p) => copyPage(p));
  return copy;
}

/**
 * Reads several PDFs in parallel, largest first (better packing on the worker threads), and
 * returns them in the order given. When some fail, the first failing file in that order throws.
 * `onEach` hears of each distinct file as its extraction finishes.
 */
export async function readPdfs(files: string[], onEach?: (content: PdfContent) => void, opts: ReadPdfOptions = {}): Promise<PdfContent[]> {
  const size = (f: string) => {
    try {
      return fs.statSync(f).size;
    } catch {
      return 0;
    }
  };
  if (files.length) assertExtractorAvailable(opts.extractor ?? 'pdfjs');
  const started = new Map<string, Promise<PdfContent>>();
  for (const f of [...new Set(files)].sort((a, b) => size(b) - size(a))) started.set(f, readPdf(f, opts));
  // Progress (datasets/loadProgress.ts): one call per distinct file as it finishes.
  if (onEach) for (const p of started.values()) p.then(onEach, () => {});
  const settled = await Promise.allSettled(files.map((f) => started.get(f)!));
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map((r) => (r as PromiseFulfilledResult<PdfContent>).value);
}

function copyPage(p: PageLayout): PageLayout {
  const page: PageLayout = { width: p.width, height: p.height, lines: p.lines.map((l) => (l.spans ? { ...l, spans: l.spans.map((sp) => ({ ...sp })) } : { ...l })) };
  if (p.drawings) page.drawings = p.drawings.map((d) => ({ ...d }));
  return page;
}

function cloneOutline(items: OutlineItem[]): OutlineItem[] {
  return items.map((o) => ({ title: o.title, page: o.page, children: cloneOutline(o.children) }));
}

async function extract(file: string): Promise<PdfContent> {
  pool ??= new PdfPool(poolSize());
  let reply: WorkerReply;
  try {
    reply = await pool.run(file);
  } catch (err) {
    throw new DataError(`PDF extraction failed (${(err as Error)?.message ?? String(err)})`, { file }, { cause: err });
  }
  if (!reply.ok) {
    if (reply.name === 'PasswordException') throw new DataError('the PDF is encrypted and needs a password; treebench cannot read it', { file });
    throw new DataError(`not a readable PDF (${reply.message ?? reply.name ?? 'unknown error'})`, { file });
  }
  return contentOf(reply);
}

async function extractPoppler(file: string): Promise<PdfContent> {
  let raw;
  try {
    raw = await (popplerLimit ??= pLimit(poolSize()))(() => popplerExtract(file));
  } catch (err) {
    if (err instanceof PopplerError && err.missing) throw new DataError(missingPdftohtml(), { field: 'corpus.extractor', file }, { cause: err });
    if (err instanceof PopplerError && err.encrypted) throw new DataError('the PDF is encrypted and needs a password; treebench cannot read it', { file }, { cause: err });
    throw new DataError(`not a readable PDF (${(err as Error)?.message ?? String(err)})`, { file }, { cause: err });
  }
  return contentOf({ id: 0, ok: true, ...raw });
}

/** Page texts and layout from the raw extraction (either extractor's): lines assembled once for both. */
function contentOf(reply: WorkerReply): PdfContent {
  const fonts = documentFonts(reply.fonts ?? [], reply.pages!);
  const pages: string[] = [];
  const layout: PageLayout[] = [];
  reply.pages!.forEach((items, i) => {
    const raw = assembleLines(items); // once for both the text and the layout
    const texts = raw.map((l) => squeeze(l.text)); // likewise
    pages.push(tidy(texts));
    const page = layoutOf(raw, texts, fonts, reply.sizes?.[i]?.[0] ?? 0, reply.sizes?.[i]?.[1] ?? 0);
    const drawn = unpackDrawings(reply.drawings?.[i]);
    if (drawn.length) page.drawings = drawn;
    layout.push(page);
  });
  return { pages, outline: reply.outline ?? null, ...(reply.outlineCutAt ? { outlineCutAt: reply.outlineCutAt } : {}), pageCount: reply.pageCount!, layout };
}

// --- page text -------------------------------------------------------------------------------

/**
 * Joins a page's text items into lines. pdf.js marks line ends (`hasEOL`) and inserts spaces
 * where glyphs are far apart; on top of that a new line starts when an item's vertical band no
 * longer overlaps the current line's (table cells and text runs pdf.js does not mark), and a
 * space separates items with a visible horizontal gap. Content-stream order is kept.
 */
export function pageText(items: TextItem[]): string {
  return tidy(assembleLines(pack(items)).map((l) => squeeze(l.text)));
}

/**
 * The non-empty lines of a page with what heading detection needs. `lines[k]` is the k-th
 * non-empty line of `pageText(items)`, with the same text, so a heading found here can split
 * the page text. Font size is the largest of the line's items; `font` and `bold` are those of
 * the font carrying most of the line's characters.
 */
export function pageLayout(items: TextItem[], fonts: FontInfo[], width: number, height: number): PageLayout {
  const packed = pack(items);
  const raw = assembleLines(packed);
  return layoutOf(raw, raw.map((l) => squeeze(l.text)), documentFonts(fonts, [packed]), width, height);
}

interface DocFont {
  name: string;
  weight: number;
  /** Heavier than the body font (fontWeight.ts). */
  bold: boolean;
}

/** Each font's weight and whether it is heavier than the body font (the one carrying most characters). */
function documentFonts(fonts: FontInfo[], pages: PackedItems[]): DocFont[] {
  const chars = fonts.map(() => 0);
  for (const { strs, nums } of pages) {
    for (let k = 0; k < strs.length; k++) {
      const f = nums[7 * k + 5];
      if (f >= 0 && f < chars.length) chars[f] += strs[k].trim().length;
    }
  }
  const { weights, bold } = heavierThanBody(fonts.map((f) => ({ name: f[0], desc: f[2] })), chars);
  return fonts.map((f, i) => ({ name: f[0], weight: weights[i], bold: bold[i] }));
}

/** Drawn regions from the worker's flat [x0, y0, x1, y1, paths, images] per region. */
function unpackDrawings(flat: number[] | undefined): DrawnRegion[] {
  const out: DrawnRegion[] = [];
  if (!flat) return out;
  for (let i = 0; i + 5 < flat.length; i += 6) out.push({ x0: flat[i], y0: flat[i + 1], x1: flat[i + 2], y1: flat[i + 3], paths: flat[i + 4], images: flat[i + 5] });
  return out;
}

/** A line's style runs, merged where the fonts agree; undefined when the line is in one font. */
function spansOf(runs: RawRun[], fonts: DocFont[]): LayoutSpan[] | undefined {
  if (runs.length < 2) return undefined;
  const out: LayoutSpan[] = [];
  for (const r of runs) {
    const f = fonts[r.font];
    const font = f?.name ?? '';
    const last = out[out.length - 1];
    if (last && last.font === font) {
      last.text += r.text;
      last.size = Math.max(last.size, r.size);
    } else out.push({ text: r.text, font, bold: f?.bold ?? false, size: r.size });
  }
  if (out.length < 2) return undefined;
  return out.map((sp) => ({ ...sp, text: squeeze(sp.text), size: round(sp.size) })).filter((sp) => sp.text !== '');
}

/** `texts[k]` is `squeeze(raw[k].text)`. */
function layoutOf(raw: RawLine[], texts: string[], fonts: DocFont[], width: number, height: number): PageLayout {
  const lines: LayoutLine[] = [];
  for (let k = 0; k < raw.length; k++) {
    const l = raw[k];
    const text = texts[k];
    if (text === '') continue;
    const f = fonts[l.font];
    const line: LayoutLine = { text, x: round(l.x), y: round(l.y), size: round(l.size), font: f?.name ?? '', bold: f?.bold ?? false, weight: f?.weight ?? 400 };
    const spans = spansOf(l.runs, fonts);
    if (spans && spans.length > 1) line.spans = spans;
    lines.push(line);
  }
  return { width: round(width), height: round(height), lines };
}

const round = (v: number) => Math.round(v * 100) / 100;

interface RawLine {
  text: string;
  x: number;
  y: number;
  size: number;
  /** Font index carrying most characters, -1 when unknown. */
  font: number;
  /** The line's text by font, in order (blank items go with the run before them); texts cut only when there are two runs or more. */
  runs: RawRun[];
}

interface RawRun {
  text: string;
  font: number;
  size: number;
  /** Where the run starts in the line's text (a space put before its first item goes with the run before). */
  start: number;
}

/**
 * A space pdf.js put inside a word (a letter before it, a lower-case letter after) is a kern,
 * not a word break, when it is narrower than KERN_SPACE of its font's usual space on the page
 * and than KERN_EM of its height: old TeX fonts (Type 3 bitmaps especially) advance "Mo" and
 * "dules" by a sliver pdf.js reads as a space. The gap rule of assembleLines then decides, as
 * for any two items. (A narrow space after a full stop or before a dash or a figure stays.)
 */
const KERN_SPACE = 0.2;
const KERN_EM = 0.1;

/** Per font index, the median width of the page's space items, as a fraction of their height. */
function spaceWidths({ strs, nums }: PackedItems): Map<number, number> {
  const byFont = new Map<number, number[]>();
  for (let k = 0, o = 0; k < strs.length; k++, o += 7) {
    if (strs[k] !== ' ' || !(nums[o + 3] > 0)) continue;
    const list = byFont.get(nums[o + 5]) ?? [];
    list.push(nums[o + 3] / (nums[o + 4] || 1));
    byFont.set(nums[o + 5], list);
  }
  const medians = new Map<number, number>();
  for (const [font, list] of byFont) medians.set(font, list.sort((a, b) => a - b)[list.length >> 1]);
  return medians;
}

function assembleLines(packed: PackedItems): RawLine[] {
  const { strs, nums } = packed;
  const usualSpace = spaceWidths(packed);
  const lines: RawLine[] = [];
  let line = '';
  let lineY: number | null = null;
  let lineH = 0;
  let lastEnd: number | null = null;
  let x = 0;
  let size = 0;
  let chars = new Map<number, number>();
  let runs: RawRun[] = [];
  const flush = () => {
    let font = -1;
    let best = 0;
    for (const [f, n] of chars) if (n > best) [font, best] = [f, n];
    if (runs.length > 1) for (let r = 0; r < runs.length; r++) runs[r].text = line.slice(runs[r].start, r + 1 < runs.length ? runs[r + 1].start : line.length);
    lines.push({ text: line, x, y: lineY ?? 0, size, font, runs });
    runs = [];
    line = '';
    lineY = null;
    lastEnd = null;
    size = 0;
    chars = new Map();
  };
  for (let k = 0, o = 0; k < strs.length; k++, o += 7) {
    const str = strs[k];
    const ix = nums[o + 1];
    const y = nums[o + 2];
    const width = nums[o + 3];
    const height = nums[o + 4];
    const h = height || 1;
    const kern = str === ' ' && width / h < KERN_EM && width / h < KERN_SPACE * (usualSpace.get(nums[o + 5]) ?? 0) && /\p{L}$/u.test(line) && /^\p{Ll}/u.test(strs[k + 1] ?? '');
    if (str !== '' && !kern) {
      if (lineY !== null && line !== '' && !sameLine(lineY, lineH, y, h)) flush();
      else if (lastEnd !== null && line !== '' && ix - lastEnd > 0.15 * h && !/\s/.test(line[line.length - 1]) && !/^\s/.test(str)) line += ' ';
      if (lineY === null) {
        lineY = y;
        lineH = h;
        x = ix;
      }
      const before = line.length;
      line += str;
      // style runs as start offsets into the line; their texts are cut only for mixed lines
      const itemFont = nums[o + 5];
      const run = runs[runs.length - 1];
      const blank = str.trim() === '';
      if (run && (run.font === itemFont || blank)) {
        if (!blank && nums[o + 6] > run.size) run.size = nums[o + 6];
      } else runs.push({ text: '', font: itemFont, size: blank ? 0 : nums[o + 6], start: before });
      lastEnd = ix + width;
      if (str.trim()) {
        x = Math.min(x, ix);
        size = Math.max(size, nums[o + 6]);
        const f = nums[o + 5];
        chars.set(f, (chars.get(f) ?? 0) + str.length);
      }
    }
    if (nums[o] === 1) flush();
  }
  if (line !== '') flush();
  return lines;
}

/** Vertical bands [y, y + h] overlapping by at least 40% of the smaller one (superscripts stay on their line). */
function sameLine(y1: number, h1: number, y2: number, h2: number): boolean {
  const overlap = Math.min(y1 + h1, y2 + h2) - Math.max(y1, y2);
  return overlap >= 0.4 * Math.min(h1, h2);
}

/** A line with its runs of blanks collapsed to one space, trimmed. */
function squeeze(line: string): string {
  return line.replace(/[\t \u00a0]+/g, ' ').trim();
}

/** Joins squeezed lines, keeping at most one empty line in a row and none at the ends. */
function tidy(lines: string[]): string {
  const out: string[] = [];
  for (const l of lines) {
    if (l === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(l);
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}

// --- PDF -> document tree --------------------------------------------------------------------

/** The builder's options (datasets/treeBuild): doc id, title, source path, `tree`, `ignoreOutline`, warnings. */
export type PdfTreeOptions = TreeBuildOptions;

/**
 * A document tree from extracted PDF content, built by datasets/treeBuild (buildPdfTree): the
 * outline when plausible, else the printed table of contents, else layout headings, else page
 * groups. `DocTree.treeSource` says which; `DocTree.pages` holds the page texts and every node
 * its own text. Use buildPdfTree directly for the build report (why that source, unlocated
 * table-of-contents entries).
 */
export function pdfDocTree(content: PdfContent, opts: PdfTreeOptions): DocTree {
  const where = opts.source ?? opts.docId;
  if (content.pageCount === 0) throw new DataError('the PDF has no pages', { file: opts.source });
  opts.warnings?.push(...pageTextWarnings(content, where));
  return buildPdfTree(content, opts).doc;
}

/** Warnings about pages without a text layer (scanned pages get no text: treebench does not OCR). */
export function pageTextWarnings(content: PdfContent, where: string): string[] {
  const out: string[] = [];
  // A depth limit is reported, never applied in silence.
  if (content.outlineCutAt) out.push(`${where}: its outline (bookmarks) is nested ${content.outlineCutAt} or more levels deep; only the first ${content.outlineCutAt - 1} levels were read`);
  const empty = content.pages.filter((p) => p.trim() === '').length;
  if (empty === 0) return out;
  if (empty === content.pageCount) return [...out, `${where}: none of its ${content.pageCount} pages has extractable text (a scanned PDF? treebench does not OCR)`];
  return [...out, `${where}: ${empty} of ${content.pageCount} pages have no extractable text`];
}

/** Reads a PDF into a document tree (see pdfDocTree). */
export async function loadPdfFile(file: string, opts: Omit<PdfTreeOptions, 'source'>): Promise<DocTree> {
  const content = await readPdf(file);
  return pdfDocTree(content, { ...opts, source: path.resolve(file) });
}
