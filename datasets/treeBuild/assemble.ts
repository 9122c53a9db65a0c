// From a flat list of headings to a document tree.
//
// Algorithm: headings are taken in reading order (page, then line). Nesting follows their
// levels with a stack: a heading becomes the child of the nearest earlier heading with a
// smaller level. A node's own text runs from its heading line to the next heading of any level
// (so a parent's own text is its heading and introduction, never its children's text); pages
// run from the heading's page to the page before the next heading at the same or a higher
// level, or to that heading's page when it starts mid-page (text above it on that page belongs
// to this node): neighbours then share that one boundary page and nothing else; a parent's
// range reaches at least to its last child's end. Text before the
// first heading becomes a "Front matter" node. Ids are pre-order `0001`, `0002`, ...
import type { TreeNode } from '../../harness/types.ts';

export interface Heading {
  title: string;
  page: number;
  /** Index into `pages[page - 1].split('\n')`; 0 for the top of the page. */
  line: number;
  /** 1 = top level. */
  level: number;
}

/** Characters of text above a heading on its page below which it counts as starting the page. */
const TOP_OF_PAGE_CHARS = 160;

export function assembleTree(headings: Heading[], pages: string[]): TreeNode[] {
  const pageCount = pages.length;
  const split = pages.map((p) => p.split('\n'));
  const hs = headings
    .filter((h) => h.page >= 1 && h.page <= pageCount)
    .map((h, i) => ({ ...h, i }))
    .sort((a, b) => a.page - b.page || a.line - b.line || a.i - b.i);
  const textBetween = (p1: number, l1: number, p2: number, l2: number): string => {
    // from (p1, l1) inclusive to (p2, l2) exclusive; p2 = pageCount + 1 means the end
    const parts: string[] = [];
    for (let p = p1; p <= Math.min(p2, pageCount); p++) {
      const lines = split[p - 1];
      const from = p === p1 ? l1 : 0;
      const to = p === p2 ? l2 : lines.length;
      const chunk = lines.slice(from, to).join('\n').trim();
      if (chunk) parts.push(chunk);
    }
    return parts.join('\n');
  };
  const startsPage = (h: { page: number; line: number }) => split[h.page - 1].slice(0, h.line).join('\n').trim().length < TOP_OF_PAGE_CHARS;

  const roots: TreeNode[] = [];
  const first = hs[0];
  if (!first) return roots;
  if (first.page > 1 || !startsPage(first) || textBetween(1, 0, first.page, first.line)) {
    const front = textBetween(1, 0, first.page, first.line);
    const end = first.page > 1 && startsPage(first) ? first.page - 1 : first.page;
    if (front || end < first.page) {
      const node: TreeNode = { id: '', title: 'Front matter', pages: [1, end], children: [] };
      if (front) node.text = front;
      roots.push(node);
    }
  }
  const stack: { node: TreeNode; level: number }[] = [];
  hs.forEach((h, idx) => {
    const next = hs[idx + 1];
    let nextSame: (typeof hs)[number] | undefined;
    for (let j = idx + 1; j < hs.length; j++) if (hs[j].level <= h.level) {
      nextSame = hs[j];
      break;
    }
    let end = pageCount;
    if (nextSame) end = startsPage(nextSame) && nextSame.page > h.page ? nextSame.page - 1 : nextSame.page;
    const node: TreeNode = { id: '', title: h.title, pages: [h.page, Math.max(h.page, end)], children: [] };
    const text = next ? textBetween(h.page, h.line, next.page, next.line) : textBetween(h.page, h.line, pageCount + 1, 0);
    if (text) node.text = text;
    while (stack.length && stack[stack.length - 1].level >= h.level) stack.pop();
    const parent = stack[stack.length - 1];
    (parent ? parent.node.children : roots).push(node);
    stack.push({ node, level: h.level });
  });
  // A parent ends where its last child ends: a child whose heading opens the page on which the
  // parent's next sibling also starts (both at the top of page P) ends on P, and so does its
  // parent, sharing that page with the next sibling. Start pages are never moved.
  const extend = (list: TreeNode[]) => {
    for (const n of list) {
      extend(n.children);
      const last = n.children[n.children.length - 1];
      if (last) n.pages = [n.pages![0], Math.max(n.pages![1], last.pages![1])];
      n.pages = [n.pages![0], Math.min(Math.max(n.pages![1], n.pages![0]), pageCount)];
    }
  };
  extend(roots);
  numberNodes(roots);
  return roots;
}

/** Pre-order ids `0001`, `0002`, ... */
export function numberNodes(nodes: TreeNode[]): void {
  let next = 1;
  const walk = (list: TreeNode[]) => {
    for (const n of list) {
      n.id = String(next++).padStart(4, '0');
      walk(n.children);
    }
  };
  walk(nodes);
}
