// What `treebench compare` hands to its renderers: the two sides, notes, and the paired result,
// and the formats it renders to. A module of its own so that the renderers (compare.ts and
// html/compare.ts) import it and not each other, and so the CLI can offer the formats without
// loading a renderer.
import type { ComparisonResult } from '../harness/analysis/compare/paired.ts';

export interface RunLabel {
  /** What the user named (folder or baseline name). */
  ref: string;
  runId: string;
  dataset: string;
  model: string;
  offline: boolean;
  priced: boolean;
}

export interface CompareReport {
  /** Two runs, or strategies inside one run against a baseline strategy. */
  mode: 'runs' | 'within';
  baseline: RunLabel;
  candidate: RunLabel;
  /** Differences between the runs that do not stop the comparison. */
  notes: string[];
  /** Reasons to refuse that --force overrode. */
  forced: string[];
  result: ComparisonResult;
}

export const COMPARE_FORMATS = ['table', 'md', 'json', 'html'] as const;
export type CompareFormat = (typeof COMPARE_FORMATS)[number];
