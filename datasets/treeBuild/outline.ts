// Tree from the PDF outline (bookmarks).
//
// A bookmark gives a title and a page (pdf.js resolves named and explicit destinations); a
// bookmark without a page takes its first child's, or is dropped with its children. The outline
// is plausible when at least two bookmarks point into the document and, for documents of more
// than one page, they do not all point at one page. Each bookmark's heading line is looked up
// on its page (so a section that starts mid-page gets its own text from there); when the title
// is not printed on the page, the node starts at the top of the page.
import type { TreeNode } from '../../harness/types.ts';
import type { OutlineItem, PdfContent } from './types.ts';
import { assembleTree, type Heading } from './assemble.ts';
import { findTitle } from './locate.ts';
import { pageLines } from './text.ts';

export interface OutlineResult {
  nodes: TreeNode[];
  /** Bookmarks (with their children) left out because they point at no page. */
  dropped: number;
  plausible: boolean;
  reason: string;
}

export function outlineTree(content: PdfContent): OutlineResult | null {
  if (!content.outline?.length) return null;
  const lines = pageLines(content);
  const headings: Heading[] = [];
  let dropped = 0;
  const walk = (items: OutlineItem[], level: number) => {
    for (const item of items) {
      const page = item.page ?? firstPage(item.children);
      if (page === null) {
        dropped += 1 + count(item.children);
        continue;
      }
      const match = findTitle(item.title, lines[page - 1] ?? []);
      headings.push({ title: item.title || '(untitled)', page, line: match && item.page !== null ? match.line.line : 0, level });
      walk(item.children, level + 1);
    }
  };
  walk(content.outline, 1);
  const pagesHit = new Set(headings.map((h) => h.page)).size;
  let reason = '';
  if (headings.length < 2) reason = `only ${headings.length} bookmark(s) point into the document`;
  else if (content.pageCount > 1 && pagesHit < 2) reason = 'all bookmarks point at one page';
  const plausible = reason === '';
  if (plausible) reason = `${headings.length} bookmarks on ${pagesHit} pages`;
  return { nodes: plausible ? assembleTree(headings, content.pages) : [], dropped, plausible, reason };
}

function firstPage(items: OutlineItem[]): number | null {
  for (const o of items) {
    if (o.page !== null) return o.page;
    const p = firstPage(o.children);
    if (p !== null) return p;
  }
  return null;
}

function count(items: OutlineItem[]): number {
  return items.reduce((n, o) => n + 1 + count(o.children), 0);
}
