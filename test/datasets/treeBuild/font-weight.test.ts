import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import { fontWeight, heavierThanBody, nameWeight } from '../../../datasets/treeBuild/fontWeight.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { pdfContent, shape } from './build-helpers.ts';

describe('font weight from the font itself', () => {
  it('reads the weight vocabulary of font names, abbreviations included', () => {
    const cases: [string, number | null][] = [
      ['JDCLLT+NimbusRomNo9L-Medi', 500],
      ['NimbusRomNo9L-Regu', 400],
      ['BGCVPC+FranklinGothicLTPro-Dm', 600],
      ['FranklinGothicLTPro-DmIt', 600],
      ['FranklinGothicLTPro-CnMd', 500],
      ['FranklinGothicLTPro-CnBk', 400],
      ['MinionPro-Semibold', 600],
      ['MyriadPro-SemiboldIt', 600],
      ['Garamond-Semibd', 600],
      ['AvenirNext-DemiBold', 600],
      ['Avenir-Heavy', 800],
      ['HelveticaNeueLTStd-Blk', 900],
      ['ArialMTStd-BlackItalic', 900],
      ['TimesNewRomanPS-BoldMT', 700],
      ['Arial,Bold', 700],
      ['Arial,B', 700],
      ['HelveticaLTStd-Roman', 400], // "LT" in the family is no weight
      ['SegoeUI-Semilight', 350],
      ['GillSans-ExtraCondensedBold', 700],
      ['CMBX10', 700],
      ['CMSSBX10', 700],
      ['CMR10', null],
      ['ArialMT', null],
      ['Calibri', null],
    ];
    for (const [name, w] of cases) expect([name, nameWeight(name)]).toEqual([name, w]);
  });

  it('prefers the descriptor weight, then the name, then ForceBold, then stems wider than the body', () => {
    expect(fontWeight('F7', { fontWeight: 600 })).toBe(600);
    expect(fontWeight('F7', { flags: 32 | (1 << 18) })).toBe(700);
    expect(fontWeight('F7', { stemV: 150 }, 84)).toBe(700);
    expect(fontWeight('F7', { stemV: 90 }, 84)).toBe(400);
    expect(fontWeight('Foo-Medium', { stemV: 150 }, 84)).toBe(500);
  });

  it('says bold for a face heavier than the body font, not for the body itself', () => {
    const fonts = [{ name: 'Roboto-Medium' }, { name: 'Roboto-Bold' }, { name: 'Roboto-Regular' }];
    // a document set in Medium: its Medium lines are body text, its Bold lines bold
    expect(heavierThanBody(fonts, [1000, 50, 10]).bold).toEqual([false, true, false]);
    // set in Regular: Medium is heavier
    expect(heavierThanBody(fonts, [50, 50, 1000]).bold).toEqual([true, true, false]);
  });
});

const REGU = 'ABCDEE+NimbusRomNo9L-Regu';
const MEDI = 'ABCDEF+NimbusRomNo9L-Medi';
const body = (tag: string, n = 4): StyledLine[] =>
  Array.from({ length: n }, (_, i) => ({ text: `${tag} paragraph line ${i + 1} says something about the matter at hand in plain words`, font: REGU }));
const head = (text: string, font = MEDI): StyledLine => ({ text, font });

describe('medium-weight headings at body size', () => {
  it('finds numbered section headings set in a Medium face at the body size (a paper)', async () => {
    const pages = [
      [{ text: 'A Survey of Things', size: 18, font: MEDI }, ...body('Abstract'), head('1 Introduction'), ...body('Intro')],
      [head('2 Methods'), ...body('Methods'), head('2.1 Data Collection'), ...body('Data')],
      [head('2.2 Analysis'), ...body('Analysis'), head('3 Results'), ...body('Results')],
      [head('A Proofs'), ...body('Proofs'), head('A.1 Lemma One'), ...body('Lemma')],
    ];
    const content = await pdfContent(pages);
    expect(content.layout![1].lines[0]).toMatchObject({ text: '2 Methods', bold: true, weight: 500 });
    expect(content.layout![1].lines[1]).toMatchObject({ bold: false, weight: 400 });
    const { doc } = buildPdfTree(content, { docId: 'paper' });
    expect(treeInvariantErrors(doc.nodes, 4)).toEqual([]);
    const titles = shape(doc.nodes).map((n) => n[0]);
    expect(titles).toEqual(expect.arrayContaining(['1 Introduction', '2 Methods', '3 Results']));
    expect(shape(doc.nodes).find((n) => n[0] === '2 Methods')?.[2]?.map((c) => c[0])).toEqual(['2.1 Data Collection', '2.2 Analysis']);
  });

  it('takes the weight from the font descriptor when the name says nothing', async () => {
    const pages = [
      [{ text: 'Overview', font: 'F9' }, ...body('One', 3).map((l) => ({ ...l, font: 'F8' }))],
      [{ text: 'Results', font: 'F9' }, ...body('Two', 3).map((l) => ({ ...l, font: 'F8' }))],
    ];
    const content = await pdfContent(pages, undefined, { descriptors: { F8: { stemV: 80 }, F9: { stemV: 160 } } });
    expect(content.layout![0].lines[0]).toMatchObject({ text: 'Overview', bold: true, weight: 700 });
    expect(content.layout![0].lines[1]).toMatchObject({ bold: false });
    const forced = await pdfContent([[{ text: 'Overview', font: 'G2' }, ...body('One', 3)]], undefined, { descriptors: { G2: { flags: 32 + 262144 } } });
    expect(forced.layout![0].lines[0]).toMatchObject({ bold: true, weight: 700 });
  });

  it('resolves fonts on every page, also when each page loads its own font objects', async () => {
    const pages = Array.from({ length: 30 }, (_, i) => [{ text: `Section ${String.fromCharCode(65 + (i % 26))}${i}`, bold: true }, ...body(`P${i}`, 3).map((l) => ({ text: l.text }))]);
    const content = await pdfContent(pages, undefined, { fontsPerPage: true });
    const bold = content.layout!.map((p) => p.lines[0].bold);
    expect(bold).toEqual(pages.map(() => true));
    expect(content.layout![29].lines[0].font).toBe('Helvetica-Bold');
  });
});
