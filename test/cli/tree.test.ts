import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';
import { tmpFiles } from '../datasets/helpers.ts';
import { makePdf } from '../datasets/pdf-writer.ts';
import { readTreeFile } from '../../datasets/treeFile.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';

const PAGES = [1, 2, 3, 4].map((n) => [`Chapter ${n} overview`, `Body text of chapter ${n} about subject${n}, with enough words to summarise it well.`]);
const OUTLINE = [
  { title: 'Part one', page: 1, children: [{ title: 'Chapter 2', page: 2 }] },
  { title: 'Part two', page: 3 },
];

function setup() {
  const dir = tmpFiles({});
  const pdf = path.join(dir, 'book.pdf');
  fs.writeFileSync(pdf, makePdf(PAGES, OUTLINE));
  return { dir, pdf };
}

describe('treebench tree', () => {
  it('build writes a PageIndex tree that treebench reads back, with pages, summaries and its source', async () => {
    const { dir, pdf } = setup();
    const out = path.join(dir, 'book_structure.json');
    const r = await runCli(['tree', 'build', pdf, '-o', out, '--no-cache', '--quiet']);
    expect(r.code).toBe(0);
    const json = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(json.tree_source).toBe('outline');
    expect(json.structure.map((n: { title: string }) => n.title)).toEqual(['Part one', 'Part two']);
    expect(json.structure[0]).toMatchObject({ node_id: '0001', start_index: 1, end_index: 2 });
    expect(json.structure[0].nodes[0]).toMatchObject({ title: 'Chapter 2', start_index: 2, end_index: 2 });
    expect(typeof json.structure[1].summary).toBe('string');
    expect(r.stderr).toContain('book: outline, 3 nodes');
    const back = readTreeFile(out);
    expect(back.format).toBe('pageindex');
    expect(back.docs[0].nodes[0].children[0].pages).toEqual([2, 2]);
    // The PageIndex corpus format reads it, with page text from the PDF beside it.
    fs.writeFileSync(path.join(dir, 'q.jsonl'), JSON.stringify({ id: 'q', question: 'x', answers: ['y'] }) + '\n');
    const data = await loadBenchmarkData({ dataset: { format: 'jsonl', path: 'q.jsonl' }, corpus: { format: 'pageindex', path: 'book_structure.json' } }, dir, { quiet: true });
    expect(data.corpus.docs[0].pages?.[2]).toContain('subject3');
  });

  it('build --ignore-outline --format native gives a tree without the bookmarks; inspect measures it', async () => {
    const { dir, pdf } = setup();
    const out = path.join(dir, 'native.json');
    expect((await runCli(['tree', 'build', pdf, '--ignore-outline', '--format', 'native', '--with-text', '-o', out, '--no-cache', '--quiet'])).code).toBe(0);
    const doc = readTreeFile(out).docs[0];
    expect(doc.treeSource).not.toBe('outline');
    expect(doc.pages).toHaveLength(4);
    const r = await runCli(['tree', 'inspect', out, '--format', 'json']);
    expect(r.code).toBe(0);
    const [q] = JSON.parse(r.stdout);
    expect(q).toMatchObject({ docId: doc.docId, pages: 4, pagesCovered: 4 });
    const text = await runCli(['tree', 'inspect', pdf, '--no-cache', '--quiet']);
    expect(text.stdout).toMatch(/book\s+outline\s+3\s+2/);
  });

  it('bad input exits 2 naming the file', async () => {
    const { dir } = setup();
    const missing = await runCli(['tree', 'build', path.join(dir, 'nope.pdf'), '-o', path.join(dir, 'x.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.pdf');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'hello');
    const wrong = await runCli(['tree', 'build', path.join(dir, 'notes.txt'), '-o', path.join(dir, 'x.json')]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('expected a .pdf or .md file');
    fs.writeFileSync(path.join(dir, 'bad.json'), '{"hello": 1}');
    const bad = await runCli(['tree', 'inspect', path.join(dir, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.json');
  });
});
