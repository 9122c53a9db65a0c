// Run-in heads (issue 26): a paragraph opening with a bold phrase on the same line as its regular
// text ("Depreciation. Depreciation of property is computed …"). A reader of the printed page
// sees a sequence of such heads as the subsections of the heading above them; the paragraph's
// text is never part of a heading's title.
import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { find, pdfContent, prose, titlesOf } from './build-helpers.ts';

const B = (text: string, size = 11): StyledLine => ({ text, size, bold: true });
/** A paragraph of body text whose last line ends its sentence. */
const para = (tag: string): StyledLine[] => [...prose(tag, 2), { text: `${tag} closes its paragraph here.` }];
/** A paragraph opening with a run-in head: its first line, then two more lines of body text. */
const runIn = (head: string, text: string, tag: string): StyledLine[] => [
  { runs: [{ text: head, bold: true }, { text: ` ${text}` }], text: '' },
  { text: `${tag} continues the policy in plain words over a second line of the paragraph` },
  { text: `${tag} ends the paragraph with a last line of plain words.` },
];

describe('run-in heads', () => {
  it('makes a sequence of bold run-in heads the subsections of their note, titled by the head alone', async () => {
    const pages: StyledLine[][] = [
      [{ text: 'Widget Corp Annual Report', size: 20, bold: true }, ...prose('Opening'), B('Business Overview', 14), ...prose('Business')],
      [
        B('Note 1. Summary of Significant Accounting Policies', 12),
        ...para('Policies'),
        ...runIn('Principles of Consolidation.', 'The statements include the accounts of the company and', 'Consolidation'),
        ...runIn('Use of Estimates.', 'Preparing the statements requires estimates that affect', 'Estimates'),
        ...runIn('Depreciation.', 'Depreciation of property is computed on a straight-line basis', 'Depreciation'),
      ],
      [B('Note 2. Revenue', 12), ...para('Revenue'), ...runIn('Contract Balances.', 'Receivables are recorded when the right to payment is', 'Balances')],
    ];
    const content = await pdfContent(pages);
    // per-item style survives extraction: the line keeps its bold run and its regular run
    const line = content.layout![1].lines.find((l) => l.text.startsWith('Depreciation.'))!;
    expect(line.bold).toBe(false);
    expect(line.spans?.map((sp) => [sp.text, sp.bold])).toEqual([['Depreciation.', true], ['Depreciation of property is computed on a straight-line basis', false]]);
    const { doc } = buildPdfTree(content, { docId: 'runin' });
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    const note1 = find(doc.nodes, 'Note 1. Summary of Significant Accounting Policies');
    expect(note1?.children.map((n) => n.title)).toEqual(['Principles of Consolidation', 'Use of Estimates', 'Depreciation']);
    expect(find(doc.nodes, 'Note 2. Revenue')?.children.map((n) => n.title)).toEqual(['Contract Balances']);
    // the node's text starts at its paragraph, head included
    expect(find(doc.nodes, 'Depreciation')?.text).toMatch(/^Depreciation\. Depreciation of property is computed/);
    expect(titlesOf(doc.nodes).some((t) => /computed|include the accounts/.test(t))).toBe(false);
  });

  it('glues no paragraph into a heading when a lone bold opening outweighs its line', async () => {
    const pages: StyledLine[][] = [
      [{ text: 'Widget Corp Annual Report', size: 20, bold: true }, ...prose('Opening'), B('Business Overview', 14), ...prose('Business')],
      [
        B('Basis of Presentation', 14),
        ...para('Basis'),
        ...runIn('Principles of Consolidation and Basis of Presentation.', 'The company', 'Consolidation'),
        ...prose('More', 3),
      ],
      [B('Outlook', 14), ...prose('Outlook')],
    ];
    const content = await pdfContent(pages);
    const { doc } = buildPdfTree(content, { docId: 'lone' });
    const titles = titlesOf(doc.nodes);
    expect(titles).toEqual(expect.arrayContaining(['Business Overview', 'Basis of Presentation', 'Outlook']));
    expect(titles.some((t) => /The company/.test(t))).toBe(false);
  });
});
