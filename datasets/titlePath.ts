// Gold given as a path of node titles (`Settings>Lock screen and security>Location`), turned into
// node ids once the corpus is loaded. Titles compare by titleKey (Unicode-normalised, case- and
// whitespace-insensitive).
//
// 1. exact: the whole path, from a top-level node down, names one or more nodes.
// 2. suffix: else the longest run of last titles that some node's path ends with; the nodes with
//    that ending are the gold. More than one node there is "ambiguous": all are kept as gold (any
//    of them is a fair find) and the question is counted so the user can give a longer path.
// 3. none: not even the last title exists; the question has no gold nodes for this path.
import type { Corpus, DocTree, Question } from '../harness/types.ts';
import { titleKey } from './emanual.ts';
import { mergeEvidence, pendingTitlePaths } from './mapping.ts';
import { walkNodes } from './tree-utils.ts';

export type TitlePathMatch = 'exact' | 'suffix' | 'ambiguous' | 'none';

interface Entry {
  docId: string;
  id: string;
  path: string[];
}

export class TitlePathIndex {
  private byLast = new Map<string, Entry[]>();

  constructor(docs: DocTree[]) {
    for (const doc of docs) {
      const pathOf = new Map<unknown, string[]>();
      for (const { node, parent } of walkNodes(doc.nodes)) {
        const p = [...(parent ? pathOf.get(parent)! : []), titleKey(node.title)];
        pathOf.set(node, p);
        const last = p[p.length - 1];
        const list = this.byLast.get(last) ?? [];
        list.push({ docId: doc.docId, id: node.id, path: p });
        this.byLast.set(last, list);
      }
    }
  }

  /** Nodes a title path names, and how they were found; `docId` limits the search to one document. */
  match(titles: string[], docId?: string): { nodes: Array<{ docId: string; id: string }>; how: TitlePathMatch } {
    const keys = titles.map(titleKey).filter(Boolean);
    if (!keys.length) return { nodes: [], how: 'none' };
    const pool = (this.byLast.get(keys[keys.length - 1]) ?? []).filter((e) => docId === undefined || e.docId === docId);
    const endsWith = (e: Entry, k: number) => k <= e.path.length && keys.slice(-k).every((t, i) => e.path[e.path.length - k + i] === t);
    const exact = pool.filter((e) => e.path.length === keys.length && endsWith(e, keys.length));
    if (exact.length) return { nodes: exact.map(pick), how: exact.length === 1 ? 'exact' : 'ambiguous' };
    for (let k = keys.length - 1; k >= 1; k--) {
      const hits = pool.filter((e) => endsWith(e, k));
      if (hits.length) return { nodes: hits.map(pick), how: hits.length === 1 ? 'suffix' : 'ambiguous' };
    }
    return { nodes: [], how: 'none' };
  }
}

const pick = (e: Entry) => ({ docId: e.docId, id: e.id });

/** Dataset text in a message: quoted, with control characters (terminal escapes) written out. */
const quoted = (s: string) => JSON.stringify(s).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Adds the node ids of each question's parked title paths to its gold evidence. Returns counts
 * per kind of match and warnings naming examples of the ambiguous and unmatched ones.
 */
export function resolveTitlePaths(corpus: Corpus, questions: Question[]): { counts: Record<TitlePathMatch, number>; warnings: string[] } {
  const counts: Record<TitlePathMatch, number> = { exact: 0, suffix: 0, ambiguous: 0, none: 0 };
  const examples: Record<TitlePathMatch, string[]> = { exact: [], suffix: [], ambiguous: [], none: [] };
  let index: TitlePathIndex | null = null;
  for (const q of questions) {
    const pending = pendingTitlePaths.get(q);
    if (!pending) continue;
    index ??= new TitlePathIndex(corpus.docs);
    const found: Array<{ docId: string; id: string }> = [];
    for (const titles of pending.paths) {
      const m = index.match(titles, pending.docId);
      counts[m.how]++;
      if (m.how !== 'exact') examples[m.how].push(`${pending.where}: ${quoted(titles.join(' > '))}${m.how === 'ambiguous' ? ` -> ${m.nodes.length} nodes` : ''}`);
      found.push(...m.nodes);
    }
    if (found.length) q.evidence = mergeEvidence([...(q.evidence ?? []), ...found.map((n) => ({ docId: n.docId, nodeIds: [n.id] }))]);
  }
  const total = counts.exact + counts.suffix + counts.ambiguous + counts.none;
  const warnings: string[] = [];
  if (total && total !== counts.exact) {
    const eg = (k: TitlePathMatch) => (examples[k].length ? ` (e.g. ${examples[k].slice(0, 3).join('; ')})` : '');
    warnings.push(
      `gold title paths: ${counts.exact} of ${total} matched exactly, ${counts.suffix} by their last titles${eg('suffix')}, ` +
        `${counts.ambiguous} ambiguous (all candidates kept as gold)${eg('ambiguous')}, ${counts.none} not at all${eg('none')}`,
    );
  }
  return { counts, warnings };
}
