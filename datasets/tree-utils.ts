// Small traversal helpers for loaders and inspection (pre-order, iterative so deep trees cannot
// overflow the stack).
import type { DocTree, TreeNode } from '../harness/types.ts';

export interface Visit {
  node: TreeNode;
  /** 1 for top-level nodes. */
  depth: number;
  parent: TreeNode | null;
}

export function* walkNodes(nodes: TreeNode[]): Generator<Visit> {
  const stack: Visit[] = [];
  for (let i = nodes.length - 1; i >= 0; i--) stack.push({ node: nodes[i], depth: 1, parent: null });
  while (stack.length) {
    const v = stack.pop()!;
    yield v;
    const kids = v.node.children;
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], depth: v.depth + 1, parent: v.node });
  }
}

/** Node ids of a document, for cross-reference checks. */
export function nodeIdSet(doc: DocTree): Set<string> {
  const ids = new Set<string>();
  for (const { node } of walkNodes(doc.nodes)) ids.add(node.id);
  return ids;
}

export function countNodes(doc: DocTree): number {
  let n = 0;
  for (const _ of walkNodes(doc.nodes)) n++;
  return n;
}
