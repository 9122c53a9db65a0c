// Answer correctness: one metric, one small pure function (the ranx way), plus `scoreAnswer`,
// which fills a record's AnswerScores and picks the single verdict used for accuracy.
//
// ------------------------------------------------------------------------------------------
// How `correct` is decided (README quotes this block)
//
//   1. Multiple choice (the question has `choices` and a `label`): correct = the chosen index
//      equals the label. When the strategy returned no index, the answer text is read as a
//      letter (`B`, `(b)`, `B) ...`) or as the exact text of one choice (SQuAD-normalized).
//   2. Otherwise each gold answer is judged by its own kind, and the prediction is correct
//      when any gold answer accepts it:
//      a. yes/no gold (its first word is yes, no, true or false): the first yes/no/true/false
//         word of the prediction must agree (true = yes, false = no);
//      b. short numeric gold (contains a number, at most 6 words): numeric match — some number
//         in the prediction is within 1% of the gold's main number (see numbers.ts for units,
//         magnitudes, percentages and signs);
//      c. any other gold: normalized exact match, or token F1 ≥ 0.5.
//   The thresholds are options (`f1Threshold`, `shortAnswerWords`, `relTol`, `absTol`).
//   Exact match and F1 are always reported too, as the official SQuAD v1.1 script computes
//   them (maximum over gold answers).
// ------------------------------------------------------------------------------------------

import type { AnswerScores, Question } from '../types.ts';
import { mainNumber, numbersMatch, parseNumbers, type NumericTolerance } from './numbers.ts';

// Python's string.punctuation: ASCII only, as in the official script.
const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
// Python's `re` \b with a str pattern is Unicode-aware (\w = alphanumerics and `_`); JavaScript's
// \b is ASCII-only, so `\b(a|an|the)\b` is spelled out with Unicode look-arounds.
const ARTICLES_RE = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;
// Python's str.split() whitespace (it includes \x1c-\x1f and \x85, and not \ufeff, unlike JS \s).
const PY_WHITESPACE_RE = /[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** SQuAD v1.1 `normalize_answer`: lowercase, drop punctuation, drop articles, collapse whitespace. */
export function normalizeAnswer(s: string): string {
  let text = s.toLowerCase();
  text = Array.from(text)
    .filter((ch) => !PUNCTUATION.has(ch))
    .join('');
  text = text.replace(ARTICLES_RE, ' ');
  return pySplit(text).join(' ');
}

function pySplit(s: string): string[] {
  return s.split(PY_WHITESPACE_RE).filter((t) => t.length > 0);
}

export function answerTokens(s: string): string[] {
  return pySplit(normalizeAnswer(s));
}

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
// Numeric

export function goldHasNumber(gold: string): boolean {
  return mainNumber(gold) !== null;
}

/** 1 when some number in the prediction matches the gold's main number (see numbers.ts). */
export function numericMatchOne(pred: string, gold: string, tol: NumericTolerance = {}): number | null {
  const g = mainNumber(gold);
  if (!g) return null;
  return parseNumbers(pred).some((p) => numbersMatch(p, g, tol)) ? 1 : 0;
}

/** Numeric match over gold answers: null when no gold answer has a number, else the maximum. */
export function numericMatch(pred: string, golds: readonly string[], tol: NumericTolerance = {}): number | null {
  let result: number | null = null;
  for (const g of golds) {
    const m = numericMatchOne(pred, g, tol);
    if (m !== null) result = Math.max(result ?? 0, m);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Yes/no

const POLARITY: Record<string, 'yes' | 'no'> = { yes: 'yes', true: 'yes', no: 'no', false: 'no' };

/** 'yes' | 'no' when the gold's first (normalized) word is yes/no/true/false, else null. */
export function goldPolarity(gold: string): 'yes' | 'no' | null {
  const first = answerTokens(gold)[0];
  return first !== undefined ? (POLARITY[first] ?? null) : null;
}

/** The first yes/no/true/false word anywhere in the prediction. */
export function predictionPolarity(pred: string): 'yes' | 'no' | null {
  for (const t of answerTokens(pred)) {
    const p = POLARITY[t];
    if (p) return p;
  }
  return null;
}

/** null unless some gold answer is yes/no; else 1 when the prediction's polarity agrees with one. */
export function yesNoMatch(pred: string, golds: readonly string[]): number | null {
  const wanted = golds.map(goldPolarity).filter((p): p is 'yes' | 'no' => p !== null);
  if (wanted.length === 0) return null;
  const got = predictionPolarity(pred);
  return got !== null && wanted.includes(got) ? 1 : 0;
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

function wordCount(s: string): number {
  return s.split(/\s+/).filter((t) => t.length > 0).length;
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
function goldAccepts(pred: string, gold: string, opts: Required<AnswerScoreOptions>): boolean {
  if (goldPolarity(gold) !== null) return yesNoMatch(pred, [gold]) === 1;
  if (goldHasNumber(gold) && wordCount(gold) <= opts.shortAnswerWords) {
    return numericMatchOne(pred, gold, opts) === 1;
  }
  return exactMatchOne(pred, gold) === 1 || tokenF1One(pred, gold) >= opts.f1Threshold;
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

  const scores: AnswerScores = {
    exactMatch: exactMatch(pred, golds),
    f1: tokenF1(pred, golds),
    numericMatch: numericMatch(pred, golds, opts),
    yesNo: yesNoMatch(pred, golds),
    choice,
    correct: 0,
  };
  scores.correct = choice !== null ? choice : golds.some((g) => goldAccepts(pred, g, opts)) ? 1 : 0;
  return scores;
}
