import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import {
  chunkByTokens,
  countChatTokens,
  countTokens,
  decodeTokens,
  encodeTokens,
  encodingForModel,
  splitByTokens,
  truncateToTokens,
} from '../../../harness/models/tokenizer.ts';

const AWS_DOCS = fileURLToPath(new URL('../../../../shared/datasets/aws-docs/documents/aws-lambda-developer-guide/doc_source', import.meta.url));

/** A few real Markdown pages from the shared AWS docs dataset (~100 kB). */
function realText(): string {
  const files = readdirSync(AWS_DOCS)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .slice(0, 40);
  return files.map((f) => readFileSync(join(AWS_DOCS, f), 'utf8')).join('\n\n');
}

/** js-tiktoken's own whole-text encoder, the reference (built once: ~2 s). */
let reference: Tiktoken | undefined;
const ref = () => (reference ??= new Tiktoken(o200k));

const MIXED =
  'Résumé of naïve café owners — 日本語のテキスト, 한국어, emoji 🎉👩‍👩‍👧 and code: `const x = a?.b ?? 42;`\n\n' +
  'Numbers 1234567 3.14159 and a special-token string <|endoftext|> that is plain text here.\r\n' +
  '   indented line\twith tabs   \n\n\nEnd.';

describe('encodings', () => {
  it('picks o200k for gpt-4o/4.1/o-series/gpt-5 and unknown models, cl100k for gpt-4/3.5 and embeddings', () => {
    for (const m of ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1-nano', 'o3', 'o4-mini', 'o1-preview', 'gpt-5', 'gpt-5-mini', 'openai:gpt-4.1', 'llama-3.1-8b', undefined]) {
      expect(encodingForModel(m)).toBe('o200k_base');
    }
    for (const m of ['gpt-4', 'gpt-4-turbo', 'gpt-3.5-turbo', 'text-embedding-3-small', 'openai:text-embedding-3-large']) {
      expect(encodingForModel(m)).toBe('cl100k_base');
    }
  });

  it('counts known strings to their known token counts and ids', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('hello world', 'gpt-4o')).toBe(2);
    expect(countTokens('hello world', 'gpt-4')).toBe(2);
    expect(encodeTokens('hello world', 'gpt-4o')).toEqual([24912, 2375]);
    expect(encodeTokens('hello world', 'gpt-4')).toEqual([15339, 1917]);
    expect(countTokens('The quick brown fox jumps over the lazy dog.', 'gpt-4')).toBe(10);
    expect(countTokens('')).toBe(0);
  });

  it('matches a whole-text js-tiktoken encode on real and mixed-script text', () => {
    for (const text of [realText(), MIXED]) {
      expect(countTokens(text, 'gpt-4o')).toBe(ref().encode(text, [], []).length);
      expect(encodeTokens(text, 'gpt-4o')).toEqual(ref().encode(text, [], []));
    }
  });

  it('matches js-tiktoken on cl100k too (gpt-4, embedding models)', () => {
    const reference100k = new Tiktoken(cl100k);
    for (const text of [realText().slice(0, 30_000), MIXED]) {
      expect(encodeTokens(text, 'gpt-4')).toEqual(reference100k.encode(text, [], []));
      expect(countTokens(text, 'text-embedding-3-small')).toBe(reference100k.encode(text, [], []).length);
    }
  });

  it('decodes token ids back to the text, also after a cut inside a character', () => {
    const ids = encodeTokens(MIXED, 'gpt-4o');
    expect(decodeTokens(ids, 'gpt-4o')).toBe(MIXED);
    // An emoji is several tokens; half of it is not text, and must not leak into the next decode.
    const emoji = encodeTokens('🎉', 'gpt-4o');
    expect(emoji.length).toBeGreaterThan(1);
    decodeTokens(emoji.slice(0, 1), 'gpt-4o');
    expect(decodeTokens(encodeTokens('plain', 'gpt-4o'), 'gpt-4o')).toBe('plain');
    expect(truncateToTokens('🎉🎉 party', 1)).toBe('');
    expect(truncateToTokens('🎉🎉 party', emoji.length)).toBe('🎉');
  });

  it('treats special-token strings in documents as text instead of throwing', () => {
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('counts a long run without spaces in reasonable time, close to the exact count', () => {
    // Exact BPE on this piece is quadratic (minutes); windowing keeps it linear.
    const run = 'abcdefghij'.repeat(20_000);
    const n = countTokens(run);
    expect(n).toBeGreaterThan(run.length / 10);
    expect(n).toBeLessThan(run.length);
    const small = 'abcdefghij'.repeat(6); // 60 chars: below the window, exact
    expect(countTokens(small)).toBe(ref().encode(small).length);
  });
});

