// Worker thread for datasets/pdf.ts: runs pdf.js (pdfjs-dist, legacy build) away from the main
// thread. Plain JavaScript on purpose: worker threads do not inherit the tsx loader.
//
// Why a worker: the legacy build installs core-js polyfills on the globals of the realm that
// loads it (Array.prototype.push, JSON.parse, Iterator, Set methods, `navigator`, `self`, ...).
// Inside this worker they change nothing in the harness. It also lets several PDFs extract in
// parallel.
//
// Nothing here touches the network: the file is read from disk, pdf.js runs its "fake worker" in
// this thread (its worker module registered as globalThis.pdfjsWorker, so no nested Worker and no
// worker script fetch), font faces are never loaded, and standard fonts, CMaps and wasm come from
// the installed package's folders (pdf.js reads them with fs in Node).
//
// Protocol: in { id, file }; out { id, ok: true, pageCount, pages, sizes, drawings, fonts, outline,
// outlineCutAt? } where pages[i] is the page's text items packed as { strs, nums }: strs[k] is
// item k's text and nums[7k .. 7k+6] its [hasEOL (1/0), x, y, width, height, font, size] (font:
// an index into fonts, a list of [name, bold, descriptor?] where the descriptor is { flags?,
// fontWeight?, stemV? } when the file has one for that name; size: the font size from the text
// matrix) in a Float64Array whose buffer is transferred, not copied; sizes[i] is the page's
// [width, height], drawings[i] the page's drawn regions as flat [x0, y0, x1, y1, paths, images]
// per region (see Drawings), outline items are { title, page (1-based or null), children }, and
// outlineCutAt is set when bookmarks nested deeper than the worker reads; or { id, ok: false,
// name, message }.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import { parentPort } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const root = path.dirname(require.resolve('pdfjs-dist/package.json'));
const dir = (name) => path.join(root, name) + path.sep;
const ASSETS = { standardFontDataUrl: dir('standard_fonts'), cMapUrl: dir('cmaps'), wasmUrl: dir('wasm') };

let libPromise = null;
function loadPdfJs() {
  libPromise ??= (async () => {
    // core-js in the legacy build replaces Array.prototype.push with a slow spec-edge-case
    // polyfill on Node 20 (V8 11.3); pdf.js pushes in its hottest loops, and extraction runs
    // about 1.7x faster with the native method put back once both modules have loaded.
    const nativePush = Array.prototype.push;
    try {
      return await importPdfJs();
    } finally {
      Array.prototype.push = nativePush;
    }
  })();
  return libPromise;
}

async function importPdfJs() {
  globalThis.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  // pdf.js polyfills DOMMatrix, ImageData and Path2D from @napi-rs/canvas (an optional
  // dependency with prebuilt binaries) and builds a DOMMatrix when its module loads. Text
  // extraction never draws, so where that package is absent (--omit=optional, a platform
  // without a binary) inert stand-ins let the module load, and the warning is dropped.
  let canvas = true;
  try {
    require('@napi-rs/canvas');
  } catch {
    canvas = false;
  }
  if (canvas) return import('pdfjs-dist/legacy/build/pdf.mjs');
  globalThis.DOMMatrix ??= class DOMMatrix {
    a = 1; b = 0; c = 0; d = 1; e = 0; f = 0;
  };
  globalThis.ImageData ??= class ImageData {};
  globalThis.Path2D ??= class Path2D {};
  const warn = console.warn;
  console.warn = (...args) => {
    if (!(typeof args[0] === 'string' && args[0].startsWith('Warning: Cannot load "@napi-rs/canvas"'))) warn(...args);
  };
  try {
    return await import('pdfjs-dist/legacy/build/pdf.mjs');
  } finally {
    console.warn = warn;
  }
}

