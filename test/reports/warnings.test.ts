// Load warnings on the console: all of them up to ten; past that the first five, then a count per
// kind (file names, numbers and quoted titles do not make a new kind), and where the full list is.
import { describe, expect, it } from 'vitest';
import { warningKind, warningLines } from '../../reports/warnings.ts';

describe('warning summary', () => {
  it('one kind for the same warning about other files, numbers and titles', () => {
    expect(warningKind('/data/a.pdf: 3 of 75 pages have no extractable text')).toBe(warningKind('b c/x.pdf: 1 of 9 pages have no extractable text'.replace('b c/', '')));
    expect(warningKind('/data/a.pdf: 3 of 75 pages have no extractable text')).toBe('N of N pages have no extractable text');
    expect(warningKind('r.pdf: 2 of 40 table-of-contents entries could not be located on the pages and were left out: "Notes", "Item 7"')).toBe(
      'N of N table-of-contents entries could not be located on the pages and were left out',
    );
    // Different messages stay apart.
    expect(warningKind('a.pdf: skipped, not a readable PDF (Invalid PDF structure.)')).not.toBe(warningKind('a.pdf: 1 of 2 pages have no extractable text'));
  });

  it('shows up to ten as they are; past that the first five, counts per kind and the file', () => {
    const few = Array.from({ length: 10 }, (_, i) => `d${i}.pdf: 1 of 3 pages have no extractable text`);
    expect(warningLines(few, 'warnings.txt')).toEqual(few);
    const many = [
      ...Array.from({ length: 120 }, (_, i) => `d${i}.pdf: ${i % 7} of 30 pages have no extractable text`),
      ...Array.from({ length: 4 }, (_, i) => `t${i}.pdf: 2 of 40 table-of-contents entries could not be located on the pages and were left out: "A${i}"`),
    ];
    const lines = warningLines(many, 'warnings.txt in the run folder');
    expect(lines.slice(0, 5)).toEqual(many.slice(0, 5));
    expect(lines[5]).toBe('119 more, 124 in all, of 2 kind(s); every one is in warnings.txt in the run folder:');
    expect(lines.slice(6)).toEqual(['  120 × N of N pages have no extractable text', '  4 × N of N table-of-contents entries could not be located on the pages and were left out']);
  });
});
