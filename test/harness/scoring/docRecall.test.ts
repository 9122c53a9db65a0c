// Document recall@k: the share of gold documents among the first k distinct documents of the
// evidence, in rank order; and how many documents a question left to choose from
// (candidateDocs), which tells the open setting from the closed one. Values computed by hand.
import { describe, expect, it } from 'vitest';
import { candidateDocuments, scoreRetrieval, scoreRetrievalAtK } from '../../../harness/scoring/retrieval.ts';
import type { Corpus, Question } from '../../../harness/types.ts';

const leaf = (id: string, pages: [number, number]) => ({ id, title: id, pages, children: [] });
const corpus: Corpus = {
  name: 'filings',
  docs: [
    { docId: 'A', title: 'A 10-K', nodes: [leaf('s1', [1, 2]), leaf('s2', [3, 4])] },
    { docId: 'B', title: 'B 10-K', nodes: [leaf('s1', [1, 2]), leaf('s2', [3, 4])] },
    { docId: 'C', title: 'C 10-Q', nodes: [leaf('s1', [1, 2])] },
  ],
};
const q = (evidence: Question['evidence'], docIds?: string[]): Question => ({ id: 'q', question: '?', answers: ['x'], evidence, ...(docIds ? { docIds } : {}) });
const ev = (docId: string, nodeId: string, rank: number, pages?: [number, number]) => ({ docId, nodeId, rank, ...(pages ? { pages } : {}) });

describe('document recall', () => {
  it('counts a gold document once it appears anywhere in the first k distinct documents', () => {
    // Evidence docs in rank order: B, B, A -> distinct [B, A]; gold {A}.
    const evidence = [ev('B', 's1', 1), ev('B', 's2', 2), ev('A', 's2', 3)];
    const gold = q([{ docId: 'A', pages: [3] }]);
    expect(scoreRetrieval(gold, evidence, corpus, { k: 10 }).doc!.recall).toBe(1);
    // k counts distinct documents, not evidence items: at k = 2 the two B items are one document.
    expect(scoreRetrieval(gold, evidence, corpus, { k: 2 }).doc!.recall).toBe(1);
    expect(scoreRetrieval(gold, evidence, corpus, { k: 1 }).doc!.recall).toBe(0);
  });

  it('is the share of the gold documents found when the question has several', () => {
    // Gold {A, C}; distinct evidence docs [B, A]: 1 of 2 at k = 10, 0 of 2 at k = 1.
    const evidence = [ev('B', 's1', 1), ev('A', 's1', 2)];
    const gold = q([{ docId: 'A', pages: [1] }, { docId: 'C', pages: [2] }]);
    expect(scoreRetrieval(gold, evidence, corpus, { k: 10 }).doc!.recall).toBe(0.5);
    expect(scoreRetrieval(gold, evidence, corpus, { k: 1 }).doc!.recall).toBe(0);
  });

  it('evidence from the wrong document with the right page number and node id counts at no level', () => {
    // Gold: A page 3 (node s2). Evidence: B's s2, pages 3-4: same node id, same page number.
    const r = scoreRetrieval(q([{ docId: 'A', nodeIds: ['s2'], pages: [3] }]), [ev('B', 's2', 1, [3, 4])], corpus, { k: 10 });
    expect(r.doc!.recall).toBe(0);
    expect(r.page!.recall).toBe(0);
    expect(r.node!.recall).toBe(0);
  });

  it('the right document with the wrong page counts for the document, not the page', () => {
    const r = scoreRetrieval(q([{ docId: 'A', pages: [3] }]), [ev('A', 's1', 1, [1, 2])], corpus, { k: 10 });
    expect(r.doc!.recall).toBe(1);
    expect(r.page!.recall).toBe(0);
  });

  it('no evidence is 0; no gold evidence is null, never 0', () => {
    expect(scoreRetrieval(q([{ docId: 'A', pages: [3] }]), [], corpus).doc!.recall).toBe(0);
    expect(scoreRetrieval(q(undefined), [ev('A', 's1', 1)], corpus).doc).toBeNull();
  });
});

describe('candidateDocuments', () => {
  it('is the number of named documents the corpus has (closed), else the whole corpus (open)', () => {
    expect(candidateDocuments({ docIds: ['A'] }, corpus)).toBe(1);
    expect(candidateDocuments({ docIds: ['A', 'C', 'A'] }, corpus)).toBe(2);
    expect(candidateDocuments({}, corpus)).toBe(3);
    // Named documents missing from the corpus leave the strategy the whole corpus (docSelect does so).
    expect(candidateDocuments({ docIds: ['Z'] }, corpus)).toBe(3);
    expect(candidateDocuments({ docIds: ['Z', 'B'] }, corpus)).toBe(1);
  });

  it('is recorded beside the scores', () => {
    const evidence = [ev('A', 's2', 1)];
    expect(scoreRetrievalAtK(q([{ docId: 'A', pages: [3] }], ['A']), evidence, corpus).candidateDocs).toBe(1);
    expect(scoreRetrievalAtK(q([{ docId: 'A', pages: [3] }]), evidence, corpus).candidateDocs).toBe(3);
  });
});
