// Headings that end with a colon (issue 26): an earnings release heads its sections with bold
// Title Case lines such as "Guidance and Outlook:" over bullets of sentences. A careful reader
// sees sections there, and sees none in a one-word label ("Revenues:"), a bold lead-in sentence
// ("The results were as follows:"), a centred caption over a contact block ("Media Contacts:"),
// or the labels of a form ("Grant Date:" above "Number of Shares:").
import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { pdfContent, prose, titlesOf } from './build-helpers.ts';

const B = (text: string, extra: Partial<StyledLine> = {}): StyledLine => ({ text, size: 11, bold: true, ...extra });
const bullet = (tag: string): StyledLine => ({ text: `• ${tag} rose on higher volumes across every region of the business this quarter` });

describe('headings ending with a colon', () => {
  it('takes bold Title Case lines ending with a colon over prose as sections, and no label, lead-in, caption or form field', async () => {
    const pages: StyledLine[][] = [
      [
        { text: 'Widget Corp Reports Second Quarter Results', size: 18, bold: true },
        ...prose('Opening', 3),
        B('Financial Results for the Quarter:'),
        bullet('Revenue'),
        bullet('Income'),
        B('Revenues:'),
        ...prose('Revenues', 2),
        B('The results were as follows:'),
        ...prose('Results', 2),
      ],
      [B('Guidance and Outlook:'), bullet('Demand'), ...prose('Guidance', 3), B('Message From Our CEO:'), ...prose('Message', 3)],
      [
        ...prose('Closing', 3),
        B('Media Contacts:', { x: 262 }),
        { text: 'Jane Doe, director, Media Relations, +1 555-0100, media@example.com', size: 10, x: 130 },
        B('Participant:'),
        B('Grant Date:'),
        B('Number of Shares:'),
        { text: 'Vesting Schedule: The shares vest in full on the grant date stated above' },
        ...prose('Terms', 3),
      ],
    ];
    const content = await pdfContent(pages);
    const { doc } = buildPdfTree(content, { docId: 'colons' });
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    const titles = titlesOf(doc.nodes);
    expect(titles).toEqual(expect.arrayContaining(['Financial Results for the Quarter:', 'Guidance and Outlook:', 'Message From Our CEO:']));
    for (const label of ['Revenues:', 'The results were as follows:', 'Media Contacts:', 'Participant:', 'Grant Date:', 'Number of Shares:']) expect(titles, label).not.toContain(label);
  });
});
