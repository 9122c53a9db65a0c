// E-Manual QA over the Samsung Galaxy S10 manual (EMNLP 2021 Findings), from
// ../shared/datasets/emanual-s10/:
//   s10_manual_corpus.json  { section_N: { id, title, text[], html[], section_url, section_hierarchy, t5_para } }
//   s10_50_questions.csv    question_id, question, section_path, section_link, answer
// The tree is rebuilt from `section_hierarchy` ("section_97>section_98>section_100", root first).
// `t5_para` is never read: it is the section text with generated questions appended, and those
// questions paraphrase the benchmark's own. The data has no summaries, and none are made up from
// gold. Gold `section_path` titles map to node ids: the exact title path first, else the last
// title, preferring candidates whose ancestor titles overlap the gold path.
import path from 'node:path';
import type { DocTree, Question, TreeNode } from '../harness/types.ts';
import { DataError, preview } from './errors.ts';
import { readJson, readText } from './files.ts';
import { parseCsvRecords } from './mapping.ts';
import { walkNodes } from './tree-utils.ts';

export const EMANUAL_DOC_ID = 's10';
export const EMANUAL_TITLE = 'Samsung Galaxy S10 User Manual';
export const EMANUAL_CORPUS_FILE = 's10_manual_corpus.json';
export const EMANUAL_QUESTIONS_FILE = 's10_50_questions.csv';

export type GoldMatch = 'exact' | 'lastTitle' | 'none';

