// Answer correctness: one metric, one small pure function (the ranx way), plus `scoreAnswer`,
// which fills a record's AnswerScores and picks the single verdict used for accuracy.
//
// ------------------------------------------------------------------------------------------
// How `correct` is decided (docs/scoring.md quotes this block)
//
//   1. Multiple choice (the question has `choices` and a `label`): correct = the chosen index
//      equals the label. When the strategy returned no index, the answer text is read as a
//      letter (`B`, `(b)`, `B) ...`) or as the exact text of one choice (SQuAD-normalized).
//   2. Otherwise each gold answer is judged by its own kind, and the prediction is correct
//      when any gold answer accepts it:
//      a. yes/no gold (yesNo.ts): decided by the question's form and the gold's meaning, not
//         its first word alone; the answer's yes/no word must agree, with negation ("not yes")
//         and abstention ("not stated", "cannot be determined") understood;
//      b. numeric gold (numericJudge.ts): a short quantity, a year or a date. The answer's
//         *claimed* value must match — unit, scale, currency and percent agreeing when both
//         state one, within `relTol` (1%); years and dates exactly; an answer that lists three
//         or more candidate values, or offers alternatives, claims none;
//      c. any other gold: normalized exact match, token F1 ≥ 0.5, or the normalized gold
//         contained in an answer of at most max(40, 4 × gold) tokens; an abstention never
//         matches a free-text gold.
//   The thresholds are options (`f1Threshold`, `shortAnswerWords`, `relTol`, `absTol`).
//   Exact match and F1 are always reported too, as the official SQuAD v1.1 script computes
//   them (maximum over gold answers).
// ------------------------------------------------------------------------------------------

import type { AnswerScores, Question } from '../types.ts';
import type { NumericTolerance } from './numbers.ts';
import { claimedValueMatch, numericGoldKind } from './numericJudge.ts';
import { goldPolarity, isAbstention, yesNoMatch } from './yesNo.ts';

import { answerTokens, normalizeAnswer } from './normalize.ts';

export { answerTokens, normalizeAnswer };

/** Official `metric_max_over_ground_truths`; with no gold answers the score is 0. */
function maxOverGolds(golds: readonly string[], f: (gold: string) => number): number {
  let best = 0;
  for (const g of golds) best = Math.max(best, f(g));
  return best;
}

export function exactMatchOne(pred: string, gold: string): number {
  return normalizeAnswer(pred) === normalizeAnswer(gold) ? 1 : 0;
}

/** 1 when the normalized prediction equals some normalized gold answer. */
export function exactMatch(pred: string, golds: readonly string[]): number {
  return maxOverGolds(golds, (g) => exactMatchOne(pred, g));
}

