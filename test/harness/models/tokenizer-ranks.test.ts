// The rank tables the build writes as JSON (harness/models/tokenizer.ts, bin/build.mjs) give the
// same encoder as gpt-tokenizer's own modules: the same tokens for the same text, the same
// vocabulary, token bytes included.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { encodingFromRanks, rankTablesJson, type EncodingName } from '../../../harness/models/tokenizer.ts';

const requireCjs = createRequire(import.meta.url);
const TEXTS = [
  'Claims approved by your manager by the 10th of the month are paid with that month’s salary.',
  'naïve café — 東京 ✈️ 👩‍👩‍👧 <|endoftext|> \u0000 \ud800 lone surrogate',
  '    indented\n\n\tcode(x) => x ** 2; // 1234567890 0.5e-3',
];

describe('rank tables as JSON', () => {
  const tables = rankTablesJson();
  for (const name of ['o200k_base', 'cl100k_base'] as EncodingName[]) {
    it(`${name}: the same tokens and vocabulary as gpt-tokenizer's module`, () => {
      const reference = requireCjs(`gpt-tokenizer/cjs/encoding/${name}`) as { encode(t: string, o: object): number[] };
      const ranks = JSON.parse(tables[name]) as Array<string | number[]>;
      const ours = encodingFromRanks(name, ranks);
      const asText = { disallowedSpecial: new Set<string>() };
      for (const text of TEXTS) expect(ours.bpe.encode(text, asText)).toEqual(reference.encode(text, asText));
      const original = (requireCjs(`gpt-tokenizer/cjs/bpeRanks/${name}`) as { default: Array<string | number[]> }).default;
      expect(ranks.length).toBe(original.length);
      // Tokens that are not whole UTF-8 come back as their bytes, not as null or a string.
      const bytes = original.flatMap((v, i) => (typeof v === 'string' ? [] : [i]));
      expect(bytes.length).toBeGreaterThan(0);
      for (const i of bytes) expect(ranks[i]).toEqual(original[i]);
      expect(ranks.every((v, i) => (typeof v === 'string' ? v === original[i] : Array.isArray(v)))).toBe(true);
    });
  }
});
