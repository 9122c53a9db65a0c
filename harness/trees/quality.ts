// How good is a document tree, as a navigator would feel it (`treebench tree inspect`).
//
// Per document: where the tree came from, its size and shape (depth, fanout), the title
// problems the hybrid-beam outline gate counts (one-character, numbering-only and duplicated
// titles, harness/trees/outlineQuality.ts — the same thresholds, so "poor" here means the
// gate would flatten it), page coverage (pages that belong to some node, for paged sources),
// the largest node by its own text in tokens (a node a reader cannot open whole is a sign of
// missing structure), and the share of nodes with a summary.
import { assessOutline, DEFAULT_OUTLINE_QUALITY } from './outlineQuality.ts';
import { ownText, treeDepth } from './tree.ts';
import { approxTokens } from '../text/extractive.ts';
import type { DocTree, TreeNode } from '../types.ts';

export interface TreeQuality {
  docId: string;
  title: string;
  /** outline | toc | layout | pages for PDFs; null when the tree came as given (native, PageIndex, Markdown). */
  source: string | null;
  nodes: number;
  depth: number;
  maxFanout: number;
  meanFanout: number;
  shortTitles: number;
  numberingTitles: number;
  duplicateTitles: number;
  poorTitleRatio: number;
  /** True when the outline gate would flatten this tree; `reasons` says why. */
  poor: boolean;
  reasons: string[];
  /** Pages of the document (0 when it is not paged). */
  pages: number;
  /** Pages inside some node's range. */
  pagesCovered: number;
  largestNode: { id: string; title: string; tokens: number } | null;
  /** Share of nodes with a non-empty summary. */
  summaryCoverage: number;
  summaries: string | null;
  /** Why the builder chose this source (PDFs built by treebench), and table-of-contents entries it could not place. */
  reason: string | null;
  unlocated: string[];
}

export function treeQuality(doc: DocTree): TreeQuality {
  const a = assessOutline(doc, DEFAULT_OUTLINE_QUALITY);
  let parents = doc.nodes.length ? 1 : 0;
  let children = doc.nodes.length;
  let withSummary = 0;
  const covered = new Set<number>();
  let largest: TreeQuality['largestNode'] = null;
  const visit = (nodes: TreeNode[]) => {
    for (const n of nodes) {
      if (n.children.length) {
        parents++;
        children += n.children.length;
      }
      if (n.summary?.trim()) withSummary++;
      if (n.pages) for (let p = n.pages[0]; p <= n.pages[1]; p++) covered.add(p);
      const tokens = approxTokens(ownText(doc, n));
      if (!largest || tokens > largest.tokens) largest = { id: n.id, title: n.title, tokens };
      visit(n.children);
    }
  };
  visit(doc.nodes);
  const pages = doc.pages?.length ?? 0;
  return {
    docId: doc.docId,
    title: doc.title,
    source: doc.treeSource ?? null,
    nodes: a.nodes,
    depth: treeDepth(doc.nodes),
    maxFanout: a.maxFanout,
    meanFanout: parents ? children / parents : 0,
    shortTitles: a.shortTitles,
    numberingTitles: a.numberingTitles,
    duplicateTitles: a.duplicateTitles,
    poorTitleRatio: a.poorTitleRatio,
    poor: a.poor,
    reasons: a.reasons,
    pages,
    pagesCovered: [...covered].filter((p) => p >= 1 && p <= pages).length,
    largestNode: largest,
    summaryCoverage: a.nodes ? withSummary / a.nodes : 0,
    summaries: doc.summaries ?? null,
    reason: doc.treeReport?.reason ?? null,
    unlocated: doc.treeReport?.unlocated ?? [],
  };
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** One line per document, aligned, then the gate's reasons for poor trees. */
export function formatTreeQuality(rows: TreeQuality[], escape: (s: string) => string = (s) => s): string {
  const head = ['document', 'source', 'nodes', 'depth', 'fanout max/mean', 'poor titles (1-char/num/dup)', 'pages covered', 'largest node', 'summaries'];
  const body = rows.map((q) => [
    escape(q.docId),
    q.source ?? 'given',
    String(q.nodes),
    String(q.depth),
    `${q.maxFanout}/${q.meanFanout.toFixed(1)}`,
    `${pct(q.poorTitleRatio)} (${q.shortTitles}/${q.numberingTitles}/${q.duplicateTitles})${q.poor ? ' POOR' : ''}`,
    q.pages ? `${q.pagesCovered}/${q.pages}` : '-',
    q.largestNode ? `${q.largestNode.tokens} tok (${escape(q.largestNode.id)})` : '-',
    `${pct(q.summaryCoverage)}${q.summaries ? ` ${q.summaries}` : ''}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(head), ...body.map(line)];
  for (const q of rows) {
    if (q.reason) out.push(`${escape(q.docId)}: ${q.reason.startsWith(`${q.source}:`) ? '' : `${q.source}: `}${escape(q.reason)}`);
    if (q.unlocated.length) out.push(`${escape(q.docId)}: not located (left out): ${q.unlocated.slice(0, 8).map((t) => `"${escape(t)}"`).join(', ')}${q.unlocated.length > 8 ? `, … (${q.unlocated.length})` : ''}`);
    if (q.poor) out.push(`${escape(q.docId)}: outline gate would flatten: ${q.reasons.join('; ')}`);
  }
  return out.join('\n');
}
