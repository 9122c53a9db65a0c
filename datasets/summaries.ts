// Node summaries for trees that have none (built from PDFs, or any corpus on request).
//
// Extractive (offline, the default for trees treebench builds from PDFs): a node's summary is
// its own text's most central sentences (harness/text/extractive.ts), bounded in tokens. A node
// with no text of its own (a heading whose children hold everything) is summarised from its
// whole span, so a parent's summary speaks for its subtree, like PageIndex's `prefix_summary`.
//
// Model summaries (`corpus.summaries: model`) are written by the runner through the metered
// model door (harness/modelSummaries.ts); this module holds the extractive path and the text
// selection both share.
import type { DocTree, TreeNode } from '../harness/types.ts';
import { ownText } from '../harness/tree.ts';
import { DEFAULT_SUMMARY_TOKENS, extractiveSummary, type ExtractiveOptions } from '../harness/text/extractive.ts';

export { DEFAULT_SUMMARY_TOKENS, extractiveSummary };

export type SummaryMode = 'auto' | 'none' | 'extractive' | 'model';

/** Bumped whenever extractive output changes (the ingestion cache keys on it). */
export const SUMMARIZER_VERSION = 'extractive-1';

/** A node's own text (harness/tree.ts ownText) when it has text or pages; '' for a node with neither. */
function ownPages(doc: DocTree, node: TreeNode): string {
  return (node.text && node.text.trim()) || (node.pages && doc.pages) ? ownText(doc, node) : '';
}

/**
 * The whole span of a node: its own text and its descendants', in order — gathered only until
 * `maxChars` are reached (every ancestor of a deep tree asks, so the whole span would cost the
 * document's size once per level).
 */
function spanText(doc: DocTree, node: TreeNode, maxChars: number): string {
  const parts: string[] = [];
  let chars = 0;
  const add = (t: string) => {
    parts.push(t);
    chars += t.length + 1;
  };
  if (node.pages && doc.pages && !node.text) {
    for (let p = node.pages[0]; p <= node.pages[1] && chars <= maxChars; p++) add(doc.pages[p - 1] ?? '');
    return parts.join('\n');
  }
  const visit = (n: TreeNode) => {
    if (chars > maxChars) return; // the joined text already holds maxChars characters
    if (n.text) add(n.text);
    else if (n.children.length === 0) add(ownPages(doc, n));
    n.children.forEach(visit);
  };
  visit(node);
  return parts.join('\n');
}

/**
 * The text a node's summary is written from: its own text when it has at least a sentence's
 * worth (20 words), else its whole span (a heading whose children hold the content). Bounded
 * to `maxChars` so a huge section costs a bounded amount of work (and of model tokens).
 */
export function summarySourceText(doc: DocTree, node: TreeNode, maxChars = 12_000): string {
  const own = node.text ?? ownPages(doc, node);
  const text = (own.match(/\S+/g)?.length ?? 0) >= 20 || node.children.length === 0 ? own : spanText(doc, node, maxChars);
  return text.length > maxChars ? text.slice(0, maxChars) : text;
}

/**
 * Gives every node without a summary an extractive one (nodes with a summary keep it). Returns
 * the number of summaries written. The tree is changed in place and labelled
 * `summaries: 'extractive'` when any was written.
 */
export function addExtractiveSummaries(doc: DocTree, opts: ExtractiveOptions = { maxTokens: DEFAULT_SUMMARY_TOKENS }): number {
  let written = 0;
  const visit = (nodes: TreeNode[]) => {
    for (const node of nodes) {
      if (!node.summary?.trim()) {
        const summary = extractiveSummary(summarySourceText(doc, node), opts);
        if (summary) {
          node.summary = summary;
          written++;
        }
      }
      visit(node.children);
    }
  };
  visit(doc.nodes);
  if (written) doc.summaries = doc.summaries === 'model' ? 'model' : 'extractive';
  return written;
}
