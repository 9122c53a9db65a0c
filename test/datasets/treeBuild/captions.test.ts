// Figure and table captions set like headings ("Figure 2: …" in a paper's bold or medium face)
// are captions, not sections: PageIndex's trees and a document's bookmarks never list them.
import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { pdfContent, prose, titlesOf } from './build-helpers.ts';

const B = (text: string): StyledLine => ({ text, bold: true });

describe('captions', () => {
  it('takes no figure or table caption for a heading, whatever its style', async () => {
    const pages = [
      [{ text: 'On Widgets', size: 20, bold: true }, ...prose('Abstract'), B('1 Introduction'), ...prose('Intro')],
      [B('2 Method'), ...prose('Method'), B('Figure 1: Overview of the widget pipeline.'), ...prose('After figure one')],
      [B('2.1 Setup'), ...prose('Setup'), B('Table 2. Results on the test set'), ...prose('After table two')],
      [B('3 Results'), ...prose('Results'), B('Fig. 3 — Ablations'), ...prose('After figure three'), B('FIGURE 4'), ...prose('After figure four')],
      [B('4 Table Design'), ...prose('Design'), B('Tables and Figures'), ...prose('Lists')],
    ];
    const content = await pdfContent(pages);
    const { doc } = buildPdfTree(content, { docId: 'paper' });
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    const titles = titlesOf(doc.nodes);
    expect(titles.filter((t) => /^(fig|table|figure)\b/i.test(t) && !/^Tables and/.test(t))).toEqual([]);
    // Sections that merely start with the words are still sections.
    expect(titles).toEqual(expect.arrayContaining(['1 Introduction', '2 Method', '2.1 Setup', '3 Results', '4 Table Design', 'Tables and Figures']));
  });
});

describe('tables that are pages of their own', () => {
  it('keeps a table caption with only its table below it (a statistical appendix), drops one set among the prose', async () => {
    // A table: its units, rows of figures, then a note in small type; no body text after it.
    const table = (tag: string): StyledLine[] => [
      { text: 'Millions of dollars', size: 8 },
      { text: `${tag} bills 1,234 5,678 9,012`, x: 90 },
      { text: `${tag} notes 2,345 6,789 1,234`, x: 90 },
      { text: `${tag} bonds 3,456 7,890 2,345`, x: 90 },
      { text: '1 Includes securities bought outright in the market during each month of the year.', size: 7 },
    ];
    const pages = [
      [{ text: 'Annual Report', size: 20, bold: true }, ...prose('Preface'), B('Overview'), ...prose('Overview'), B('Table 1. Staff by office'), ...table('Staff'), ...prose('After')],
      [{ text: 'Statistical Tables', size: 14, bold: true }, ...prose('About the tables', 1), B('Table G.1. Open market transactions, 2023'), ...table('G1')],
      [B('Table G.2. Holdings of securities, 2021–23'), ...table('G2')],
    ];
    const content = await pdfContent(pages);
    const { doc } = buildPdfTree(content, { docId: 'annual' });
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    const titles = titlesOf(doc.nodes);
    expect(titles).toEqual(expect.arrayContaining(['Overview', 'Statistical Tables', 'Table G.1. Open market transactions, 2023']));
    expect(titles.some((t) => t.startsWith('Table G.2.'))).toBe(true);
    expect(titles.some((t) => t.startsWith('Table 1.'))).toBe(false);
  });
});
