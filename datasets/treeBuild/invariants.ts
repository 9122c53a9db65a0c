// The invariants every built tree keeps, checked in one place (tests call it on every tree):
// - every node has a page range [start, end] with 1 <= start <= end <= pageCount (no node covers
//   zero pages);
// - a child's range lies inside its parent's;
// - siblings come in page order and do not overlap, except that the next one may start on the
//   page where the previous one ends (a heading in the middle of a page); there are no gaps
//   between them, and the top level covers pages 1..pageCount, so every page belongs to a node;
// - node ids are unique.
import type { TreeNode } from '../../harness/types.ts';

/** The broken invariants, as messages naming the node; empty when the tree is sound. */
export function treeInvariantErrors(nodes: TreeNode[], pageCount: number): string[] {
  const errors: string[] = [];
  const ids = new Set<string>();
  const name = (n: TreeNode) => `node ${n.id} "${n.title}"`;
  const check = (list: TreeNode[], lo: number, hi: number, top: boolean) => {
    list.forEach((n, i) => {
      if (ids.has(n.id)) errors.push(`${name(n)}: duplicate id`);
      ids.add(n.id);
      if (!n.pages) {
        errors.push(`${name(n)}: no page range`);
        return;
      }
      const [s, e] = n.pages;
      if (!(Number.isInteger(s) && Number.isInteger(e) && s >= 1 && s <= e && e <= pageCount)) errors.push(`${name(n)}: bad page range [${s}, ${e}]`);
      if (s < lo || e > hi) errors.push(`${name(n)}: [${s}, ${e}] outside its parent's [${lo}, ${hi}]`);
      const prev = list[i - 1];
      if (prev?.pages) {
        if (s < prev.pages[1]) errors.push(`${name(n)}: overlaps its previous sibling (${prev.pages[1]} > ${s})`);
        if (s > prev.pages[1] + 1) errors.push(`${name(n)}: gap after its previous sibling (pages ${prev.pages[1] + 1}..${s - 1})`);
      }
      check(n.children, s, e, false);
    });
    if (top && list.length) {
      if (list[0].pages?.[0] !== 1) errors.push(`page 1 belongs to no node`);
      if (list[list.length - 1].pages?.[1] !== pageCount) errors.push(`page ${pageCount} belongs to no node`);
    }
  };
  if (nodes.length === 0 && pageCount > 0) errors.push('the tree has no nodes');
  check(nodes, 1, pageCount, true);
  return errors;
}
