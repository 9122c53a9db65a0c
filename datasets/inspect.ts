// `treebench inspect`: what a dataset and corpus actually contain, before anyone benchmarks on it.
// Fanout counts the children of every node that has any, with each document's top level counted
// as one more such "node" (the first choice a tree strategy faces).
import type { Corpus, Question } from '../harness/types.ts';
import { walkNodes } from './tree-utils.ts';
import { approxTokens } from '../harness/text/extractive.ts';

export interface InspectStats {
  name?: string;
  documents: number;
  pagedDocuments: number;
  nodes: number;
  leaves: number;
  /** Levels in the deepest document (a flat list of sections is depth 1). */
  maxDepth: number;
  meanFanout: number;
  maxFanout: number;
  nodesWithSummary: number;
  nodesWithText: number;
  nodesWithPages: number;
  /** Approximate tokens of all node text (or exact, with a counter). */
  textTokens: number;
  questions: number;
  multipleChoice: number;
  questionsWithDocIds: number;
  questionsWithGoldDocs: number;
  questionsWithGoldNodes: number;
  questionsWithGoldPages: number;
  /** Gold node references (docId#nodeId) and how many of them exist in the corpus. */
  goldNodeRefs: number;
  goldNodeRefsFound: number;
  /** goldNodeRefsFound / goldNodeRefs; null when there are no gold nodes. */
  goldCoverage: number | null;
  goldDocRefs: number;
  goldDocRefsFound: number;
  tags: Record<string, number>;
  /** Documents per tree source (PDFs: outline, toc, layout, pages; `given` for trees that came as they are). */
  treeSources: Record<string, number>;
  /** Documents per summary writer (`extractive`, `model`), for trees whose missing summaries were written. */
  summaryWriters: Record<string, number>;
}

export interface InspectOptions {
  /** Token counter; the default approximates with words * 1.3. */
  countTokens?: (text: string) => number;
}

export { approxTokens };

export function inspectData(data: { name?: string; corpus: Corpus; questions: Question[] }, opts: InspectOptions = {}): InspectStats {
  const count = opts.countTokens ?? approxTokens;
  const s: InspectStats = {
    name: data.name ?? data.corpus.name,
    documents: data.corpus.docs.length,
    pagedDocuments: 0,
    nodes: 0,
    leaves: 0,
    maxDepth: 0,
    meanFanout: 0,
    maxFanout: 0,
    nodesWithSummary: 0,
    nodesWithText: 0,
    nodesWithPages: 0,
    textTokens: 0,
    questions: data.questions.length,
    multipleChoice: 0,
    questionsWithDocIds: 0,
    questionsWithGoldDocs: 0,
    questionsWithGoldNodes: 0,
    questionsWithGoldPages: 0,
    goldNodeRefs: 0,
    goldNodeRefsFound: 0,
    goldCoverage: null,
    goldDocRefs: 0,
    goldDocRefsFound: 0,
    tags: {},
    treeSources: {},
    summaryWriters: {},
  };
  let parents = 0;
  let children = 0;
  const ids = new Map<string, Set<string>>();
  for (const doc of data.corpus.docs) {
    if (doc.pages?.length) s.pagedDocuments++;
    const source = doc.treeSource ?? 'given';
    s.treeSources[source] = (s.treeSources[source] ?? 0) + 1;
    if (doc.summaries) s.summaryWriters[doc.summaries] = (s.summaryWriters[doc.summaries] ?? 0) + 1;
    const docIds = new Set<string>();
    ids.set(doc.docId, docIds);
    if (doc.nodes.length) {
      parents++;
      children += doc.nodes.length;
      s.maxFanout = Math.max(s.maxFanout, doc.nodes.length);
    }
    for (const { node, depth } of walkNodes(doc.nodes)) {
      docIds.add(node.id);
      s.nodes++;
      s.maxDepth = Math.max(s.maxDepth, depth);
      if (node.children.length) {
        parents++;
        children += node.children.length;
        s.maxFanout = Math.max(s.maxFanout, node.children.length);
      } else s.leaves++;
      if (node.summary?.trim()) s.nodesWithSummary++;
      if (node.text?.trim()) {
        s.nodesWithText++;
        s.textTokens += count(node.text);
      }
      if (node.pages) s.nodesWithPages++;
    }
  }
  s.meanFanout = parents ? children / parents : 0;

  for (const q of data.questions) {
    if (q.choices?.length) s.multipleChoice++;
    if (q.docIds?.length) s.questionsWithDocIds++;
    const ev = q.evidence ?? [];
    if (ev.length) s.questionsWithGoldDocs++;
    if (ev.some((e) => e.nodeIds?.length)) s.questionsWithGoldNodes++;
    if (ev.some((e) => e.pages?.length)) s.questionsWithGoldPages++;
    for (const e of ev) {
      const docIds = ids.get(e.docId);
      s.goldDocRefs++;
      if (docIds) s.goldDocRefsFound++;
      for (const n of e.nodeIds ?? []) {
        s.goldNodeRefs++;
        if (docIds?.has(n)) s.goldNodeRefsFound++;
      }
    }
    for (const t of q.tags ?? []) s.tags[t] = (s.tags[t] ?? 0) + 1;
  }
  s.goldCoverage = s.goldNodeRefs ? s.goldNodeRefsFound / s.goldNodeRefs : null;
  return s;
}

