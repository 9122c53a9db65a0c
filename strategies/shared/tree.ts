// Tree-navigation helpers shared by every strategy: node lookup, parents, depth, outlines. The
// ones the harness needs too live in harness/trees/tree.ts and are re-exported here.
import type { TreeNode } from '../../harness/types.ts';
import type { ChildView, OutlineNode } from '../prompts.ts';

export { countLeaves, countNodes, indexDoc, isLeaf, nodeText, ownText, treeDepth, type DocIndex, type NodeInfo } from '../../harness/trees/tree.ts';

/** The outline a model sees: ids, titles, summaries, pages — never text. */
export function toOutline(nodes: TreeNode[], opts: { idPrefix?: string; summaryChars?: number } = {}): OutlineNode[] {
  const { idPrefix = '', summaryChars = 400 } = opts;
  return nodes.map((n) => {
    const o: OutlineNode = { node_id: idPrefix + n.id, title: n.title };
    if (n.summary) o.summary = clip(n.summary, summaryChars);
    if (n.pages) o.pages = n.pages;
    if (n.children.length) o.nodes = toOutline(n.children, opts);
    return o;
  });
}

/** One level of children as shown to a model when it chooses where to descend. */
export function childViews(children: TreeNode[], valueScore?: (n: TreeNode) => number | undefined, summaryChars = 400): ChildView[] {
  return children.map((n) => {
    const v: ChildView = { node_id: n.id, title: n.title, has_children: n.children.length > 0 };
    if (n.summary) v.summary = clip(n.summary, summaryChars);
    if (n.pages) v.pages = n.pages;
    const score = valueScore?.(n);
    if (score !== undefined) v.value_score = Math.round(score * 1000) / 1000;
    return v;
  });
}

export function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1).trimEnd()}…`;
}
