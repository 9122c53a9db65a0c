import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJson } from '../../datasets/files.ts';
import { DataError } from '../../datasets/errors.ts';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('parseJson and nesting', () => {
  it('refuses the shallowest text one level too deep, and keeps the deepest allowed one', () => {
    // The tightest texts: a level is two characters, so 2 × MAX_JSON_DEPTH characters is the
    // longest text the depth walk is skipped for, and it can be no deeper than the limit.
    expect(nested(MAX_JSON_DEPTH)).toHaveLength(2 * MAX_JSON_DEPTH);
    expect(() => parseJson(nested(MAX_JSON_DEPTH), 'ok.json')).not.toThrow();
    expect(() => parseJson(nested(MAX_JSON_DEPTH + 1), 'deep.json')).toThrow(DataError);
    expect(() => parseJson(nested(MAX_JSON_DEPTH + 1), 'deep.json')).toThrow(/nested more than 400 levels deep/);
    // Objects too, padded with whitespace and keys.
    const objects = '{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1);
    expect(() => parseJson(objects, 'deep.json')).toThrow(/nested more than/);
    expect(parseJson(` ${nested(3)} `, 'short.json')).toEqual([[[]]]);
  });
});
