import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../../harness/types.ts';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import type { Heading } from '../../../datasets/treeBuild/assemble.ts';
import { assembleTree } from '../../../datasets/treeBuild/assemble.ts';
import { groupWideLevels, maxFanout, MAX_HEADING_FANOUT, promoteWideLevels } from '../../../datasets/treeBuild/fanout.ts';
import type { PdfContent } from '../../../datasets/treeBuild/types.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { find, pdfContent, prose, shape } from './build-helpers.ts';

const H = (text: string, size: number): StyledLine => ({ text, size, bold: true });
const dots = (title: string, page: string): StyledLine => ({ text: `${title} ${'.'.repeat(40)} ${page}` });
const TOPICS = ['Revenue', 'Leases', 'Debt', 'Taxes', 'Pensions', 'Goodwill', 'Inventory', 'Segments', 'Equity', 'Warranties', 'Derivatives', 'Contingencies', 'Acquisitions', 'Restructuring', 'Investments', 'Receivables', 'Payables', 'Intangibles', 'Compensation', 'Guarantees', 'Commitments', 'Hedging', 'Insurance', 'Royalties'];

/**
 * A filing whose printed contents list three sections; "Financial Statements …" runs for twelve
 * pages and holds "Notes to Financial Statements" (14 pt), 24 notes (12 pt) and one 11 pt bold
 * subheading inside each note. Inside a long TOC section the layout headings are kept at most two
 * levels down, so the notes and their subheadings land on one level: 48 siblings.
 */
function filing(): (string | StyledLine)[][] {
  const pages: (string | StyledLine)[][] = [
    [H('Widget Holdings Annual Report', 20)],
    [H('Contents', 16), dots('Business', '1'), dots('Financial Statements and Supplementary Data', '2'), dots('Signatures', '14')],
    [H('Business', 16), ...prose('Business')],
  ];
  for (let p = 0; p < 12; p++) {
    const page: (string | StyledLine)[] = p === 0 ? [H('Financial Statements and Supplementary Data', 16), ...prose('Statements', 2), H('Notes to Financial Statements', 14)] : [];
    for (const i of [2 * p, 2 * p + 1]) page.push(H(`Note ${i + 1} - ${TOPICS[i]}`, 12), ...prose(`${TOPICS[i]} note`, 2), H(`${TOPICS[i]} accounting policy`, 11), ...prose(`${TOPICS[i]} policy`, 2));
    pages.push(page);
  }
  pages.push([H('Signatures', 16), ...prose('Signature')]);
  return pages;
}

describe('fanout cap', () => {
  it('nests a wide level under its larger headings: 24 notes each over its subheading, not 48 siblings', async () => {
    const content = await pdfContent(filing());
    const { doc, report } = buildPdfTree(content, { docId: 'widget' });
    expect(report.source).toBe('toc');
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    expect(maxFanout(doc.nodes)).toBeLessThanOrEqual(MAX_HEADING_FANOUT);
    expect(report.reason).toMatch(/49 layout heading\(s\) inside its long sections; levels wider than 30: 1 split under their larger headings$/);
    const notes = find(doc.nodes, 'Notes to Financial Statements')!;
    expect(notes.children.map((c) => c.title)).toEqual(TOPICS.map((t, i) => `Note ${i + 1} - ${t}`));
    expect(shape(notes.children.slice(0, 2))).toEqual([
      ['Note 1 - Revenue', [4, 4], [['Revenue accounting policy', [4, 4]]]],
      ['Note 2 - Leases', [4, 4], [['Leases accounting policy', [4, 4]]]],
    ]);
    // the short sections around it are untouched
    expect(shape(doc.nodes.filter((n) => n.title === 'Business' || n.title === 'Signatures'))).toEqual([
      ['Business', [3, 3]],
      ['Signatures', [16, 16]],
    ]);
  });
});

/** Hand-made content: one page per heading, each heading line in the given size, bold. */
function styled(sizes: number[], title = (i: number) => `Heading number ${i + 1}`): { content: PdfContent; headings: Heading[] } {
  const pages = sizes.map((_, i) => `${title(i)}\nbody text of page ${i + 1} goes on in plain words here`);
  const layout = sizes.map((size, i) => ({
    width: 612,
    height: 792,
    lines: [
      { text: title(i), x: 72, y: 700, size, font: 'Helvetica-Bold', bold: true },
      { text: `body text of page ${i + 1} goes on in plain words here`, x: 72, y: 680, size: 10, font: 'Helvetica', bold: false },
    ],
  }));
  const headings = sizes.map((_, i) => ({ title: title(i), page: i + 1, line: 0, level: 1 }));
  return { content: { pages, outline: null, pageCount: sizes.length, layout }, headings };
}

