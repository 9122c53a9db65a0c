import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DocTree, TreeNode } from '../../harness/types.ts';
import { DataError } from '../../datasets/errors.ts';
import { pageText, pdfDocTree, readPdf, readPdfs, type TextItem } from '../../datasets/pdf.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { walkNodes } from '../../datasets/tree-utils.ts';
import { treeInvariantErrors } from '../../datasets/treeBuild/index.ts';
import { nodeText } from '../../strategies/shared/tree.ts';
import { rejected, SHARED, tmpFiles } from './helpers.ts';
import { makePdf } from './pdf-writer.ts';

const EXAMPLES = path.join(SHARED, 'pageindex-examples');
const Q1_PDF = path.join(EXAMPLES, 'q1-fy25-earnings.pdf');
const Q1_TREE = path.join(EXAMPLES, 'q1-fy25-earnings_structure.json');

const all = (doc: DocTree): TreeNode[] => [...walkNodes(doc.nodes)].map((v) => v.node);
const byId = (doc: DocTree, id: string) => all(doc).find((n) => n.id === id)!;
const words = (s: string) => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** A question file for loadBenchmarkData runs that only look at the corpus. */
function questionsFile(): string {
  return path.join(tmpFiles({ 'q.jsonl': JSON.stringify({ id: 'q', question: 'x', answers: ['y'] }) + '\n' }), 'q.jsonl');
}

/** Six pages, each saying which page it is; bookmarks nested, one named, one pointing nowhere. */
const SIX_PAGES = [1, 2, 3, 4, 5, 6].map((n) => [`Heading of page ${n}`, `alpha${n} body text of page ${n}`]);
const OUTLINE = [
  {
    title: 'Introduction',
    page: 2,
    children: [
      { title: 'Scope', page: 2 },
      { title: 'Terms', page: 3, named: true },
    ],
  },
  { title: 'Broken link', page: null },
  { title: 'Results', page: 4, children: [{ title: 'Tables', page: 5 }] },
];

describe('readPdf', () => {
  it('reads the 22 pages of a PageIndex example PDF, with line breaks and no outline', async () => {
    const pdf = await readPdf(Q1_PDF);
    expect(pdf.pageCount).toBe(22);
    expect(pdf.pages).toHaveLength(22);
    expect(pdf.outline).toBeNull();
    for (const [i, p] of pdf.pages.entries()) expect(p.trim().length, `page ${i + 1}`).toBeGreaterThan(100);
    expect(pdf.pages[0]).toContain('THE WALT DISNEY COMPANY REPORTS');
    // Lines, not one run-on string: the page 2 heading sits on a line of its own.
    expect(pdf.pages[1].split('\n')[0]).toBe('Guidance and Outlook:');
    expect(pdf.pages[12]).toMatch(/CONDENSED CONSOLIDATED STATEMENTS OF INCOME/);
    // Cached per file; callers get their own arrays.
    const again = await readPdf(Q1_PDF);
    expect(again.pages).toEqual(pdf.pages);
    expect(again.pages).not.toBe(pdf.pages);
  });

  it('resolves the outline to 1-based pages (explicit and named destinations)', async () => {
    const dir = tmpFiles({});
    const file = path.join(dir, 'six.pdf');
    fs.writeFileSync(file, makePdf(SIX_PAGES, OUTLINE));
    const pdf = await readPdf(file);
    expect(pdf.pageCount).toBe(6);
    expect(pdf.pages[3]).toBe('Heading of page 4\nalpha4 body text of page 4');
    expect(pdf.outline).toEqual([
      {
        title: 'Introduction',
        page: 2,
        children: [
          { title: 'Scope', page: 2, children: [] },
          { title: 'Terms', page: 3, children: [] },
        ],
      },
      { title: 'Broken link', page: null, children: [] },
      { title: 'Results', page: 4, children: [{ title: 'Tables', page: 5, children: [] }] },
    ]);
  });

  it('reads Flate-compressed pages, and one zlib rejects (no checksum) through pdf.js\'s own decoder', async () => {
    // The worker inflates with zlib (datasets/pdf-worker.mjs); where zlib fails, pdf.js decodes.
    const dir = tmpFiles({});
    const texts: string[][] = [];
    for (const flate of [undefined, 'ok', 'no-checksum'] as const) {
      const file = path.join(dir, `six-${flate ?? 'plain'}.pdf`);
      fs.writeFileSync(file, makePdf(SIX_PAGES, undefined, { flate }));
      texts.push((await readPdf(file)).pages);
    }
    expect(texts[0][3]).toBe('Heading of page 4\nalpha4 body text of page 4');
    expect(texts[1]).toEqual(texts[0]);
    expect(texts[2]).toEqual(texts[0]);
  });

  it('throws a DataError naming the file for a corrupt PDF, a missing file and a folder', async () => {
    const dir = tmpFiles({ 'bogus.pdf': 'this is not a PDF at all\n', 'empty.pdf': '' });
    for (const name of ['bogus.pdf', 'empty.pdf']) {
      const e = await rejected(readPdf(path.join(dir, name)));
      expect(e).toBeInstanceOf(DataError);
      expect(e.file).toBe(path.join(dir, name));
      expect(e.message).toContain(name);
      expect(e.message).toMatch(/not a readable PDF/);
    }
    const missing = await rejected(readPdf(path.join(dir, 'nope.pdf')));
    expect(missing).toBeInstanceOf(DataError);
    expect(missing.message).toMatch(/nope\.pdf: PDF file not found$/);
    const folder = await rejected(readPdf(dir));
    expect(folder.message).toMatch(/is a folder/);
    // One bad file among good ones: readPdfs reports it.
    const mixed = await rejected(readPdfs([Q1_PDF, path.join(dir, 'bogus.pdf')]));
    expect(mixed.file).toBe(path.join(dir, 'bogus.pdf'));
  });
});

