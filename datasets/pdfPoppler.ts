// PDF extraction with poppler's `pdftohtml -xml` (opt-in: `corpus.extractor: poppler`), the
// same raw shape as the pdf.js worker sends (datasets/pdf-worker.mjs), so datasets/pdf.ts
// assembles lines and layout from either the same way.
//
// One `pdftohtml -q -xml -i -hidden -stdout -zoom 3 -noroundcoord -fontfullname <file>` process
// per PDF (at most one per core, at most 4, as the pdf.js pool), its XML read line by line as
// it arrives. pdftohtml writes, per page, `<page number height width>` and `<fontspec id size
// family color>`, then one `<text top left width height font>` per run of one font on a line
// (`<b>`, `<i>`, `<a>` inside), and at the end the bookmarks as nested `<outline>` lists of
// `<item page>title</item>`. Coordinates are device pixels at the zoom, y down; they are turned
// into PDF points, y up, each run's y its estimated baseline. Zoom 3 (pdftohtml's largest)
// because font sizes are written as whole numbers at the zoom: a third of a point here.
//
// What pdftohtml does not say: what the page draws (paths, images: no `drawings`, so the tree
// builder cannot tell text inside a figure), font descriptors (weight comes from the full font
// name, and from pdftohtml's bold mark where the name states none), and exact font sizes.
// Everything is offline: pdftohtml reads the file and writes to a pipe.
import { spawn, spawnSync } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { OutlineItem } from './treeBuild/types.ts';
import type { FontDescriptorInfo } from './treeBuild/fontWeight.ts';
import { nameWeight } from './treeBuild/fontWeight.ts';

/** Where pdftohtml is looked for: $TREEBENCH_PDFTOHTML, else on the PATH. */
export const pdftohtmlPath = (): string => process.env.TREEBENCH_PDFTOHTML || 'pdftohtml';

/** Whether pdftohtml can be started (checked once per path and process). */
const available = new Map<string, boolean>();
export function pdftohtmlAvailable(): boolean {
  const bin = pdftohtmlPath();
  let ok = available.get(bin);
  if (ok === undefined) {
    ok = !spawnSync(bin, ['-v'], { stdio: 'ignore' }).error;
    available.set(bin, ok);
  }
  return ok;
}

const ZOOM = 3;
/** Baseline above the run's bottom edge, as a fraction of the font size (a typical descent). */
const DESCENT = 0.2;
const MAX_OUTLINE_DEPTH = 32;
/** A font size under this (points) is no size: pdftohtml's for Type 3 fonts. */
const MIN_SIZE = 1;
/** The descriptor flag ForceBold, given to a font pdftohtml marks bold when its name states no weight. */
const FORCE_BOLD = 1 << 18;

export interface PopplerPage {
  strs: string[];
  nums: Float64Array;
}

/** The raw extraction, as datasets/pdf.ts reads the worker's reply. */
export interface PopplerResult {
  pageCount: number;
  pages: PopplerPage[];
  sizes: [number, number][];
  fonts: [name: string, bold: boolean, desc?: FontDescriptorInfo][];
  outline: OutlineItem[] | null;
  outlineCutAt?: number;
}

/** A failure: `missing` when pdftohtml could not be started (not installed). */
export class PopplerError extends Error {
  constructor(message: string, readonly missing = false, readonly encrypted = false) {
    super(message);
    this.name = 'PopplerError';
  }
}

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decode(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return ENTITY[e.toLowerCase()] ?? m;
  });
}

/** The value of attribute `name` in an element's opening tag (numbers and plain strings). */
function attr(tag: string, name: string): string | undefined {
  const at = tag.indexOf(` ${name}="`);
  if (at < 0) return undefined;
  const from = at + name.length + 3;
  return tag.slice(from, tag.indexOf('"', from));
}

/**
 * A streaming reader of pdftohtml's XML: `push` each chunk of text, `end` once. Elements are one
 * per line; a `<text>` or `<item>` whose content holds a line break is joined until it closes.
 */
