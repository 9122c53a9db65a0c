// Native DocTree JSON (the bundled sample corpus format): a file holds one DocTree
// `{ docId, title, description?, nodes: [{ id, title, summary?, text?, pages?, line?, children? }], pages? }`,
// an array of them, or a corpus `{ name?, docs: [...] }`. Validation names the file and the JSON
// path of the first bad field (`nodes[2].children[0].title`), because these files are written by
// hand or by scripts and a silent half-load would poison every number downstream.
import type { DocTree, TreeNode } from '../harness/types.ts';
import { DataError, joinPath, preview } from './errors.ts';
import { isDirectory, listFiles, readJson } from './files.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

class Validator {
  constructor(readonly file: string | undefined) {}

  fail(field: string, msg: string): never {
    throw new DataError(msg, { file: this.file, field });
  }

  string(obj: Json, key: string, base: string, required: boolean): string | undefined {
    const v = obj[key];
    const at = joinPath(base, key);
    if (v === undefined || v === null) {
      if (required) this.fail(at, 'missing required field');
      return undefined;
    }
    if (typeof v !== 'string') this.fail(at, `expected a string, got ${preview(v)}`);
    if (required && v.trim() === '') this.fail(at, 'must not be empty');
    return v;
  }

  posInt(v: unknown, at: string, what: string): number {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) this.fail(at, `expected ${what} (an integer >= 1), got ${preview(v)}`);
    return v;
  }

  node(raw: unknown, at: string, ids: Map<string, string>): TreeNode {
    if (!isObject(raw)) this.fail(at, `expected a node object, got ${preview(raw)}`);
    const id = this.string(raw, 'id', at, true)!;
    const prev = ids.get(id);
    if (prev !== undefined) this.fail(joinPath(at, 'id'), `duplicate node id "${id}" (also at ${prev})`);
    ids.set(id, at);
    const node: TreeNode = { id, title: this.string(raw, 'title', at, true)!.trim(), children: [] };
    const summary = this.string(raw, 'summary', at, false);
    if (summary !== undefined) node.summary = summary;
    const text = this.string(raw, 'text', at, false);
    if (text !== undefined) node.text = text;
    if (raw.pages !== undefined && raw.pages !== null) {
      const p = raw.pages;
      const pf = joinPath(at, 'pages');
      if (!Array.isArray(p) || p.length !== 2) this.fail(pf, `expected [start, end] (1-based pages), got ${preview(p)}`);
      const start = this.posInt(p[0], joinPath(pf, 0), 'a 1-based page');
      const end = this.posInt(p[1], joinPath(pf, 1), 'a 1-based page');
      if (end < start) this.fail(pf, `end page ${end} is before start page ${start}`);
      node.pages = [start, end];
    }
    if (raw.line !== undefined && raw.line !== null) node.line = this.posInt(raw.line, joinPath(at, 'line'), 'a 1-based line');
    const kids = raw.children;
    if (kids !== undefined && kids !== null) {
      if (!Array.isArray(kids)) this.fail(joinPath(at, 'children'), `expected an array of nodes, got ${preview(kids)}`);
      node.children = kids.map((k, i) => this.node(k, joinPath(joinPath(at, 'children'), i), ids));
    }
    return node;
  }

  doc(raw: unknown, base: string): DocTree {
    if (!isObject(raw)) this.fail(base || '(root)', `expected a document object, got ${preview(raw)}`);
    const docId = this.string(raw, 'docId', base, true)!;
    const title = this.string(raw, 'title', base, true)!;
    const nodesField = joinPath(base, 'nodes');
    if (!Array.isArray(raw.nodes)) this.fail(nodesField, raw.nodes === undefined ? 'missing required field' : `expected an array of nodes, got ${preview(raw.nodes)}`);
    const ids = new Map<string, string>();
    const doc: DocTree = { docId, title, nodes: raw.nodes.map((n, i) => this.node(n, joinPath(nodesField, i), ids)) };
    const description = this.string(raw, 'description', base, false);
    if (description !== undefined) doc.description = description;
    if (raw.pages !== undefined && raw.pages !== null) {
      const pf = joinPath(base, 'pages');
      if (!Array.isArray(raw.pages)) this.fail(pf, `expected an array of page texts, got ${preview(raw.pages)}`);
      raw.pages.forEach((p, i) => {
        if (typeof p !== 'string') this.fail(joinPath(pf, i), `expected a string (page ${i + 1} text), got ${preview(p)}`);
      });
      doc.pages = raw.pages as string[];
    }
    if (this.file) doc.source = this.file;
    return doc;
  }
}

/** Validates parsed JSON holding one document, an array of documents, or `{ docs: [...] }`. */
export function parseNativeDocs(json: unknown, file?: string): DocTree[] {
  const v = new Validator(file);
  if (Array.isArray(json)) return json.map((d, i) => v.doc(d, `[${i}]`));
  if (isObject(json) && Array.isArray(json.docs) && json.docId === undefined) return json.docs.map((d, i) => v.doc(d, joinPath('docs', i)));
  return [v.doc(json, '')];
}

export function loadNativeFile(file: string): DocTree[] {
  return parseNativeDocs(readJson(file), file);
}

/** Loads a file or every `.json` file under a folder (sorted), rejecting duplicate doc ids. */
export function loadNativeCorpus(target: string): { docs: DocTree[]; files: string[] } {
  const files = isDirectory(target) ? listFiles(target, ['.json']) : [target];
  if (files.length === 0) throw new DataError('no .json documents found in this folder', { file: target });
  const docs: DocTree[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    for (const doc of loadNativeFile(file)) {
      const prev = seen.get(doc.docId);
      if (prev !== undefined) throw new DataError(`duplicate docId "${doc.docId}" (also in ${prev})`, { file, field: 'docId' });
      seen.set(doc.docId, file);
      docs.push(doc);
    }
  }
  return { docs, files };
}
