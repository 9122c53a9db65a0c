import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import { assembleTree } from '../../../datasets/treeBuild/assemble.ts';
import { forwardChain } from '../../../datasets/treeBuild/toc.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { find, pdfContent, prose, shape } from './build-helpers.ts';

const H = (text: string, size = 13): StyledLine => ({ text, size, bold: true });
const dots = (title: string, page: string, x = 72): StyledLine => ({ text: `${title} ${'.'.repeat(30)} ${page}`, x });
const footer = (n: number): StyledLine => ({ text: String(n), size: 9, x: 300, y: 40 });

/**
 * A 10-Q whose contents lists Part I's items, then Part II, and only then the notes to Part I's
 * statements (pages 3–5, before Item 2 on page 6): the notes are out of page order.
 */
const TENQ: (string | StyledLine)[][] = [
  [H('Widget Corp Form 10-Q', 18), ...prose('Cover', 2)],
  [
    H('Table of Contents', 14),
    { text: 'PART I - FINANCIAL INFORMATION' },
    dots('Item 1. Financial Statements', '2', 80),
    dots('Item 2. Management Discussion and Analysis', '5', 80),
    dots('Item 3. Market Risk Disclosures', '6', 80),
    { text: 'PART II - OTHER INFORMATION' },
    dots('Item 1. Legal Proceedings', '7', 80),
    dots('Item 6. Exhibits', '8', 80),
    dots('Note 1. Basis of Presentation', '2', 100),
    dots('Note 2. Revenue Recognition', '3', 100),
    dots('Note 3. Debt and Credit Facilities', '4', 100),
  ],
  [H('PART I - FINANCIAL INFORMATION', 14), H('Item 1. Financial Statements'), ...prose('Statements'), footer(1)],
  [H('Note 1. Basis of Presentation', 11), ...prose('Basis'), footer(2)],
  [H('Note 2. Revenue Recognition', 11), ...prose('Revenue'), footer(3)],
  [H('Note 3. Debt and Credit Facilities', 11), ...prose('Debt'), footer(4)],
  [H('Item 2. Management Discussion and Analysis'), ...prose('MDA'), footer(5)],
  [H('Item 3. Market Risk Disclosures'), ...prose('Risk'), footer(6)],
  [H('PART II - OTHER INFORMATION', 14), H('Item 1. Legal Proceedings'), ...prose('Legal'), footer(7)],
  [H('Item 6. Exhibits'), ...prose('Exhibits'), footer(8)],
];

describe('a printed contents out of page order', () => {
  it('keeps each located entry on its own evidence and nests the tree in page order', async () => {
    const content = await pdfContent(TENQ);
    const { doc, report } = buildPdfTree(content, { docId: '10q' });
    expect(report.source).toBe('toc');
    expect(report.unlocated).toEqual([]);
    expect(report.located).toBe(10);
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    const part1 = find(doc.nodes, 'PART I - FINANCIAL INFORMATION')!;
    expect(part1.pages).toEqual([3, 8]);
    const item1 = find(doc.nodes, 'Item 1. Financial Statements')!;
    expect(item1.pages![0]).toBe(3);
    expect(shape(item1.children)).toEqual([
      ['Note 1. Basis of Presentation', [4, 4]],
      ['Note 2. Revenue Recognition', [5, 5]],
      ['Note 3. Debt and Credit Facilities', [6, 6]],
    ]);
    expect(find(doc.nodes, 'Item 2. Management Discussion and Analysis')!.pages).toEqual([7, 7]);
    expect(find(doc.nodes, 'Item 6. Exhibits')!.pages).toEqual([10, 10]);
  });

  it('drops an out-of-order entry that has only a loose match to stand on', () => {
    // positions in TOC order: a run forward, one jump ahead (index 2) and one back (index 4)
    expect([...forwardChain([10, 20, 90, 30, 5, 40])].sort()).toEqual([0, 1, 3, 5]);
    expect([...forwardChain([null, 3, null, 3, 2])].sort()).toEqual([1, 3]);
    expect(forwardChain([]).size).toBe(0);
  });
});

describe('page ranges', () => {
  it("ends a parent where its last child ends and never moves a child's start page", () => {
    // page 3 opens with the child's heading, then the parent's next sibling a few lines below
    const pages = ['Intro\nsome words', 'A\ntext of a', 'A.1 child\nshort\nB\nthe rest', 'more of b'];
    const nodes = assembleTree([
      { title: 'Intro', page: 1, line: 0, level: 1 },
      { title: 'A', page: 2, line: 0, level: 1 },
      { title: 'A.1 child', page: 3, line: 0, level: 2 },
      { title: 'B', page: 3, line: 2, level: 1 },
    ], pages);
    expect(treeInvariantErrors(nodes, 4)).toEqual([]);
    expect(shape(nodes)).toEqual([
      ['Intro', [1, 1]],
      ['A', [2, 3], [['A.1 child', [3, 3]]]],
      ['B', [3, 4]],
    ]);
  });
});
