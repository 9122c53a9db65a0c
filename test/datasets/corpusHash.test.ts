// Issue 25, item 4: the corpus hash is of the documents, not of where they lie. The same corpus
// in another folder (another checkout, another CI runner) used to be refused by compare and gate
// as "different corpora", because the hash held absolute file paths.
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.ts';
import { corpusHash } from '../../harness/trees/corpusHash.ts';

const DOCS: Record<string, string> = {
  'docs/filters.md': '# Filters\n\nReplace the filter every six months.\n\n## Night mode\n\nNight mode runs at 22 dB.\n',
  'docs/warranty.md': '# Warranty\n\nThe warranty lasts two years from delivery.\n',
};
const QUESTIONS = 'question,answer,doc\nHow loud is night mode?,22 dB,filters\nHow long is the warranty?,two years,warranty\n';

/** A self-contained project folder: config, questions and a Markdown corpus. */
function project(corpus: Record<string, unknown>, docs = DOCS): string {
  const dir = mkdtempSync(join(tmpdir(), 'treebench-corpus-'));
  mkdirSync(join(dir, 'docs'));
  for (const [f, text] of Object.entries(docs)) writeFileSync(join(dir, f), text);
  writeFileSync(join(dir, 'q.csv'), QUESTIONS);
  const config = {
    name: 'corpus-hash',
    dataset: { format: 'csv', path: 'q.csv', mapping: { question: 'question', answers: 'answer', evidenceDocId: 'doc' } },
    corpus: { format: 'markdown', ...corpus },
    model: { provider: 'offline' },
    embedder: 'hash',
    strategies: ['vector'],
    run: { outDir: join(dir, 'runs') },
    reports: [],
  };
  writeFileSync(join(dir, 'config.yaml'), JSON.stringify(config));
  return dir;
}

async function run(dir: string, id: string): Promise<{ dir: string; hash: string }> {
  const r = await runCli(['run', join(dir, 'config.yaml'), '--run-id', id, '--quiet']);
  expect(r.code, r.stderr).toBe(0);
  const runDir = join(dir, 'runs', id);
  return { dir: runDir, hash: JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')).corpus.hash };
}

describe('corpus hash', () => {
  it('the same Markdown corpus in two folders hashes the same, and gate compares the runs', async () => {
    const a = await run(project({ path: 'docs' }), 'a');
    const b = await run(project({ path: 'docs' }), 'b');
    expect(a.hash).toBe(b.hash);
    const gate = await runCli(['gate', '--baseline', a.dir, '--candidate', b.dir]);
    expect(gate.stderr).not.toMatch(/different corpora/);
    expect(gate.code).toBe(0);
  }, 60_000);

  it('also with corpus.only: referenced and an absolute corpus path (hashed from the source files)', async () => {
    const pa = project({});
    const pb = project({});
    for (const p of [pa, pb]) {
      const cfg = JSON.parse(readFileSync(join(p, 'config.yaml'), 'utf8'));
      cfg.corpus = { format: 'markdown', path: join(p, 'docs'), only: 'referenced' };
      cfg.dataset.mapping.docIds = 'doc';
      writeFileSync(join(p, 'config.yaml'), JSON.stringify(cfg));
    }
    expect((await run(pa, 'a')).hash).toBe((await run(pb, 'b')).hash);
  }, 60_000);

  it('a changed document changes it', async () => {
    const a = await run(project({ path: 'docs' }), 'a');
    const b = await run(project({ path: 'docs' }, { ...DOCS, 'docs/warranty.md': '# Warranty\n\nThe warranty lasts three years.\n' }), 'b');
    expect(a.hash).not.toBe(b.hash);
  }, 60_000);

  it('leaves only the file paths out of the documents', () => {
    const doc = { docId: 'd', title: 'D', nodes: [{ id: 'n', title: 'N', text: 't', children: [] }] };
    expect(corpusHash([{ ...doc, source: '/one/place/d.md' }])).toBe(corpusHash([{ ...doc, source: '/another/d.md' }]));
    expect(corpusHash([{ ...doc, source: '/one/place/d.md' }])).not.toBe(corpusHash([{ ...doc, title: 'E', source: '/one/place/d.md' }]));
  });
});

describe('corpus hash, fed one document at a time', () => {
  it('equals the hash of one JSON.stringify of the whole list without sources (so older manifests still pair)', async () => {
    const { createHash } = await import('node:crypto');
    const whole = (docs: unknown[]) => createHash('sha256').update(JSON.stringify(docs, (k, v) => (k === 'source' && typeof v === 'string' ? undefined : v))).digest('hex');
    const leaf = (id: string, title: string) => ({ id, title, text: `text of ${title} "quoted" é`, children: [] });
    const docs = [
      { docId: 'a', title: 'A', source: '/x/a.pdf', nodes: [{ ...leaf('0001', 'One'), children: [leaf('0002', 'Two')] }], pages: ['p1', ''] },
      { docId: 'b', title: 'B', nodes: [leaf('0001', 'Only')], summaries: 'extractive' },
    ];
    expect(corpusHash(docs as never)).toBe(whole(docs));
    expect(corpusHash([])).toBe(whole([]));
    expect(corpusHash(docs.slice(0, 1) as never)).toBe(whole(docs.slice(0, 1)));
  });
});
