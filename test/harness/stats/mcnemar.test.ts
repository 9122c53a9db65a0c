import { describe, it, expect } from 'vitest';
import { mcnemarExact } from '../../../harness/stats/mcnemar.ts';
import { binomTest } from '../../../harness/stats/binomial.ts';

function pairs(bothCorrect: number, aOnly: number, bOnly: number, bothWrong: number): Array<[boolean, boolean]> {
  return [
    ...Array.from({ length: bothCorrect }, () => [true, true] as [boolean, boolean]),
    ...Array.from({ length: aOnly }, () => [true, false] as [boolean, boolean]),
    ...Array.from({ length: bOnly }, () => [false, true] as [boolean, boolean]),
    ...Array.from({ length: bothWrong }, () => [false, false] as [boolean, boolean]),
  ];
}

describe('mcnemarExact', () => {
  it('counts the 2x2 table and reports wins/losses from B’s side', () => {
    const r = mcnemarExact(pairs(20, 3, 10, 7));
    expect(r).toMatchObject({ b: 3, c: 10, n: 13, wins: 10, losses: 3, ties: 27, bothCorrect: 20, bothWrong: 7 });
    expect(r.p).toBe(binomTest(3, 13, 0.5));
  });

  it('hand-computed p-values', () => {
    // b = 0, c = 5: 2 * (1/2)^5
    expect(mcnemarExact(pairs(4, 0, 5, 1)).p).toBeCloseTo(0.0625, 15);
    // b = 3, c = 7 (n = 10): 2 * (1 + 10 + 45 + 120) / 1024 = 0.34375
    expect(mcnemarExact(pairs(0, 3, 7, 0)).p).toBeCloseTo(0.34375, 15);
    // b = c: p = 1
    expect(mcnemarExact(pairs(5, 4, 4, 5)).p).toBe(1);
  });

  it('p = 1 when there are no discordant pairs (including empty input)', () => {
    expect(mcnemarExact(pairs(10, 0, 0, 3))).toMatchObject({ b: 0, c: 0, n: 0, p: 1, ties: 13 });
    expect(mcnemarExact([])).toMatchObject({ n: 0, p: 1, wins: 0, losses: 0, ties: 0 });
  });

  it('is symmetric in A and B', () => {
    const r1 = mcnemarExact(pairs(30, 12, 25, 8));
    const r2 = mcnemarExact(pairs(30, 25, 12, 8));
    expect(r1.p).toBe(r2.p);
    expect(r1.wins).toBe(r2.losses);
  });

  it('names a malformed pair', () => {
    const bad = [[true, true], [true, 1]] as unknown as Array<[boolean, boolean]>;
    expect(() => mcnemarExact(bad)).toThrow(/pairs\[1\] must be \[boolean, boolean\]/);
  });
});
