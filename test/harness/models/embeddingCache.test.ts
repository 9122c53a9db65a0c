import { mkdtempSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValueIndex, type Chunk } from '../../../harness/retrieval/valueIndex.ts';
import { EmbeddingCache, textHash } from '../../../harness/models/embeddingCache.ts';
import { HashEmbedder } from '../../../harness/models/embedders/hash.ts';
import { OpenAIEmbedder } from '../../../harness/models/embedders/openai.ts';
import { l2normalize } from '../../../harness/models/embedders/vector.ts';
import type { Embedder } from '../../../harness/types.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'treebench-embcache-'));

/** A dense embedder that records every text it is asked to embed (like a paid API would bill). */
function countingEmbedder(key = 'fake-model dims=16'): Embedder & { seen: string[] } {
  const seen: string[] = [];
  const vec = (t: string) => {
    const v = new Float32Array(16);
    for (let i = 0; i < t.length; i++) v[(t.charCodeAt(i) * 7 + i) % 16] += 1 + (i % 3);
    v[15] += 0.5;
    return l2normalize(v);
  };
  return { id: 'fake', dim: 16, cacheKey: key, seen, embed: async (texts) => (seen.push(...texts), { vectors: texts.map(vec) }) };
}

const docs = (texts: Record<string, string[]>): Chunk[] => {
  const out: Chunk[] = [];
  for (const [docId, list] of Object.entries(texts)) for (const [i, text] of list.entries()) out.push({ docId, nodeId: `${docId}.${i}`, chunkId: out.length, text });
  return out;
};
const corpusA = { a: ['alpha one', 'alpha two', 'alpha three'], b: ['beta one', 'beta two'], c: ['gamma one'] };

