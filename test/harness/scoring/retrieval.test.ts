import { describe, expect, it } from 'vitest';
import { ndcgAtK, precision, recall, reciprocalRank, retrievalScores, scoreRetrieval } from '../../../harness/scoring/retrieval.ts';
import type { Corpus, Question } from '../../../harness/types.ts';

const log2 = Math.log2;

describe('ranked-list metrics (ranx definitions, binary relevance)', () => {
  // Worked example: retrieved [d3, d1, d2], relevant {d1, d2}.
  // DCG = 0/log2(2) + 1/log2(3) + 1/log2(4) = 1.1309297535714575
  // IDCG = 1/log2(2) + 1/log2(3) = 1.6309297535714575, nDCG = 0.6934264036172708
  const ranked = ['d3', 'd1', 'd2'];
  const gold = ['d1', 'd2'];

  it('worked example', () => {
    expect(recall(ranked, gold)).toBe(1);
    expect(precision(ranked, gold)).toBeCloseTo(2 / 3, 15);
    expect(reciprocalRank(ranked, gold)).toBe(0.5);
    expect(ndcgAtK(ranked, gold)).toBeCloseTo(0.6934264036172708, 15);
    expect(ndcgAtK(ranked, gold, 3)).toBeCloseTo(0.6934264036172708, 15);
  });

  it('cutoff k: retrieved [a b c d e], relevant {b, e, z}', () => {
    const r = ['a', 'b', 'c', 'd', 'e'];
    const g = new Set(['b', 'e', 'z']);
    expect(recall(r, g, 3)).toBeCloseTo(1 / 3, 15);
    expect(precision(r, g, 3)).toBeCloseTo(1 / 3, 15);
    expect(reciprocalRank(r, g, 3)).toBe(0.5);
    expect(reciprocalRank(r, g, 1)).toBe(0);
    // nDCG@3 = (1/log2 3) / (1 + 1/log2 3 + 1/log2 4) = 0.2960819109658652
    expect(ndcgAtK(r, g, 3)).toBeCloseTo(0.2960819109658652, 15);
    // whole list: recall 2/3, precision 2/5, nDCG = (1/log2 3 + 1/log2 6) / (1 + 1/log2 3 + 1/log2 4)
    expect(recall(r, g)).toBeCloseTo(2 / 3, 15);
    expect(precision(r, g)).toBeCloseTo(2 / 5, 15);
    expect(ndcgAtK(r, g)).toBeCloseTo(0.4776237035032179, 15);
    expect(ndcgAtK(r, g)).toBeCloseTo((1 / log2(3) + 1 / log2(6)) / (1 + 1 / log2(3) + 1 / log2(4)), 15);
  });

  it('precision@k divides by k even when fewer were retrieved (ranx); IDCG uses min(k, |relevant|)', () => {
    expect(precision(['a'], ['a'], 5)).toBe(0.2);
    expect(ndcgAtK(['a'], ['a'], 5)).toBe(1);
    expect(ndcgAtK(['x', 'a'], ['a', 'b', 'c'], 1)).toBe(0);
  });

  it('counts a repeated id once, at its first rank', () => {
    expect(precision(['a', 'a', 'b'], ['b'])).toBe(0.5);
    expect(reciprocalRank(['a', 'a', 'b'], ['b'])).toBe(0.5);
    expect(recall(['b', 'b'], ['b', 'c'])).toBe(0.5);
  });

  it('nothing retrieved scores 0; no gold is undefined (NaN, and null scores)', () => {
    expect(retrievalScores([], ['a'])).toEqual({ recall: 0, precision: 0, mrr: 0, mrrUncut: 0, ndcg: 0 });
    expect(recall(['a'], [])).toBeNaN();
    expect(retrievalScores(['a'], [])).toBeNull();
  });

  it('rejects a bad k', () => {
    expect(() => recall(['a'], ['a'], 0)).toThrow(RangeError);
    expect(() => recall(['a'], ['a'], 1.5)).toThrow(RangeError);
  });
});

