import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { find, pdfContent, prose, shape } from './build-helpers.ts';

const H = (text: string, size: number, bold = true): StyledLine => ({ text, size, bold });
const header: StyledLine = { text: 'Widget Co. Quarterly Report', size: 9, y: 770 };
const footer = (n: number): StyledLine => ({ text: `Page ${n} of 6`, size: 9, x: 280, y: 40 });
const row = (label: string, a: string, b: string, bold = false): StyledLine => ({ text: `${label} ${a} ${b}`, bold });

/**
 * A quarterly report without outline or printed contents: a title, section headings in 14 pt
 * bold, numbered notes in 11 pt bold (body size), a table with a bold label row and a bold
 * total, a running header and a "Page N of 6" footer on every page.
 */
const QUARTERLY: (string | StyledLine)[][] = [
  [header, H('Quarterly Results', 20), ...prose('Opening'), H('Overview', 14), ...prose('Overview'), footer(1)],
  [header, H('Financial Statements', 14), ...prose('Statements', 2), { text: 'Net sales', bold: true }, row('Widgets', '1,234', '1,100'), row('Gadgets', '2,345', '2,001'), row('Total net sales', '3,579', '3,101', true), footer(2)],
  [header, H('Notes to Financial Statements', 14), H('Note 1 - Basis of Presentation', 11), ...prose('Basis'), H('Note 2 - Revenue', 11), ...prose('Revenue'), footer(3)],
  [header, H('Note 3 - Debt', 11), ...prose('Debt'), footer(4)],
  [header, H('Risk Factors', 14), ...prose('Risk'), footer(5)],
  [header, H('Signatures', 14), ...prose('Signature'), footer(6)],
];

describe('headings from the layout', () => {
  it('recovers sections and numbered notes, ignoring the title, running headers, footers and table rows', async () => {
    const content = await pdfContent(QUARTERLY);
    expect(content.layout![2].lines.find((l) => l.text.startsWith('Note 1'))).toMatchObject({ size: 11, bold: true, font: 'Helvetica-Bold' });
    const { doc, report } = buildPdfTree(content, { docId: 'q' });
    expect(report.source).toBe('layout');
    expect(report.reason).toMatch(/no outline; no printed table of contents found; 8 layout heading\(s\)/);
    expect(treeInvariantErrors(doc.nodes, 6)).toEqual([]);
    expect(shape(doc.nodes)).toEqual([
      ['Front matter', [1, 1]], // the title and the opening paragraph
      ['Overview', [1, 1]],
      ['Financial Statements', [2, 2]],
      ['Notes to Financial Statements', [3, 4], [
        ['Note 1 - Basis of Presentation', [3, 3]],
        ['Note 2 - Revenue', [3, 3]],
        ['Note 3 - Debt', [4, 4]],
      ]],
      ['Risk Factors', [5, 5]],
      ['Signatures', [6, 6]],
    ]);
    expect(report).toMatchObject({ nodes: 9, depth: 2, headings: 8 });
    // The parent's own text stops where its first note starts.
    expect(find(doc.nodes, 'Notes to Financial Statements')!.text).toBe('Notes to Financial Statements');
    expect(find(doc.nodes, 'Note 2 - Revenue')!.text).toContain('Revenue paragraph line 4');
    expect(find(doc.nodes, 'Front matter')!.text).toContain('Quarterly Results');
  });

  it('falls back to page groups of at most 20 when nothing stands out', async () => {
    // Distinct first lines (a text repeated on every page, digits aside, is a running header).
    const A = ['Amber', 'Birch', 'Cedar', 'Dune', 'Ember', 'Fjord', 'Grove', 'Heath', 'Inlet'];
    const B = ['lakes', 'hills', 'roads', 'farms', 'ports'];
    const name = (i: number) => `${A[i % 9]} ${B[Math.floor(i / 9)]}`;
    const pages = Array.from({ length: 45 }, (_, i) => [{ text: name(i) }, ...prose(name(i), 3)]);
    const content = await pdfContent(pages);
    const { doc, report } = buildPdfTree(content, { docId: 'plain' });
    expect(report.source).toBe('pages');
    expect(report.reason).toMatch(/0 layout heading\(s\) on 0 page\(s\) \(too few\); 45 page\(s\) grouped$/);
    expect(treeInvariantErrors(doc.nodes, 45)).toEqual([]);
    expect(doc.nodes).toHaveLength(15); // groups of 3
    expect(doc.nodes[0]).toMatchObject({ title: 'Pages 1–3: Amber lakes', pages: [1, 3] });
    expect(doc.nodes[0].children.map((c) => c.title)).toEqual(['Amber lakes', 'Birch lakes', 'Cedar lakes']);
    expect(doc.nodes[14].children[2]).toMatchObject({ title: 'Inlet ports', pages: [45, 45] });
    expect(doc.nodes.map((n) => n.id).slice(0, 2)).toEqual(['0001', '0005']);
  });
});
