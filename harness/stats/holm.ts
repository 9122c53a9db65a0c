/**
 * Holm–Bonferroni step-down adjustment (Holm 1979) for a family of m tests, e.g. comparing
 * one baseline against several strategies. Controls the family-wise error rate at the chosen
 * level under any dependence between the tests, and is uniformly more powerful than plain
 * Bonferroni.
 *
 * With p-values sorted ascending p_(1) <= ... <= p_(m):
 *   adj_(i) = min(1, max_{j <= i} (m - j + 1) p_(j))
 * (the running max keeps the adjusted values monotone in the raw ones), returned in the input
 * order. Reject H_i at level alpha iff adjusted[i] <= alpha. Same as R p.adjust(p, "holm").
 */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  for (let i = 0; i < m; i++) {
    const p = pValues[i];
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) {
      throw new RangeError(`holm: pValues[${i}] must be a probability in [0, 1] (got ${String(p)})`);
    }
  }
  // Stable sort of indices by p-value; ties keep input order (their adjusted values are equal anyway).
  const order = Array.from({ length: m }, (_, i) => i).sort((x, y) => pValues[x] - pValues[y] || x - y);
  const adjusted = new Array<number>(m);
  let running = 0;
  for (let rank = 0; rank < m; rank++) {
    const i = order[rank];
    running = Math.max(running, Math.min(1, (m - rank) * pValues[i]));
    adjusted[i] = running;
  }
  return adjusted;
}