const counts = (c: Record<string, number>) =>
  Object.entries(c)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '-');
const num = (n: number) => n.toLocaleString('en-US');

/** Plain aligned text for the console. */
export function formatInspect(s: InspectStats): string {
  const rows: Array<[string, string]> = [
    ['documents', `${num(s.documents)}${s.pagedDocuments ? ` (${num(s.pagedDocuments)} with page texts)` : ''}`],
    ['nodes', `${num(s.nodes)} (${num(s.leaves)} leaves)`],
    ['tree sources', counts(s.treeSources) + (s.treeSources.pages ? ' (pages: no outline, table of contents or headings found; see `treebench tree inspect`)' : '')],
    ['max depth', String(s.maxDepth)],
    ['fanout', `mean ${s.meanFanout.toFixed(2)}, max ${s.maxFanout}`],
    ['nodes with summary', `${num(s.nodesWithSummary)} (${pct(s.nodesWithSummary, s.nodes)})${Object.keys(s.summaryWriters).length ? `; written by: ${counts(s.summaryWriters)} (documents)` : ''}`],
    ['nodes with text', `${num(s.nodesWithText)} (${pct(s.nodesWithText, s.nodes)})`],
    ['nodes with pages', `${num(s.nodesWithPages)} (${pct(s.nodesWithPages, s.nodes)})`],
    ['text tokens', `~${num(s.textTokens)}`],
    ['questions', `${num(s.questions)}${s.multipleChoice ? ` (${num(s.multipleChoice)} multiple choice)` : ''}`],
    ['with docIds', `${num(s.questionsWithDocIds)} (${pct(s.questionsWithDocIds, s.questions)})`],
    ['with gold docs', `${num(s.questionsWithGoldDocs)} (${pct(s.questionsWithGoldDocs, s.questions)})`],
    ['with gold nodes', `${num(s.questionsWithGoldNodes)} (${pct(s.questionsWithGoldNodes, s.questions)})`],
    ['with gold pages', `${num(s.questionsWithGoldPages)} (${pct(s.questionsWithGoldPages, s.questions)})`],
    ['gold docs found', `${num(s.goldDocRefsFound)} of ${num(s.goldDocRefs)} (${pct(s.goldDocRefsFound, s.goldDocRefs)})`],
    ['gold node coverage', s.goldCoverage === null ? '- (no gold nodes)' : `${num(s.goldNodeRefsFound)} of ${num(s.goldNodeRefs)} (${pct(s.goldNodeRefsFound, s.goldNodeRefs)})`],
  ];
  const tags = Object.entries(s.tags).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (tags.length) rows.push(['tags', tags.map(([t, n]) => `${t}: ${n}`).join(', ')]);
  const width = Math.max(...rows.map((r) => r[0].length));
  const head = s.name ? [`dataset ${s.name}`] : [];
  return [...head, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)].join('\n');
}