export class PopplerXmlReader {
  private pending = '';
  private held = ''; // an element still open across lines
  private pages: PopplerPage[] = [];
  private sizes: [number, number][] = [];
  private strs: string[] = [];
  private nums: number[] = [];
  private pageHeight = 0;
  private fontOf = new Map<string, { index: number; size: number }>(); // fontspec id -> font index, size in points
  private fontIndex = new Map<string, number>(); // full name -> index
  private fontNames: string[] = [];
  private fontBold: boolean[] = [];
  private outline: OutlineItem[] | null = null;
  private stack: OutlineItem[][] = [];
  private cutAt: number | undefined;
  private unsized: number[] = []; // size estimates of the runs whose font has none

  push(chunk: string): void {
    const text = this.pending + chunk;
    let from = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      this.line(text.slice(from, nl));
      from = nl + 1;
    }
    this.pending = text.slice(from);
  }

  end(): PopplerResult {
    if (this.pending) this.line(this.pending);
    this.pending = '';
    if (this.strs.length || this.nums.length) this.closePage();
    if (this.unsized.length) {
      const est = this.unsized.sort((a, b) => a - b)[this.unsized.length >> 1];
      const size = Number.isFinite(est) && est >= MIN_SIZE ? Math.round(est * 2) / 2 : 10;
      for (const { nums } of this.pages) for (let o = 0; o < nums.length; o += 7) if (Number.isNaN(nums[o + 6])) {
          nums[o + 4] = size;
          nums[o + 6] = 0;
        }
    }
    const fonts: PopplerResult['fonts'] = this.fontNames.map((name, i) => {
      const base = name.replace(/^[A-Z]{6}\+/, '');
      const named = /bold|black|heavy|semibold|demi|extrabold|ultrabold|[-,]b(d|old)?$|\bbd\b/i.test(base);
      return this.fontBold[i] && nameWeight(name) === null ? [name, named, { flags: FORCE_BOLD }] : [name, named];
    });
    const out: PopplerResult = { pageCount: this.pages.length, pages: this.pages, sizes: this.sizes, fonts, outline: this.outline };
    if (this.cutAt) out.outlineCutAt = this.cutAt;
    return out;
  }

  private line(raw: string): void {
    let l = this.held ? this.held + '\n' + raw : raw;
    if (this.held) this.held = '';
    else l = l.trimStart();
    if (l.startsWith('<text ')) {
      if (!l.includes('</text>')) {
        this.held = l;
        return;
      }
      this.text(l);
    } else if (l.startsWith('<fontspec ')) {
      const id = attr(l, 'id') ?? '';
      const name = decode(attr(l, 'family') ?? '');
      let index = this.fontIndex.get(name);
      if (index === undefined) {
        index = this.fontNames.length;
        this.fontIndex.set(name, index);
        this.fontNames.push(name);
        this.fontBold.push(false);
      }
      this.fontOf.set(id, { index, size: Number(attr(l, 'size') ?? 0) / ZOOM });
    } else if (l.startsWith('<page ')) {
      if (this.strs.length || this.nums.length || this.pages.length < this.sizes.length) this.closePage();
      const h = Number(attr(l, 'height') ?? 0) / ZOOM;
      this.pageHeight = h;
      this.sizes.push([Number(attr(l, 'width') ?? 0) / ZOOM, h]);
    } else if (l.startsWith('</page>')) {
      this.closePage();
    } else if (l.startsWith('<outline>')) {
      const list: OutlineItem[] = [];
      if (this.stack.length === 0) this.outline = list;
      else {
        const parent = this.stack[this.stack.length - 1];
        const owner = parent[parent.length - 1];
        // bookmarks below MAX_OUTLINE_DEPTH levels go to a list attached nowhere (as the worker cuts them)
        if (this.stack.length > MAX_OUTLINE_DEPTH) this.cutAt = MAX_OUTLINE_DEPTH + 1;
        else if (owner) owner.children = list;
      }
      this.stack.push(list);
    } else if (l.startsWith('</outline>')) {
      this.stack.pop();
    } else if (l.startsWith('<item')) {
      if (!l.includes('</item>')) {
        this.held = l;
        return;
      }
      if (this.stack.length === 0) return;
      const close = l.indexOf('>');
      const page = Number(attr(l.slice(0, close + 1), 'page'));
      const title = decode(l.slice(close + 1, l.lastIndexOf('</item>')).replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();
      const pageCount = this.sizes.length;
      this.stack[this.stack.length - 1].push({ title, page: Number.isInteger(page) && page >= 1 && page <= pageCount ? page : null, children: [] });
    }
  }

  private text(l: string): void {
    const close = l.indexOf('>');
    const tag = l.slice(0, close + 1);
    const inner = l.slice(close + 1, l.lastIndexOf('</text>'));
    const str = decode(inner.indexOf('<') >= 0 ? inner.replace(/<[^>]*>/g, '') : inner);
    // a blank run (pdftohtml writes the spaces a line ends with as runs of their own) would open
    // an empty line; the gap between the runs around it says whether a space goes there
    if (str.trim() === '') return;
    const f = this.fontOf.get(attr(tag, 'font') ?? '');
    const top = Number(attr(tag, 'top')) / ZOOM;
    const height = Number(attr(tag, 'height')) / ZOOM;
    // Type 3 fonts (old TeX bitmaps) come with no usable size (0, their height a sliver). Such
    // runs get size 0, which the tree builder reads as "no size known" (headings then by their
    // numbering, as for text without layout), and as their height (which places lines and
    // spaces) one for the whole document (NaN until end()), estimated from their widths (half an
    // em per character is usual for text faces). An estimate per run was too rough to tell
    // headings by: it made up more than it found.
    let size = f && f.size >= MIN_SIZE ? f.size : height >= MIN_SIZE ? height : NaN;
    if (Number.isNaN(size)) this.unsized.push((2 * Number(attr(tag, 'width'))) / ZOOM / Math.max(1, str.trim().length));
    if (f && inner.startsWith('<b>')) this.fontBold[f.index] = true;
    this.strs.push(str);
    // [hasEOL, x, y (baseline, up), width, height (the font size, as pdf.js's), font, size]
    this.nums.push(0, Number(attr(tag, 'left')) / ZOOM, this.pageHeight - (top + height) + (Number.isNaN(size) ? 0 : DESCENT * size), Number(attr(tag, 'width')) / ZOOM, size, f ? f.index : -1, size);
  }

  private closePage(): void {
    while (this.pages.length < this.sizes.length - 1) this.pages.push({ strs: [], nums: new Float64Array(0) });
    this.pages.push({ strs: this.strs, nums: Float64Array.from(this.nums) });
    this.strs = [];
    this.nums = [];
  }
}

