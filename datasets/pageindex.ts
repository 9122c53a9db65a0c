// Imports PageIndex tree JSON as PageIndex writes it (github.com/VectifyAI/PageIndex):
//   PDF trees:      { doc_name, doc_description?, structure: [{ title, node_id, start_index, end_index, summary?, text?, nodes? }] }
//   Markdown trees: { doc_name, line_count?, structure: [{ title, node_id, line_num, summary? | prefix_summary?, text?, nodes? }] }
// Also accepted: a bare array of nodes, a top-level `nodes` array, and the cloud API's `result` array.
// Pages stay 1-based (PageIndex's start_index/end_index are 1-based physical pages).
import type { DocTree, TreeNode } from '../harness/types.ts';
import { DataError, joinPath, preview } from './errors.ts';
import { readJson, stem } from './files.ts';

export interface PageIndexOptions {
  docId: string;
  /** Where the JSON came from, for error messages. */
  source?: string;
  /** Overrides doc_name as the document title. */
  title?: string;
  /** Page count of the PDF, when known: node pages beyond it produce a warning. */
  pageCount?: number;
  /** Non-fatal problems (reversed page ranges, pages past the end) are appended here. */
  warnings?: string[];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The node list of a PageIndex document, and the field path it sits at. */
function topLevel(json: unknown, file?: string): { nodes: unknown[]; field: string; meta: Json } {
  if (Array.isArray(json)) return { nodes: json, field: '', meta: {} };
  if (isObject(json)) {
    for (const key of ['structure', 'nodes', 'result'] as const) {
      if (Array.isArray(json[key])) return { nodes: json[key] as unknown[], field: key, meta: json };
    }
  }
  throw new DataError('expected a PageIndex tree: an object with a "structure" (or "nodes") array, or an array of nodes', {
    file,
  });
}

export function parsePageIndexTree(json: unknown, opts: PageIndexOptions): DocTree {
  const file = opts.source;
  const { nodes: raw, field: rootField, meta } = topLevel(json, file);
  const warn = (msg: string) => opts.warnings?.push(`${file ?? opts.docId}: ${msg}`);

  // First pass: every node id the file already has, so generated ids can avoid them and
  // duplicates are reported with both places.
  const taken = new Map<string, string>();
  const collect = (list: unknown[], base: string) => {
    list.forEach((n, i) => {
      const at = joinPath(base, i);
      if (!isObject(n)) throw new DataError(`expected a node object, got ${preview(n)}`, { file, field: at });
      const id = readId(n.node_id, file, joinPath(at, 'node_id'));
      if (id !== undefined) {
        const prev = taken.get(id);
        if (prev !== undefined) {
          throw new DataError(`duplicate node id "${id}" (also at ${prev})`, { file, field: joinPath(at, 'node_id') });
        }
        taken.set(id, at);
      }
      const kids = childList(n, file, at);
      if (kids) collect(kids.list, kids.field);
    });
  };
  collect(raw, rootField);

  // Second pass: build nodes. Missing ids get `auto-<pre-order index>`, suffixed until unique,
  // so the same file always yields the same ids and they never collide with real ones.
  let preorder = 0;
  const generatedIds = new Set<string>();
  const build = (list: unknown[], base: string): TreeNode[] =>
    list.map((n, i) => {
      const at = joinPath(base, i);
      const obj = n as Json;
      const index = preorder++;
      let id = readId(obj.node_id, file, joinPath(at, 'node_id'));
      if (id === undefined) {
        const stemId = `auto-${String(index).padStart(4, '0')}`;
        id = stemId;
        for (let k = 2; taken.has(id) || generatedIds.has(id); k++) id = `${stemId}-${k}`;
        generatedIds.add(id);
      }
      const node: TreeNode = { id, title: readTitle(obj.title, file, joinPath(at, 'title')), children: [] };
      const summary = firstString(obj.summary, obj.prefix_summary);
      if (summary !== undefined) node.summary = summary;
      if (typeof obj.text === 'string' && obj.text.trim() !== '') node.text = obj.text;
      const pages = readPages(obj, file, at, warn, opts.pageCount);
      if (pages) node.pages = pages;
      if (obj.line_num !== undefined && obj.line_num !== null) node.line = positiveInt(obj.line_num, file, joinPath(at, 'line_num'), 'a line number');
      const kids = childList(obj, file, at);
      if (kids) node.children = build(kids.list, kids.field);
      return node;
    });
  const nodes = build(raw, rootField);
  if (generatedIds.size) warn(`${generatedIds.size} node(s) had no node_id; generated ids "auto-NNNN"`);

  const docName = typeof meta.doc_name === 'string' ? meta.doc_name.trim() : '';
  const doc: DocTree = {
    docId: opts.docId,
    title: opts.title ?? (docName ? stripDocExtension(docName) : opts.docId),
    nodes,
  };
  const description = typeof meta.doc_description === 'string' ? meta.doc_description.trim() : '';
  if (description) doc.description = description;
  if (file) doc.source = file;
  return doc;
}

export interface LoadPageIndexOptions {
  /** `filename` (default): the file name without `.json` and without a `_structure` suffix; `field`: doc_name. */
  docIdFrom?: 'filename' | 'field';
  pageCount?: number;
  warnings?: string[];
}

export function loadPageIndexFile(file: string, docId?: string, opts: LoadPageIndexOptions = {}): DocTree {
  const json = readJson(file);
  let id = docId;
  if (id === undefined && opts.docIdFrom === 'field') {
    const name = isObject(json) && typeof json.doc_name === 'string' ? json.doc_name.trim() : '';
    if (!name) throw new DataError('docIdFrom is "field" but the tree has no doc_name', { file, field: 'doc_name' });
    id = stripDocExtension(name);
  }
  id ??= pageIndexDocIdFromFile(file);
  return parsePageIndexTree(json, { docId: id, source: file, pageCount: opts.pageCount, warnings: opts.warnings });
}

/** `results/q1-fy25-earnings_structure.json` -> `q1-fy25-earnings`, matching the PDF's name. */
export function pageIndexDocIdFromFile(file: string): string {
  return stem(file).replace(/_structure$/, '');
}

function stripDocExtension(name: string): string {
  return name.replace(/\.(pdf|md|markdown|txt|docx?)$/i, '');
}

function childList(n: Json, file: string | undefined, at: string): { list: unknown[]; field: string } | undefined {
  for (const key of ['nodes', 'children'] as const) {
    const v = n[key];
    if (v === undefined || v === null) continue;
    if (!Array.isArray(v)) throw new DataError(`expected an array of nodes, got ${preview(v)}`, { file, field: joinPath(at, key) });
    return { list: v, field: joinPath(at, key) };
  }
  return undefined;
}

function readId(v: unknown, file: string | undefined, field: string): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'string') return v.trim() || undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw new DataError(`expected a string node id, got ${preview(v)}`, { file, field });
}