describe('embedding cache', () => {
  it('miss, then hit: the second build embeds nothing and ranks identically', async () => {
    const dir = tmp();
    const first = countingEmbedder();
    const a = await ValueIndex.fromChunks(docs(corpusA), first, { cacheDir: dir });
    expect(first.seen).toHaveLength(6);
    expect(a.stats.cachedChunks).toBe(0);
    const second = countingEmbedder();
    const b = await ValueIndex.fromChunks(docs(corpusA), second, { cacheDir: dir });
    expect(second.seen).toEqual([]);
    expect(b.stats).toMatchObject({ cachedChunks: 6, embedCalls: 0 });
    const q = (await first.embed(['alpha beta'])).vectors[0];
    expect(b.search(q, { topK: 6 })).toEqual(a.search(q, { topK: 6 }));
  });

  it('partial invalidation: a changed document re-embeds only its changed chunks', async () => {
    const dir = tmp();
    await ValueIndex.fromChunks(docs(corpusA), countingEmbedder(), { cacheDir: dir });
    const again = countingEmbedder();
    const changed = { ...corpusA, b: ['beta one', 'beta two, revised'], d: ['delta new'] };
    const idx = await ValueIndex.fromChunks(docs(changed), again, { cacheDir: dir });
    expect(again.seen).toEqual(['beta two, revised', 'delta new']);
    expect(idx.stats.cachedChunks).toBe(6 - 1);
  });

  it('another embedder key (model, options) never reuses vectors', async () => {
    const dir = tmp();
    await ValueIndex.fromChunks(docs(corpusA), countingEmbedder('fake-model dims=16'), { cacheDir: dir });
    const other = countingEmbedder('fake-model dims=8');
    await ValueIndex.fromChunks(docs(corpusA), other, { cacheDir: dir });
    expect(other.seen).toHaveLength(6);
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('an embedder without a cache key is never cached', async () => {
    const dir = tmp();
    const e = { ...countingEmbedder(), cacheKey: undefined };
    await ValueIndex.fromChunks(docs(corpusA), e, { cacheDir: dir });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('the hash embedder (fitted on the corpus) hits on the same corpus and re-embeds when the corpus changes', async () => {
    const dir = tmp();
    const calls = (e: HashEmbedder) => {
      const seen: string[] = [];
      const embed = e.embed.bind(e);
      e.embed = async (texts) => (seen.push(...texts), embed(texts));
      // The value index embeds hash chunks one by one into a reused buffer.
      const into = e.embedInto.bind(e);
      e.embedInto = (text, out) => (seen.push(text), into(text, out));
      return seen;
    };
    const e1 = new HashEmbedder();
    const s1 = calls(e1);
    const a = await ValueIndex.fromChunks(docs(corpusA), e1, { cacheDir: dir });
    const e2 = new HashEmbedder();
    const s2 = calls(e2);
    const b = await ValueIndex.fromChunks(docs(corpusA), e2, { cacheDir: dir });
    expect(s1).toHaveLength(6);
    expect(s2).toEqual([]);
    const q = e2.embedOne('alpha two');
    expect(b.search(q, { topK: 3 })).toEqual(a.search(q, { topK: 3 }));
    // IDF depends on every chunk, so any change to the corpus changes every vector.
    const e3 = new HashEmbedder();
    const s3 = calls(e3);
    await ValueIndex.fromChunks(docs({ ...corpusA, d: ['delta'] }), e3, { cacheDir: dir });
    expect(s3).toHaveLength(7);
  });

  it('stores sparse and dense vectors exactly, and survives a pack cut short', () => {
    const dir = tmp();
    const cache = EmbeddingCache.open(dir, 'k');
    const sparse = new Float32Array(64);
    sparse[3] = 0.25;
    sparse[60] = -0.125;
    const dense = Float32Array.from({ length: 64 }, (_, i) => Math.fround(Math.sin(i + 1)));
    cache.put(textHash('s'), sparse);
    cache.put(textHash('d'), dense);
    cache.close();
    const reopened = EmbeddingCache.open(dir, 'k');
    expect(reopened.get(textHash('s'))).toEqual(sparse);
    expect(reopened.get(textHash('d'))).toEqual(dense);
    expect(reopened.get(textHash('other'))).toBeUndefined();
    reopened.close();
    const folder = join(dir, readdirSync(dir)[0]);
    const pack = join(folder, readdirSync(folder).find((f) => f.endsWith('.pack'))!);
    truncateSync(pack, statSync(pack).size - 10);
    const damaged = EmbeddingCache.open(dir, 'k');
    expect(damaged.get(textHash('s'))).toEqual(sparse);
    expect(damaged.get(textHash('d'))).toBeUndefined();
    damaged.close();
  });

  it('writes a pack larger than one append (1 MB) whole, in order, with no temporary file left', () => {
    const dir = tmp();
    const cache = EmbeddingCache.open(dir, 'k');
    // 3,000 dense 512-dimensional vectors: 6 MB of entries, appended a megabyte at a time.
    const vec = (i: number) => Float32Array.from({ length: 512 }, (_, j) => Math.fround(Math.cos(i * 512 + j)));
    for (let i = 0; i < 3000; i++) cache.put(textHash(`t${i}`), vec(i));
    const folder = join(dir, readdirSync(dir)[0]);
    // Before close the pack is a temporary file: not yet readable as a pack.
    expect(readdirSync(folder).filter((f) => f.endsWith('.pack'))).toEqual([]);
    cache.close();
    expect(readdirSync(folder).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(readdirSync(folder).filter((f) => f.endsWith('.pack'))).toHaveLength(1);
    const reopened = EmbeddingCache.open(dir, 'k');
    expect(reopened.entries).toBe(3000);
    for (const i of [0, 1, 1499, 2999]) expect(reopened.get(textHash(`t${i}`))).toEqual(vec(i));
    reopened.close();
  });

  it('keeps no secret in the key of an openai embedder', () => {
    const e = new OpenAIEmbedder({ model: 'text-embedding-3-small', baseURL: 'http://user:hunter2-secret@localhost:9999/v1', apiKey: ['sk', 'test', 'x'.repeat(20)].join('-') });
    expect(e.cacheKey).not.toMatch(/hunter2|sk-test/);
    expect(e.cacheKey).toContain('text-embedding-3-small');
    const dir = tmp();
    EmbeddingCache.open(dir, e.cacheKey).close();
    const folder = join(dir, readdirSync(dir)[0]);
    expect(readFileSync(join(folder, 'key.json'), 'utf8')).not.toMatch(/hunter2|sk-test/);
  });

  it('a cache that cannot be opened fails the build and still releases what the fit kept', async () => {
    const file = join(tmp(), 'not-a-directory');
    writeFileSync(file, 'x');
    const events: string[] = [];
    const fitted: Embedder = { ...countingEmbedder(), fit: () => void events.push('fit'), releaseFit: () => void events.push('release') };
    await expect(ValueIndex.fromChunks(docs(corpusA), fitted, { cacheDir: file })).rejects.toThrow(/not-a-directory/);
    expect(events).toEqual(['fit', 'release']);
    // Counter-example: a build that succeeds releases it once too.
    events.length = 0;
    await ValueIndex.fromChunks(docs(corpusA), fitted, { cacheDir: tmp() });
    expect(events).toEqual(['fit', 'release']);
  });
});
