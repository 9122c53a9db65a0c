// docSelect: metadata — the document table's company, period and type matched against the
// question, checked against what a careful reader takes the question to name, with counter-examples.
import { describe, expect, it } from 'vitest';
import { mentionedTypes, mentionedYears, metadataScores } from '../../strategies/shared/docMetadata.ts';
import { reciprocalRankFusion } from '../../strategies/shared/docSelect.ts';
import type { DocTree } from '../../harness/types.ts';

const doc = (docId: string, company: string, period: string, type: string): DocTree => ({ docId, title: docId, nodes: [], metadata: { company, period, type } });
const docs = [
  doc('BESTBUY_2023_10K', 'Best Buy', '2023', '10k'),
  doc('BESTBUY_2024Q2_10Q', 'Best Buy', '2024', '10q'),
  doc('JNJ_2023_8K', 'Johnson & Johnson', '2023', '8k'),
  doc('MGM_2022_EARNINGS', 'MGM Resorts', '2022', 'Earnings'),
  doc('AMCOR_2023_10K', 'AMCOR', '2023', '10k'),
  doc('3M_2018_10K', '3M', '2018', '10k'),
  { docId: 'NO_METADATA', title: 'Best Buy 2023', nodes: [] },
];
const top = (q: string) => metadataScores(q, docs).map((d) => d.docId);

describe('document metadata matching', () => {
  it('reads the years a question names, however it writes them', () => {
    expect(mentionedYears('What is the FY2018 capital expenditure?')).toEqual([2018]);
    expect(mentionedYears('quick ratio for FY22 vs FY 21')).toEqual([2021, 2022]);
    expect(mentionedYears("As of Q2'2023, and in Q22023")).toEqual([2023]);
    expect(mentionedYears('between fiscal year 2021 and 2022')).toEqual([2021, 2022]);
    expect(mentionedYears('sales of 12,345 units and 3M revenue')).toEqual([]);
  });

  it('reads the kind of filing', () => {
    expect([...mentionedTypes('per its 10-K')]).toEqual(['10k']);
    expect([...mentionedTypes('during Q2 of FY2024')]).toEqual(['10q']);
    expect([...mentionedTypes('the 8-K dated August 30')]).toEqual(['8k']);
    expect([...mentionedTypes('What was revenue in FY2022?')]).toEqual([]);
  });

  it('names the company in full, as initials, or by a distinctive first word written as a name', () => {
    expect(top('Which business segment of JnJ will be a discontinued operation?')[0]).toBe('JNJ_2023_8K');
    expect(top('What did J&J gain from the separation?')[0]).toBe('JNJ_2023_8K');
    expect(top('Which region had the highest EBITDAR for MGM during FY2022?')[0]).toBe('MGM_2022_EARNINGS');
    expect(top("Has AMCOR's quick ratio improved between FY2023 and FY2022?")[0]).toBe('AMCOR_2023_10K');
    expect(top('What is the FY2018 capital expenditure amount for 3M?')[0]).toBe('3M_2018_10K');
    // The period and the kind tell two filings of one company apart.
    expect(top('Which Best Buy product category performed best during Q2 of FY2024?')[0]).toBe('BESTBUY_2024Q2_10Q');
    expect(top("Are Best Buy's gross margins consistent in FY2023?")[0]).toBe('BESTBUY_2023_10K');
    // A document without metadata is never ranked by this channel.
    expect(top('Best Buy 2023')).not.toContain('NO_METADATA');
  });

  it('counter-examples: common words, other companies and bare numbers name nothing', () => {
    // "the best" is not Best Buy, "johnson" in lower case inside a word is not J&J.
    expect(top('Which product performed the best?')).toEqual([]);
    expect(top('What is the johnsonite content of the ore?')).toEqual([]);
    // A company the table does not hold: only a year may match, never a company.
    expect(metadataScores('What was Netflix revenue in FY2015?', docs).every((d) => !d.matched.some((m) => m.startsWith('company')))).toBe(true);
  });

  it('fuses rankings by reciprocal rank (k = 60), shared ranks allowed, ties in corpus order', () => {
    const fused = reciprocalRankFusion(
      [
        [
          { docId: 'a', rank: 1 },
          { docId: 'b', rank: 1 },
        ],
        [
          { docId: 'b', rank: 1 },
          { docId: 'c', rank: 2 },
        ],
      ],
      ['a', 'b', 'c'],
    );
    expect(fused.map((d) => d.docId)).toEqual(['b', 'a', 'c']);
    expect(fused[0]!.score).toBeCloseTo(2 / 61, 12);
    expect(fused[1]!.score).toBeCloseTo(1 / 61, 12);
    expect(fused[2]!.score).toBeCloseTo(1 / 62, 12);
  });
});