// Flate. pdf.js inflates content streams and font files through the web DecompressionStream,
// which Node builds from a web stream, a Node stream and zlib on the thread pool: per stream,
// that machinery cost more than the inflating, and the worker sat idle waiting for the pool.
// This worker does nothing else meanwhile, so here the class is one that inflates the bytes
// written to it at once with zlib.inflateSync, which is the same inflater with the same
// options (createInflate's defaults): the same bytes out, and an error in the same cases
// (truncated, corrupt, wrong checksum), where pdf.js falls back to its own decoder.
class SyncDecompressionStream {
  constructor(format) {
    const inflate = { deflate: zlib.inflateSync, 'deflate-raw': zlib.inflateRawSync, gzip: zlib.gunzipSync }[format];
    if (!inflate) throw new TypeError(`DecompressionStream: unsupported format ${format}`);
    const input = [];
    let closed;
    const done = new Promise((resolve) => (closed = resolve));
    this.writable = {
      getWriter: () => ({
        ready: Promise.resolve(),
        write: async (chunk) => {
          input.push(chunk);
        },
        close: async () => closed(),
      }),
    };
    this.readable = {
      async *[Symbol.asyncIterator]() {
        await done;
        yield inflate(input.length === 1 ? input[0] : Buffer.concat(input));
      },
    };
  }
}
globalThis.DecompressionStream = SyncDecompressionStream;

