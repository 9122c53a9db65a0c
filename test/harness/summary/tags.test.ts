import { describe, expect, it } from 'vitest';
import { summarizeTags } from '../../../harness/summary/tags.ts';
import type { RunRecord } from '../../../harness/types.ts';

const rec = (strategy: string, tags: string[] | undefined, correct: number, recall: number | null, error: string | null = null): RunRecord =>
  ({
    strategy,
    tags,
    scores: { correct },
    retrieval: recall === null ? null : { node: { recall, precision: 0, mrr: 0, ndcg: 0 }, page: null, doc: null },
    error,
  }) as unknown as RunRecord;

describe('summarizeTags', () => {
  it('gives accuracy and recall per tag and strategy, errors counted as wrong', () => {
    const rows = summarizeTags([
      rec('a', ['numeric', 'lexical'], 1, 1),
      rec('a', ['numeric'], 0, 0.5),
      rec('b', ['numeric'], 1, null, 'boom'),
      rec('b', ['lexical'], 1, 0),
      rec('b', undefined, 1, 1),
    ]);
    expect(rows.map((r) => r.tag)).toEqual(['lexical', 'numeric']);
    const numeric = rows[1].cells;
    expect(numeric).toEqual([
      { strategy: 'a', n: 2, accuracy: 0.5, accuracyN: 2, recall: 0.75 },
      { strategy: 'b', n: 1, accuracy: 0, accuracyN: 1, recall: null },
    ]);
    expect(rows[0].cells[1]).toEqual({ strategy: 'b', n: 1, accuracy: 1, accuracyN: 1, recall: 0 });
  });

  it('is empty when no record has tags', () => {
    expect(summarizeTags([rec('a', undefined, 1, 1)])).toEqual([]);
  });
});
