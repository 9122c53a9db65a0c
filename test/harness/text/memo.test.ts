import { describe, expect, it } from 'vitest';
import { memoByText } from '../../../harness/text/memo.ts';

describe('memoByText', () => {
  it('computes each text once, remembers falsy results too, and starts over when full', () => {
    const seen: string[] = [];
    const length = memoByText((t) => {
      seen.push(t);
      return t === 'none' ? null : t.length;
    }, 3);
    expect([length('ab'), length('ab'), length('none'), length('none')]).toEqual([2, 2, null, null]);
    expect(seen).toEqual(['ab', 'none']);
    length('c');
    // Full (3 entries): the next new text clears the memo, so 'ab' is computed again after it.
    length('dddd');
    expect(length('ab')).toBe(2);
    expect(seen).toEqual(['ab', 'none', 'c', 'dddd', 'ab']);
  });
});
