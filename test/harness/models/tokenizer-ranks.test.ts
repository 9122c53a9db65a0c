// The binary rank files the build writes (harness/models/bpeRanks.ts, bin/build.mjs) give the
// same encoder as gpt-tokenizer's own modules: the same tokens for the same text, and every
// token's bytes and rank as its vocabulary holds them.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { RankTable, encodeWithRanks, rankFileOf } from '../../../harness/models/bpeRanks.ts';
import { SPLIT_PATTERNS, type EncodingName } from '../../../harness/models/tokenizer.ts';

const requireCjs = createRequire(import.meta.url);
const TEXTS = [
  'Claims approved by your manager by the 10th of the month are paid with that month’s salary.',
  'naïve café — 東京 ✈️ 👩‍👩‍👧 <|endoftext|> \u0000 \ud800 lone surrogate \udfff\ud83d',
  '    indented\n\n\tcode(x) => x ** 2; // 1234567890 0.5e-3',
  'Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich. Съешь же ещё этих мягких французских булок. ',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\'s xqzjvk QQQQQQQQQ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ﷽ \r\n\r\n   \u00a0\u200b',
];

describe('binary rank files', () => {
  for (const name of ['o200k_base', 'cl100k_base'] as EncodingName[]) {
    it(`${name}: the same tokens and vocabulary as gpt-tokenizer's module`, () => {
      const reference = requireCjs(`gpt-tokenizer/cjs/encoding/${name}`) as { encode(t: string, o: object): number[] };
      const original = (requireCjs(`gpt-tokenizer/cjs/bpeRanks/${name}`) as { default: Array<string | number[]> }).default;
      const c = requireCjs('gpt-tokenizer/cjs/encodingParams/constants') as Record<string, RegExp>;
      // The piece pattern written out in tokenizer.ts is gpt-tokenizer's, character for character.
      expect(SPLIT_PATTERNS[name]).toBe((name === 'o200k_base' ? c.O200K_TOKEN_SPLIT_REGEX : c.CL100K_TOKEN_SPLIT_REGEX)!.source);
      const pattern = new RegExp(SPLIT_PATTERNS[name], 'gu');
      // Through a Buffer at an odd offset, as a pooled read could give it.
      const file = rankFileOf(original);
      const shifted = Buffer.alloc(file.length + 1);
      shifted.set(file, 1);
      const ranks = new RankTable(shifted.subarray(1));
      const asText = { disallowedSpecial: new Set<string>() };
      for (const text of TEXTS) expect(encodeWithRanks(ranks, pattern, text)).toEqual(reference.encode(text, asText));
      expect(ranks.count).toBe(original.length);
      let bytesTokens = 0;
      const wrong: number[] = [];
      original.forEach((v, rank) => {
        const bytes = typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v);
        if (typeof v !== 'string') bytesTokens++;
        const ok = Buffer.from(ranks.bytesOf(rank)!).equals(bytes) && ranks.byteLength(rank) === bytes.length && ranks.rankOf(bytes, 0, bytes.length) === rank;
        if (!ok) wrong.push(rank);
      });
      expect(wrong).toEqual([]);
      // Tokens that are not whole UTF-8 are there as their bytes.
      expect(bytesTokens).toBeGreaterThan(0);
      expect(ranks.bytesOf(original.length)).toBeUndefined();
      expect(ranks.rankOf(Buffer.from('not one token at all, surely'), 0, 28)).toBe(-1);
    });
  }

  it('refuses a file that is not a rank file', () => {
    expect(() => new RankTable(new Uint8Array(64))).toThrow(/not a treebench rank file/);
  });
});