describe('pageText', () => {
  const item = (str: string, x: number, y: number, width: number, hasEOL = false, height = 12): TextItem => [str, hasEOL, x, y, width, height];

  it('breaks lines at hasEOL and at baseline changes, keeps superscripts and table cells on their line', () => {
    const text = pageText([
      item('Revenue', 50, 700, 40),
      item('2024', 200, 700, 24), // a table cell far to the right: same line, with a space
      item('(1)', 225, 705, 9, false, 8), // superscript note mark
      item('', 234, 700, 0, true),
      item('Net income', 50, 686, 55), // next line without an EOL marker from pdf.js
      item('$', 200, 686, 6),
      item('5,363', 206, 686, 30),
    ]);
    expect(text).toBe('Revenue 2024(1)\nNet income $5,363');
  });

  it('reads a sliver of a space inside a word as a kern, not a word break (old TeX fonts)', () => {
    // pdf.js puts a 0.6-pt space between "Mo" and "dules" (at 12 pt, where the font's word spaces are 4.3 pt)
    const words = (...parts: Array<[string, number]>): TextItem[] => {
      const out: TextItem[] = [];
      let x = 50;
      for (const [str, width] of parts) {
        out.push(item(str, x, 700, width));
        x += width;
      }
      return out;
    };
    const line = words(['the', 15], [' ', 4.3], ['Mo', 14], [' ', 0.6], ['dules', 28], [' ', 4.3], ['part', 20], [' ', 4.3], ['is', 8], [' ', 4.3], ['b', 6], [' ', 0.6], ['est', 15]);
    expect(pageText(line)).toBe('the Modules part is best');
    // Counter-examples, at the same widths: a narrow space after a full stop, before a capital
    // or a dash, or around a figure is a word break; and in a font whose every space is that
    // narrow (a tightly set headline), none is a kern.
    expect(pageText(words(['estimated.', 50], [' ', 4.3], ['so', 10], [' ', 0.6], ['The', 18], [' ', 0.6], ['–', 6], [' ', 4.3], ['$', 6], [' ', 0.6], ['12', 12]))).toBe('estimated. so The – $ 12');
    expect(pageText(words(['Strong', 30], [' ', 0.6], ['second', 32], [' ', 0.6], ['quarter', 36]))).toBe('Strong second quarter');
  });

  it('collapses blank runs and keeps at most one empty line', () => {
    expect(pageText([item('a   b', 0, 100, 30, true), item('', 0, 80, 0, true), item('', 0, 60, 0, true), item('c', 0, 40, 6, true)])).toBe('a b\n\nc');
  });
});

