import { describe, expect, it } from 'vitest';
import type { DocTree } from '../../harness/types.ts';
import { pagesOfPassages } from '../../strategies/shared/evidence.ts';

const doc: DocTree = {
  docId: 'd',
  title: 'D',
  pages: [
    'Cover page of the annual report for the fiscal year.',
    'Item 7. Management discussion. Revenue increased twelve percent\nto 4.2 billion dollars, driven by cloud subscriptions.',
    'Operating expenses rose by five percent because of hiring in research and development.',
    'Liquidity and capital resources remained strong throughout the year with no new debt.',
  ],
  nodes: [{ id: '1', title: 'Item 7', pages: [2, 4], children: [] }],
};
const node = doc.nodes[0];

describe('pagesOfPassages', () => {
  it('names the pages a chunk is printed on, across line breaks, and spans several chunks', () => {
    expect(pagesOfPassages(doc, node, ['Revenue increased twelve percent to 4.2 billion dollars, driven by cloud subscriptions.'])).toEqual([2, 2]);
    expect(pagesOfPassages(doc, node, ['Operating expenses rose by five percent because of hiring', 'Liquidity and capital resources remained strong'])).toEqual([3, 4]);
    // a chunk running over a page break covers both pages
    expect(pagesOfPassages(doc, node, ['to 4.2 billion dollars, driven by cloud subscriptions.\nOperating expenses rose by five percent because of hiring in research'])).toEqual([2, 3]);
  });

  it('keeps the node range when it cannot tell (text not found, too short, one-page or unpaged node)', () => {
    expect(pagesOfPassages(doc, node, ['A sentence that appears on no page of this document at all.'])).toBeNull();
    expect(pagesOfPassages(doc, node, ['short'])).toBeNull();
    // text of page 1 lies outside the node's range
    expect(pagesOfPassages(doc, node, ['Cover page of the annual report for the fiscal year.'])).toBeNull();
    expect(pagesOfPassages(doc, { ...node, pages: [2, 2] }, ['Revenue increased twelve percent to 4.2 billion'])).toBeNull();
    expect(pagesOfPassages({ ...doc, pages: undefined }, node, ['Revenue increased twelve percent to 4.2 billion'])).toBeNull();
  });
});
