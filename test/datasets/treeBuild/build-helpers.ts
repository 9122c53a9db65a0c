// Helpers for the tree builder tests: write a PDF made in the test, extract it with the real
// worker, and describe trees compactly.
import fs from 'node:fs';
import path from 'node:path';
import type { TreeNode } from '../../../harness/types.ts';
import { readPdf, type PdfContent } from '../../../datasets/pdf.ts';
import { tmpFiles } from '../helpers.ts';
import { makePdf, type Bookmark, type PdfOptions, type StyledLine } from '../pdf-writer.ts';

export async function pdfContent(pages: (string | StyledLine)[][], outline?: Bookmark[], opts?: PdfOptions): Promise<PdfContent> {
  const file = path.join(tmpFiles({}), 'doc.pdf');
  fs.writeFileSync(file, makePdf(pages, outline, opts));
  return readPdf(file);
}

/** [title, [start, end], children?] per node. */
export type Shape = [string, [number, number], Shape[]?];

export function shape(nodes: TreeNode[]): Shape[] {
  return nodes.map((n) => (n.children.length ? [n.title, n.pages!, shape(n.children)] : [n.title, n.pages!]));
}

/** Every node's title, depth first. */
export function titlesOf(nodes: TreeNode[]): string[] {
  return nodes.flatMap((n) => [n.title, ...titlesOf(n.children)]);
}

export function find(nodes: TreeNode[], title: string): TreeNode | undefined {
  for (const n of nodes) {
    if (n.title === title) return n;
    const hit = find(n.children, title);
    if (hit) return hit;
  }
  return undefined;
}

/** Body prose: `n` lines of plain 11 pt text, each distinct (so none looks like a running header). */
export function prose(tag: string, n = 4): StyledLine[] {
  return Array.from({ length: n }, (_, i) => ({ text: `${tag} paragraph line ${i + 1} says something about the matter at hand in plain words` }));
}
