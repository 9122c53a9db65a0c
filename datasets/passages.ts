// The `passages` corpus format: sections of a manual or a knowledge base stored as a list (JSON
// array, JSONL) or a dict of passages, each with an id, a title and a text, and maybe where it
// sits. The fields are mapped, so most passage dumps load without code:
//
//   corpus:
//     format: passages
//     path: manual.json
//     mapping:
//       records: sections        # dotted path to the list/dict inside a JSON file (default: the file itself)
//       id: id                   # default "id"; a dict's key when the field is absent
//       title: title             # default "title"
//       text: text               # a string or a list of strings (joined by line breaks)
//       parent: parent_id        # optional: the parent passage's id
//       path: section_hierarchy  # optional: ancestors as ids or titles, a list or a string split by pathSeparator
//       pathSeparator: ">"
//       page: page               # optional: the page the passage is on (1-based unless pageBase: 0)
//       docId: manual            # optional: which document a passage belongs to (default: one per file)
//
// Tree: with `parent`, each passage hangs under its parent; with `path`, under the last ancestor
// that is a passage id, and path elements that are not ids become group nodes titled by them
// (one per distinct path prefix, ids "group-1", "group-2", ... in first-seen order); with
// neither, the document is flat. Node ids are the passages' own ids, so passages with the same
// title stay apart. A parent that does not exist is a warning and the passage goes to the top.
import { z } from 'zod';
import type { DocTree, TreeNode } from '../harness/types.ts';
import { DataError, preview } from './errors.ts';
import { parseJson, parseJsonLine, readText, stem } from './files.ts';
import { parseListString } from './listString.ts';
import { getPath } from './mapping.ts';
import { titleKey } from './emanual.ts';
import { walkNodes } from './tree-utils.ts';

export { passageMappingSchema, type PassageMapping } from '../harness/config/dataSections.ts';
import type { PassageMapping } from '../harness/config/dataSections.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

interface RawPassage {
  data: Json;
  key?: string;
  /** Where it is, for messages: `file:line` (JSONL) or the JSON path. */
  line?: number;
  at: string;
}

function readRecords(file: string, recordsPath: string | undefined): RawPassage[] {
  const text = readText(file);
  if (/\.(jsonl|ndjson)$/i.test(file)) {
    const out: RawPassage[] = [];
    text.split(/\r?\n/).forEach((raw, i) => {
      if (raw.trim() === '') return;
      const data = parseJsonLine(raw, file, i);
      if (!isObject(data)) throw new DataError(`expected a passage object per line, got ${preview(data)}`, { file, line: i + 1 });
      out.push({ data, line: i + 1, at: '' });
    });
    return out;
  }
  const json = parseJson(text, file);
  const list = recordsPath ? getPath(json, recordsPath) : json;
  const base = recordsPath ? `${recordsPath}.` : '';
  if (Array.isArray(list)) {
    return list.map((d, i) => {
      if (!isObject(d)) throw new DataError(`expected a passage object, got ${preview(d)}`, { file, field: `${base}${i}` });
      return { data: d, at: `${base}${i}.` };
    });
  }
  if (isObject(list) && Object.values(list).every(isObject) && Object.keys(list).length) {
    return Object.entries(list).map(([key, d]) => ({ data: d as Json, key, at: `${base}${key}.` }));
  }
  throw new DataError(
    `expected a list or a dict of passage objects${recordsPath ? ` at "${recordsPath}"` : ''}, got ${preview(list)}; set corpus.mapping.records to the dotted path of the passages`,
    { file, field: recordsPath ? 'corpus.mapping.records' : undefined },
  );
}

