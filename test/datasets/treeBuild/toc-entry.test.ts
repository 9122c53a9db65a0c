// entryMatch refuses lines before running the TOC-entry regex when the regex cannot match them
// (it ends in a page number: a digit or a lower-case roman numeral). The refusal must never
// change a result: checked against the regex itself on random lines built from the characters
// that matter, and on hand-picked TOC lines and prose.
import { describe, expect, it } from 'vitest';
import { ENTRY, entryMatch } from '../../../datasets/treeBuild/toc.ts';
import { mulberry32 } from '../../../harness/run/random.ts';

describe('TOC entry lines', () => {
  it('match exactly as the regex does', () => {
    const r = mulberry32(21);
    const alphabet = ['Item', ' ', '.', '. . .', '…', '_', '·', '7', '12', 'iv', 'x', 'c', 'l', 'I', 'V', 'Notes', 'é', '$', '-', 'Page', '\t'];
    for (let n = 0; n < 20_000; n++) {
      let s = '';
      const len = 1 + Math.floor(r() * 8);
      for (let k = 0; k < len; k++) s += alphabet[Math.floor(r() * alphabet.length)];
      const t = s.trim();
      expect(entryMatch(t)).toEqual(t.match(ENTRY));
    }
  });

  it('finds titles and page numbers, and refuses prose', () => {
    expect(entryMatch('Item 7. Management’s Discussion and Analysis ........ 23')?.slice(1, 3)).toEqual(['Item 7. Management’s Discussion and Analysis', '23']);
    expect(entryMatch('Preface xii')?.[2]).toBe('xii');
    expect(entryMatch('Risk Factors … 9')?.[2]).toBe('9');
    expect(entryMatch('Revenue increased 12% compared with the prior year.')).toBeNull();
    expect(entryMatch('See the discussion in Item 7')?.[2]).toBe('7'); // the regex's own view of such a line
    expect(entryMatch('APPENDIX IV')).toBeNull(); // upper-case roman numerals are not page numbers
  });
});
