/**
 * Exact McNemar test for paired correct/incorrect outcomes of two systems A and B on the
 * same questions. Only discordant pairs carry information: under H0 (equal accuracy) each
 * discordant pair is equally likely to favour A or B, so b ~ Binomial(b + c, 1/2).
 */
import { binomTest } from './binomial.ts';

export interface McNemarResult {
  /** Discordant pairs with A correct and B wrong. */
  b: number;
  /** Discordant pairs with A wrong and B correct. */
  c: number;
  /** Number of discordant pairs, b + c. */
  n: number;
  /** Exact two-sided p-value: binomTest(b, b + c, 0.5); 1 when there are no discordant pairs. */
  p: number;
  /** From B's point of view (B is the candidate compared against baseline A): wins = c. */
  wins: number;
  /** Concordant pairs (both correct or both wrong). */
  ties: number;
  /** From B's point of view: losses = b. */
  losses: number;
  bothCorrect: number;
  bothWrong: number;
}

/**
 * pairs[i] = [A correct on question i, B correct on question i].
 * Throws if an element is not a pair of booleans (names the index).
 */
export function mcnemarExact(pairs: ReadonlyArray<readonly [boolean, boolean]>): McNemarResult {
  if (!Array.isArray(pairs)) throw new TypeError('mcnemarExact: pairs must be an array of [boolean, boolean]');
  let b = 0;
  let c = 0;
  let bothCorrect = 0;
  let bothWrong = 0;
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i];
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'boolean' || typeof pair[1] !== 'boolean') {
      throw new TypeError(`mcnemarExact: pairs[${i}] must be [boolean, boolean] (got ${JSON.stringify(pair)})`);
    }
    const [aOk, bOk] = pair;
    if (aOk && bOk) bothCorrect++;
    else if (aOk) b++;
    else if (bOk) c++;
    else bothWrong++;
  }
  const n = b + c;
  const p = n === 0 ? 1 : binomTest(b, n, 0.5, 'two-sided');
  return { b, c, n, p, wins: c, ties: bothCorrect + bothWrong, losses: b, bothCorrect, bothWrong };
}
