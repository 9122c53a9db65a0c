import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestPdfs } from '../../datasets/ingest.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { tmpFiles } from './helpers.ts';
import { makePdf } from './pdf-writer.ts';

const PAGES = [1, 2, 3].map((n) => [`Section ${n} heading`, `Body text of page ${n} about topic${n} and its details.`]);

function setup() {
  const dir = tmpFiles({});
  const pdf = path.join(dir, 'doc.pdf');
  fs.writeFileSync(pdf, makePdf(PAGES));
  return { dir, pdf, cacheDir: path.join(dir, 'cache') };
}

const quiet = { quiet: true } as const;

describe('PDF ingestion cache', () => {
  it('extracts once: the second load builds nothing and reads the same tree from the cache', async () => {
    const { pdf, cacheDir } = setup();
    const first = await ingestPdfs([{ file: pdf, docId: 'doc', title: 'Doc' }], { cacheDir, ...quiet });
    expect(first.stats).toMatchObject({ documents: 1, extracted: 1, fromCache: 0, pages: 3 });
    const second = await ingestPdfs([{ file: pdf, docId: 'doc', title: 'Doc' }], { cacheDir, ...quiet });
    expect(second.stats).toMatchObject({ documents: 1, extracted: 0, fromCache: 1, pages: 3 });
    expect(second.docs[0]).toEqual(first.docs[0]);
    // Ids, titles and descriptions come from the caller, not the cache.
    const renamed = await ingestPdfs([{ file: pdf, docId: 'other', title: 'Other', description: 'd' }], { cacheDir, ...quiet });
    expect(renamed.docs[0]).toMatchObject({ docId: 'other', title: 'Other', description: 'd' });
    expect(renamed.stats.extracted).toBe(0);
  });

  it('other build options reuse the extracted text but build again; a changed file extracts again', async () => {
    const { pdf, cacheDir } = setup();
    await ingestPdfs([{ file: pdf, docId: 'doc' }], { cacheDir, ...quiet });
    const pages = await ingestPdfs([{ file: pdf, docId: 'doc' }], { cacheDir, tree: 'pages', summaries: 'none', ...quiet });
    expect(pages.stats).toMatchObject({ extracted: 0, fromCache: 0 });
    expect(pages.docs[0].nodes.every((n) => n.summary === undefined)).toBe(true);
    fs.writeFileSync(pdf, makePdf([...PAGES, ['Appendix', 'A new page of text.']]));
    const changed = await ingestPdfs([{ file: pdf, docId: 'doc' }], { cacheDir, ...quiet });
    expect(changed.stats).toMatchObject({ extracted: 1, fromCache: 0, pages: 4 });
  });

  it('a torn cache entry is a miss, not a crash; cacheDir null never writes', async () => {
    const { dir, pdf, cacheDir } = setup();
    await ingestPdfs([{ file: pdf, docId: 'doc' }], { cacheDir, ...quiet });
    const treesDir = path.join(cacheDir, 'trees');
    for (const f of fs.readdirSync(treesDir)) fs.writeFileSync(path.join(treesDir, f), 'not gzip');
    const again = await ingestPdfs([{ file: pdf, docId: 'doc' }], { cacheDir, ...quiet });
    expect(again.stats).toMatchObject({ extracted: 0, fromCache: 0 });
    const none = path.join(dir, 'none');
    await ingestPdfs([{ file: pdf, docId: 'doc' }], { cacheDir: null, ...quiet });
    expect(fs.existsSync(none)).toBe(false);
    expect(fs.readdirSync(cacheDir).sort()).toEqual(['content', 'trees']);
    // No temporary files are left behind.
    const all = fs.readdirSync(cacheDir, { recursive: true }).map(String);
    expect(all.some((f) => f.endsWith('.tmp'))).toBe(false);
  });

  it('a pdf corpus config uses the cache; extractive summaries by default, none on request, and the tree source is recorded', async () => {
    const { dir, pdf } = setup();
    fs.writeFileSync(path.join(dir, 'q.jsonl'), JSON.stringify({ id: 'q1', question: 'topic2?', answers: ['x'] }) + '\n');
    const base = { dataset: { format: 'jsonl', path: 'q.jsonl' }, corpus: { format: 'pdf', path: path.basename(pdf), cacheDir: 'cache' } };
    const cwd = process.cwd();
    process.chdir(dir); // cacheDir resolves from the working directory, like the response cache
    try {
      const first = await loadBenchmarkData(base, dir, quiet);
      expect(first.ingest).toMatchObject({ extracted: 1 });
      const doc = first.corpus.docs[0];
      expect(doc.treeSource).toBeTruthy();
      expect(doc.summaries).toBe('extractive');
      const second = await loadBenchmarkData(base, dir, quiet);
      expect(second.ingest).toMatchObject({ extracted: 0, fromCache: 1 });
      const none = await loadBenchmarkData({ ...base, corpus: { ...base.corpus, summaries: 'none' } }, dir, quiet);
      expect(none.corpus.docs[0].summaries).toBeUndefined();
      const off = await loadBenchmarkData({ ...base, corpus: { ...base.corpus, cache: false } }, dir, quiet);
      expect(off.ingest).toMatchObject({ extracted: 1, fromCache: 0 });
    } finally {
      process.chdir(cwd);
    }
  });
});
