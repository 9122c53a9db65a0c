// Cohen's kappa for two raters with binary verdicts (Cohen, 1960):
//   po = observed agreement, pe = Σ_c p_rater1(c) · p_rater2(c), κ = (po − pe) / (1 − pe).
// κ is undefined (NaN) when pe = 1 (both raters gave one and the same verdict to every item).
// The interval is a seeded percentile bootstrap over items (pairs resampled together).
import { bootstrapCI } from './bootstrap.ts';

export interface KappaResult {
  kappa: number;
  lo: number;
  hi: number;
  /** Observed agreement po. */
  agree: number;
  n: number;
}

/** κ of pairs encoded as 2·a + b (a, b ∈ {0, 1}); reads only the first `n` values. */
function kappaOfCodes(codes: ArrayLike<number>): number {
  const n = codes.length;
  if (n === 0) return NaN;
  let a1 = 0;
  let b1 = 0;
  let agree = 0;
  for (let i = 0; i < n; i++) {
    const c = codes[i]!;
    const a = c >= 2 ? 1 : 0;
    const b = c & 1;
    a1 += a;
    b1 += b;
    if (a === b) agree += 1;
  }
  const po = agree / n;
  const pa = a1 / n;
  const pb = b1 / n;
  const pe = pa * pb + (1 - pa) * (1 - pb);
  if (pe >= 1) return NaN;
  return (po - pe) / (1 - pe);
}

/** Cohen's κ of two 0/1 verdict lists of equal length, with a percentile-bootstrap interval. */
export function cohensKappa(a: readonly number[], b: readonly number[], opts: { resamples?: number; seed?: number; alpha?: number } = {}): KappaResult {
  if (a.length !== b.length) throw new RangeError(`cohensKappa: lists differ in length (${a.length} vs ${b.length})`);
  const codes = a.map((x, i) => 2 * (x ? 1 : 0) + (b[i] ? 1 : 0));
  const kappa = kappaOfCodes(codes);
  const agree = codes.length ? codes.filter((c) => c === 0 || c === 3).length / codes.length : NaN;
  if (!Number.isFinite(kappa)) return { kappa, lo: NaN, hi: NaN, agree, n: codes.length };
  // A replicate in which both raters happen to be constant has no κ (0/0). It is scored by its
  // agreement alone, 2·po − 1 (1 when they agree on everything, −1 when on nothing), the value
  // κ takes for balanced marginals; such replicates occur only in tiny or extreme samples.
  const stat = (x: Float64Array) => {
    const k = kappaOfCodes(x);
    return Number.isFinite(k) ? k : 2 * (x.filter((c) => c === 0 || c === 3).length / x.length) - 1;
  };
  const ci = bootstrapCI(codes, { stat, resamples: opts.resamples ?? 2000, seed: opts.seed ?? 0, alpha: opts.alpha ?? 0.05 });
  return { kappa, lo: ci.lo, hi: ci.hi, agree, n: codes.length };
}
