// How much of the baseline a comparison covers. A paired test can only judge the questions both
// runs answered; a candidate that skipped most of them, stopped half way, or answered with errors
// or budget-exhausted records is not "the same" on the rest. `compare` reports these numbers and
// `gate` turns them into its coverage rule (gate/evaluate.ts).
import type { RunManifest } from '../../run/store.ts';
import { recordFailed } from '../../scoring/recordFailed.ts';
import type { RunRecord } from '../../types.ts';

/** One strategy's coverage of the baseline by the candidate. */
export interface Coverage {
  /** Distinct questions each side has a record for. */
  baselineQuestions: number;
  candidateQuestions: number;
  /** Questions both sides answered: the only ones a paired test looks at. */
  paired: number;
  /** Baseline question ids with no candidate record, in natural order (q2 before q10). */
  missing: string[];
  /** Candidate question ids the baseline does not have (left out, not a failure). */
  extra: string[];
  /** Records on the paired questions (repeats count once each). */
  records: { baseline: number; candidate: number };
  /** Records on the paired questions that ended in an error (or were never scored). */
  errors: { baseline: number; candidate: number };
  /** Records on the paired questions that stopped because a budget ran out. */
  budgetExhausted: { baseline: number; candidate: number };
  /**
   * Candidate records on the paired questions that ended in an error (or ran out of budget) where
   * the baseline's record of the same question and repeat did not: a candidate that fixes three
   * of the baseline's errors and fails three other questions has three new errors, not none.
   */
  fresh: { errors: number; budgetExhausted: number };
}

/** Whether a run finished, and how many of the records it set out to write it holds. */
export interface Completeness {
  finished: boolean;
  records: number;
  /** questions × strategies × repeats from the manifest; null when the manifest does not say. */
  expected: number | null;
}

// Records come in completion order; messages list ids the way people number them (q2 before q10).
const byId = (x: string, y: string) => x.localeCompare(y, 'en', { numeric: true });

const questionsOf = (records: readonly RunRecord[]): string[] => [...new Set(records.map((r) => r.questionId))];

export function coverageOf(a: readonly RunRecord[], b: readonly RunRecord[]): Coverage {
  const qa = questionsOf(a);
  const qb = questionsOf(b);
  const inA = new Set(qa);
  const inB = new Set(qb);
  const pairedA = a.filter((r) => inB.has(r.questionId));
  const pairedB = b.filter((r) => inA.has(r.questionId));
  const count = (rs: readonly RunRecord[], f: (r: RunRecord) => boolean) => rs.reduce((n, r) => n + (f(r) ? 1 : 0), 0);
  const exhausted = (r: RunRecord) => r.budgetExhausted !== null && r.budgetExhausted !== undefined;
  return {
    baselineQuestions: qa.length,
    candidateQuestions: qb.length,
    paired: qa.filter((q) => inB.has(q)).length,
    missing: qa.filter((q) => !inB.has(q)).sort(byId),
    extra: qb.filter((q) => !inA.has(q)).sort(byId),
    records: { baseline: pairedA.length, candidate: pairedB.length },
    errors: { baseline: count(pairedA, recordFailed), candidate: count(pairedB, recordFailed) },
    budgetExhausted: { baseline: count(pairedA, exhausted), candidate: count(pairedB, exhausted) },
    fresh: { errors: freshCount(pairedA, pairedB, recordFailed), budgetExhausted: freshCount(pairedA, pairedB, exhausted) },
  };
}

/** Candidate records for which `f` holds where the baseline's record of the same question and repeat (if any) does not. */
function freshCount(a: readonly RunRecord[], b: readonly RunRecord[], f: (r: RunRecord) => boolean): number {
  const base = new Map(a.map((r) => [`${r.questionId}\u0000${r.repeat}`, f(r)]));
  return b.reduce((n, r) => n + (f(r) && !base.get(`${r.questionId}\u0000${r.repeat}`) ? 1 : 0), 0);
}

export function completenessOf(manifest: Pick<RunManifest, 'finishedAt' | 'questionIds' | 'strategies' | 'repeats'>, records: readonly RunRecord[]): Completeness {
  const q = manifest.questionIds?.length ?? 0;
  const s = manifest.strategies?.length ?? 0;
  const expected = q > 0 && s > 0 ? q * s * Math.max(1, manifest.repeats ?? 1) : null;
  return { finished: Boolean(manifest.finishedAt), records: records.length, expected };
}

/** "q7, q8, q9, … (+67 more)": the first few ids of a list, for messages. */
export function someIds(ids: readonly string[], shown = 5): string {
  if (ids.length <= shown) return ids.join(', ');
  return `${ids.slice(0, shown).join(', ')}, … (+${ids.length - shown} more)`;
}

/** One line for reports: "5 of 75 questions of A paired (6.7%; 70 missing from B: q6, …); error records 0 → 2". */
export function coverageText(c: Coverage, names: [string, string] = ['the baseline', 'the candidate']): string {
  const [na, nb] = names;
  let head = `${c.paired} of ${c.baselineQuestions} questions of ${na} paired`;
  if (c.missing.length) head += ` (${((c.paired / Math.max(1, c.baselineQuestions)) * 100).toFixed(1)}%; ${c.missing.length} missing from ${nb}: ${someIds(c.missing)})`;
  const parts = [head];
  if (c.extra.length) parts.push(`${c.extra.length} questions of ${nb} not in ${na} (left out)`);
  if (c.errors.baseline || c.errors.candidate) parts.push(`error records ${c.errors.baseline} → ${c.errors.candidate}`);
  if (c.budgetExhausted.baseline || c.budgetExhausted.candidate) parts.push(`budget-exhausted records ${c.budgetExhausted.baseline} → ${c.budgetExhausted.candidate}`);
  return parts.join('; ');
}
