import { describe, expect, it } from 'vitest';
import type { DocTree } from '../../harness/types.ts';
import { approxTokens, extractiveSummary, splitSentences } from '../../harness/text/extractive.ts';
import { addExtractiveSummaries, summarySourceText } from '../../datasets/summaries.ts';

// A section a careful reader would sum up as "revenue grew because of cloud subscriptions":
// the central sentences share its vocabulary; the table rows and the boilerplate do not.
const SECTION = [
  'Revenue increased 12% in fiscal 2023, driven by growth in cloud subscription revenue.',
  'Cloud subscription revenue grew 24% as enterprise customers renewed and expanded subscriptions.',
  'Product revenue  2023  2022  2021',
  'Cloud  1,204  971  802',
  'Licenses  310  355  390',
  'See Note 4 for details.',
  'The Company also completed the relocation of its headquarters during the year.',
  'Growth in cloud subscription revenue is expected to continue as customers move workloads to the cloud.',
].join('\n');

describe('extractive summaries', () => {
  it('picks the central sentences, in document order, and never a table row', () => {
    const s = extractiveSummary(SECTION, { maxTokens: 45 });
    expect(s).toContain('cloud subscription');
    expect(s).not.toMatch(/1,204|2021/);
    expect(s).not.toContain('headquarters'); // the off-topic sentence is the least central
    expect(approxTokens(s)).toBeLessThanOrEqual(45);
    // order preserved: every chosen sentence appears in the text in the order the summary has them
    const parts = splitSentences(s);
    const positions = parts.map((p) => SECTION.indexOf(p));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('returns a short text whole, an empty text as empty, and counts a repeated sentence once', () => {
    expect(extractiveSummary('Battery care.\nCharge to 80%.', { maxTokens: 60 })).toBe('Battery care. Charge to 80%.');
    expect(extractiveSummary('   \n ', { maxTokens: 60 })).toBe('');
    const repeated = Array.from({ length: 12 }, () => 'New York Stock Exchange listing of common shares.').join('\n') + '\nThe annual report covers operations in fiscal 2018 and the outlook.';
    const s = extractiveSummary(repeated, { maxTokens: 30 });
    expect(s.match(/New York Stock Exchange/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });

  it('clips a single over-long sentence at a word boundary rather than returning nothing', () => {
    const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ') + '.';
    const s = extractiveSummary(long + ' ' + long.replace(/word/g, 'term'), { maxTokens: 20 });
    expect(s.length).toBeGreaterThan(0);
    expect(approxTokens(s)).toBeLessThanOrEqual(22);
  });

  it('summarises a heading with no text of its own from its whole span, and keeps given summaries', () => {
    const doc: DocTree = {
      docId: 'd',
      title: 'D',
      pages: ['PART I', 'Item 1. Business. The company designs and sells widgets to industrial customers worldwide. Widgets are sold through distributors and online stores in forty countries.', 'Item 1A. Risk factors. Demand for widgets depends on industrial output.'],
      nodes: [
        {
          id: '1',
          title: 'PART I',
          pages: [1, 3],
          children: [
            { id: '2', title: 'Item 1. Business', pages: [2, 2], children: [] },
            { id: '3', title: 'Item 1A. Risk Factors', pages: [3, 3], summary: 'Given summary.', children: [] },
          ],
        },
      ],
    };
    expect(summarySourceText(doc, doc.nodes[0])).toContain('widgets');
    expect(addExtractiveSummaries(doc, { maxTokens: 40 })).toBe(2);
    expect(doc.nodes[0].summary).toMatch(/widgets/);
    expect(doc.nodes[0].children[1].summary).toBe('Given summary.');
    expect(doc.summaries).toBe('extractive');
  });
});

describe('summarySourceText on a heading without text of its own', () => {
  it('is the first maxChars characters of the whole span, however the bound falls', () => {
    const leaf = (t: string) => ({ id: t, title: t, text: t, children: [] });
    const node = { id: 'r', title: 'r', children: [leaf('a'.repeat(9)), leaf('b'.repeat(9)), leaf('c'.repeat(9))] };
    const full = ['a'.repeat(9), 'b'.repeat(9), 'c'.repeat(9)].join('\n');
    for (let m = 1; m <= full.length + 2; m++) {
      expect(summarySourceText({ docId: 'd', title: 'd', nodes: [node] } as never, node as never, m)).toBe(full.slice(0, m));
    }
  });
});
