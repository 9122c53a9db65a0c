/**
 * Exact big-number reference for the binomial test, written independently of
 * harness/stats/binomial.ts: integer weights W_i = C(n, i) a^i (b - a)^(n - i) for p = a / b,
 * so P(X = i) = W_i / b^n exactly. Used only by the tests.
 */

/** All binomial weights W_0..W_n for p = a / b (BigInt, exact). */
export function binomialWeights(n: number, a: bigint, b: bigint): bigint[] {
  const q = b - a;
  const w: bigint[] = [];
  // C(n, i) by the exact recurrence C(n, i + 1) = C(n, i) (n - i) / (i + 1).
  let c = 1n;
  const powA: bigint[] = [1n];
  const powQ: bigint[] = [1n];
  for (let i = 1; i <= n; i++) {
    powA.push(powA[i - 1] * a);
    powQ.push(powQ[i - 1] * q);
  }
  for (let i = 0; i <= n; i++) {
    w.push(c * powA[i] * powQ[n - i]);
    c = (c * BigInt(n - i)) / BigInt(i + 1);
  }
  return w;
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** num / den as a double, with ~64 significant bits of quotient before the final rounding. */
export function ratioToNumber(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const shift = bitLength(den) - bitLength(num) + 64;
  const q = shift >= 0 ? (num << BigInt(shift)) / den : num / (den << BigInt(-shift));
  // Scale in two steps so 2^-shift itself never underflows before the product does.
  const half = Math.floor(shift / 2);
  return Number(q) * 2 ** -half * 2 ** -(shift - half);
}

/**
 * Two-sided exact binomial p-value straight from the definition: the total probability of
 * all outcomes i with P(X = i) <= P(X = k) (1 + 1e-7), capped at 1. Pass precomputed weights.
 */
export function exactTwoSided(k: number, weights: bigint[], den: bigint): number {
  const limit = weights[k] * 10_000_001n; // compare W_i * 1e7 <= W_k * (1e7 + 1)
  let sum = 0n;
  for (const w of weights) if (w * 10_000_000n <= limit) sum += w;
  return sum >= den ? 1 : ratioToNumber(sum, den);
}

/** One-sided reference: P(X <= k) ('less') or P(X >= k) ('greater'). */
export function exactOneSided(k: number, weights: bigint[], den: bigint, side: 'less' | 'greater'): number {
  let sum = 0n;
  for (let i = 0; i < weights.length; i++) if (side === 'less' ? i <= k : i >= k) sum += weights[i];
  return sum >= den ? 1 : ratioToNumber(sum, den);
}
