// Locating printed TOC entries whose headings are not printed as the TOC says: words split by
// extraction, item labels on their own TOC line (over a title, or over a group of entries), headings in capitals wrapped over lines, long
// entries whose heading is only their head, reworded numbered headings, shortened entries.
import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import { findTitle, titleHead, wordOverlap } from '../../../datasets/treeBuild/locate.ts';
import { findToc } from '../../../datasets/treeBuild/toc.ts';
import { pageLines } from '../../../datasets/treeBuild/text.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { find, pdfContent, prose } from './build-helpers.ts';

const H = (text: string, size = 12): StyledLine => ({ text, size, bold: true });
const entry = (title: string, page: string, x = 72): StyledLine => ({ text: `${title} ${page}`, x });
const footer = (n: string): StyledLine => ({ text: n, size: 9, x: 300, y: 40 });

/**
 * A quarterly report. Printed page 3 is physical page 3 in Part I; an unnumbered insert before
 * Part II shifts it by one there. Two entries cannot be located: "c) Equity, by component" (its
 * head is one word, and "Equity" alone is too common to trust) and "Item 6. Legal Proceedings"
 * (the page prints "Item 7. Legal Proceedings": another number is another section).
 */
const REPORT: (string | StyledLine)[][] = [
  [H('ACME Inc.', 24), H('Quarterly Report on Form 10-Q', 16)],
  [
    H('Table of Contents', 14),
    { text: 'PART I. FINANCIAL INFORMATION', bold: true },
    { text: 'Item 1.' }, // an item without a page number over its entries: a group
    { text: 'Financial Statements', x: 80 },
    entry('a) Condensed Balance Sheets as of June 30, 2024 and December 31, 2023', '3', 90),
    entry('b) Condensed Statements of Income for the three months ended June 30, 2024', '4', 90),
    entry('c) Equity, by component', '4', 90),
    { text: 'Item 2.' },
    entry("Management's Discussion and Analysis", '5', 90),
    entry('Item 3. Business Overview', '6'),
    entry('Segment Results of the Widget and Gadget Businesses', '6', 90),
    entry('Item 4. Controls', '7'),
    { text: 'PART II. OTHER INFORMATION', bold: true },
    entry('Risk Factors', '8'),
    { text: 'Item 5. Exhibits, Financial Statement' },
    entry('Schedules', '8', 90),
    entry('Item 6. Legal Proceedings', '9'),
  ],
  [H('Item 1. Financial Statements'), H('Condensed Balance Sheets'), ...prose('Balance'), footer('3')],
  [H('Condensed Statements of Income'), ...prose('Income'), H('Equity'), ...prose('Equity'), footer('4')],
  [H("ITEM 2. MANAGEMENT'S DISCUSSION AND"), H('ANALYSIS'), ...prose('Discussion'), footer('5')],
  [H('Item 3. Busines s Overvie w'), ...prose('Business'), H('Segment Results of the Widget'), ...prose('Segments'), footer('6')], // words split by extraction
  [H('ITEM 4. CONTROLS AND PROCEDURES OF THE REGISTRANT'), ...prose('Controls'), footer('7')],
  [H('Supplementary chart'), ...prose('Chart')],
  [H('PART II. OTHER INFORMATION'), H('ITEM 1A. RISK FACTORS'), ...prose('Risks'), H('Item 5. Exhibits and Financial Statement Schedules'), ...prose('Exhibits'), footer('8')],
  [H('Item 7. Legal Proceedings'), ...prose('Legal'), footer('9')],
];