/** Documents from one passages file; warnings (unknown parents) are appended to `warnings`. */
export function loadPassagesFile(file: string, mapping: PassageMapping, warnings: string[] = []): DocTree[] {
  const m = mapping;
  const records = readRecords(file, m.records);
  const fail = (r: RawPassage, field: string, msg: string): never => {
    throw new DataError(msg, { file, line: r.line, field: r.at + field });
  };
  const str = (r: RawPassage, field: string, required: boolean): string | undefined => {
    const v = getPath(r.data, field);
    if (blank(v)) return required ? fail(r, field, 'missing required field') : undefined;
    if (typeof v === 'string' || typeof v === 'number') return String(v).trim();
    return fail(r, field, `expected a string or number, got ${preview(v)}`);
  };

  interface Passage {
    raw: RawPassage;
    docId: string;
    node: TreeNode;
    parent?: string;
    path?: string[];
  }
  const passages: Passage[] = [];
  const firstAt = new Map<string, string>();
  for (const r of records) {
    const id = getPath(r.data, m.id) === undefined && r.key !== undefined ? r.key : str(r, m.id, true)!;
    const docId = (m.docId && str(r, m.docId, false)) || stem(file);
    const where = r.line !== undefined ? `line ${r.line}` : r.at.slice(0, -1);
    const dupKey = `${docId}\u0000${id}`;
    if (firstAt.has(dupKey)) fail(r, m.id, `duplicate passage id "${id}" (first at ${firstAt.get(dupKey)})`);
    firstAt.set(dupKey, where);
    const title = str(r, m.title, false) ?? id;
    const tv = getPath(r.data, m.text);
    let text: string | undefined;
    if (Array.isArray(tv)) {
      if (!tv.every((x) => typeof x === 'string' || x === null)) fail(r, m.text, 'expected a string or a list of strings');
      text = (tv as Array<string | null>).filter((x): x is string => x !== null).join('\n');
    } else if (typeof tv === 'string') text = tv;
    else if (!blank(tv)) fail(r, m.text, `expected a string or a list of strings, got ${preview(tv)}`);
    const node: TreeNode = { id, title, children: [] };
    if (text !== undefined && text.trim() !== '') node.text = text.trim();
    if (m.page) {
      const pv = getPath(r.data, m.page);
      if (!blank(pv)) {
        const n = typeof pv === 'string' && /^\s*\d+\s*$/.test(pv) ? Number(pv) : pv;
        if (typeof n !== 'number' || !Number.isInteger(n) || n < m.pageBase) fail(r, m.page, `expected a page number (${m.pageBase}-based), got ${preview(pv)}`);
        const page = (n as number) + (1 - m.pageBase);
        node.pages = [page, page];
      }
    }
    const p: Passage = { raw: r, docId, node };
    if (m.parent) p.parent = str(r, m.parent, false);
    if (m.path) {
      let v = getPath(r.data, m.path);
      if (typeof v === 'string') v = parseListString(v) ?? v.split(m.pathSeparator);
      if (Array.isArray(v)) p.path = v.map((x) => String(x ?? '').trim()).filter((x) => x !== '');
      else if (!blank(v)) fail(r, m.path, `expected a path (a list, or a string split by "${m.pathSeparator}"), got ${preview(v)}`);
    }
    passages.push(p);
  }

  const docs = new Map<string, DocTree>();
  const byDoc = new Map<string, Passage[]>();
  for (const p of passages) {
    if (!docs.has(p.docId)) {
      docs.set(p.docId, { docId: p.docId, title: p.docId, nodes: [], source: file });
      byDoc.set(p.docId, []);
    }
    byDoc.get(p.docId)!.push(p);
  }
  for (const [docId, list] of byDoc) {
    const doc = docs.get(docId)!;
    const ids = new Map(list.map((p) => [p.node.id, p]));
    const groups = new Map<string, TreeNode>();
    let groupN = 0;
    const groupNode = (prefix: string[], parent: TreeNode | null): TreeNode => {
      const key = prefix.map(titleKey).join('\u0000');
      let g = groups.get(key);
      if (!g) {
        let id: string;
        do id = `group-${++groupN}`;
        while (ids.has(id));
        g = { id, title: prefix[prefix.length - 1], children: [] };
        groups.set(key, g);
        (parent ? parent.children : doc.nodes).push(g);
      }
      return g;
    };
    const unknown: string[] = [];
    for (const p of list) {
      let parent: TreeNode | null = null;
      if (p.parent !== undefined && p.parent !== p.node.id) {
        const found = ids.get(p.parent);
        if (found) parent = found.node;
        else unknown.push(`${p.node.id} -> ${p.parent}`);
      } else if (p.path?.length) {
        const anc = [...p.path];
        // A path that ends with the passage itself (its id or its title) names the ancestors before it.
        const last = anc[anc.length - 1];
        if (last === p.node.id || titleKey(last) === titleKey(p.node.title)) anc.pop();
        const prefix: string[] = [];
        for (const el of anc) {
          const byId = ids.get(el);
          if (byId && byId !== p) {
            parent = byId.node;
            prefix.length = 0;
            prefix.push(`#${el}`);
          } else {
            prefix.push(el);
            parent = groupNode(prefix, parent);
          }
        }
      }
      (parent ? parent.children : doc.nodes).push(p.node);
    }
    // Parent links that loop (a -> b -> a) leave their passages unreachable from the top.
    let reachable = 0;
    for (const _ of walkNodes(doc.nodes)) reachable++;
    if (reachable < list.length + groups.size) {
      const seen = new Set([...walkNodes(doc.nodes)].map((v) => v.node));
      const lost = list.filter((p) => !seen.has(p.node)).map((p) => p.node.id);
      throw new DataError(`parent links form a cycle among passages ${lost.slice(0, 5).join(', ')}`, { file, field: m.parent ?? m.path });
    }
    if (unknown.length) {
      warnings.push(`${file}: ${unknown.length} passage(s) of ${docId} name a parent that does not exist; placed at the top (e.g. ${unknown.slice(0, 3).join(', ')})`);
    }
  }
  return [...docs.values()];
}
