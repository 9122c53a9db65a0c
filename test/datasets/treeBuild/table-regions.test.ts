import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { pdfContent, prose, titlesOf } from './build-helpers.ts';

const B = (text: string, size = 11): StyledLine => ({ text, size, bold: true });
const row = (label: string, a: string, b: string, x = 90): StyledLine => ({ text: `${label} ${a} ${b}`, x });

describe('tables of figures', () => {
  it('takes no label row or column header inside a table of figures for a heading', async () => {
    const pages = [
      [{ text: 'Widget Corp Results', size: 20, bold: true }, ...prose('Opening'), B('Overview', 14), ...prose('Overview')],
      [
        B('Segment Results', 14),
        ...prose('Segments', 2),
        { text: '2023 2022', x: 400 },
        B('Aerospace and Defense'),
        B('Products'),
        row('Missiles', '1,234', '1,100'),
        row('Rotary', '2,000', '1,900'),
        B('Services'),
        row('Sustainment', '800', '700'),
        row('Training', '400', '300'),
        row('Total', '4,434', '4,000', 72),
        ...prose('After the table'),
      ],
      [B('Outlook', 14), ...prose('Outlook'), B('Liquidity'), ...prose('Liquidity')],
    ];
    const content = await pdfContent(pages);
    const { doc } = buildPdfTree(content, { docId: 'seg' });
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    const titles = titlesOf(doc.nodes);
    expect(titles).toEqual(expect.arrayContaining(['Overview', 'Segment Results', 'Outlook', 'Liquidity']));
    expect(titles).not.toContain('Aerospace and Defense');
    expect(titles).not.toContain('Products');
    expect(titles).not.toContain('Services');
  });
});
