// Cohen's kappa for two raters with binary verdicts (Cohen, 1960):
//   po = observed agreement, pe = Σ_c p_rater1(c) · p_rater2(c), κ = (po − pe) / (1 − pe).
// κ is undefined (NaN) when pe = 1 (both raters gave one and the same verdict to every item).
// The interval is a seeded percentile bootstrap. Items that are not independent (the repeats of
// one question) are resampled together: `clusters` names each item's cluster, and a replicate
// draws clusters with replacement, each bringing all its items — the question-cluster bootstrap
// every other interval of a run uses (harness/summary/intervals.ts). Without clusters every item
// is its own.
import { Xoshiro128 } from './rng.ts';
import { quantileSorted } from './summary.ts';

export interface KappaResult {
  kappa: number;
  lo: number;
  hi: number;
  /** Observed agreement po. */
  agree: number;
  n: number;
  /** Independent units the interval resampled (questions), when they are fewer than the items. */
  clusters?: number;
}

export interface KappaOptions {
  /** Bootstrap replicates; default 10,000 (the run's intervals use the same). */
  resamples?: number;
  seed?: number;
  alpha?: number;
  /** The cluster of each item (e.g. its question); items of one cluster are resampled together. */
  clusters?: ArrayLike<string | number>;
}

/** κ from totals: n items, a1 / b1 rated 1 by each rater, `agree` rated alike. */
function kappaOf(n: number, a1: number, b1: number, agree: number): number {
  if (n === 0) return NaN;
  const po = agree / n;
  const pa = a1 / n;
  const pb = b1 / n;
  const pe = pa * pb + (1 - pa) * (1 - pb);
  if (pe >= 1) return NaN;
  return (po - pe) / (1 - pe);
}

/** Cohen's κ of two 0/1 verdict lists of equal length, with a percentile-bootstrap interval. */
export function cohensKappa(a: readonly number[], b: readonly number[], opts: KappaOptions = {}): KappaResult {
  if (a.length !== b.length) throw new RangeError(`cohensKappa: lists differ in length (${a.length} vs ${b.length})`);
  if (opts.clusters && opts.clusters.length !== a.length) throw new RangeError(`cohensKappa: ${opts.clusters.length} cluster ids for ${a.length} items`);
  const n = a.length;
  // Per cluster: items, rater-A ones, rater-B ones, agreements.
  const index = new Map<string | number, number>();
  const owner = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const id = opts.clusters ? opts.clusters[i]! : i;
    let c = index.get(id);
    if (c === undefined) index.set(id, (c = index.size));
    owner[i] = c;
  }
  const k = index.size;
  const size = new Float64Array(k);
  const ones = new Float64Array(k);
  const onesB = new Float64Array(k);
  const same = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    const x = a[i] ? 1 : 0;
    const y = b[i] ? 1 : 0;
    const c = owner[i]!;
    size[c] += 1;
    ones[c] += x;
    onesB[c] += y;
    if (x === y) same[c] += 1;
  }
  const total = (w: Float64Array, m: Float64Array | null) => {
    let s = 0;
    for (let j = 0; j < k; j++) s += (m ? m[j]! : 1) * w[j]!;
    return s;
  };
  const agreeN = total(same, null);
  const kappa = kappaOf(n, total(ones, null), total(onesB, null), agreeN);
  const agree = n ? agreeN / n : NaN;
  const clusters = k < n ? { clusters: k } : {};
  if (!Number.isFinite(kappa)) return { kappa, lo: NaN, hi: NaN, agree, n, ...clusters };

  const resamples = opts.resamples ?? 10_000;
  const alpha = opts.alpha ?? 0.05;
  const rng = new Xoshiro128(opts.seed ?? 0);
  const mult = new Float64Array(k);
  const reps = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    mult.fill(0);
    for (let j = 0; j < k; j++) mult[rng.int(k)] += 1;
    const m = total(size, mult);
    const ag = total(same, mult);
    const v = kappaOf(m, total(ones, mult), total(onesB, mult), ag);
    // A replicate in which both raters happen to be constant has no κ (0/0). It is scored by its
    // agreement alone, 2·po − 1 (1 when they agree on everything, −1 when on nothing), the value
    // κ takes for balanced marginals; such replicates occur only in tiny or extreme samples.
    reps[r] = Number.isFinite(v) ? v : 2 * (ag / m) - 1;
  }
  reps.sort();
  return { kappa, lo: quantileSorted(reps, alpha / 2), hi: quantileSorted(reps, 1 - alpha / 2), agree, n, ...clusters };
}