describe('locating printed TOC entries', () => {
  it('finds headings printed differently from their entries, and leaves the rest unlocated', async () => {
    const content = await pdfContent(REPORT);
    const { doc, report } = buildPdfTree(content, { docId: 'acme-q' });
    expect(report.source).toBe('toc');
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    const at = (title: string) => find(doc.nodes, title)?.pages;
    expect(at('a) Condensed Balance Sheets as of June 30, 2024 and December 31, 2023')).toEqual([3, 3]); // heading = the head
    const item1 = find(doc.nodes, 'Item 1. Financial Statements')!; // label and title joined, entries nested
    expect(item1.pages).toEqual([3, 4]);
    expect(item1.children.map((c) => c.title.slice(0, 2))).toEqual(['a)', 'b)']);
    expect(at('b) Condensed Statements of Income for the three months ended June 30, 2024')).toEqual([4, 4]);
    expect(at("Item 2. Management's Discussion and Analysis")).toEqual([5, 5]); // label joined; capitals wrapped
    expect(at('Item 3. Business Overview')).toEqual([6, 6]); // "Busines s Overvie w"
    expect(at('Segment Results of the Widget and Gadget Businesses')).toEqual([6, 6]); // the heading cut short
    expect(at('Item 4. Controls')).toEqual([7, 8]); // the TOC shortened the heading
    expect(at('Risk Factors')).toEqual([9, 9]); // printed under "ITEM 1A.", one page later in Part II
    expect(at('Item 5. Exhibits, Financial Statement Schedules')).toEqual([9, 10]); // wrapped entry (one line under it: no group), reworded heading
    expect(report.unlocated).toEqual(['c) Equity, by component', 'Item 6. Legal Proceedings']);
    expect(report.tocEntries).toBe(13); // the two parts included; "Item 2." and "Schedules" joined their entries
    expect(report.located).toBe(11);
  });
});

describe('item groups in a printed TOC', () => {
  it('makes an item without a page number a group of the entries under it, but not its "(continued)" repeat', async () => {
    const content = await pdfContent([
      [H('ACME Inc.', 24)],
      [H('Contents', 14), entry('Item 7. Overview', '3'), { text: 'Item 8.' }, { text: 'Statements', x: 80 }, entry('Balance Sheet', '4', 90), entry('Income Statement', '5', 90)],
      [H('Contents', 14), { text: 'Item 8. Statements (continued)' }, entry('Cash Flows', '6', 90), entry('Equity', '7', 90), entry('Item 9. Controls', '8')],
      ...['Item 7. Overview', 'Balance Sheet', 'Income Statement', 'Cash Flows', 'Equity', 'Item 9. Controls'].map((t) => [H(t), ...prose(t)]),
    ]);
    const toc = findToc(content)!;
    expect(toc.tocPages).toEqual([2, 3]);
    expect(toc.entries.map((e) => [e.title, e.printed, e.level])).toEqual([
      ['Item 7. Overview', 3, 1],
      ['Item 8. Statements', null, 1],
      ['Balance Sheet', 4, 2],
      ['Income Statement', 5, 2],
      ['Cash Flows', 6, 2],
      ['Equity', 7, 2],
      ['Item 9. Controls', 8, 1],
    ]);
  });
});

describe('title matching forms', () => {
  it('keeps the strict forms strict: loose ones only when asked', async () => {
    const content = await pdfContent(REPORT);
    const page = (n: number) => pageLines(content)[n - 1];
    expect(findTitle('Item 3. Business Overview', page(6))?.quality).toBe(0); // split words: still exact
    expect(findTitle("Management's Discussion and Analysis", page(5))).toBeNull();
    expect(findTitle("Management's Discussion and Analysis", page(5), { loose: true })?.quality).toBe(3);
    expect(findTitle('a) Condensed Balance Sheets as of June 30, 2024', page(3))).toBeNull();
    expect(findTitle('a) Condensed Balance Sheets as of June 30, 2024', page(3), { loose: true })?.quality).toBe(4);
    // cut short: three words and half the title at least
    expect(findTitle('Segment Results of the Widget and Gadget Businesses', page(6), { loose: true })?.quality).toBe(4);
    expect(findTitle('Segment Results of the Widget and Gadget Businesses in the Americas, Europe and Asia', page(6), { loose: true })).toBeNull();
    // a numbered title never matches a line numbered otherwise, however alike the words
    expect(findTitle('Item 6. Legal Proceedings', page(10), { loose: true })).toBeNull();
  });

  it("cuts a title's head at a qualifier only, and only when two words or more remain", () => {
    expect(titleHead('a) Condensed Balance Sheets as of July 29, 2023')).toBe('Condensed Balance Sheets');
    expect(titleHead('Consolidated Statements of Cash Flows for the six months ended July 29, 2023')).toBe('Consolidated Statements of Cash Flows');
    expect(titleHead('Equity, by component')).toBeNull();
    expect(titleHead('Market for Registrant’s Common Equity')).toBeNull(); // "for" alone is not a qualifier
  });

  it('measures shared words', () => {
    expect(wordOverlap('Exhibits, Financial Statement Schedules', 'Exhibits and Financial Statement Schedules')).toBeCloseTo(8 / 9);
    expect(wordOverlap('Legal Proceedings', 'Risk Factors')).toBe(0);
  });
});
