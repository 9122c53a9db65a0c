import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import { numbering, sectionKey } from '../../../datasets/treeBuild/text.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { pdfContent, prose, shape } from './build-helpers.ts';

describe('numbering grammar', () => {
  it('reads appendix and letter numbering as sections', () => {
    expect(numbering('A.1 Proof of Lemma 2')).toMatchObject({ kind: 'section', depth: 2, rest: 'Proof of Lemma 2' });
    expect(numbering('B.2.3 Hyperparameters')).toMatchObject({ kind: 'section', depth: 3 });
    expect(numbering('Appendix A: Proofs')).toMatchObject({ kind: 'section', depth: 1, rest: 'Proofs' });
    expect(numbering('APPENDIX B — DATA')).toMatchObject({ kind: 'section', depth: 1 });
    expect(numbering('Note 4 – Debt')).toMatchObject({ kind: 'note' });
    expect(numbering('II. RELATED WORK')).toMatchObject({ kind: 'section', depth: 1 });
  });

  it('places a number in its sequence', () => {
    expect(sectionKey('A.2 Second')).toEqual({ parent: 'A', last: 2 });
    expect(sectionKey('Appendix C Tables')).toEqual({ parent: 'app', last: 3 });
    expect(sectionKey('2.3 Results')).toEqual({ parent: '2', last: 3 });
    expect(sectionKey('13 Weeks Ended')).toEqual({ parent: '#', last: 13 });
    expect(sectionKey('IV. RESULTS')).toEqual({ parent: 'I', last: 4 });
    expect(sectionKey('Overview')).toBeNull();
  });
});

const B = (text: string): StyledLine => ({ text, bold: true });

describe('appendix numbering in a layout tree', () => {
  it('nests A.1 and A.2 under their appendix, beside the numbered sections, and drops continued titles', async () => {
    const pages = [
      [{ text: 'On Widgets', size: 20, bold: true }, ...prose('Abstract'), B('1 Introduction'), ...prose('Intro')],
      [B('2 Method'), ...prose('Method'), B('2.1 Setup'), ...prose('Setup')],
      [B('2.2 Training'), ...prose('Training'), B('3 Results'), ...prose('Results')],
      [B('Appendix A Proofs'), ...prose('Proofs'), B('A.1 Proof of Lemma 1'), ...prose('Lemma')],
      [B('A.2 Proof of Theorem 2'), ...prose('Theorem'), B('Appendix B Tables'), ...prose('Tables')],
      [B('Appendix B Tables (continued)'), ...prose('More tables')],
    ];
    const content = await pdfContent(pages);
    const { doc } = buildPdfTree(content, { docId: 'paper' });
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    expect(shape(doc.nodes).map((n) => [n[0], (n[2] ?? []).map((c) => c[0])])).toEqual([
      ['Front matter', []],
      ['1 Introduction', []],
      ['2 Method', ['2.1 Setup', '2.2 Training']],
      ['3 Results', []],
      ['Appendix A Proofs', ['A.1 Proof of Lemma 1', 'A.2 Proof of Theorem 2']],
      ['Appendix B Tables', []],
    ]);
  });
});
