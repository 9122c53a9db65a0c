import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../../harness/types.ts';
import { compareTrees, normalizeTitle, titlesMatch } from '../../../datasets/treeBuild/index.ts';

let nextId = 1;
const n = (title: string, start: number, children: TreeNode[] = []): TreeNode => ({ id: String(nextId++), title, pages: [start, start], children });

describe('title normalisation and matching', () => {
  it('ignores case, numbering prefixes, trailing page numbers, punctuation and footnote digits', () => {
    expect(normalizeTitle('Item 7. Management’s Discussion and Analysis')).toBe('managements discussion and analysis');
    expect(normalizeTitle("ITEM 7.  MANAGEMENT'S DISCUSSION AND ANALYSIS")).toBe('managements discussion and analysis');
    expect(normalizeTitle('1.2.3 Scope ........ 14')).toBe('scope');
    expect(normalizeTitle('Consolidated Statements of Earnings1')).toBe('consolidated statements of earnings');
    expect(normalizeTitle('PART II')).toBe('part ii'); // a numbering alone stays
  });

  it('matches a title inside a longer one only when the shorter is most of it', () => {
    expect(titlesMatch('Financial Outlook', '2023 Financial Outlook')).toBe(true);
    expect(titlesMatch('Statements of Operations', 'Condensed Consolidated Statements of Operations')).toBe(true);
    // counter-examples
    expect(titlesMatch('Notes', 'Notes to Consolidated Financial Statements')).toBe(false);
    expect(titlesMatch('Item 1A. Risk Factors', 'Item 1B. Unresolved Staff Comments')).toBe(false);
    expect(titlesMatch('Revenue', 'Income Taxes')).toBe(false);
    expect(titlesMatch('', 'Revenue')).toBe(false);
  });

  it('matches an initialism with the title it abbreviates, as a reader does (a bookmark "MFC" over "Missiles and Fire Control")', () => {
    expect(titlesMatch('MFC', 'Missiles and Fire Control')).toBe(true);
    expect(titlesMatch('Rotary and Mission Systems', 'RMS')).toBe(true);
    expect(titlesMatch('MD&A', "Management's Discussion & Analysis")).toBe(false); // not one word of capitals
    // counter-examples: other initials, too few letters, not in capitals, a title of one word
    expect(titlesMatch('MFC', 'Missiles and Fire')).toBe(false);
    expect(titlesMatch('RMS', 'Missiles and Fire Control')).toBe(false);
    expect(titlesMatch('IT', 'Income Taxes')).toBe(false);
    expect(titlesMatch('Mfc', 'Missiles and Fire Control')).toBe(false);
    expect(titlesMatch('SPACE', 'Space')).toBe(true); // the same word, matched as before
    expect(titlesMatch('TAX', 'Taxes')).toBe(false);
  });
});

describe('compareTrees', () => {
  const reference = [
    n('PART I', 4, [n('Item 1. Business', 4, [n('Products', 5)]), n('Item 1A. Risk Factors', 8)]),
    n('PART II', 21, [n('Item 7. MD&A', 23), n('Item 8. Financial Statements', 31)]),
  ];

  it('scores a perfect copy 1 everywhere', () => {
    const c = compareTrees(reference, reference);
    expect(c.top2ExactRecall).toBe(1);
    expect(c.precision).toBe(1);
    expect(c.levels.map((l) => [l.level, l.reference, l.matched])).toEqual([[1, 2, 2], [2, 4, 4], [3, 1, 1], ['top2', 6, 6], ['all', 7, 7]]);
  });

  it('counts titles, exact and within-one start pages, and precision separately', () => {
    const built = [
      n('Part I', 4, [n('ITEM 1. BUSINESS', 4), n('Item 1A. Risk Factors', 9)]), // risk factors one page late
      n('Part II', 21, [n('Item 7. MD&A', 26)]), // three pages late; Item 8 missing
      n('Signatures', 40), // not in the reference
      n('Exhibits', 41), // not in the reference
    ];
    const c = compareTrees(built, reference);
    const top2 = c.levels.find((l) => l.level === 'top2')!;
    expect(top2).toMatchObject({ reference: 6, matched: 5, startExact: 3, startWithin1: 4 });
    expect(c.top2ExactRecall).toBeCloseTo(3 / 6);
    expect(c.top2Within1Recall).toBeCloseTo(4 / 6);
    expect(c.precision).toBeCloseTo(5 / 7);
    expect(c.levels.find((l) => l.level === 3)).toMatchObject({ reference: 1, matched: 0 }); // Products not built
  });

  it('pairs one to one: a title repeated in the built tree counts once', () => {
    const ref = [n('Overview', 1), n('Results', 5)];
    const built = [n('Overview', 1), n('Overview', 2), n('Overview', 3), n('Results', 5)];
    const c = compareTrees(built, ref);
    expect(c.top2ExactRecall).toBe(1);
    expect(c.precision).toBeCloseTo(2 / 4);
  });

  it('prefers the closest start page when several titles match', () => {
    const ref = [n('Summary', 10)];
    const built = [n('Summary', 2), n('Summary', 10)];
    expect(compareTrees(built, ref).top2ExactRecall).toBe(1);
  });

  it('gives zeros, not NaN, for empty trees', () => {
    const c = compareTrees([], reference);
    expect(c.top2ExactRecall).toBe(0);
    expect(c.precision).toBe(0);
    expect(compareTrees(reference, []).levels.every((l) => l.reference === 0 && l.exactRecall === 0)).toBe(true);
  });
});