// pdf.js's two halves (the API and its "worker", both in this thread) talk through a port.
// Its own in-thread port deep-copies every message with structuredClone, as a real worker
// boundary would: for text content that is every text item, a second time (about 6% of the
// extraction). Here they share a port that hands each message over without the deep copy, a
// microtask later, exactly as that one does otherwise (listeners, abort signals, terminate).
// What the sender touches after sending must still be copied: a stream chunk is, one level
// deep, because the text-content sink sends its one result object again and again with fresh
// `items` and `styles` put in it (the arrays and items themselves are new each time). Nothing
// else on the paths used here (text content, pages, outline, destinations) is changed once
// sent; operator lists, whose arrays are emptied after sending, are never requested.
class DirectPort {
  #listeners = new Map();
  postMessage(message) {
    const chunk = message?.chunk;
    const data = chunk && Object.getPrototypeOf(chunk) === Object.prototype ? { ...message, chunk: { ...chunk } } : message;
    const event = { data };
    Promise.resolve().then(() => {
      for (const [listener] of this.#listeners) listener.call(this, event);
    });
  }
  addEventListener(name, listener, options = null) {
    let rmAbort = null;
    const signal = options?.signal;
    if (signal instanceof AbortSignal) {
      if (signal.aborted) return;
      const onAbort = () => this.removeEventListener(name, listener);
      rmAbort = () => signal.removeEventListener('abort', onAbort);
      signal.addEventListener('abort', onAbort);
    }
    this.#listeners.set(listener, rmAbort);
  }
  removeEventListener(name, listener) {
    this.#listeners.get(listener)?.();
    this.#listeners.delete(listener);
  }
  terminate() {
    for (const [, rmAbort] of this.#listeners) rmAbort?.();
    this.#listeners.clear();
  }
}

/**
 * The pdf.js release the DirectPort's copying was checked against (extraction byte-identical on
 * the shared PDFs). It relies on what pdf.js does with an object after sending it, which is not
 * its API: another release gets pdf.js's own port (undefined here), slower and certainly right.
 */
const DIRECT_PORT_PDFJS = '5.4.624';

let pdfWorker = null;
/** One pdf.js worker half for this thread, joined to the API half by a DirectPort; documents share it. */
function directWorker(lib) {
  if (lib.version !== DIRECT_PORT_PDFJS) return undefined;
  if (!pdfWorker) {
    const port = new DirectPort();
    globalThis.pdfjsWorker.WorkerMessageHandler.initializeFromPort(port);
    pdfWorker = new lib.PDFWorker({ port, verbosity: 0 });
  }
  return pdfWorker;
}

const MAX_OUTLINE_DEPTH = 32;

// Font names. Text content names fonts by a loaded id ("g_d0_f3") and a generic family
// ("sans-serif"); the real name ("ABCDEE+Arial-BoldMT", which says bold) is the `name` of the
// font object pdf.js builds when it loads the font, which the API hands over (as the page's
// common objects) only with an operator list: rebuilding pages just for that cost about a fifth
// of the extraction. pdf.js runs in this thread, so the font objects are caught where they are
// made instead: a setter for `loadedName` on Object.prototype (installed before pdf.js loads,
// in this worker's realm only) turns each first assignment into the plain own property it would
// have been, and notes the objects that already carry a string `name` — pdf.js's Font sets its
// `name` just before its `loadedName`. The name is read after the text of every page, as the
// operator list would have sent it. Fonts without a name (a font that failed to load) keep the
// generic family.
//
// What a font's descriptor says about weight (/FontWeight, /Flags, /StemV) pdf.js does not pass
// on, so descriptors are read from the file's bytes (plain objects and compressed object
// streams), keyed by their /FontName, the name pdf.js reports.
const BOLD_NAME = /bold|black|heavy|semibold|demi|extrabold|ultrabold|[-,]b(d|old)?$|\bbd\b/i;

/**
 * Watches the first assignment of `prop` on every object of this realm (pdf.js's objects among
 * them): a setter on Object.prototype turns it into the plain own property it would have been,
 * then calls `seen(object, value)`. Returns what removes the watch.
 */
function watchFirstSet(prop, seen) {
  Object.defineProperty(Object.prototype, prop, {
    configurable: true,
    enumerable: false,
    get() {
      return undefined;
    },
    set(value) {
      Object.defineProperty(this, prop, { value, writable: true, enumerable: true, configurable: true });
      seen(this, value);
    },
  });
  return () => delete Object.prototype[prop];
}

/** Loaded id -> pdf.js font object, for the document being extracted (one at a time). */
const loadedFonts = new Map();
watchFirstSet('loadedName', (font, value) => {
  if (typeof value === 'string' && Object.hasOwn(font, 'name') && typeof font.name === 'string') loadedFonts.set(value, font);
});

class Fonts {
  list = []; // [name, bold, descriptor?] per font index
  index = new Map(); // loaded id -> font index
  family = new Map(); // loaded id -> generic family from the text content, in font index order
  cheapest = new Map(); // loaded id -> [page, items] of the page with the fewest items using it

  /** The font index of a loaded id on a page (in the order the document first uses them). */
  indexOf(id, content, pageNumber) {
    let i = this.index.get(id);
    if (i === undefined) {
      i = this.index.size;
      this.index.set(id, i);
      this.family.set(id, content.styles?.[id]?.fontFamily ?? '');
    }
    const best = this.cheapest.get(id);
    if (!best || content.items.length < best[1]) this.cheapest.set(id, [pageNumber, content.items.length]);
    return i;
  }

  /**
   * The real names of fonts the prototype setter did not see (a pdf.js release that names or
   * builds its fonts otherwise): from the page's common objects, which pdf.js fills with an
   * operator list, built once per page on the cheapest page using each such font. With the
   * release this worker was checked against, every loaded font is seen and nothing is built.
   */
  async nameUnseen(doc) {
    const byPage = new Map();
    for (const id of this.family.keys()) {
      if (typeof loadedFonts.get(id)?.name === 'string') continue;
      const [page] = this.cheapest.get(id);
      byPage.set(page, [...(byPage.get(page) ?? []), id]);
    }
    const names = new Map();
    for (const [pageNumber, ids] of [...byPage].sort((a, b) => a[0] - b[0])) {
      try {
        const page = await doc.getPage(pageNumber);
        await page.getOperatorList();
        for (const id of ids) if (page.commonObjs.has(id)) names.set(id, page.commonObjs.get(id)?.name ?? '');
        page.cleanup();
      } catch {
        // fonts stay generic
      }
    }
    return names;
  }

  async resolve(doc, bytes) {
    const unseen = await this.nameUnseen(doc);
    let descriptors = null;
    for (const [id, family] of this.family) {
      const real = loadedFonts.get(id)?.name || unseen.get(id) || '';
      const name = real || family;
      const base = name.replace(/^[A-Z]{6}\+/, '');
      let desc;
      if (real) {
        descriptors ??= fontDescriptors(bytes);
        desc = descriptors.get(name) ?? descriptors.get(name.replace(/-Identity-[HV]$/, ''));
      }
      this.list.push(desc ? [name, BOLD_NAME.test(base), desc] : [name, BOLD_NAME.test(base)]);
    }
  }
}

/**
 * The font descriptors of a PDF, by /FontName: { flags?, fontWeight?, stemV? }. Read from the
 * raw bytes: the dictionaries written in the clear, and those inside compressed object streams
 * (/Type /ObjStm, Flate). A descriptor that cannot be read is simply absent.
 */
function fontDescriptors(bytes) {
  const out = new Map();
  const scan = (text) => {
    const re = /\/Type\s*\/FontDescriptor\b/g;
    let m;
    while ((m = re.exec(text))) {
      const dict = enclosingDict(text, m.index);
      if (!dict) continue;
      const name = dict.match(/\/FontName\s*\/([^\s/<>\[\]()%]+)/)?.[1];
      if (!name || out.has(name)) continue;
      const num = (key) => {
        const v = dict.match(new RegExp(`/${key}\\s+(-?\\d+(?:\\.\\d+)?)(?![\\d.]*\\s+\\d+\\s+R)`))?.[1];
        return v === undefined ? undefined : Number(v);
      };
      const desc = {};
      for (const [key, field] of [['Flags', 'flags'], ['FontWeight', 'fontWeight'], ['StemV', 'stemV']]) {
        const v = num(key);
        if (v !== undefined && Number.isFinite(v)) desc[field] = v;
      }
      out.set(name.replace(/#([0-9a-f]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16))), desc);
    }
  };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  scan(text);
  const objStm = /\/Type\s*\/ObjStm\b/g;
  let m;
  while ((m = objStm.exec(text))) {
    const start = text.indexOf('stream', m.index);
    if (start < 0) break;
    let from = start + 6;
    if (text[from] === '\r') from++;
    if (text[from] === '\n') from++;
    const end = text.indexOf('endstream', from);
    if (end < 0) break;
    try {
      scan(zlib.inflateSync(Buffer.from(text.slice(from, end), 'latin1'), { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString('latin1'));
    } catch {
      // not Flate, or damaged: those descriptors stay unknown
    }
    objStm.lastIndex = end;
  }
  return out;
}

/** The `<< … >>` dictionary enclosing position `at` (nested dictionaries skipped), or null. */
function enclosingDict(text, at) {
  let depth = 0;
  let open = -1;
  for (let i = at; i > 0 && at - i < 4000; i--) {
    if (text[i] === '>' && text[i - 1] === '>') {
      depth++;
      i--;
    } else if (text[i] === '<' && text[i - 1] === '<') {
      if (depth === 0) {
        open = i - 1;
        break;
      }
      depth--;
      i--;
    }
  }
  if (open < 0) return null;
  depth = 0;
  for (let i = open; i < text.length - 1 && i - open < 8000; i++) {
    if (text[i] === '<' && text[i + 1] === '<') {
      depth++;
      i++;
    } else if (text[i] === '>' && text[i + 1] === '>') {
      depth--;
      i++;
      if (depth === 0) return text.slice(open, i + 1);
    }
  }
  return null;
}

// Drawings. Figure regions (issue 26: text inside a diagram is no heading) come from what a page
// draws: vector paths and images. pdf.js's operator list says that, but building it for every
// page re-parses every content stream and decodes every image, which would cost about as much as
// the text itself. pdf.js already reads each operator of the content stream (and of the forms it
// draws) for the text content, through its EvaluatorPreprocessor, whose state holds the current
// transform; so the drawing operators are watched there instead, at the cost of a few
// comparisons per operator. Its class is not exported: the prototype is reached through the
// first preprocessor built (a setter on Object.prototype for a field only its constructor sets,
// removed once used), and its `preprocessCommand(fn, args)` (called for every operator read) is
// wrapped. Only preprocessors reading text content (their state is a TextState, which has a
// `textLineMatrix`) are watched: Type3 glyph procedures and annotation appearances are not the
// page's drawing. On another pdf.js release the hook may see nothing: pages then have no
// drawings and headings are detected as before.
//
// Per page the worker sends clusters of what it drew: painted paths (a path's bounding box
// once painted: stroked or filled; clipping paths are not painted) and images (the unit square
// under the transform when an XObject is drawn that is no form — a form's own operators are read
// next, by another preprocessor), merged when they touch or lie within CLUSTER_GAP points of each
// other. Left out before merging: thin rules (under RULE_THIN points across and spanning more than
// half the page's width: section rules, table rules) and anything covering more than half the
// page (backgrounds, page frames). Kept: clusters of at least two shapes or with an image, and at
// least MIN_REGION points each way. Whether a cluster is a figure (and not a box round a heading
// or a framed paragraph) the layout builder decides from the text inside it.
const DRAWINGS_PDFJS = '5.4.624';
const CLUSTER_GAP = 6;
const RULE_THIN = 2;
const MIN_REGION = 12;
const MAX_SHAPES = 20000;
const MAX_CLUSTERS = 1000;

/** What the current page draws, while its text content is read: shapes as [x0, y0, x1, y1, kind] (kind 0 path, 1 image). */
let hookInstalled = false;
const drawing = { on: false, shapes: [], pending: null };

function watchPreprocessor(proto, OPS) {
  const original = proto.preprocessCommand;
  const path = new WeakMap(); // preprocessor -> [x0, y0, x1, y1] of the path being built
  const add = (x0, y0, x1, y1, kind) => {
    if (drawing.shapes.length < MAX_SHAPES * 5) drawing.shapes.push(Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1), kind);
  };
  const point = (box, m, x, y) => {
    if (typeof x !== 'number' || typeof y !== 'number') return;
    const px = m[0] * x + m[2] * y + m[4];
    const py = m[1] * x + m[3] * y + m[5];
    if (px < box[0]) box[0] = px;
    if (py < box[1]) box[1] = py;
    if (px > box[2]) box[2] = px;
    if (py > box[3]) box[3] = py;
  };
  const PAINT = new Set([OPS.stroke, OPS.closeStroke, OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
  proto.preprocessCommand = function (fn, args) {
    original.call(this, fn, args);
    if (!drawing.on) return;
    const state = this.stateManager?.state;
    if (!state || !('textLineMatrix' in state)) return;
    const pending = drawing.pending;
    if (pending) {
      // the XObject drawn last was an image unless another preprocessor (its form's) reads next
      if (pending.by === this) add(...unitSquare(pending.m), 1);
      drawing.pending = null;
    }
    const m = state.ctm;
    switch (fn) {
      case OPS.moveTo:
      case OPS.lineTo:
      case OPS.curveTo:
      case OPS.curveTo2:
      case OPS.curveTo3:
      case OPS.rectangle: {
        let box = path.get(this);
        if (!box) path.set(this, (box = [Infinity, Infinity, -Infinity, -Infinity]));
        if (fn === OPS.rectangle) {
          const [x, y, w, h] = args;
          point(box, m, x, y);
          point(box, m, x + w, y + h);
          point(box, m, x + w, y);
          point(box, m, x, y + h);
        } else for (let i = 0; i + 1 < args.length; i += 2) point(box, m, args[i], args[i + 1]);
        break;
      }
      case OPS.endPath:
        path.delete(this);
        break;
      case OPS.paintXObject:
        drawing.pending = { by: this, m: Array.from(m) };
        break;
      case OPS.endInlineImage:
        add(...unitSquare(m), 1);
        break;
      default:
        if (PAINT.has(fn)) {
          const box = path.get(this);
          path.delete(this);
          if (box && box[0] <= box[2]) add(box[0], box[1], box[2], box[3], 0);
        }
    }
  };
}

function unitSquare(m) {
  const xs = [m[4], m[0] + m[4], m[2] + m[4], m[0] + m[2] + m[4]];
  const ys = [m[5], m[1] + m[5], m[3] + m[5], m[1] + m[3] + m[5]];
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** Installs the watch on the first EvaluatorPreprocessor built (see Drawings). */
function installDrawingHook(OPS) {
  const unwatch = watchFirstSet('_numInvalidPathOPS', (preprocessor) => {
    unwatch();
    let proto = Object.getPrototypeOf(preprocessor);
    while (proto && !Object.hasOwn(proto, 'preprocessCommand')) proto = Object.getPrototypeOf(proto);
    if (proto && typeof proto.preprocessCommand === 'function') watchPreprocessor(proto, OPS);
  });
}

/**
 * The page's drawn regions from the shapes it drew: flat [x0, y0, x1, y1, paths, images] per
 * cluster (see Drawings), in PDF user space.
 */
function drawnRegions(shapes, width, height) {
  const clusters = []; // [x0, y0, x1, y1, paths, images]
  const area = width * height;
  for (let i = 0; i < shapes.length; i += 5) {
    const x0 = shapes[i], y0 = shapes[i + 1], x1 = shapes[i + 2], y1 = shapes[i + 3], kind = shapes[i + 4];
    const w = x1 - x0;
    const h = y1 - y0;
    if (!Number.isFinite(w) || !Number.isFinite(h)) continue;
    if (area > 0 && w * h > area / 2) continue; // a background or a page frame
    if (kind === 0 && width > 0 && ((h < RULE_THIN && w > width / 2) || (w < RULE_THIN && h > height / 2))) continue; // a rule
    let c = [x0, y0, x1, y1, kind === 0 ? 1 : 0, kind === 1 ? 1 : 0];
    // merge every cluster it touches (repeatedly: the merged box may reach others)
    for (let merged = true; merged; ) {
      merged = false;
      for (let k = clusters.length - 1; k >= 0; k--) {
        const o = clusters[k];
        if (o[0] - CLUSTER_GAP <= c[2] && c[0] - CLUSTER_GAP <= o[2] && o[1] - CLUSTER_GAP <= c[3] && c[1] - CLUSTER_GAP <= o[3]) {
          c = [Math.min(c[0], o[0]), Math.min(c[1], o[1]), Math.max(c[2], o[2]), Math.max(c[3], o[3]), c[4] + o[4], c[5] + o[5]];
          clusters.splice(k, 1);
          merged = true;
        }
      }
    }
    clusters.push(c);
    if (clusters.length > MAX_CLUSTERS) break; // a scatter of marks: what is clustered so far stands
  }
  const out = [];
  for (const c of clusters) {
    if (c[4] + c[5] < 2 && c[5] === 0) continue;
    if (c[2] - c[0] < MIN_REGION || c[3] - c[1] < MIN_REGION) continue;
    if (area > 0 && (c[2] - c[0]) * (c[3] - c[1]) > area * 0.9) continue;
    out.push(...c.slice(0, 4).map((v) => Math.round(v * 100) / 100), c[4], c[5]);
  }
  return out;
}

async function readOutline(doc, pageCount) {
  let raw;
  try {
    raw = await doc.getOutline();
  } catch {
    return { items: null }; // a broken outline is no outline; the page text is still good
  }
  if (!raw || raw.length === 0) return { items: null };
  const resolve = async (dest) => {
    try {
      const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
      if (!Array.isArray(explicit) || explicit.length === 0) return null;
      const target = explicit[0];
      const index = typeof target === 'number' ? target : await doc.getPageIndex(target);
      return Number.isInteger(index) && index >= 0 && index < pageCount ? index + 1 : null;
    } catch {
      return null;
    }
  };
  // Bookmarks below MAX_OUTLINE_DEPTH are not read (no real outline is that deep, and pdf.js's
  // nesting is unbounded); the cut is said, never silent: `cutAt` goes to the caller's warnings.
  let cutAt;
  const walk = async (items, depth) => {
    const out = [];
    for (const item of items) {
      const title = String(item.title ?? '').replace(/\s+/g, ' ').trim();
      if (depth >= MAX_OUTLINE_DEPTH && item.items?.length) cutAt = MAX_OUTLINE_DEPTH + 1;
      const children = depth < MAX_OUTLINE_DEPTH && item.items?.length ? await walk(item.items, depth + 1) : [];
      out.push({ title, page: await resolve(item.dest), children });
    }
    return out;
  };
  const items = await walk(raw, 0);
  return { items, cutAt };
}

async function extract(file) {
  const bytes = fs.readFileSync(file);
  const data = new Uint8Array(bytes); // a copy: pdf.js may take over its buffer
  const lib = await loadPdfJs();
  if (!hookInstalled && lib.version === DRAWINGS_PDFJS) {
    hookInstalled = true;
    installDrawingHook(lib.OPS);
  }
  const task = lib.getDocument({
    data,
    worker: directWorker(lib),
    ...ASSETS,
    useWorkerFetch: false,
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    isOffscreenCanvasSupported: false,
    stopAtErrors: false,
    verbosity: 0, // errors only: pdf.js warns about every font quirk ("TT: undefined function")
  });
  try {
    const doc = await task.promise;
    const pageCount = doc.numPages;
    const pages = [];
    const sizes = [];
    const drawings = [];
    const fonts = new Fonts();
    for (let n = 1; n <= pageCount; n++) {
      const page = await doc.getPage(n);
      drawing.on = hookInstalled;
      drawing.shapes = [];
      drawing.pending = null;
      let content;
      try {
        content = await page.getTextContent();
        if (drawing.pending) drawing.shapes.push(...unitSquare(drawing.pending.m), 1);
      } finally {
        drawing.on = false;
        drawing.pending = null;
      }
      const texts = content.items.filter((it) => typeof it.str === 'string'); // not marked-content markers
      const strs = new Array(texts.length);
      const nums = new Float64Array(texts.length * 7);
      for (let k = 0, o = 0; k < texts.length; k++, o += 7) {
        const it = texts[k];
        const t = it.transform ?? [1, 0, 0, 1, 0, 0];
        strs[k] = it.str;
        nums[o] = it.hasEOL ? 1 : 0;
        nums[o + 1] = t[4];
        nums[o + 2] = t[5];
        nums[o + 3] = it.width ?? 0;
        nums[o + 4] = Math.abs(it.height || t[3] || 0);
        nums[o + 5] = fonts.indexOf(it.fontName ?? '', content, n);
        nums[o + 6] = Math.hypot(t[2], t[3]);
      }
      pages.push({ strs, nums });
      const [x0, y0, x1, y1] = page.view ?? [0, 0, 0, 0];
      sizes.push([Math.abs(x1 - x0), Math.abs(y1 - y0)]);
      drawings.push(drawing.shapes.length ? drawnRegions(drawing.shapes, Math.abs(x1 - x0), Math.abs(y1 - y0)) : []);
      drawing.shapes = [];
      page.cleanup();
    }
    await fonts.resolve(doc, bytes);
    const outline = await readOutline(doc, pageCount);
    return { pageCount, pages, sizes, drawings, fonts: fonts.list, outline: outline.items, ...(outline.cutAt ? { outlineCutAt: outline.cutAt } : {}) };
  } finally {
    loadedFonts.clear();
    await task.destroy().catch(() => {});
  }
}

parentPort.on('message', async ({ id, file }) => {
  try {
    const result = await extract(file);
    parentPort.postMessage({ id, ok: true, ...result }, result.pages.map((p) => p.nums.buffer));
  } catch (err) {
    parentPort.postMessage({ id, ok: false, name: err?.name ?? 'Error', code: err?.code, message: err?.message ?? String(err) });
  }
});