/** Official SQuAD v1.1 `f1_score` (bag-of-tokens overlap; 0 when nothing is shared, even if both are empty). */
export function tokenF1One(pred: string, gold: string): number {
  const p = answerTokens(pred);
  const g = answerTokens(gold);
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of p) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same += 1;
      counts.set(t, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Token F1, maximum over gold answers. */
export function tokenF1(pred: string, golds: readonly string[]): number {
  return maxOverGolds(golds, (g) => tokenF1One(pred, g));
}

// ---------------------------------------------------------------------------------------------
// Numeric (numericJudge.ts) and yes/no (yesNo.ts)

export { goldPolarity, predictionPolarity, yesNoMatch, isYesNoQuestion, isAbstention } from './yesNo.ts';

/** True when the gold is judged as a number (a short quantity, a year or a date; see numericJudge.ts). */
export function goldHasNumber(gold: string, shortAnswerWords = 6): boolean {
  return numericGoldKind(gold, shortAnswerWords) !== null;
}

/** 1 when the answer's claimed value matches a numeric gold, 0 when not, null when the gold is not numeric. */
export function numericMatchOne(pred: string, gold: string, tol: NumericTolerance = {}, shortAnswerWords = 6): number | null {
  return claimedValueMatch(pred, gold, tol, shortAnswerWords);
}

/** Numeric match over gold answers: null when no gold answer is numeric, else the maximum. */
export function numericMatch(pred: string, golds: readonly string[], tol: NumericTolerance = {}, shortAnswerWords = 6): number | null {
  return bestNumericVerdict(golds.map((g) => numericMatchOne(pred, g, tol, shortAnswerWords)));
}

/** The best of the golds' numeric verdicts (null: that gold is not numeric); null when none is. */
function bestNumericVerdict(verdicts: ReadonlyArray<number | null>): number | null {
  let result: number | null = null;
  for (const m of verdicts) if (m !== null) result = Math.max(result ?? 0, m);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Long golds and long answers

/** Answers longer than this many tokens, and than `CONTAIN_FACTOR` × the gold, are not read for containment. */
export const CONTAIN_MIN_TOKENS = 40;
export const CONTAIN_FACTOR = 4;

/**
 * 1 when the normalized gold appears, as whole tokens in order, inside the normalized answer and
 * the answer is not much longer than needed (at most max(40, 4 × gold) tokens): "Gestalt
 * psychology was conceived in the Berlin School" contains "Gestalt psychology"; a pasted page
 * that happens to contain it does not count.
 */
export function containsGold(pred: string, gold: string): number {
  const g = answerTokens(gold);
  const p = answerTokens(pred);
  if (g.length === 0 || p.length < g.length) return 0;
  if (p.length > Math.max(CONTAIN_MIN_TOKENS, CONTAIN_FACTOR * g.length)) return 0;
  const hay = ` ${p.join(' ')} `;
  return hay.includes(` ${g.join(' ')} `) ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Multiple choice

export function choiceMatch(predChoice: number | null | undefined, label: number): number {
  return predChoice !== null && predChoice !== undefined && predChoice === label ? 1 : 0;
}

/**
 * Read a choice index from answer text when the strategy gave none: a lone letter (`B`, `(b)`,
 * `B.`), a leading letter with a delimiter (`B) Paris`, `(B) Paris`), or the exact normalized
 * text of exactly one choice.
 */
export function inferChoice(answer: string, choices: readonly string[]): number | undefined {
  const trimmed = answer.trim();
  const letter =
    /^\(?([A-Za-z])\)?[.:]?$/.exec(trimmed) ?? /^(?:\(([A-Za-z])\)|([A-Za-z])[).:])\s/.exec(trimmed);
  if (letter) {
    const ch = (letter[1] ?? letter[2])!.toUpperCase();
    const idx = ch.charCodeAt(0) - 65;
    if (idx >= 0 && idx < choices.length) return idx;
  }
  const norm = normalizeAnswer(answer);
  const hits = choices.map((c, i) => (normalizeAnswer(c) === norm ? i : -1)).filter((i) => i >= 0);
  return hits.length === 1 ? hits[0] : undefined;
}

// ---------------------------------------------------------------------------------------------
// The record's scores

export interface AnswerScoreOptions extends NumericTolerance {
  /** Token F1 at or above this counts as correct for free-text golds. Default 0.5. */
  f1Threshold?: number;
  /** A numeric gold with at most this many words is judged by numeric match. Default 6. */
  shortAnswerWords?: number;
}

/** The gold strings EM/F1 compare against: the answers, or the right choice's text. */
export function goldAnswers(question: Question): string[] {
  if (question.answers.length > 0) return question.answers;
  if (question.choices && question.label !== undefined && question.choices[question.label] !== undefined) {
    return [question.choices[question.label]!];
  }
  return [];
}

function isMultipleChoice(q: Question): q is Question & { choices: string[]; label: number } {
  return Array.isArray(q.choices) && q.choices.length > 0 && typeof q.label === 'number';
}

/** Verdict of one gold answer on the prediction, by the gold's kind (rule 2 above). */
function goldAccepts(pred: string, gold: string, question: string, numeric: number | null, opts: Required<AnswerScoreOptions>): boolean {
  if (goldPolarity(gold, question) !== null) return yesNoMatch(pred, [gold], question) === 1;
  if (numeric !== null) return numeric === 1;
  if (exactMatchOne(pred, gold) === 1) return true;
  // An abstention is never a free-text answer, however many words it shares with the gold.
  if (isAbstention(pred) && !isAbstention(gold)) return false;
  return tokenF1One(pred, gold) >= opts.f1Threshold || containsGold(pred, gold) === 1;
}

export function scoreAnswer(
  question: Question,
  result: { answer: string; choice?: number },
  options: AnswerScoreOptions = {},
): AnswerScores {
  const opts: Required<AnswerScoreOptions> = {
    f1Threshold: options.f1Threshold ?? 0.5,
    shortAnswerWords: options.shortAnswerWords ?? 6,
    relTol: options.relTol ?? 0.01,
    absTol: options.absTol ?? 0,
  };
  const pred = result.answer ?? '';
  const golds = goldAnswers(question);

  let choice: number | null = null;
  if (isMultipleChoice(question)) {
    const picked = result.choice ?? inferChoice(pred, question.choices);
    choice = choiceMatch(picked, question.label);
  }

  // Each gold's numeric verdict (null: not a numeric gold), once: the numeric-match score is
  // their maximum, and the verdict of a numeric gold is its own.
  const numeric = golds.map((g) => numericMatchOne(pred, g, opts, opts.shortAnswerWords));
  const scores: AnswerScores = {
    exactMatch: exactMatch(pred, golds),
    f1: tokenF1(pred, golds),
    numericMatch: bestNumericVerdict(numeric),
    yesNo: yesNoMatch(pred, golds, question.question),
    choice,
    correct: 0,
  };
  scores.correct = choice !== null ? choice : golds.some((g, i) => goldAccepts(pred, g, question.question, numeric[i] ?? null, opts)) ? 1 : 0;
  return scores;
}