function readTitle(v: unknown, file: string | undefined, field: string): string {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number') return String(v);
  throw new DataError(v === undefined ? 'missing node title' : `expected a string title, got ${preview(v)}`, { file, field });
}

function firstString(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === 'string' && v.trim() !== '') return v.trim();
  return undefined;
}

function positiveInt(v: unknown, file: string | undefined, field: string, what: string): number {
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
    throw new DataError(`expected ${what} (an integer >= 1), got ${preview(v)}`, { file, field });
  }
  return n;
}

function readPages(
  n: Json,
  file: string | undefined,
  at: string,
  warn: (msg: string) => void,
  pageCount: number | undefined,
): [number, number] | undefined {
  const hasStart = n.start_index !== undefined && n.start_index !== null;
  const hasEnd = n.end_index !== undefined && n.end_index !== null;
  if (!hasStart && !hasEnd) return undefined;
  const start = hasStart ? positiveInt(n.start_index, file, joinPath(at, 'start_index'), 'a 1-based page') : undefined;
  const end = hasEnd ? positiveInt(n.end_index, file, joinPath(at, 'end_index'), 'a 1-based page') : undefined;
  let lo = start ?? end!;
  let hi = end ?? start!;
  if (hi < lo) {
    warn(`${at}: end_index ${hi} is before start_index ${lo}; using pages ${hi}-${lo}`);
    [lo, hi] = [hi, lo];
  }
  if (pageCount !== undefined && hi > pageCount) warn(`${at}: page ${hi} is past the document's ${pageCount} pages`);
  return [lo, hi];
}
