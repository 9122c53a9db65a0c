// The opt-in poppler extractor (corpus.extractor: poppler; datasets/pdfPoppler.ts): the same
// content shape as pdf.js's, from pdftohtml. Skipped where poppler-utils is not installed
// (.ci/run installs it), except the error that says it is missing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataError } from '../../datasets/errors.ts';
import { clearPdfCache, readPdf, readPdfs } from '../../datasets/pdf.ts';
import { PopplerXmlReader } from '../../datasets/pdfPoppler.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { treeInvariantErrors } from '../../datasets/treeBuild/index.ts';
import { rejected, SHARED, tmpFiles } from './helpers.ts';
import { makePdf } from './pdf-writer.ts';

const HAVE_PDFTOHTML = fs.existsSync('/usr/bin/pdftohtml');
const Q1_PDF = path.join(SHARED, 'pageindex-examples', 'q1-fy25-earnings.pdf');
const SIX_PAGES = [1, 2, 3, 4, 5, 6].map((n) => [`Heading of page ${n}`, `alpha${n} body text of page ${n}`]);
const OUTLINE = [
  { title: 'Introduction', page: 2, children: [{ title: 'Scope', page: 2 }, { title: 'Terms', page: 3, named: true }] },
  { title: 'Broken link', page: null },
  { title: 'Results', page: 4, children: [{ title: 'Tables', page: 5 }] },
];
const questionsFile = () => path.join(tmpFiles({ 'q.jsonl': JSON.stringify({ id: 'q', question: 'x', answers: ['y'] }) + '\n' }), 'q.jsonl');

describe('PopplerXmlReader', () => {
  it('reads pages, fonts, runs and nested bookmarks from chunks cut anywhere; points, y up', () => {
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<pdf2xml producer="poppler" version="22.12.0">',
      '<page number="1" position="absolute" top="0" left="0" height="2376" width="1836">',
      '\t<fontspec id="0" size="42" family="ABCDEE+Arial-BoldMT" color="#000000"/>',
      '\t<fontspec id="1" size="30" family="ABCDEE+ArialMT" color="#000000"/>',
      '<text top="300" left="216" width="600" height="46.5" font="0"><b>Results &amp; outlook</b></text>',
      '<text top="400" left="216" width="900" height="33" font="1">Body <a href="x.html#2">text</a> here</text>',
      '<text top="400" left="1200" width="9" height="33" font="1"> </text>',
      '</page>',
      '<page number="2" position="absolute" top="0" left="0" height="2376" width="1836">',
      '</page>',
      '<outline>',
      '<item page="1">Part I</item>',
      '<outline>',
      '<item page="2">Item 1. &quot;Business&quot;</item>',
      '</outline>',
      '<item>Exhibit</item>',
      '</outline>',
      '</pdf2xml>',
      '',
    ].join('\n');
    for (const cut of [7, 100, xml.length]) {
      const r = new PopplerXmlReader();
      for (let i = 0; i < xml.length; i += cut) r.push(xml.slice(i, i + cut));
      const out = r.end();
      expect(out.pageCount).toBe(2);
      expect(out.sizes).toEqual([[612, 792], [612, 792]]);
      expect(out.pages[0].strs).toEqual(['Results & outlook', 'Body text here']); // the blank run is dropped
      expect(out.pages[1].strs).toEqual([]);
      const [eol, x, y, , h, font, size] = out.pages[0].nums.slice(0, 7);
      expect([eol, x, font, size, h]).toEqual([0, 72, 0, 14, 14]);
      expect(y).toBeCloseTo(792 - (300 + 46.5) / 3 + 0.2 * 14, 6); // baseline, from the page bottom
      expect(out.fonts.map((f) => f[0])).toEqual(['ABCDEE+Arial-BoldMT', 'ABCDEE+ArialMT']);
      expect(out.outline).toEqual([
        { title: 'Part I', page: 1, children: [{ title: 'Item 1. "Business"', page: 2, children: [] }] },
        { title: 'Exhibit', page: null, children: [] },
      ]);
    }
  });
});

