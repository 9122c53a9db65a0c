import { describe, expect, it } from 'vitest';
import { jsonText } from '../../../harness/files/jsonText.ts';

describe('jsonText', () => {
  it('writes undefined numbers (NaN, ±Infinity) as null, indented, with one newline at the end', () => {
    const text = jsonText({ rate: NaN, ci: [0.5, Infinity], worst: -Infinity, n: 0, nested: { p: 0.25 } });
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "rate": null,');
    expect(JSON.parse(text)).toEqual({ rate: null, ci: [0.5, null], worst: null, n: 0, nested: { p: 0.25 } });
  });
});
