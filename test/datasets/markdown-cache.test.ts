import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as markdown from '../../datasets/markdown.ts';
import { ingestMarkdown } from '../../datasets/markdownIngest.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { tmpFiles } from './helpers.ts';

// A spy on the parser itself: "parsed nothing" is checked where parsing happens, not by timing.
const parsed = vi.hoisted(() => ({ docIds: [] as string[] }));
vi.mock('../../datasets/markdown.ts', async (original) => {
  const m = await original<typeof import('../../datasets/markdown.ts')>();
  return {
    ...m,
    parseMarkdown: (text: string, opts: Parameters<typeof m.parseMarkdown>[1]) => {
      parsed.docIds.push(opts.docId);
      return m.parseMarkdown(text, opts);
    },
  };
});
const parsedDocIds = () => parsed.docIds;
const resetParsed = () => parsed.docIds.splice(0);

const FILES = {
  'docs/a.md': 'Intro text.\n\n# Alpha\n\nAlpha body, TLS 1\\.2.\n\n## Alpha one\n\nDeeper.\n',
  'docs/b.md': '# Beta\n\nBeta body.\n\n```js\nunclosed fence\n# not a heading\n',
  'docs/sub/c.md': '---\ntitle: x\n---\n# Gamma\n\nGamma &amp; body.\n',
};

