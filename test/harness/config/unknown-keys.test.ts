// An unknown config key is named with the nearest known key of its section and the keys it may
// have — at the top level, inside a section behind z.preprocess (model), in a strategy entry and
// in a budget — instead of zod's bare "Unrecognized key" / "Invalid input".
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateConfig } from '../../../harness/config/runConfig.ts';
import { explainIssues, knownKeys } from '../../../harness/config/issues.ts';

const base = { name: 'x', dataset: { format: 'sample' }, model: { provider: 'offline' }, strategies: ['vector'] };
const messageOf = (input: unknown) => {
  try {
    validateConfig(input);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a config error');
};

describe('unknown config keys', () => {
  it('names the key and suggests the nearest known one', () => {
    expect(messageOf({ ...base, budgte: { calls: 3 } })).toMatch(/\(top level\): unknown key "budgte" \(did you mean "budget"\?\); known keys here: .*budget/);
    expect(messageOf({ ...base, model: { provider: 'offline', temprature: 0 } })).toMatch(/model: unknown key "temprature" \(did you mean "temperature"\?\)/);
    expect(messageOf({ ...base, strategies: [{ strategy: 'vector', parms: {} }] })).toMatch(/strategies\[0\]: unknown key "parms" \(did you mean "params"\?\)/);
    expect(messageOf({ ...base, strategies: [{ strategy: 'vector', budget: { cals: 3 } }] })).toMatch(/strategies\[0\]\.budget: unknown key "cals" \(did you mean "calls"\?\)/);
    // Noise gets the list of keys, no made-up suggestion.
    const noise = messageOf({ ...base, zzzzzzzz: 1 });
    expect(noise).toContain('unknown key "zzzzzzzz"; known keys here:');
    expect(noise).not.toContain('did you mean');
  });

  it('reports a failed union by its closest branch, not "Invalid input"', () => {
    const schema = z.object({ x: z.union([z.object({ kind: z.literal('a'), size: z.number() }).strict(), z.string()]) }).strict();
    const r = schema.safeParse({ x: { kind: 'a', size: 1, sise: 2 } });
    expect(r.success).toBe(false);
    const explained = explainIssues(schema, r.error!.issues);
    expect(explained.map((e) => e.message).join(' ')).not.toMatch(/^Invalid input$/);
    expect(explained[0]!.message).toContain('unknown key "sise" (did you mean "size"?)');
    expect(knownKeys(schema, ['x'])).toEqual(['kind', 'size']);
  });
});
