// Layouts of earnings releases that the builder misread (issue 26, the Pfizer release among the
// tree references): a double-spaced body whose paragraphs end on a short line in capitals ("U.S.
// GAAP."), a section titled with a dated qualifier ("RECENT NOTABLE DEVELOPMENTS (Since May 2,
// 2023)"), and statement pages whose title block is drawn after the table but printed at the
// top. A careful reader sees a paragraph's last line, a section over its subsections, and each
// statement's title; the counter-examples are a real heading after a paragraph gap, a row of
// dates above figures, and the company's name repeated above every statement.
import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { find, pdfContent, prose, titlesOf } from './build-helpers.ts';

/** Lines laid from the top at a fixed pitch (points), with an extra gap before those marked `gap`. */
function laid(lines: (StyledLine & { gap?: boolean })[], pitch: number): StyledLine[] {
  let y = 740;
  return lines.map(({ gap, ...l }, i) => {
    if (i > 0) y -= gap ? 2 * pitch : pitch;
    return { ...l, y };
  });
}

const sentence = (tag: string, i: number) => `${tag} sentence ${i + 1} runs across the whole measure of the page and does not end`;

describe('press release layouts', () => {
  it('reads a short capitals line that ends a double-spaced paragraph as its last line, not a heading', async () => {
    const pitch = 11 * 1.75; // double-spaced body, as many releases are set
    const heads = [
      ['BUSINESS OVERVIEW', 'RISK FACTORS'],
      ['SEGMENT RESULTS', 'LIQUIDITY'],
      ['OUTLOOK', 'OTHER MATTERS'],
    ];
    const page = (n: number) =>
      laid(
        [
          { text: heads[n - 1]![0]!, bold: true },
          ...Array.from({ length: 4 }, (_, i) => ({ text: sentence(`Overview ${n}`, i), gap: i === 0 })),
          { text: 'U.S. GAAP.' }, // the paragraph's last line, at the body's own pitch
          ...Array.from({ length: 3 }, (_, i) => ({ text: sentence(`Detail ${n}`, i), gap: i === 0 })),
          { text: heads[n - 1]![1]!, gap: true }, // capitals after a paragraph gap: a heading
          ...Array.from({ length: 3 }, (_, i) => ({ text: sentence(`Risk ${n}`, i), gap: i === 0 })),
        ],
        pitch,
      );
    const content = await pdfContent([page(1), page(2), page(3)]);
    const { doc } = buildPdfTree(content, { docId: 'loose' });
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    const titles = titlesOf(doc.nodes);
    expect(titles, titles.join(' | ')).not.toContain('U.S. GAAP.');
    expect(titles, titles.join(' | ')).toEqual(expect.arrayContaining(heads.flat()));
  });

  it('keeps a capitals heading with a dated qualifier, ranked as capitals over its subsections; a row of dates is no heading', async () => {
    const B = (text: string): StyledLine => ({ text, bold: true });
    const content = await pdfContent([
      [B('EXECUTIVE COMMENTARY'), ...prose('Commentary', 4), B('SELECTED COSTS AND EXPENSES'), ...prose('Costs', 3)],
      laid(
        [
          B('RECENT NOTABLE DEVELOPMENTS (Since May 2, 2023)'),
          { ...B('Product Developments'), gap: true },
          ...prose('Products', 4),
          { ...B('Pipeline Developments'), gap: true },
          ...prose('Pipeline', 4),
        ],
        11 * 1.4,
      ),
      [
        B('CONDENSED BALANCE SHEET DATA'),
        ...prose('Balance', 2),
        B('June 30, 2023 December 31, 2022'),
        { text: 'Cash 1,234 1,100' },
        { text: 'Receivables 2,345 2,210' },
        { text: 'Inventories 3,456 3,300' },
        ...prose('After', 2),
      ],
    ]);
    const { doc } = buildPdfTree(content, { docId: 'dated' });
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    const recent = find(doc.nodes, 'RECENT NOTABLE DEVELOPMENTS (Since May 2, 2023)');
    expect(recent, titlesOf(doc.nodes).join(' | ')).toBeDefined();
    // a sibling of the other capitals headings, over its two subsections
    expect(doc.nodes.map((n) => n.title)).toContain(recent!.title);
    expect(recent!.children.map((n) => n.title)).toEqual(['Product Developments', 'Pipeline Developments']);
    expect(titlesOf(doc.nodes)).not.toContain('June 30, 2023 December 31, 2022');
  });

  it("takes a statement's title drawn after its table but printed at the top, and not the company's name above every statement", async () => {
    const rows = (tag: string) => Array.from({ length: 20 }, (_, i) => ({ text: `${tag} line item ${i + 1} 1,${100 + i} 9${10 + i} ${i + 3}%`, size: 9.5, y: 700 - 14 * i }));
    /** A statement page as some producers write it: the rows first, the centred title block last, at the top. */
    const statement = (title: string): StyledLine[] => [
      ...rows(title.split(' ').pop()!),
      { text: 'EXAMPLE PHARMA INC. AND SUBSIDIARY COMPANIES', size: 10, x: 200, y: 760 },
      { text: title, size: 9, x: 205, y: 748 },
      { text: '(UNAUDITED)', size: 9, x: 270, y: 737 },
    ];
    const content = await pdfContent([
      [{ text: 'Example Pharma Reports Second-Quarter Results', size: 16, bold: true }, ...prose('Opening', 6)],
      [{ text: 'OVERALL RESULTS', bold: true }, ...prose('Results', 8)],
      [{ text: 'CAPITAL ALLOCATION', bold: true }, ...prose('Capital', 8)],
      [{ text: 'FINANCIAL GUIDANCE', bold: true }, ...prose('Guidance', 8)],
      statement('CONSOLIDATED STATEMENTS OF INCOME'),
      statement('CONSOLIDATED BALANCE SHEETS'),
      statement('CONSOLIDATED STATEMENTS OF CASH FLOWS'),
    ]);
    const { doc } = buildPdfTree(content, { docId: 'statements' });
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    const titles = titlesOf(doc.nodes);
    for (const [title, page] of [['CONSOLIDATED STATEMENTS OF INCOME', 5], ['CONSOLIDATED BALANCE SHEETS', 6], ['CONSOLIDATED STATEMENTS OF CASH FLOWS', 7]] as const) {
      expect(find(doc.nodes, title)?.pages?.[0], `${title} in ${titles.join(' | ')}`).toBe(page);
    }
    expect(titles.filter((t) => t.includes('SUBSIDIARY COMPANIES'))).toEqual([]);
  });
});
