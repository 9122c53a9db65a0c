// The rule judge's verdict of a record, as every summary counts it: 1 or 0, or null when the
// rule cannot grade the question (every gold long or procedural; answer.ts). A failed record
// counts 0 where the rule can grade; whether it can is read from its scores (the runner scores
// failed records too), else from its gold answers.
import type { RunRecord } from '../types.ts';
import { ungradableReason } from './answer.ts';
import { recordFailed } from './recordFailed.ts';

export function ruleVerdict(r: RunRecord): number | null {
  if (r.scores) {
    if (r.scores.correct === null || r.scores.correct === undefined) return null;
    return recordFailed(r) ? 0 : r.scores.correct;
  }
  return ungradableReason({ question: r.question, answers: r.gold ?? [] }) ? null : 0;
}
