import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { pdfContent, prose, shape } from './build-helpers.ts';

const H = (text: string, size = 14): StyledLine => ({ text, size, bold: true });

describe('headings printed with the same title', () => {
  it('are told apart by the parenthesised subtitle below each, leaving out units, audit notes and what they share', async () => {
    const content = await pdfContent([
      [H('Results Overview', 16), ...prose('Overview')],
      [H('Statements of Operations'), H('(in millions, except per share data)'), H('(Unaudited)'), ...prose('Dollars')],
      [H('Statements of Operations'), H('(As a percentage of total revenues)'), H('(Unaudited)'), ...prose('Percent')],
      [H('Balance Sheets'), H('(Condensed)'), ...prose('Balance')], // a unique title keeps its printed form
      [H('Segment Results', 16), H('(Restated)'), ...prose('Segments', 2), H('Segment Results', 16), H('(Restated)'), ...prose('Again', 2)],
    ]);
    const { doc, report } = buildPdfTree(content, { docId: 'stmts' });
    expect(report.source).toBe('layout');
    expect(treeInvariantErrors(doc.nodes, 5)).toEqual([]);
    const titles: string[] = [];
    const walk = (ns: typeof doc.nodes) => ns.forEach((n) => (titles.push(n.title), walk(n.children)));
    walk(doc.nodes);
    expect(titles).toEqual([
      'Results Overview',
      'Statements of Operations', // "(in millions, …)" states units, "(Unaudited)" is shared
      'Statements of Operations – As a percentage of total revenues',
      'Balance Sheets',
      'Segment Results', // the same subtitle under both: nothing to tell them apart by
      'Segment Results',
    ]);
  });
});

describe('pages set in small type', () => {
  const small = (text: string, size = 7.5): StyledLine => ({ text, size });
  const rows = (tag: string) => Array.from({ length: 6 }, (_, i) => small(`${tag} ${String.fromCharCode(65 + i)} ${1200 + 37 * i} ${1100 + 29 * i} ${8 + i}%`));
  it('have their title in their own type: a line in capitals among their first lines', async () => {
    const content = await pdfContent([
      [H('Quarterly Overview', 16), ...prose('Overview')],
      [H('Product Developments', 16), ...prose('Products')],
      [small('NOTES TO REVENUE TABLE INFORMATION', 8), ...rows('Notes'), small('TOTAL INTERNATIONAL MARKETS', 7.5), ...rows('More')],
      // capitals in small type on a page set at body size are no title
      [H('Disclosure', 16), ...prose('Disclosure', 2), small('CERTAIN FORWARD LOOKING TERMS', 8), ...prose('Terms', 2)],
    ]);
    const { doc } = buildPdfTree(content, { docId: 'small' });
    expect(treeInvariantErrors(doc.nodes, 4)).toEqual([]);
    expect(shape(doc.nodes)).toEqual([
      ['Quarterly Overview', [1, 1]],
      // in smaller type than the heading before it: nested under it, as sizes say
      ['Product Developments', [2, 3], [['NOTES TO REVENUE TABLE INFORMATION', [3, 3]]]], // not the capitals row further down
      ['Disclosure', [4, 4]],
    ]);
  });
});
