import { describe, expect, it } from 'vitest';
import type { DocTree } from '../../harness/types.ts';
import { nodeText, ownText } from '../../strategies/shared/tree.ts';

const doc: DocTree = {
  docId: 'd',
  title: 'Paged',
  pages: ['p1 cover', 'p2 intro', 'p3 results', 'p4 more results', 'p5 outlook'],
  nodes: [
    {
      id: 'a',
      title: 'Report',
      pages: [1, 5],
      children: [
        { id: 'b', title: 'Results', pages: [3, 4], children: [] },
        { id: 'c', title: 'Outlook', pages: [5, 5], children: [] },
      ],
    },
    { id: 'e', title: 'Empty parent', pages: [3, 3], children: [{ id: 'f', title: 'Child', pages: [3, 3], children: [] }] },
    { id: 'g', title: 'With text', text: 'Own words.', pages: [1, 1], children: [] },
  ],
};

describe('ownText / nodeText', () => {
  it('indexes a paged parent only by the pages its children do not cover', () => {
    expect(ownText(doc, doc.nodes[0])).toBe('p1 cover\np2 intro');
    expect(ownText(doc, doc.nodes[0].children[0])).toBe('p3 results\np4 more results');
    expect(ownText(doc, doc.nodes[1])).toBe('');
    expect(ownText(doc, doc.nodes[2])).toBe('Own words.');
  });

  it('reads the whole page range when a node is opened', () => {
    expect(nodeText(doc, doc.nodes[0])).toBe('p1 cover\np2 intro\np3 results\np4 more results\np5 outlook');
  });
});