describe('pdf corpus format', () => {
  it('builds a tree from the outline: page ranges end at the next sibling, front matter, dropped bookmarks', async () => {
    const dir = tmpFiles({});
    fs.writeFileSync(path.join(dir, 'with-outline.pdf'), makePdf(SIX_PAGES, OUTLINE));
    fs.writeFileSync(path.join(dir, 'no-outline.pdf'), makePdf(SIX_PAGES.slice(0, 3)));
    const data = await loadBenchmarkData({ dataset: { format: 'jsonl', path: questionsFile() }, corpus: { format: 'pdf', path: dir } }, '/');
    expect(data.corpus.docs.map((d) => d.docId)).toEqual(['no-outline', 'with-outline']);
    expect(data.files.filter((f) => f.endsWith('.pdf'))).toEqual([path.join(dir, 'no-outline.pdf'), path.join(dir, 'with-outline.pdf')]);

    const tree = data.corpus.docs[1];
    expect(tree.pages).toHaveLength(6);
    expect(tree.source).toBe(path.join(dir, 'with-outline.pdf'));
    const shape = (nodes: TreeNode[]): unknown[] => nodes.map((n) => [n.id, n.title, n.pages, ...(n.children.length ? [shape(n.children)] : [])]);
    expect(shape(tree.nodes)).toEqual([
      ['0001', 'Front matter', [1, 1]],
      [
        '0002',
        'Introduction',
        [2, 3],
        [
          ['0003', 'Scope', [2, 2]],
          ['0004', 'Terms', [3, 3]],
        ],
      ],
      ['0005', 'Results', [4, 6], [['0006', 'Tables', [5, 6]]]],
    ]);
    expect(tree.treeSource).toBe('outline');
    // Each node holds its own text: its pages up to its first child's heading (bookmark titles
    // are not printed on these pages, so sections start at the top of their page).
    expect(byId(tree, '0002').text).toBeUndefined(); // Introduction: Scope starts at the top of its page
    expect(byId(tree, '0003').text).toBe(SIX_PAGES[1].join('\n'));
    expect(byId(tree, '0005').text).toBe(SIX_PAGES[3].join('\n'));
    expect(nodeText(tree, byId(tree, '0004'))).toBe(SIX_PAGES[2].join('\n'));
    expect(nodeText(tree, byId(tree, '0006'))).toBe([...SIX_PAGES[4], ...SIX_PAGES[5]].join('\n'));
    expect(data.warnings).toEqual([`${path.join(dir, 'with-outline.pdf')}: 1 bookmark(s) point to no page of the document and were left out`]);

    // Without an outline, a table of contents or headings (every line in one font and size),
    // the tree falls back to one node per page. Its first line would title it, but "Heading of
    // page N" opens every page (digits aside): a running header, so the page number it is.
    const flat = data.corpus.docs[0];
    expect(flat.treeSource).toBe('pages');
    expect(flat.nodes.map((n) => [n.id, n.title, n.pages, n.text])).toEqual([
      ['0001', 'Page 1', [1, 1], SIX_PAGES[0].join('\n')],
      ['0002', 'Page 2', [2, 2], SIX_PAGES[1].join('\n')],
      ['0003', 'Page 3', [3, 3], SIX_PAGES[2].join('\n')],
    ]);
  });

  it('builds a tree from the headings of a real PDF without an outline', async () => {
    const data = await loadBenchmarkData({ dataset: { format: 'jsonl', path: questionsFile() }, corpus: { format: 'pdf', path: Q1_PDF } }, '/');
    const doc = data.corpus.docs[0];
    expect(doc.docId).toBe('q1-fy25-earnings');
    expect(doc.treeSource).toBe('layout');
    expect(treeInvariantErrors(doc.nodes, 22)).toEqual([]);
    // The release's section headings, as printed (capitals), in order.
    const titles = doc.nodes.map((n) => n.title);
    const at = (t: string) => titles.indexOf(t);
    expect(at('SUMMARIZED FINANCIAL RESULTS')).toBeGreaterThan(-1);
    expect(at('DISCUSSION OF FIRST QUARTER SEGMENT RESULTS')).toBeGreaterThan(at('SUMMARIZED FINANCIAL RESULTS'));
    expect(at('NON-GAAP FINANCIAL MEASURES')).toBeGreaterThan(at('DISCUSSION OF FIRST QUARTER SEGMENT RESULTS'));
    const discussion = doc.nodes[at('DISCUSSION OF FIRST QUARTER SEGMENT RESULTS')];
    expect(discussion.children.map((c) => c.title)).toEqual(expect.arrayContaining(['Entertainment', 'Sports', 'Experiences']));
    // A node's own text starts at its heading.
    expect(discussion.children.find((c) => c.title === 'Sports')!.text!.startsWith('Sports')).toBe(true);
    expect(data.warnings).toEqual([]);
  });

  it('takes a lone bookmark for a title, not a structure: one node per page', () => {
    const content = { pages: ['a', 'b', 'c'], pageCount: 3, outline: [{ title: 'Press release', page: 1, children: [] }] };
    const flat = pdfDocTree(content, { docId: 'd' });
    expect(flat.treeSource).toBe('pages');
    expect(flat.nodes.map((n) => [n.id, n.title])).toEqual([['0001', 'Page 1'], ['0002', 'Page 2'], ['0003', 'Page 3']]);
    const two = { ...content, outline: [...content.outline, { title: 'Tables', page: 3, children: [] }] };
    expect(pdfDocTree(two, { docId: 'd' }).nodes.map((n) => [n.title, n.pages])).toEqual([
      ['Press release', [1, 2]],
      ['Tables', [3, 3]],
    ]);
  });

  it('warns about pages without text and rejects docIdFrom: field', async () => {
    const doc = pdfDocTree({ pages: ['one', '', 'three'], outline: null, pageCount: 3 }, { docId: 'd', warnings: [] });
    expect(doc.nodes[1]).toEqual({ id: '0002', title: 'Page 2', pages: [2, 2], children: [] });
    const warnings: string[] = [];
    pdfDocTree({ pages: ['one', '', 'three'], outline: null, pageCount: 3 }, { docId: 'd', warnings });
    expect(warnings).toEqual(['d: 1 of 3 pages have no extractable text']);
    const e = await rejected(loadBenchmarkData({ dataset: { format: 'jsonl', path: questionsFile() }, corpus: { format: 'pdf', path: Q1_PDF, docIdFrom: 'field' } }, '/'));
    expect(e.field).toBe('corpus.docIdFrom');
  });
});

