import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { pdfContent, prose } from './build-helpers.ts';

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
