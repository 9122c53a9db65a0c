// Headings too long for one line (issue 26): a paper's numbered section title wraps, and its
// second line starts in lower case ("ment and Result Signatures" after "3.11 Sharing Between
// Argu-"), so it is no heading candidate of its own. A reader sees one title; the builder must
// too, with the word broken at the hyphen mended.
import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { pdfContent, prose, titlesOf } from './build-helpers.ts';

const H = (text: string, size = 12): StyledLine => ({ text, size, bold: true });

describe('headings wrapped onto a second line', () => {
  it('joins a lower-case second line in the heading style, mending a word broken at a hyphen', async () => {
    const pages: StyledLine[][] = [
      [{ text: 'Lectures on Module Systems', size: 20, bold: true }, ...prose('Opening'), H('1 Modules at a Glance', 14), ...prose('Glance')],
      [H('1.1 Structures'), ...prose('Structures'), H('1.2 Coercive Signature Match-'), H('ing and Its Variants'), ...prose('Matching')],
      [H('1.3 Sharing Between Argument'), H('and Result Signatures'), ...prose('Sharing'), H('1.4 Functors'), ...prose('Functors')],
      [H('2 The Static Semantics', 14), ...prose('Semantics'), H('2.1 Elaboration'), ...prose('Elaboration'), H('2.2 Reserve Requirements of Depository'), H('institutions, December 31, 2023'), ...prose('Reserves')],
    ];
    const content = await pdfContent(pages);
    const { doc } = buildPdfTree(content, { docId: 'wrapped' });
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    const titles = titlesOf(doc.nodes);
    expect(titles).toContain('1.2 Coercive Signature Matching and Its Variants');
    expect(titles).toContain('1.3 Sharing Between Argument and Result Signatures');
    // a date is no table's figures
    expect(titles).toContain('2.2 Reserve Requirements of Depository institutions, December 31, 2023');
    expect(titles.some((t) => t.endsWith('-') || /^(?:ing|and|institutions) /.test(t))).toBe(false);
    // still siblings under their chapter, each on its own page
    const chapter = doc.nodes.find((n) => n.title === '1 Modules at a Glance');
    expect(chapter?.children.map((n) => [n.title, n.pages![0]])).toEqual([
      ['1.1 Structures', 2],
      ['1.2 Coercive Signature Matching and Its Variants', 2],
      ['1.3 Sharing Between Argument and Result Signatures', 3],
      ['1.4 Functors', 3],
    ]);
  });

  it('keeps the hyphen of a compound broken before a capital, and glues no body text, table row or address to a heading', async () => {
    const pages: StyledLine[][] = [
      [{ text: 'Field Guide', size: 20, bold: true }, ...prose('Opening'), H('1 Getting Started', 14), ...prose('Started')],
      [
        H('1.1 Working With Non-'),
        H('English Keyboards'),
        ...prose('Keyboards'),
        // the heading ends its line; the next line, lower case, is the paragraph (regular face)
        H('1.2 Settings'),
        { text: 'can be changed at any time from the menu described below in plain words here' },
        ...prose('Settings'),
        // bold body text in lower case far below the heading is not its second line
        H('1.3 Shortcuts'),
        { text: 'and more shortcuts follow on later pages', size: 12, bold: true, y: 300 },
        ...prose('Shortcuts'),
      ],
      [
        // a table's row and a contact block set in the heading's face, in lower case below it
        H('1.4 Borrowings Including Current'),
        H('portion of long-term debt $ 13 $ 10'),
        ...prose('Borrowings'),
        H('1.5 Press Contacts'),
        H('press-office@example.com and the investor desk'),
        ...prose('Contacts'),
      ],
      [H('2 Reference', 14), ...prose('Reference')],
    ];
    const content = await pdfContent(pages);
    const { doc } = buildPdfTree(content, { docId: 'compound' });
    const titles = titlesOf(doc.nodes);
    expect(titles).toContain('1.1 Working With Non-English Keyboards');
    expect(titles).toContain('1.2 Settings');
    expect(titles).toContain('1.3 Shortcuts');
    expect(titles).toContain('1.4 Borrowings Including Current');
    expect(titles).toContain('1.5 Press Contacts');
    expect(titles.some((t) => /can be changed|shortcuts follow|long-term debt|example\.com/.test(t))).toBe(false);
  });
});
