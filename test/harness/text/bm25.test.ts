import { describe, it, expect } from 'vitest';
import { bm25Idf, bm25Scores, bm25Text } from '../../../harness/text/bm25.ts';

describe('bm25Scores', () => {
  it('matches a hand-computed reference (k1 = 1.2, b = 0.75)', () => {
    // N = 3 candidates of lengths 3, 1, 4 → avgdl = 8/3.
    // "cat" and "dog" each occur in one candidate: idf = ln(1 + (3 − 1 + 0.5)/(1 + 0.5)) = ln(8/3) = 0.980829.
    // d1 (tf(cat) = 2, |d| = 3): |d|/avgdl = 9/8; tf part = 2·2.2 / (2 + 1.2·(0.25 + 0.75·1.125)) = 4.4/3.3125 = 1.328302
    //    → 0.980829 · 1.328302 = 1.302837
    // d2 (tf(dog) = 1, |d| = 1): |d|/avgdl = 3/8; tf part = 2.2 / (1 + 1.2·(0.25 + 0.75·0.375)) = 2.2/1.6375 = 1.343511
    //    → 0.980829 · 1.343511 = 1.317755
    // d3 shares nothing → 0.
    const scores = bm25Scores(['cat', 'dog'], [['cat', 'cat', 'mouse'], ['dog'], ['bird', 'fish', 'fox', 'owl']]);
    expect(scores[0]).toBeCloseTo(1.302837, 5);
    expect(scores[1]).toBeCloseTo(1.317755, 5);
    expect(scores[2]).toBe(0);
  });

  it('uses an IDF that stays positive when a term is in every candidate', () => {
    expect(bm25Idf(2, 2)).toBeGreaterThan(0);
    const s = bm25Scores(['a'], [['a'], ['a', 'b']]);
    expect(s[0]).toBeGreaterThan(0);
    // Same tf, shorter candidate scores higher.
    expect(s[0]).toBeGreaterThan(s[1]);
  });

  it('counts a repeated query term once per repetition', () => {
    const docs = [['x', 'y'], ['z']];
    const once = bm25Scores(['x'], docs);
    const twice = bm25Scores(['x', 'x'], docs);
    expect(twice[0]).toBeCloseTo(2 * once[0], 10);
  });

  it('handles empty inputs', () => {
    expect(bm25Scores(['a'], [])).toEqual([]);
    expect(bm25Scores([], [['a']])).toEqual([0]);
    expect(bm25Scores(['a'], [[], []])).toEqual([0, 0]);
  });

  it('honours k1 and b', () => {
    const docs = [['a', 'b', 'c', 'd'], ['a']];
    const noLengthNorm = bm25Scores(['a'], docs, { b: 0 });
    expect(noLengthNorm[0]).toBeCloseTo(noLengthNorm[1], 12);
  });
});

describe('bm25Text', () => {
  it('tokenizes (stopwords out, stems) before scoring', () => {
    const s = bm25Text('What were the refunds?', ['Refund policy', 'Shipping times']);
    expect(s[0]).toBeGreaterThan(0);
    expect(s[1]).toBe(0);
  });
});