describe('countChatTokens', () => {
  it('adds 3 tokens per message and 3 for the reply priming', () => {
    expect(countChatTokens([{ role: 'user', content: 'hello world' }])).toBe(3 + 3 + 1 + 2);
    const msgs = [
      { role: 'system' as const, content: 'You are terse.' },
      { role: 'user' as const, content: MIXED },
    ];
    const expected = 3 + msgs.reduce((n, m) => n + 3 + countTokens(m.role) + countTokens(m.content), 0);
    expect(countChatTokens(msgs)).toBe(expected);
    expect(countChatTokens([])).toBe(3);
  });
});

describe('truncateToTokens', () => {
  it('returns the longest prefix within the limit', () => {
    const text = realText().slice(0, 20_000);
    for (const n of [1, 7, 100, 1000]) {
      const out = truncateToTokens(text, n);
      expect(text.startsWith(out)).toBe(true);
      expect(countTokens(out)).toBeLessThanOrEqual(n);
      expect(countTokens(out)).toBeGreaterThanOrEqual(n - 1);
    }
  });

  it('never cuts inside a character', () => {
    for (let n = 1; n < 40; n++) {
      const out = truncateToTokens(MIXED, n);
      expect(MIXED.startsWith(out)).toBe(true);
      expect(out).not.toContain('\uFFFD');
      expect(countTokens(out)).toBeLessThanOrEqual(n);
    }
  });

  it('returns the text when it fits and nothing for n <= 0', () => {
    expect(truncateToTokens('hello world', 2)).toBe('hello world');
    expect(truncateToTokens('hello world', 100)).toBe('hello world');
    expect(truncateToTokens('hello world', 1)).toBe('hello');
    expect(truncateToTokens('hello world', 0)).toBe('');
  });
});

describe('chunkByTokens / splitByTokens', () => {
  const text = realText();

  it('covers the text with chunks of at most maxTokens, in order, as exact substrings', () => {
    const chunks = chunkByTokens(text, { maxTokens: 200, overlap: 0 });
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks[0].start).toBe(0);
    expect(chunks[chunks.length - 1].end).toBe(text.length);
    for (let i = 0; i < chunks.length; i++) {
      const c = chunks[i];
      expect(c.text).toBe(text.slice(c.start, c.end));
      expect(countTokens(c.text)).toBe(c.tokens);
      expect(c.tokens).toBeLessThanOrEqual(200);
      if (i > 0) expect(c.start).toBe(chunks[i - 1].end);
    }
    expect(chunks.map((c) => c.text).join('')).toBe(text);
  });

  it('overlaps consecutive chunks by at most `overlap` tokens, and always moves forward', () => {
    const chunks = chunkByTokens(text, { maxTokens: 120, overlap: 30 });
    let sawOverlap = false;
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1];
      const c = chunks[i];
      expect(c.start).toBeGreaterThan(prev.start);
      expect(c.start).toBeLessThanOrEqual(prev.end);
      const shared = text.slice(c.start, prev.end);
      expect(countTokens(shared)).toBeLessThanOrEqual(30);
      if (shared.length > 0) sawOverlap = true;
      expect(c.tokens).toBeLessThanOrEqual(120);
    }
    expect(sawOverlap).toBe(true);
    expect(chunks[chunks.length - 1].end).toBe(text.length);
  });

  it('never cuts inside a word and prefers paragraph breaks', () => {
    const para = (i: number) => `Paragraph ${i} says something about topic ${i} in plain words that run on for a while.`;
    const doc = Array.from({ length: 30 }, (_, i) => para(i)).join('\n\n');
    const chunks = chunkByTokens(doc, { maxTokens: 60 });
    for (const c of chunks.slice(0, -1)) {
      expect(/\w/.test(doc[c.end - 1]) && /\w/.test(doc[c.end])).toBe(false);
      // Every paragraph is ~20 tokens, so a chunk can always end at a paragraph break.
      expect(c.text.endsWith('\n\n')).toBe(true);
    }
  });

  it('splits a text with no breaks at all, and pieces longer than maxTokens', () => {
    const chunks = chunkByTokens('🎉🎉🎉 日本語のテキスト supercalifragilisticexpialidocious', { maxTokens: 2 });
    expect(chunks.map((c) => c.text).join('')).toBe('🎉🎉🎉 日本語のテキスト supercalifragilisticexpialidocious');
    for (const c of chunks) {
      expect(c.text).not.toContain('\uFFFD');
      expect(c.tokens).toBeLessThanOrEqual(2);
    }
  });

  it('returns one chunk for a short text, none for an empty one, texts from splitByTokens', () => {
    expect(splitByTokens('hello world', 10)).toEqual(['hello world']);
    expect(splitByTokens('', 10)).toEqual([]);
    expect(splitByTokens('one two three four five six', 2)).toEqual(['one two', ' three four', ' five six']);
  });

  it('rejects bad sizes by name', () => {
    expect(() => chunkByTokens('x', { maxTokens: 0 })).toThrow(/maxTokens/);
    expect(() => chunkByTokens('x', { maxTokens: 10, overlap: 10 })).toThrow(/overlap/);
    expect(() => splitByTokens('x', 10, -1)).toThrow(/overlap/);
  });
});

