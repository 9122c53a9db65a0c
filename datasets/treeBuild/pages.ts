// The last resort: consecutive pages grouped so that no level has more than MAX_FANOUT children.
//
// Each page becomes a leaf titled by its first heading-like line (the first line that is not a
// running header or footer, not a page number, has letters, at most 12 words and is not mostly
// figures), or "Page N" when it has none. With more than MAX_FANOUT pages, pages are grouped into
// runs of equal size (recursively, so a 1,000-page document gets three levels); a group is
// titled by its first page's title and shows its range ("Pages 21–40: Risk factors").
import type { TreeNode } from '../../harness/types.ts';
import type { PdfContent } from './types.ts';
import { numberNodes } from './assemble.ts';
import { digitShare, isPageNumberLine, pageLines, runningLines, type Line } from './text.ts';

export const MAX_FANOUT = 20;
const MAX_TITLE_WORDS = 12;
const MAX_TITLE_CHARS = 90;

/** The page's first heading-like line, or null. */
export function pageTitle(lines: Line[], isRunning: (l: Line) => boolean): string | null {
  for (const l of lines.slice(0, 8)) {
    const t = l.text.trim();
    if (isRunning(l) || isPageNumberLine(t)) continue;
    if (!/\p{L}{2}/u.test(t) || digitShare(t) > 0.3) continue;
    if (t.split(/\s+/).length > MAX_TITLE_WORDS || t.length > MAX_TITLE_CHARS) continue;
    return t;
  }
  return null;
}

export function pagesTree(content: PdfContent): TreeNode[] {
  const lines = pageLines(content);
  const isRunning = runningLines(lines);
  const untitled = new Set<TreeNode>(); // leaves titled "Page N" for want of a heading-like line
  const leaves: TreeNode[] = content.pages.map((text, i) => {
    const title = pageTitle(lines[i], isRunning);
    const node: TreeNode = { id: '', title: title ?? `Page ${i + 1}`, pages: [i + 1, i + 1], children: [] };
    if (title === null) untitled.add(node);
    if (text.trim()) node.text = text;
    return node;
  });
  const group = (list: TreeNode[]): TreeNode[] => {
    if (list.length <= MAX_FANOUT) return list;
    const size = Math.ceil(list.length / MAX_FANOUT);
    const groups: TreeNode[] = [];
    for (let i = 0; i < list.length; i += size) {
      const kids = list.slice(i, i + size);
      const [s, e] = [kids[0].pages![0], kids[kids.length - 1].pages![1]];
      const range = s === e ? `Page ${s}` : `Pages ${s}–${e}`;
      const group: TreeNode = { id: '', title: untitled.has(kids[0]) ? range : `${range}: ${kids[0].title.replace(/^Pages? [\d–]+: /, '')}`, pages: [s, e], children: kids };
      if (untitled.has(kids[0])) untitled.add(group);
      groups.push(group);
    }
    return group(groups);
  };
  const nodes = group(leaves);
  numberNodes(nodes);
  return nodes;
}
