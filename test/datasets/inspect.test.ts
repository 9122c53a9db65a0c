import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { approxTokens, formatInspect, inspectData } from '../../datasets/inspect.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { FIXTURES, SHARED } from './helpers.ts';

describe('inspectData', () => {
  it('counts documents, nodes, depth, fanout, gold and tags', async () => {
    const data = await loadBenchmarkData({ dataset: { format: 'sample', path: path.join(FIXTURES, 'sample-mini') } }, '/');
    const s = inspectData(data);
    expect(s).toMatchObject({
      name: 'sample-mini',
      documents: 2,
      pagedDocuments: 1,
      nodes: 6,
      leaves: 5,
      maxDepth: 2,
      maxFanout: 2,
      nodesWithSummary: 1,
      nodesWithText: 6,
      nodesWithPages: 2,
      questions: 3,
      multipleChoice: 1,
      questionsWithDocIds: 1,
      questionsWithGoldDocs: 3,
      questionsWithGoldNodes: 3,
      questionsWithGoldPages: 1,
      goldNodeRefs: 3,
      goldNodeRefsFound: 3,
      goldCoverage: 1,
      goldDocRefs: 3,
      goldDocRefsFound: 3,
      tags: { lookup: 2, numeric: 1, 'multiple-choice': 1 },
    });
    // Fanout over handbook's top level (2), h1 (2) and report's top level (2).
    expect(s.meanFanout).toBe(2);
    const words = data.corpus.docs.flatMap((d) => [d.nodes, ...d.nodes.map((n) => n.children)].flat()).map((n) => n.text ?? '');
    expect(s.textTokens).toBe(words.reduce((a, t) => a + approxTokens(t), 0));
    expect(inspectData(data, { countTokens: () => 10 }).textTokens).toBe(60);
  });

  it('computes gold coverage as the share of gold node ids found', () => {
    const s = inspectData({
      corpus: { name: 'c', docs: [{ docId: 'd', title: 'D', nodes: [{ id: 'a', title: 'A', children: [] }] }] },
      questions: [
        { id: '1', question: 'q', answers: ['x'], evidence: [{ docId: 'd', nodeIds: ['a', 'zz'] }, { docId: 'gone', nodeIds: ['a'] }] },
        { id: '2', question: 'q', answers: ['x'] },
      ],
    });
    expect(s.goldNodeRefs).toBe(3);
    expect(s.goldNodeRefsFound).toBe(1);
    expect(s.goldCoverage).toBeCloseTo(1 / 3);
    expect(s.goldDocRefsFound).toBe(1);
    expect(s.questionsWithGoldNodes).toBe(1);
    expect(inspectData({ corpus: { name: 'e', docs: [] }, questions: [] }).goldCoverage).toBeNull();
  });

  it('formats a readable console summary', async () => {
    const data = await loadBenchmarkData({ dataset: { format: 'emanual-s10', path: path.join(SHARED, 'emanual-s10') } }, '/');
    const text = formatInspect(inspectData(data));
    expect(text.split('\n')[0]).toBe('dataset emanual-s10');
    expect(text).toMatch(/nodes\s+451 \(383 leaves\)/);
    expect(text).toMatch(/max depth\s+4/);
    expect(text).toMatch(/gold node coverage\s+50 of 50 \(100\.0%\)/);
    expect(text).toMatch(/questions\s+50\n/);
  });
});
