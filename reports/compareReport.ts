// What `treebench compare` hands to its renderers: the two sides, notes, and the paired result,
// and the formats it renders to. A module of its own so that the renderers (compare.ts and
// html/compare.ts) import it and not each other, and so the CLI can offer the formats without
// loading a renderer.
export type { CompareReport, RunLabel } from '../harness/analysis/compare/build.ts';

export const COMPARE_FORMATS = ['table', 'md', 'json', 'html'] as const;
export type CompareFormat = (typeof COMPARE_FORMATS)[number];