describe('promoteWideLevels', () => {
  it('makes the larger headings parents of the smaller ones that follow', () => {
    const sizes = Array.from({ length: 39 }, (_, i) => (i % 13 === 0 ? 14 : 11));
    const { content, headings } = styled(sizes);
    const levels = promoteWideLevels(headings, content).map((h) => h.level);
    expect(levels).toEqual(sizes.map((s) => (s === 14 ? 1 : 2)));
    const tree = assembleTree(promoteWideLevels(headings, content), content.pages);
    expect(tree.map((n) => [n.title, n.pages, n.children.length])).toEqual([
      ['Heading number 1', [1, 13], 12],
      ['Heading number 14', [14, 26], 12],
      ['Heading number 27', [27, 39], 12],
    ]);
  });

  it('leaves a level alone when the larger headings would not halve it (two late ones among 40)', () => {
    const sizes = Array.from({ length: 40 }, (_, i) => (i === 36 || i === 38 ? 14 : 11));
    const { content, headings } = styled(sizes);
    expect(promoteWideLevels(headings, content).map((h) => h.level)).toEqual(sizes.map(() => 1));
  });

  it('never nests a heading under one numbered alike, however large it is printed', () => {
    // every fifth item printed larger: a font accident, not a structure ("Item 6" is no part of "Item 5")
    const sizes = Array.from({ length: 40 }, (_, i) => (i % 5 === 0 ? 14 : 11));
    const { content, headings } = styled(sizes, (i) => `Item ${i + 1}. Topic ${i + 1}`);
    expect(promoteWideLevels(headings, content).map((h) => h.level)).toEqual(sizes.map(() => 1));
    // the same fonts with unnumbered titles: the larger ones are parents
    const plain = styled(sizes);
    expect(promoteWideLevels(plain.headings, plain.content).map((h) => h.level)).toEqual(sizes.map((s) => (s === 14 ? 1 : 2)));
  });

  it('leaves a level within the cap alone, whatever its styles', () => {
    const sizes = Array.from({ length: MAX_HEADING_FANOUT }, (_, i) => (i % 5 === 0 ? 14 : 11));
    const { content, headings } = styled(sizes);
    expect(promoteWideLevels(headings, content).map((h) => h.level)).toEqual(sizes.map(() => 1));
  });
});

const leaf = (title: string, page: number): TreeNode => ({ id: '', title, pages: [page, page], children: [] });

describe('groupWideLevels (the last resort)', () => {
  it('groups numbered sections by their parent number when the parent headings were not printed', () => {
    const list = [2, 3, 4].flatMap((s) => Array.from({ length: 15 }, (_, i) => `${s}.${i + 1} Term ${s}-${i + 1}`));
    const nodes = groupWideLevels(list.map((t, i) => leaf(t, i + 1)));
    expect(nodes.map((n) => [n.title, n.pages, n.children.length])).toEqual([
      ['Sections 2.1–2.15', [1, 15], 15],
      ['Sections 3.1–3.15', [16, 30], 15],
      ['Sections 4.1–4.15', [31, 45], 15],
    ]);
    expect(treeInvariantErrors(nodes, 45)).toEqual([]);
    expect(nodes[1].id).toBe('0017');
  });

  it('cuts same-looking siblings into about √n runs titled by their pages and first and last titles', () => {
    const nodes = groupWideLevels(Array.from({ length: 45 }, (_, i) => leaf(`Topic ${String.fromCharCode(65 + (i % 26))}${i}`, Math.floor(i / 3) + 1)));
    expect(nodes).toHaveLength(7); // ⌈√45⌉ runs of 7
    expect(nodes[0]).toMatchObject({ title: 'Pages 1–3: Topic A0 … Topic G6', pages: [1, 3] });
    expect(nodes[6]).toMatchObject({ title: 'Page 15: Topic Q42 … Topic S44', pages: [15, 15] });
    expect(nodes.every((n) => n.children.length <= 7 && !n.text)).toBe(true);
    expect(treeInvariantErrors(nodes, 15)).toEqual([]);
  });

  it('keeps a level of exactly the cap as it is', () => {
    const list = Array.from({ length: MAX_HEADING_FANOUT }, (_, i) => leaf(`Topic ${i}`, i + 1));
    expect(groupWideLevels(list).map((n) => n.title)).toEqual(list.map((n) => n.title));
  });
});