describe.skipIf(!HAVE_PDFTOHTML)('readPdf with extractor poppler', () => {
  it('gives the page texts, outline and line styles pdf.js gives for a generated PDF', async () => {
    const dir = tmpFiles({});
    const file = path.join(dir, 'six.pdf');
    const styled = [
      [{ text: 'Annual report', size: 20, bold: true }, { text: 'Overview of the year', size: 11 }],
      [{ text: '1. Results', size: 14, bold: true }, { text: 'Revenue grew by a tenth.', size: 11 }],
    ];
    fs.writeFileSync(file, makePdf([...SIX_PAGES, ...styled], OUTLINE));
    const [pdfjs, poppler] = [await readPdf(file), await readPdf(file, { extractor: 'poppler' })];
    expect(poppler.pageCount).toBe(8);
    expect(poppler.pages).toEqual(pdfjs.pages);
    expect(poppler.outline).toEqual(pdfjs.outline);
    for (const p of [6, 7]) {
      const a = pdfjs.layout![p].lines;
      const b = poppler.layout![p].lines;
      expect(b.map((l) => [l.text, l.bold])).toEqual(a.map((l) => [l.text, l.bold]));
      b.forEach((l, k) => {
        expect(Math.abs(l.size - a[k].size)).toBeLessThanOrEqual(0.5);
        expect(Math.abs(l.y - a[k].y)).toBeLessThan(2);
        expect(l.x).toBeCloseTo(a[k].x, 1);
      });
      expect(poppler.layout![p].drawings).toBeUndefined(); // pdftohtml says nothing of drawings
    }
  });

  it('builds the same kind of tree from a real PDF, cached apart from pdf.js, said in the stats', async () => {
    const cacheDir = tmpFiles({});
    const load = (extractor?: 'poppler') => loadBenchmarkData({ dataset: { format: 'jsonl', path: questionsFile() }, corpus: { format: 'pdf', path: Q1_PDF, cacheDir, ...(extractor ? { extractor } : {}) } }, '/', { quiet: true });
    const [a, b] = [await load(), await load('poppler')];
    expect(b.ingest?.extractor).toBe('poppler');
    expect(a.ingest?.extractor).toBe('pdfjs');
    expect(b.ingest?.extracted).toBe(1); // not pdf.js's cached content
    expect(fs.readdirSync(path.join(cacheDir, 'content')).length).toBe(2);
    const doc = b.corpus.docs[0];
    expect(doc.treeSource).toBe(a.corpus.docs[0].treeSource);
    expect(treeInvariantErrors(doc.nodes, 22)).toEqual([]);
    expect(doc.nodes.map((n) => n.title)).toEqual(a.corpus.docs[0].nodes.map((n) => n.title));
  });

  it('throws a DataError naming the file for a corrupt PDF', async () => {
    const dir = tmpFiles({ 'bogus.pdf': 'this is not a PDF at all\n' });
    const e = await rejected(readPdf(path.join(dir, 'bogus.pdf'), { extractor: 'poppler' }));
    expect(e).toBeInstanceOf(DataError);
    expect(e.file).toBe(path.join(dir, 'bogus.pdf'));
    expect(e.message).toMatch(/not a readable PDF/);
  });
});

describe('corpus.extractor: poppler without pdftohtml', () => {
  const before = process.env.TREEBENCH_PDFTOHTML;
  afterEach(() => {
    if (before === undefined) delete process.env.TREEBENCH_PDFTOHTML;
    else process.env.TREEBENCH_PDFTOHTML = before;
    clearPdfCache();
  });

  it('is a DataError (exit 2) naming the setting, before anything is read', async () => {
    process.env.TREEBENCH_PDFTOHTML = '/nonexistent/pdftohtml';
    const e = await rejected(readPdfs([Q1_PDF], undefined, { extractor: 'poppler' }));
    expect(e).toBeInstanceOf(DataError);
    expect(e.field).toBe('corpus.extractor');
    expect(e.message).toMatch(/corpus\.extractor is poppler.*install poppler-utils.*corpus\.extractor: pdfjs/);
    const load = await rejected(loadBenchmarkData({ dataset: { format: 'jsonl', path: questionsFile() }, corpus: { format: 'pdf', path: Q1_PDF, extractor: 'poppler', cache: false } }, '/', { quiet: true }));
    expect(load).toBeInstanceOf(DataError);
    expect(load.field).toBe('corpus.extractor');
  });
});
