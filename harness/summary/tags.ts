// Accuracy and evidence recall per question tag (e.g. the sample's `signposted` vs `lexical`),
// so a report shows *where* one strategy beats another, not only by how much overall.
import type { RunRecord } from '../types.ts';
import { headlineRecall } from '../scoring/retrieval.ts';
import { ruleVerdict } from '../scoring/ruleVerdict.ts';

export interface TagCell {
  strategy: string;
  /** Records with this tag. */
  n: number;
  /** Rule accuracy over the `accuracyN` records it can grade; null when it can grade none. */
  accuracy: number | null;
  accuracyN: number;
  /** Mean evidence recall at the finest level the records have gold for; null when none has. */
  recall: number | null;
}

export interface TagSummary {
  tag: string;
  cells: TagCell[];
}

const recallOf = (r: RunRecord): number | null => headlineRecall(r.retrieval);

/** Rule accuracy over the records it can grade (null when it can grade none of them). */
function gradedAccuracy(rs: readonly RunRecord[]): { accuracy: number | null; accuracyN: number } {
  const v = rs.map(ruleVerdict).filter((x): x is number => x !== null);
  return { accuracy: v.length ? v.reduce((a, b) => a + b, 0) / v.length : rs.length ? null : 0, accuracyN: v.length };
}

/** One row per tag (sorted by name), one cell per strategy (in first-seen order). */
export function summarizeTags(records: readonly RunRecord[]): TagSummary[] {
  const strategies = [...new Set(records.map((r) => r.strategy))];
  const tags = [...new Set(records.flatMap((r) => r.tags ?? []))].sort();
  return tags.map((tag) => ({
    tag,
    cells: strategies.map((strategy) => {
      const rs = records.filter((r) => r.strategy === strategy && r.tags?.includes(tag));
      const recalls = rs.map(recallOf).filter((x): x is number => x !== null);
      return {
        strategy,
        n: rs.length,
        ...gradedAccuracy(rs),
        recall: recalls.length ? recalls.reduce((a, b) => a + b, 0) / recalls.length : null,
      };
    }),
  }));
}