function setup() {
  const dir = tmpFiles(FILES);
  const sources = Object.keys(FILES).map((f) => ({ file: path.join(dir, f), docId: f.replace(/^docs\//, '').replace(/\.md$/, '') }));
  return { dir, sources, cacheDir: path.join(dir, 'cache') };
}

const load = (sources: Array<{ file: string; docId: string }>, cacheDir: string | null, intro?: 'node' | 'description') => {
  const warnings: string[] = [];
  const r = ingestMarkdown(sources, { cacheDir, quiet: true, warnings, ...(intro ? { intro } : {}) });
  return { ...r, warnings };
};

beforeEach(() => {
  resetParsed();
});

describe('Markdown ingestion cache', () => {
  it('miss then hit: the second load parses nothing and gives a deep-equal corpus, warnings included', () => {
    const { sources, cacheDir } = setup();
    const first = load(sources, cacheDir);
    expect(first.stats).toMatchObject({ documents: 3, parsed: 3, fromCache: 0 });
    expect(parsedDocIds()).toEqual(['a', 'b', 'sub/c']);
    // What the cache serves is what parsing the file directly gives.
    const direct = sources.map((s) => markdown.loadMarkdownFile(s.file, s.docId));
    expect(first.docs).toEqual(direct);
    expect(first.warnings).toEqual([expect.stringMatching(new RegExp(`^${sources[1].file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5: code fence is never closed`))]);

    resetParsed();
    const second = load(sources, cacheDir);
    expect(parsedDocIds()).toEqual([]);
    expect(second.stats).toMatchObject({ documents: 3, parsed: 0, fromCache: 3 });
    expect(second.docs).toEqual(first.docs);
    expect(second.warnings).toEqual(first.warnings);
    expect(fs.readdirSync(path.join(cacheDir, 'markdown'))).toHaveLength(3);
    expect(fs.readdirSync(cacheDir, { recursive: true }).map(String).some((f) => f.endsWith('.tmp'))).toBe(false);
  });

  it('the path is not part of the entry: a moved corpus hits and reports its new path', () => {
    const { dir, sources, cacheDir } = setup();
    load(sources, cacheDir);
    const moved = path.join(dir, 'moved');
    fs.cpSync(path.join(dir, 'docs'), moved, { recursive: true });
    const movedSources = sources.map((s) => ({ ...s, file: s.file.replace(path.join(dir, 'docs'), moved) }));
    resetParsed();
    const again = load(movedSources, cacheDir);
    expect(parsedDocIds()).toEqual([]);
    expect(again.docs.map((d) => d.source)).toEqual(movedSources.map((s) => s.file));
    expect(again.warnings[0].startsWith(`${movedSources[1].file}:5:`)).toBe(true);
  });

  it('options and doc ids are part of the key: another intro or doc id parses again', () => {
    const { sources, cacheDir } = setup();
    load(sources, cacheDir);
    resetParsed();
    const described = load(sources, cacheDir, 'description');
    expect(described.stats).toMatchObject({ parsed: 3, fromCache: 0 });
    expect(described.docs[0].description).toBe('Intro text.');
    resetParsed();
    const renamed = load([{ ...sources[2], docId: 'other' }], cacheDir);
    expect(parsedDocIds()).toEqual(['other']);
    expect(renamed.docs[0].docId).toBe('other');
  });

  it('a changed file re-parses only that file', () => {
    const { sources, cacheDir } = setup();
    load(sources, cacheDir);
    fs.writeFileSync(sources[0].file, '# Alpha\n\nNew body.\n');
    resetParsed();
    const again = load(sources, cacheDir);
    expect(parsedDocIds()).toEqual(['a']);
    expect(again.stats).toMatchObject({ parsed: 1, fromCache: 2 });
    expect(again.docs[0].nodes[0]).toMatchObject({ title: 'Alpha', text: 'New body.' });
    expect(again.docs).toEqual(sources.map((s) => markdown.loadMarkdownFile(s.file, s.docId)));
  });

  it('a corrupt or malformed entry is a miss: rebuilt, never a crash', () => {
    const { sources, cacheDir } = setup();
    const first = load(sources, cacheDir);
    const entries = fs.readdirSync(path.join(cacheDir, 'markdown')).map((f) => path.join(cacheDir, 'markdown', f));
    fs.writeFileSync(entries[0], 'not gzip');
    fs.writeFileSync(entries[1], Buffer.alloc(0));
    fs.writeFileSync(entries[2], gzipSync(JSON.stringify({ doc: { docId: 'x' } }))); // readable, wrong shape
    resetParsed();
    const again = load(sources, cacheDir);
    expect(again.stats).toMatchObject({ parsed: 3, fromCache: 0 });
    expect(again.docs).toEqual(first.docs);
    // Rebuilt: the next load is all hits again.
    resetParsed();
    expect(load(sources, cacheDir).stats).toMatchObject({ parsed: 0, fromCache: 3 });
    expect(parsedDocIds()).toEqual([]);
  });

  it('a file that is not UTF-8 is never cached, so its decoding warning comes on every run', () => {
    const dir = tmpFiles({});
    const file = path.join(dir, 'latin1.md');
    fs.writeFileSync(file, Buffer.from('# Caf\xe9\n\nbody\n', 'latin1'));
    const cacheDir = path.join(dir, 'cache');
    for (let i = 0; i < 2; i++) {
      resetParsed();
      expect(load([{ file, docId: 'latin1' }], cacheDir).stats).toMatchObject({ parsed: 1, fromCache: 0 });
    }
    expect(fs.existsSync(path.join(cacheDir, 'markdown'))).toBe(false);
  });

  it('an unreadable file is a clear error naming it', () => {
    const { dir, cacheDir } = setup();
    const missing = path.join(dir, 'docs', 'gone.md');
    expect(() => load([{ file: missing, docId: 'gone' }], cacheDir)).toThrow(expect.objectContaining({ file: missing, message: expect.stringContaining('file not found') }));
  });

  it('cache off (cacheDir null) parses every time and writes nothing', () => {
    const { sources, cacheDir } = setup();
    for (let i = 0; i < 2; i++) {
      resetParsed();
      expect(load(sources, null).stats).toMatchObject({ parsed: 3, fromCache: 0 });
      expect(parsedDocIds()).toHaveLength(3);
    }
    expect(fs.existsSync(cacheDir)).toBe(false);
  });
});

describe('Markdown corpus through loadBenchmarkData', () => {
  const config = (cacheDir: string, cache: boolean) => ({
    dataset: { format: 'csv', path: 'q.csv', mapping: { question: 'q', answers: 'a', evidenceDocId: 'doc', docIdStripExtension: true } },
    corpus: { format: 'markdown', path: 'docs', cache, cacheDir },
  });
  const files = { ...FILES, 'q.csv': 'q,a,doc\nWhat?,x,a.md\n' };

  it('uses the ingestion cache of corpus.cacheDir; corpus.cache: false and ingestCache: false turn it off', async () => {
    const dir = tmpFiles(files);
    const cacheDir = path.join(dir, 'ingest');
    const first = await loadBenchmarkData(config(cacheDir, true) as never, dir, { quiet: true });
    expect(parsedDocIds()).toHaveLength(3);
    resetParsed();
    const second = await loadBenchmarkData(config(cacheDir, true) as never, dir, { quiet: true });
    expect(parsedDocIds()).toEqual([]);
    expect(second.corpus).toEqual(first.corpus);
    expect(second.warnings).toEqual(first.warnings);

    resetParsed();
    const off = await loadBenchmarkData(config(cacheDir, true) as never, dir, { quiet: true, ingestCache: false });
    expect(parsedDocIds()).toHaveLength(3);
    expect(off.corpus).toEqual(first.corpus);

    const other = path.join(dir, 'never');
    resetParsed();
    await loadBenchmarkData(config(other, false) as never, dir, { quiet: true });
    expect(parsedDocIds()).toHaveLength(3);
    expect(fs.existsSync(other)).toBe(false);
  });
});
