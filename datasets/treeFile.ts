// Tree files in and out: what `treebench tree build` writes and `tree inspect|compare` read.
//
//   pageindex  { doc_name, doc_description?, tree_source?, structure: [{ title, node_id,
//              start_index, end_index, summary?, text?, nodes? }] } — PageIndex's own shape
//              (1-based pages), readable by the `pageindex` corpus format and by PageIndex tools
//   native     treebench's DocTree JSON ({ docId, title, nodes, pages? }), the `native` format
//
// readTreeFile tells them apart by shape: a `structure`/`result` array or nodes with `node_id`
// is PageIndex; `docId` / `docs` / nodes with `id` is native.
import path from 'node:path';
import type { DocTree, TreeNode } from '../harness/types.ts';
import { DataError } from './errors.ts';
import { readJson } from './files.ts';
import { parseNativeDocs } from './native.ts';
import { pageIndexDocIdFromFile, parsePageIndexTree } from './pageindex.ts';

export type TreeFileFormat = 'pageindex' | 'native';

interface PageIndexNode {
  title: string;
  node_id: string;
  start_index?: number;
  end_index?: number;
  line_num?: number;
  summary?: string;
  text?: string;
  nodes?: PageIndexNode[];
}

/** A DocTree as PageIndex writes trees; `withText` adds each node's own text. */
export function toPageIndexJson(doc: DocTree, opts: { withText?: boolean } = {}): Record<string, unknown> {
  const convert = (nodes: TreeNode[]): PageIndexNode[] =>
    nodes.map((n) => {
      const o: PageIndexNode = { title: n.title, node_id: n.id };
      if (n.pages) {
        o.start_index = n.pages[0];
        o.end_index = n.pages[1];
      }
      if (n.line !== undefined) o.line_num = n.line;
      if (n.summary) o.summary = n.summary;
      if (opts.withText && n.text) o.text = n.text;
      if (n.children.length) o.nodes = convert(n.children);
      return o;
    });
  return {
    doc_name: doc.title,
    ...(doc.description ? { doc_description: doc.description } : {}),
    ...(doc.treeSource ? { tree_source: doc.treeSource } : {}),
    ...(doc.summaries ? { summaries: doc.summaries } : {}),
    structure: convert(doc.nodes),
  };
}

/** A DocTree as treebench's native JSON; `withPages` keeps the page texts (the file then stands alone). */
export function toNativeJson(doc: DocTree, opts: { withPages?: boolean } = {}): Record<string, unknown> {
  const { pages, source: _source, ...rest } = doc;
  return { ...rest, ...(opts.withPages && pages ? { pages } : {}) };
}

function looksPageIndex(json: unknown): boolean {
  if (Array.isArray(json)) return json.length > 0 && typeof json[0] === 'object' && json[0] !== null && 'node_id' in json[0];
  if (typeof json !== 'object' || json === null) return false;
  const o = json as Record<string, unknown>;
  return Array.isArray(o.structure) || Array.isArray(o.result) || (Array.isArray(o.nodes) && !('docId' in o) && typeof o.nodes[0] === 'object' && o.nodes[0] !== null && 'node_id' in (o.nodes[0] as object));
}

/** Reads a tree file in either format (one document, or several for native `{ docs: [...] }`). */
export function readTreeFile(file: string): { docs: DocTree[]; format: TreeFileFormat } {
  const json = readJson(file);
  if (looksPageIndex(json)) {
    const doc = parsePageIndexTree(json, { docId: pageIndexDocIdFromFile(file), source: file });
    const src = (json as Record<string, unknown>).tree_source;
    if (typeof src === 'string') doc.treeSource = src;
    return { docs: [doc], format: 'pageindex' };
  }
  try {
    return { docs: parseNativeDocs(json, file), format: 'native' };
  } catch (err) {
    if (err instanceof DataError) throw new DataError(`neither a PageIndex tree nor a treebench tree (${err.message})`, { file: path.resolve(file) });
    throw err;
  }
}