export interface EmanualData {
  doc: DocTree;
  questions: Question[];
  warnings: string[];
  files: string[];
  /** How the gold section paths matched the rebuilt tree. */
  goldMatch: Record<GoldMatch, number>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Title comparison key: Unicode-normalised, case- and whitespace-insensitive, straight quotes. */
export function titleKey(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

interface Section {
  id: string;
  title: string;
  lines: string[];
  hierarchy: string[];
  key: string;
}

function readSections(json: unknown, file: string): Section[] {
  if (!isObject(json)) throw new DataError('expected an object of sections keyed by section id', { file });
  return Object.entries(json).map(([key, raw]) => {
    if (!isObject(raw)) throw new DataError(`expected a section object, got ${preview(raw)}`, { file, field: key });
    const id = typeof raw.id === 'string' && raw.id.trim() ? raw.id.trim() : key;
    if (typeof raw.title !== 'string') throw new DataError(`expected a string, got ${preview(raw.title)}`, { file, field: `${key}.title` });
    if (!Array.isArray(raw.text) || raw.text.some((t) => typeof t !== 'string')) {
      throw new DataError(`expected an array of strings, got ${preview(raw.text)}`, { file, field: `${key}.text` });
    }
    if (typeof raw.section_hierarchy !== 'string' || !raw.section_hierarchy.trim()) {
      throw new DataError(`expected "section_a>section_b>...", got ${preview(raw.section_hierarchy)}`, { file, field: `${key}.section_hierarchy` });
    }
    const lines = (raw.text as string[]).map((t) => t.replace(/\s+/g, ' ').trim()).filter((t) => t !== '');
    const hierarchy = raw.section_hierarchy.split('>').map((s) => s.trim()).filter(Boolean);
    return { id, title: raw.title.replace(/\s+/g, ' ').trim(), lines, hierarchy, key };
  });
}

/** Index of `needle` as a contiguous run inside `hay`, or -1. */
function findRun(hay: string[], needle: string[]): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Rebuilds the section tree. Only `title`, `text` and `section_hierarchy` are read. */
export function buildEmanualTree(json: unknown, file: string, warnings: string[] = []): DocTree {
  const sections = readSections(json, file);
  const byId = new Map<string, Section>();
  for (const s of sections) {
    if (byId.has(s.id)) throw new DataError(`duplicate section id "${s.id}"`, { file, field: `${s.key}.id` });
    byId.set(s.id, s);
  }
  const parentOf = new Map<string, string | null>();
  for (const s of sections) {
    const h = s.hierarchy;
    if (h[h.length - 1] !== s.id) warnings.push(`${path.basename(file)}: ${s.key}: section_hierarchy "${h.join('>')}" does not end with its own id; using its last parent entry`);
    const chain = h[h.length - 1] === s.id ? h.slice(0, -1) : h;
    const parent = chain.length ? chain[chain.length - 1] : null;
    if (parent !== null && (!byId.has(parent) || parent === s.id)) {
      warnings.push(`${path.basename(file)}: ${s.key}: parent "${parent}" is not a section; placing it at the top level`);
      parentOf.set(s.id, null);
    } else parentOf.set(s.id, parent);
  }
  // Guard against cycles in hand-edited hierarchies: a section whose ancestry loops goes to the top.
  for (const s of sections) {
    const seen = new Set([s.id]);
    for (let p = parentOf.get(s.id); p; p = parentOf.get(p)) {
      if (seen.has(p)) {
        warnings.push(`${path.basename(file)}: ${s.key}: section_hierarchy loops; placing it at the top level`);
        parentOf.set(s.id, null);
        break;
      }
      seen.add(p);
    }
  }

  const childrenOf = new Map<string, Section[]>();
  for (const s of sections) {
    const p = parentOf.get(s.id);
    if (p) childrenOf.set(p, [...(childrenOf.get(p) ?? []), s]);
  }
  const ownLines = (s: Section): string[] => {
    const lines = [...s.lines];
    // The first line repeats the heading; the node already has it as its title.
    if (lines.length && titleKey(lines[0]) === titleKey(s.title)) lines.shift();
    // Some pages (e.g. "Features") repeat their subsections' text verbatim; a node's text must
    // exclude its children's, so remove each child's full text run (title line included).
    for (const c of childrenOf.get(s.id) ?? []) {
      if (c.lines.length < 2) continue; // a bare title line is the parent's own table of contents
      const at = findRun(lines, c.lines);
      if (at >= 0) lines.splice(at, c.lines.length);
    }
    return lines;
  };
  const nodes = new Map<string, TreeNode>();
  for (const s of sections) {
    const node: TreeNode = { id: s.id, title: s.title, children: [] };
    const text = ownLines(s).join('\n');
    if (text) node.text = text;
    nodes.set(s.id, node);
  }
  const roots: TreeNode[] = [];
  for (const s of sections) {
    const p = parentOf.get(s.id);
    (p ? nodes.get(p)!.children : roots).push(nodes.get(s.id)!);
  }
  return { docId: EMANUAL_DOC_ID, title: EMANUAL_TITLE, nodes: roots, source: file };
}

export interface SectionIndex {
  byPath: Map<string, string[]>;
  byTitle: Map<string, Array<{ id: string; ancestors: string[] }>>;
}

export function indexSections(doc: DocTree): SectionIndex {
  const byPath = new Map<string, string[]>();
  const byTitle = new Map<string, Array<{ id: string; ancestors: string[] }>>();
  const titlePath = new Map<TreeNode, string[]>();
  for (const { node, parent } of walkNodes(doc.nodes)) {
    const p = [...(parent ? titlePath.get(parent)! : []), titleKey(node.title)];
    titlePath.set(node, p);
    const key = p.join('>');
    byPath.set(key, [...(byPath.get(key) ?? []), node.id]);
    const last = p[p.length - 1];
    byTitle.set(last, [...(byTitle.get(last) ?? []), { id: node.id, ancestors: p.slice(0, -1) }]);
  }
  return { byPath, byTitle };
}

/** Node ids for a gold title path like "Settings>Lock screen and security>Location". */
export function matchSectionPath(index: SectionIndex, sectionPath: string): { nodeIds: string[]; how: GoldMatch } {
  const parts = sectionPath.split('>').map(titleKey).filter(Boolean);
  if (!parts.length) return { nodeIds: [], how: 'none' };
  const exact = index.byPath.get(parts.join('>'));
  if (exact) return { nodeIds: exact, how: 'exact' };
  const candidates = index.byTitle.get(parts[parts.length - 1]) ?? [];
  if (!candidates.length) return { nodeIds: [], how: 'none' };
  const goldAncestors = new Set(parts.slice(0, -1));
  const scored = candidates.map((c) => ({ id: c.id, score: c.ancestors.filter((a) => goldAncestors.has(a)).length }));
  const best = Math.max(...scored.map((c) => c.score));
  return { nodeIds: scored.filter((c) => c.score === best).map((c) => c.id), how: 'lastTitle' };
}

export function loadEmanualQuestions(file: string, doc: DocTree, warnings: string[] = []): { questions: Question[]; goldMatch: Record<GoldMatch, number> } {
  const rows = parseCsvRecords(readText(file), file);
  const need = ['question_id', 'question', 'section_path', 'answer'];
  const columns = rows.length ? Object.keys(rows[0].record) : [];
  for (const c of need) {
    if (rows.length && !columns.includes(c)) throw new DataError(`missing column (columns: ${columns.join(', ')})`, { file, line: 1, field: c });
  }
  const index = indexSections(doc);
  const goldMatch: Record<GoldMatch, number> = { exact: 0, lastTitle: 0, none: 0 };
  const seen = new Map<string, number>();
  const questions = rows.map(({ record, line }) => {
    const get = (c: string) => {
      const v = (record[c] ?? '').trim();
      if (!v) throw new DataError('missing required field', { file, line, field: c });
      return v;
    };
    const id = get('question_id');
    if (seen.has(id)) throw new DataError(`duplicate question id "${id}" (first at line ${seen.get(id)})`, { file, line, field: 'question_id' });
    seen.set(id, line);
    const sectionPath = get('section_path');
    const m = matchSectionPath(index, sectionPath);
    goldMatch[m.how]++;
    if (m.how === 'lastTitle') {
      warnings.push(`${path.basename(file)}:${line}: question ${id}: section_path "${sectionPath}" has no exact match; matched by its last title to ${m.nodeIds.join(', ')}`);
    } else if (m.how === 'none') {
      warnings.push(`${path.basename(file)}:${line}: question ${id}: section_path "${sectionPath}" matches no section; it has no gold nodes`);
    }
    const q: Question = {
      id,
      question: get('question'),
      answers: [get('answer')],
      evidence: [m.nodeIds.length ? { docId: EMANUAL_DOC_ID, nodeIds: m.nodeIds } : { docId: EMANUAL_DOC_ID }],
    };
    return q;
  });
  return { questions, goldMatch };
}

export function loadEmanualS10(dir: string): EmanualData {
  const corpusFile = path.join(dir, EMANUAL_CORPUS_FILE);
  const questionsFile = path.join(dir, EMANUAL_QUESTIONS_FILE);
  const warnings: string[] = [];
  const doc = buildEmanualTree(readJson(corpusFile), corpusFile, warnings);
  const { questions, goldMatch } = loadEmanualQuestions(questionsFile, doc, warnings);
  warnings.push(
    `emanual-s10: gold section_path matched ${goldMatch.exact} exactly, ${goldMatch.lastTitle} by last title, ${goldMatch.none} not at all (of ${questions.length})`,
  );
  return { doc, questions, warnings, files: [corpusFile, questionsFile], goldMatch };
}