/** Runs pdftohtml on one PDF and reads its XML as it streams in. */
export function popplerExtract(file: string): Promise<PopplerResult> {
  return new Promise((resolve, reject) => {
    const bin = pdftohtmlPath();
    const child = spawn(bin, ['-q', '-xml', '-i', '-hidden', '-stdout', '-zoom', String(ZOOM), '-noroundcoord', '-fontfullname', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    const reader = new PopplerXmlReader();
    const decoder = new StringDecoder('utf8');
    let err = '';
    let failed: unknown = null;
    child.stdout.on('data', (b: Buffer) => {
      if (failed) return;
      try {
        reader.push(decoder.write(b));
      } catch (e) {
        failed = e;
        child.kill();
      }
    });
    child.stderr.on('data', (b: Buffer) => {
      err = (err + b.toString('utf8')).slice(-4000);
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      failed ??= e.code === 'ENOENT' ? new PopplerError(`${bin} not found (install poppler-utils)`, true) : e;
    });
    child.on('close', (code, signal) => {
      if (failed) return reject(failed);
      if (code !== 0) {
        const last = err.trim().split('\n').filter((s) => !/^Syntax (Warning|Error)/.test(s)).pop() ?? err.trim().split('\n').pop() ?? '';
        const encrypted = /password/i.test(err) || code === 3;
        return reject(new PopplerError(`pdftohtml ${signal ? `was killed (${signal})` : `exited with code ${code}`}${last ? `: ${last}` : ''}`, false, encrypted));
      }
      try {
        reader.push(decoder.end());
        resolve(reader.end());
      } catch (e) {
        reject(e);
      }
    });
  });
}