describe('countTokens on long texts (line cache)', () => {
  it('equals the exact tiktoken count on real Markdown and on a prompt, cached or not', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { buildPrompt } = await import('../../../strategies/prompts.ts');
    const { encodeTokens } = await import('../../../harness/models/tokenizer.ts');
    const dir = new URL('../../../../shared/datasets/aws-docs/documents/aws-lambda-developer-guide/doc_source/', import.meta.url);
    const texts = readdirSync(dir).slice(0, 120).map((f) => readFileSync(new URL(f, dir), 'utf8'));
    texts.push(buildPrompt({ task: 'answer', question: 'x?', context: [{ doc_id: 'a', node_id: 'b', title: 't', text: `${texts[0]}\n\n  \n x;\n\n// y\n\ty` }] })[1].content);
    for (const t of texts) {
      const exact = encodeTokens(t).length;
      expect(countTokens(t)).toBe(exact);
      expect(countTokens(t)).toBe(exact); // second time from the line cache
    }
  });
});

describe('countTokens line cuts (newline, indentation, slashes)', () => {
  // The cuts after a newline must never split a token: texts built from the characters that meet
  // at a cut (line breaks, blanks, '/', punctuation, letters, digits, a mark) must count what a
  // whole-text encode counts, on both encodings. Texts are over 512 characters so countLong runs.
  const PARTS = ['\n', '\r\n', '\r', ' ', '  ', '\t', '\u00a0', '\u2028', '/', '//', '{', '"', ',', ':', 'a', 'Word', 'x1', '42', '7.5', 'é', '\u0301', '日本', "'s", '-', '\n\n', ' \n'];
  function randomText(rand: () => number): string {
    let t = '';
    while (t.length < 700) t += PARTS[Math.floor(rand() * PARTS.length)];
    return t;
  }
  // A small seeded generator (mulberry32) so a failure names a reproducible text.
  function seeded(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it('equal whole-text encodes of random texts of boundary characters, o200k and cl100k', () => {
    const reference100k = new Tiktoken(cl100k);
    const rand = seeded(26);
    for (let k = 0; k < 150; k++) {
      const text = randomText(rand);
      expect(countTokens(text, 'gpt-4o'), JSON.stringify(text)).toBe(ref().encode(text, [], []).length);
      expect(countTokens(text, 'gpt-4'), JSON.stringify(text)).toBe(reference100k.encode(text, [], []).length);
    }
  });

  it('counts indented JSON (a prompt payload) exactly, also from the line cache', () => {
    const payload = JSON.stringify({ task: 'select-nodes', outline: Array.from({ length: 40 }, (_, i) => ({ node_id: `n${i}`, title: `Section ${i} / part`, nodes: [{ node_id: `n${i}.1`, title: 'Notes' }] })) }, null, 2);
    const exact = ref().encode(payload, [], []).length;
    expect(countTokens(payload, 'gpt-4o')).toBe(exact);
    expect(countTokens(`${payload}\n`, 'gpt-4o')).toBe(ref().encode(`${payload}\n`, [], []).length);
    expect(countTokens(payload, 'gpt-4o')).toBe(exact);
  });
});
