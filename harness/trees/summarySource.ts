// The text a node's summary is written from, shared by the extractive summaries
// (datasets/summaries.ts) and the model-written ones (harness/run/modelSummaries.ts): a node's own
// text, or, for a heading whose children hold the content, its whole span, bounded in size.
import type { DocTree, TreeNode } from '../types.ts';
import { ownText } from './tree.ts';

/** A node's own text (harness/trees/tree.ts ownText) when it has text or pages; '' for a node with neither. */
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

