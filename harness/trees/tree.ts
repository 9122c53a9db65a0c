// Document-tree helpers the harness itself needs (the run context, value index, tree quality,
// reports) as well as every strategy: node lookup with parents and paths, depth and counts, and
// the text of a node. They live here, below strategies/, so the harness need not import them from there;
// strategies/shared/tree.ts re-exports them next to the helpers only strategies use.
import type { DocTree, TreeNode } from '../types.ts';

export interface NodeInfo {
  node: TreeNode;
  parent: TreeNode | null;
  depth: number;
  /** Titles from the top level down to this node, inclusive. */
  path: string[];
}

export interface DocIndex {
  doc: DocTree;
  byId: Map<string, NodeInfo>;
  /** Pre-order list of every node. */
  order: TreeNode[];
}

const cache = new WeakMap<DocTree, DocIndex>();

/** Indexes a document once (memoised per tree object). */
export function indexDoc(doc: DocTree): DocIndex {
  const hit = cache.get(doc);
  if (hit) return hit;
  const byId = new Map<string, NodeInfo>();
  const order: TreeNode[] = [];
  const visit = (nodes: TreeNode[], parent: TreeNode | null, depth: number, path: string[]) => {
    for (const node of nodes) {
      const p = [...path, node.title];
      byId.set(node.id, { node, parent, depth, path: p });
      order.push(node);
      visit(node.children, node, depth + 1, p);
    }
  };
  visit(doc.nodes, null, 0, []);
  const index = { doc, byId, order };
  cache.set(doc, index);
  return index;
}

export const isLeaf = (node: TreeNode): boolean => node.children.length === 0;

export function treeDepth(nodes: TreeNode[]): number {
  let max = 0;
  for (const n of nodes) max = Math.max(max, 1 + treeDepth(n.children));
  return max;
}

export function countNodes(nodes: TreeNode[]): number {
  let n = 0;
  for (const node of nodes) n += 1 + countNodes(node.children);
  return n;
}

export function countLeaves(nodes: TreeNode[]): number {
  let n = 0;
  for (const node of nodes) n += isLeaf(node) ? 1 : countLeaves(node.children);
  return n;
}

/**
 * The text a reader gets when a node is opened: its own text, else its pages' text (paged
 * sources without per-node text), else its summary, else its title.
 */
export function nodeText(doc: DocTree, node: TreeNode): string {
  if (node.text && node.text.trim()) return node.text;
  if (node.pages && doc.pages) {
    const [start, end] = node.pages;
    const text = doc.pages.slice(start - 1, end).join('\n');
    if (text.trim()) return text;
  }
  return node.summary ?? node.title;
}

/**
 * The text that belongs to this node alone, for indexing: its own text, else the pages of its
 * range that no child covers (a paged parent's range includes its children's pages, which
 * would otherwise be indexed twice), else its summary or title. Empty when the children
 * cover every page.
 */
export function ownText(doc: DocTree, node: TreeNode): string {
  if (node.text && node.text.trim()) return node.text;
  if (node.pages && doc.pages) {
    const covered = new Set<number>();
    for (const c of node.children) if (c.pages) for (let p = c.pages[0]; p <= c.pages[1]; p++) covered.add(p);
    const own: string[] = [];
    for (let p = node.pages[0]; p <= node.pages[1]; p++) if (!covered.has(p) && doc.pages[p - 1]) own.push(doc.pages[p - 1]);
    if (own.length || covered.size) return own.join('\n');
  }
  return node.summary ?? node.title;
}
