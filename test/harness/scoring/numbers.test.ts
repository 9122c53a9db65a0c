import { describe, expect, it } from 'vitest';
import { findDates, mainNumber, parseNumbers } from '../../../harness/scoring/numbers.ts';

const one = (text: string) => {
  const all = parseNumbers(text);
  expect(all).toHaveLength(1);
  return all[0]!;
};

describe('parseNumbers', () => {
  it('reads currency, thousands separators and decimals', () => {
    expect(one('$1,577.00')).toMatchObject({ value: 1577, scaled: 1577, magnitude: 1, currency: '$', percent: false });
    expect(one('USD 1,234.5')).toMatchObject({ value: 1234.5, currency: 'USD' });
    expect(one('.5')).toMatchObject({ value: 0.5 });
  });

  it('reads accounting negatives and minus signs, not hyphens', () => {
    expect(one('(1,234)').value).toBe(-1234);
    expect(one('$(1,234)').value).toBe(-1234);
    expect(one('($1,234)').value).toBe(-1234);
    expect(one('-$5').value).toBe(-5);
    expect(one('−14.76%')).toMatchObject({ value: -14.76, percent: true });
    expect(one('COVID-19').value).toBe(19);
    expect(parseNumbers('2023-01-28').map((n) => n.value)).toEqual([2023, 1, 28]);
    expect(one('(see page 12)').value).toBe(12);
  });

  it('scales by magnitude words, and by abbreviations only after a currency', () => {
    expect(one('1.2 billion').scaled).toBe(1.2e9);
    expect(one('450 million')).toMatchObject({ value: 450, magnitude: 1e6, scaled: 450e6 });
    expect(one('3 thousands').scaled).toBe(3000);
    expect(one('$3.7B').scaled).toBeCloseTo(3.7e9, 3);
    expect(one('$1.8 bn').scaled).toBeCloseTo(1.8e9, 3);
    expect(one('$5mm').scaled).toBe(5e6);
    expect(one('$450M.').scaled).toBe(450e6);
    expect(one('250 MB')).toMatchObject({ scaled: 250, unit: 'mb' });
    expect(one('3 m').scaled).toBe(3);
    expect(one('$5 MB').scaled).toBe(5);
  });

  it('reads percentages and units', () => {
    expect(one('24.5%')).toMatchObject({ value: 24.5, percent: true, unit: null });
    expect(one('24.5 percent').percent).toBe(true);
    expect(one('24.5 per cent').percent).toBe(true);
    expect(one('14 days')).toMatchObject({ value: 14, unit: 'days' });
  });

  it('skips numbers glued to a name', () => {
    expect(parseNumbers('FY2022 Q2 S10 EC2')).toEqual([]);
    expect(parseNumbers('Q2 FY 2023').map((n) => [n.value, n.yearLike])).toEqual([[2023, true]]);
  });
});

describe('mainNumber', () => {
  it('is the first number that is not a bare year, else the first', () => {
    expect(mainNumber('In 2022, revenue was $5.4B')!.scaled).toBeCloseTo(5.4e9, 3);
    expect(mainNumber('2022')!.value).toBe(2022);
    expect(mainNumber('In $2022 million')!.value).toBe(2022);
    expect(mainNumber('Paris')).toBeNull();
  });
});

describe('parseNumbers and findDates remember the last few texts', () => {
  it('gives the same answer read again, after other texts and after the memory is cleared', () => {
    const text = 'Revenue fell 5% to $1.2 billion on December 31, 2017 (page 5).';
    const first = structuredClone(parseNumbers(text));
    const dates = structuredClone(findDates(text));
    expect(first.map((n) => [n.value, n.role])).toEqual([
      [5, null],
      [1.2, null],
      [31, 'date'],
      [2017, 'date'],
      [5, 'label'],
    ]);
    expect(parseNumbers(text)).toEqual(first);
    // Far more texts than it keeps, then the first again: computed afresh, equal.
    for (let i = 0; i < 100; i++) parseNumbers(`${i} days on March ${1 + (i % 28)}, 2020`);
    expect(parseNumbers(text)).toEqual(first);
    expect(findDates(text)).toEqual(dates);
    // Numbers written as words are read; dates written as words are not.
    expect(parseNumbers('fourteen days, the end of December').map((n) => [n.value, n.unit, n.word])).toEqual([[14, 'days', true]]);
    expect(parseNumbers('the end of December')).toEqual([]);
    expect(findDates('December the thirty-first')).toEqual([]);
  });
});
