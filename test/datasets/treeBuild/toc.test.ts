import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { find, pdfContent, prose, shape } from './build-helpers.ts';

const H = (text: string, size: number): StyledLine => ({ text, size, bold: true });
const header: StyledLine = { text: 'ACME Annual Report 2024', size: 9, y: 770 };
const footer = (n: string): StyledLine => ({ text: n, size: 9, x: 300, y: 40 });
const dots = (title: string, page: string, x = 72): StyledLine => ({ text: `${title} ${'.'.repeat(40)} ${page}`, x });

/**
 * A report with a cover, a printed table of contents and a roman-numbered preface before page
 * "1" (physical page 4), and an unnumbered exhibit inserted after printed page 3, so the offset
 * between printed and physical pages is 3, then 4. One entry (Glossary) is printed nowhere.
 */
const REPORT: (string | StyledLine)[][] = [
  [H('ACME Corporation', 24), H('Annual Report 2024', 16)],
  [H('Contents', 16), dots('Preface', 'iii'), dots('1 Introduction', '1'), dots('1.1 Background', '1', 90), dots('1.2 Scope', '2', 90), dots('2 Methods', '3'), dots('2.1 Data', '3', 90), dots('3 Results', '5'), dots('4 Conclusion', '6'), dots('5 Glossary', '7'), footer('ii')],
  [header, H('Preface', 14), ...prose('Preface'), footer('iii')],
  [header, H('1 Introduction', 16), ...prose('Intro'), H('1.1 Background', 13), ...prose('Background'), footer('1')],
  [header, ...prose('More background'), H('1.2 Scope', 13), ...prose('Scope'), footer('2')],
  [header, H('2 Methods', 16), ...prose('Methods'), H('2.1 Data', 13), ...prose('Data'), footer('3')],
  [H('Exhibit: supplementary chart', 12), ...prose('Chart')],
  [header, ...prose('Data continued'), footer('4')],
  [header, H('3 Results', 16), ...prose('Results'), footer('5')],
  [header, H('4 Conclusion', 16), ...prose('Conclusion'), footer('6')],
];

describe('printed table of contents', () => {
  it('recovers the entries, their levels and their physical pages despite a changing offset', async () => {
    const content = await pdfContent(REPORT);
    const { doc, report } = buildPdfTree(content, { docId: 'acme' });
    expect(report.source).toBe('toc');
    expect(doc.treeSource).toBe('toc');
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    expect(shape(doc.nodes)).toEqual([
      ['Front matter', [1, 1]],
      ['Contents', [2, 2]], // the table of contents is a section of its own
      ['Preface', [3, 3]],
      ['1 Introduction', [4, 5], [
        ['1.1 Background', [4, 5]], // 1.2 starts mid-page 5: the page above it is Background's
        ['1.2 Scope', [5, 5]],
      ]],
      ['2 Methods', [6, 8], [['2.1 Data', [6, 8]]]], // the exhibit and printed page 4 belong to 2.1
      ['3 Results', [9, 9]],
      ['4 Conclusion', [10, 10]],
    ]);
    // Glossary is listed but printed nowhere: reported, not guessed.
    expect(report.tocEntries).toBe(9);
    expect(report.located).toBe(8);
    expect(report.unlocated).toEqual(['5 Glossary']);
    expect(report.headings).toBe(0); // no section of five pages or more to look inside
    expect(report.reason).toMatch(/printed table of contents on page\(s\) 2: 8 of 9 entries located/);
  });

  it("splits text at headings: a node's own text runs from its heading to the next one", async () => {
    const content = await pdfContent(REPORT);
    const { doc } = buildPdfTree(content, { docId: 'acme' });
    const intro = find(doc.nodes, '1 Introduction')!;
    expect(intro.text!.startsWith('1 Introduction')).toBe(true);
    expect(intro.text).toContain('Intro paragraph line 4');
    expect(intro.text).not.toContain('Background paragraph');
    const background = find(doc.nodes, '1.1 Background')!;
    expect(background.text).toContain('More background paragraph line 4');
    expect(background.text).not.toContain('Scope paragraph');
    expect(find(doc.nodes, '1.2 Scope')!.text!.startsWith('1.2 Scope')).toBe(true);
  });

  it('does not take a table of figures ending in numbers for a table of contents', async () => {
    const rows = ['North 12', 'South 7', 'East 30', 'West 3', 'Central 18', 'Overseas 9'].map((r) => ({ text: `Region ${r}` }));
    const pages = [[H('Sales by region', 14), ...rows], ...Array.from({ length: 4 }, (_, i) => [{ text: `Plain page ${i + 2} text without structure of any kind here` }])];
    const content = await pdfContent(pages);
    const { report } = buildPdfTree(content, { docId: 'sales', tree: 'toc' });
    expect(report.source).toBe('pages'); // forced toc finds none and says so
    expect(report.reason).toMatch(/^no printed table of contents found/);
  });
});

describe('printed table of contents with long sections', () => {
  it('nests the layout headings found inside a section of five pages or more, not inside short ones', async () => {
    const pages: (string | StyledLine)[][] = [
      [H('Contents', 16), dots('Part A Overview', '1'), dots('Part B Details', '7'), dots('Part C Closing', '8'), footer('i')],
      [header, H('Part A Overview', 16), ...prose('Overview'), H('Market Position', 13), ...prose('Market'), footer('1')],
      [header, ...prose('Market more'), footer('2')],
      [header, H('Competition', 13), ...prose('Competition'), footer('3')],
      [header, ...prose('Competition more'), footer('4')],
      [header, ...prose('Competition end'), footer('5')],
      [header, ...prose('Overview end'), footer('6')],
      [header, H('Part B Details', 16), ...prose('Details'), H('Minor Point', 13), ...prose('Minor'), footer('7')],
      [header, H('Part C Closing', 16), ...prose('Closing'), footer('8')],
    ];
    const content = await pdfContent(pages);
    const { doc, report } = buildPdfTree(content, { docId: 'long' });
    expect(report.source).toBe('toc');
    expect(report.reason).toMatch(/3 of 3 entries located; 2 layout heading\(s\) inside its long sections$/);
    expect(report.headings).toBe(2);
    expect(treeInvariantErrors(doc.nodes, 9)).toEqual([]);
    expect(shape(doc.nodes)).toEqual([
      ['Contents', [1, 1]],
      ['Part A Overview', [2, 7], [
        ['Market Position', [2, 3]],
        ['Competition', [4, 7]],
      ]],
      ['Part B Details', [8, 8]], // one page: "Minor Point" stays in its text
      ['Part C Closing', [9, 9]],
    ]);
    expect(find(doc.nodes, 'Part B Details')!.text).toContain('Minor Point');
  });
});