describe('scoreRetrieval', () => {
  const corpus: Corpus = {
    name: 'c',
    docs: [
      {
        docId: 'D1',
        title: 'Doc 1',
        nodes: [
          {
            id: 'n1',
            title: 'One',
            pages: [1, 3],
            children: [
              { id: 'n1.1', title: 'One.one', pages: [1, 2], children: [] },
              { id: 'n1.2', title: 'One.two', pages: [3, 3], children: [] },
            ],
          },
          { id: 'n2', title: 'Two', pages: [4, 6], children: [] },
        ],
      },
      { docId: 'D2', title: 'Doc 2', nodes: [{ id: 'm1', title: 'M', pages: [1, 1], children: [] }] },
    ],
  };
  const q = (evidence?: Question['evidence']): Question => ({ id: 'q', question: '?', answers: ['x'], ...(evidence ? { evidence } : {}) });

  // Given out of order: ranking follows `rank`, not array position.
  const evidence = [
    { docId: 'D2', nodeId: 'm1', rank: 3 },
    { docId: 'D1', nodeId: 'n2', rank: 1, pages: [4, 6] as [number, number] },
    { docId: 'D1', nodeId: 'n1.2', rank: 2 }, // no pages: taken from the corpus node
  ];

  it('node gold with derived pages: node, page and doc levels', () => {
    const r = scoreRetrieval(q([{ docId: 'D1', nodeIds: ['n1.2'] }]), evidence, corpus);
    // node ranking [D1/n2, D1/n1.2, D2/m1]
    expect(r.node).not.toBeNull();
    expect(r.node!.recall).toBe(1);
    expect(r.node!.precision).toBeCloseTo(1 / 3, 15);
    expect(r.node!.mrr).toBe(0.5);
    expect(r.node!.ndcg).toBeCloseTo(1 / log2(3), 15);
    // page ranking [D1:4, D1:5, D1:6, D1:3, D2:1]; gold {D1:3} derived from n1.2's range
    expect(r.page!.recall).toBe(1);
    expect(r.page!.precision).toBeCloseTo(1 / 5, 15);
    expect(r.page!.mrr).toBe(0.25);
    expect(r.page!.ndcg).toBeCloseTo(1 / log2(5), 15);
    // doc ranking [D1, D2]
    expect(r.doc).toEqual({ recall: 1, precision: 0.5, mrr: 1, mrrUncut: 1, ndcg: 1 });
  });

  it('a node id is keyed by its document: the same id in another document is not a hit', () => {
    const r = scoreRetrieval(q([{ docId: 'D2', nodeIds: ['n2'] }]), evidence, corpus);
    expect(r.node!.recall).toBe(0);
  });

  it('levels without gold are null, never 0', () => {
    expect(scoreRetrieval(q(), evidence, corpus)).toEqual({ node: null, page: null, doc: null });
    const docOnly = scoreRetrieval(q([{ docId: 'D2' }]), evidence, corpus);
    expect(docOnly.node).toBeNull();
    expect(docOnly.page).toBeNull();
    expect(docOnly.doc).toEqual({ recall: 1, precision: 0.5, mrr: 0.5, mrrUncut: 0.5, ndcg: 1 / log2(3) });
  });

  it('page gold without nodes (FinanceBench style)', () => {
    const r = scoreRetrieval(q([{ docId: 'D1', pages: [5, 9] }]), evidence, corpus);
    expect(r.node).toBeNull();
    expect(r.page!.recall).toBe(0.5);
    expect(r.page!.mrr).toBe(0.5);
    expect(r.page!.precision).toBeCloseTo(1 / 5, 15);
  });

  it('gold nodes without pages in the corpus leave the page level null', () => {
    const flat: Corpus = { name: 'md', docs: [{ docId: 'M', title: 'M', nodes: [{ id: 'a', title: 'A', children: [] }] }] };
    const r = scoreRetrieval(q([{ docId: 'M', nodeIds: ['a'] }]), [{ docId: 'M', nodeId: 'a', rank: 1 }], flat);
    expect(r.node).toEqual({ recall: 1, precision: 1, mrr: 1, mrrUncut: 1, ndcg: 1 });
    expect(r.page).toBeNull();
  });

  it('no evidence retrieved scores 0 where gold exists', () => {
    const r = scoreRetrieval(q([{ docId: 'D1', nodeIds: ['n2'] }]), [], corpus);
    expect(r.node).toEqual({ recall: 0, precision: 0, mrr: 0, mrrUncut: 0, ndcg: 0 });
    expect(r.page).toEqual({ recall: 0, precision: 0, mrr: 0, mrrUncut: 0, ndcg: 0 });
  });

  it('applies k to every level', () => {
    const r = scoreRetrieval(q([{ docId: 'D1', nodeIds: ['n1.2'] }]), evidence, corpus, { k: 1 });
    // The gold node ranks 2nd: MRR@1 is 0, the uncut reciprocal rank (trec_eval recip_rank) 1/2.
    expect(r.node).toEqual({ recall: 0, precision: 0, mrr: 0, mrrUncut: 0.5, ndcg: 0 });
    expect(r.doc).toEqual({ recall: 1, precision: 1, mrr: 1, mrrUncut: 1, ndcg: 1 });
  });
});
