import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import { findToc, tocLikeSpans, tocSearchPages } from '../../../datasets/treeBuild/toc.ts';
import type { PdfContent } from '../../../datasets/treeBuild/types.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { pdfContent, prose } from './build-helpers.ts';

// Hand-made page texts (no layout): the TOC search reads lines and numbers only.
const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'heath', 'inlet', 'juniper', 'kestrel', 'lagoon'];
const prosePage = (n: number) =>
  [`Paragraph ${WORDS[n % 12]} ${WORDS[(n * 7) % 12]} explains the product in plain words for the reader`, `and goes on about ${WORDS[(n * 5) % 12]} matters without any number at its end`, `so that page ${n} reads like prose and nothing else at all`].join('\n');
const dots = (title: string, page: number) => `${title} ${'.'.repeat(30)} ${page}`;
const CHAPTERS: [string, number][] = [['Introduction', 1], ['Getting Started', 5], ['Daily Use', 30], ['Settings', 60], ['Troubleshooting', 100], ['Specifications', 125]];

/**
 * A 160-page manual: `front` pages of cover, legal notices and preface, then a "Contents" page,
 * then the chapters (printed page 1 is the page after the contents). `extra` pages are put in
 * place (1-based) of prose pages.
 */
function manual(front: number, extra: Record<number, string> = {}): PdfContent {
  const pageCount = 160;
  const tocPage = front + 1;
  const offset = tocPage; // printed 1 = physical tocPage + 1
  const pages = Array.from({ length: pageCount }, (_, i) => prosePage(i + 1));
  pages[tocPage - 1] = ['Contents', ...CHAPTERS.map(([t, n]) => dots(t, n))].join('\n');
  for (const [t, n] of CHAPTERS) pages[n + offset - 1] = `${t}\n${prosePage(n + offset)}`;
  for (const [p, text] of Object.entries(extra)) pages[Number(p) - 1] = text;
  return { pages, outline: null, pageCount };
}

const FIGURES = ['List of Figures', dots('Figure 1 Front panel', 3), dots('Figure 2 Buttons', 7), dots('Figure 3 Menu', 31), dots('Figure 4 Settings screen', 62), dots('Figure 5 Error codes', 101)].join('\n');

describe('where the printed table of contents is looked for', () => {
  it('bounds the search by the document length: 21 pages, or the first 15% of a long document', () => {
    expect(tocSearchPages(10)).toBe(21);
    expect(tocSearchPages(100)).toBe(21);
    expect(tocSearchPages(160)).toBe(24);
    expect(tocSearchPages(1000)).toBe(150);
  });

  it('finds contents printed after 22 pages of front matter in a 160-page manual, and builds the tree from them', () => {
    const content = manual(22);
    expect(findToc(content)?.tocPages).toEqual([23]);
    const { doc, report } = buildPdfTree(content, { docId: 'manual' });
    expect(report.source).toBe('toc');
    expect(report.located).toBe(6);
    expect(treeInvariantErrors(doc.nodes, 160)).toEqual([]);
    expect(doc.nodes.map((n) => [n.title, n.pages![0]])).toEqual([
      ['Front matter', 1],
      ['Contents', 23],
      ...CHAPTERS.map(([t, n]): [string, number] => [t, n + 23]),
    ]);
  });

  it('does not take a contents page in the middle of the document (a chapter or exhibit contents) for the document\'s', () => {
    const content = manual(22, { 23: prosePage(23), 80: ['Contents', ...CHAPTERS.map(([t, n]) => dots(t, n))].join('\n') });
    expect(findToc(content)).toBeNull();
    // ... but its entries are still no headings
    expect([...tocLikeSpans(content).keys()]).toEqual([80]);
  });

  it('past the first 21 pages, needs the page to say "Contents": a table whose numbers grow is not one', () => {
    const table = ['Store openings by region', 'Northern region stores 12', 'Southern region stores 15', 'Eastern region stores 19', 'Western region stores 27', 'Central region stores 30'].join('\n');
    const content = manual(22, { 23: table });
    expect(findToc(content)).toBeNull();
    // the same table among the first pages would pass for one: the bound is what protects here
    const early = manual(22, { 23: prosePage(23), 3: table });
    expect(findToc(early)?.tocPages).toEqual([3]);
  });

  it('leaves a list of figures out of the contents it follows, and does not take one alone for contents', () => {
    const content = manual(4, { 6: FIGURES });
    expect(findToc(content)?.tocPages).toEqual([5]);
    expect(findToc(content)!.entries.map((e) => e.title)).toEqual(CHAPTERS.map(([t]) => t));
    const alone = manual(4, { 5: FIGURES });
    expect(findToc(alone)).toBeNull();
  });

  it('an index (alphabetical, page numbers out of order) is neither contents nor TOC-like', () => {
    const index = ['Index', 'Alarm 31', 'Battery 7', 'Bluetooth 62', 'Buttons 5', 'Charging 3', 'Display 101', 'Error codes 125'].join('\n');
    const content = manual(4, { 150: index });
    expect(findToc(content)?.tocPages).toEqual([5]);
    expect([...tocLikeSpans(content).keys()]).toEqual([5]);
  });
});

describe('TOC-like pages inside the document', () => {
  const H = (text: string, size: number): StyledLine => ({ text, size, bold: true });
  const entry = (text: string): StyledLine => ({ text, size: 12 });
  it("an exhibit's own contents page gives no headings; the headings around it stay", async () => {
    // 22 pages of sections, then the exhibit: its contents lie past the pages where the
    // document's own table of contents is looked for
    const topics = Array.from({ length: 22 }, (_, i) => `${WORDS[i % 12][0].toUpperCase()}${WORDS[i % 12].slice(1)} ${i < 12 ? 'Operations' : 'Markets'}`);
    const content = await pdfContent([
      ...topics.map((t) => [H(t, 16), ...prose(t, 2)]),
      [H('Exhibit 10.1 Savings Plan', 16), ...prose('Exhibit', 2), H('Plan Contents', 14), entry('1.1 Purpose 3'), entry('1.2 Eligibility 4'), entry('1.3 Contributions 5'), entry('1.4 Vesting 7'), entry('1.5 Distributions 9')],
      [H('1.1 Purpose', 14), ...prose('Purpose')],
      [H('1.2 Eligibility', 14), ...prose('Eligibility')],
    ]);
    expect([...tocLikeSpans(content).keys()]).toEqual([23]);
    const { doc, report } = buildPdfTree(content, { docId: 'plan' });
    expect(report.source).toBe('layout');
    const titles: string[] = [];
    const walk = (ns: typeof doc.nodes) => ns.forEach((n) => (titles.push(n.title), walk(n.children)));
    walk(doc.nodes);
    expect(titles).toEqual([...topics, 'Exhibit 10.1 Savings Plan', 'Plan Contents', '1.1 Purpose', '1.2 Eligibility']);
    expect(treeInvariantErrors(doc.nodes, 25)).toEqual([]);
  });
});
