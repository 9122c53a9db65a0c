/**
 * treebench statistics: confidence intervals and paired comparisons between runs.
 * Pure functions, no I/O; every randomised procedure takes an explicit seed.
 */
export type { Interval } from './types.ts';
export { createRng, Xoshiro128 } from './rng.ts';
export type { Rng } from './rng.ts';
export { mean, summaryStats, quantileSorted } from './summary.ts';
export type { SummaryStats } from './summary.ts';
export { bootstrapCI, pairedBootstrapDiff } from './bootstrap.ts';
export type { BootstrapOptions, PairedBootstrapOptions, PairedDiff, Statistic } from './bootstrap.ts';
export { normalQuantile } from './normal.ts';
export { wilson } from './wilson.ts';
export { binomTest, binomialPmf, lnGamma, logChoose } from './binomial.ts';
export type { Alternative } from './binomial.ts';
export { mcnemarExact } from './mcnemar.ts';
export type { McNemarResult } from './mcnemar.ts';
export { pairedPermutation } from './permutation.ts';
export type { PermutationOptions, PermutationResult } from './permutation.ts';
export { holm } from './holm.ts';