describe('PageIndex trees with their PDF', () => {
  const load = (corpus: Record<string, unknown>) =>
    loadBenchmarkData({ dataset: { format: 'jsonl', path: questionsFile() }, corpus: { format: 'pageindex', ...corpus } as never }, '/');

  it('attaches the page texts of <name>.pdf beside <name>_structure.json, so nodes read their pages', async () => {
    const data = await load({ path: Q1_TREE });
    const doc = data.corpus.docs[0];
    expect(doc.pages).toHaveLength(22);
    expect(data.files).toEqual([expect.stringMatching(/q\.jsonl$/), Q1_TREE, Q1_PDF]);
    expect(data.warnings).toEqual([]);
    // PageIndex trees carry no text: a node's text is its pages, and they say what its title says.
    const income = byId(doc, '0031');
    expect(income.title).toBe('THE WALT DISNEY COMPANY CONDENSED CONSOLIDATED STATEMENTS OF INCOME');
    expect(income.text).toBeUndefined();
    expect(nodeText(doc, income)).toBe(doc.pages![12]);
    expect(nodeText(doc, income)).toContain('CONDENSED CONSOLIDATED STATEMENTS OF INCOME');
    const dtc = byId(doc, '0014');
    expect(dtc.pages).toEqual([5, 7]);
    const text = nodeText(doc, dtc);
    expect(text).toBe(doc.pages!.slice(4, 7).join('\n'));
    expect(text).toContain('Direct-to-Consumer');
    for (const n of all(doc)) {
      const own = new Set(words(nodeText(doc, n)));
      const title = words(n.title).filter((w) => w.length > 3);
      // Most title words occur in the node's pages (titles are PageIndex's reading of those pages).
      expect(title.filter((w) => own.has(w)).length, `${n.id} ${n.title}`).toBeGreaterThanOrEqual(Math.ceil(title.length / 2));
    }
  });

  it('pdfText: off leaves the tree without page text; corpus.pdf points elsewhere', async () => {
    const off = await load({ path: Q1_TREE, pdfText: 'off' });
    expect(off.corpus.docs[0].pages).toBeUndefined();
    expect(off.files.some((f) => f.endsWith('.pdf'))).toBe(false);
    const nodeWithoutText = byId(off.corpus.docs[0], '0031');
    expect(nodeText(off.corpus.docs[0], nodeWithoutText)).toBe(nodeWithoutText.summary);

    // The tree alone in another folder, the PDF named by corpus.pdf (a file, or a folder of <docId>.pdf).
    const dir = tmpFiles({ 'trees/q1-fy25-earnings_structure.json': fs.readFileSync(Q1_TREE, 'utf8') });
    const tree = path.join(dir, 'trees/q1-fy25-earnings_structure.json');
    expect((await load({ path: tree })).corpus.docs[0].pages).toBeUndefined();
    expect((await load({ path: tree, pdf: Q1_PDF })).corpus.docs[0].pages).toHaveLength(22);
    expect((await load({ path: tree, pdf: EXAMPLES })).corpus.docs[0].pages).toHaveLength(22);
    const none = await load({ path: tree, pdf: dir });
    expect(none.corpus.docs[0].pages).toBeUndefined();
    expect(none.warnings).toEqual([`${tree}: no q1-fy25-earnings.pdf in ${dir} (corpus.pdf); the tree has no page text`]);
  });

  it('warns when tree pages reach past the PDF, and a corrupt PDF is a DataError naming it', async () => {
    const raw = JSON.parse(fs.readFileSync(Q1_TREE, 'utf8'));
    raw.structure[raw.structure.length - 1].end_index = 30;
    const dir = tmpFiles({ 'doc_structure.json': JSON.stringify(raw), 'bad_structure.json': JSON.stringify(raw), 'bad.pdf': '%PDF-1.4 garbage' });
    fs.copyFileSync(Q1_PDF, path.join(dir, 'doc.pdf'));
    const data = await load({ path: path.join(dir, 'doc_structure.json') });
    expect(data.warnings).toEqual([
      `${path.join(dir, 'doc_structure.json')}: 1 node(s) reach past the 22 pages of ${path.join(dir, 'doc.pdf')} (e.g. node 0040 pages 22-30); is it the PDF this tree was made from?`,
    ]);
    const e = await rejected(load({ path: path.join(dir, 'bad_structure.json') }));
    expect(e).toBeInstanceOf(DataError);
    expect(e.file).toBe(path.join(dir, 'bad.pdf'));
    const one = await rejected(load({ path: dir, pdf: Q1_PDF }));
    expect(one.field).toBe('corpus.pdf');
  });
});
