// Answer correctness: one metric, one small pure function (the ranx way), plus `scoreAnswer`,
// which fills a record's AnswerScores and picks the single verdict used for accuracy.
//
// ------------------------------------------------------------------------------------------
// How `correct` is decided (docs/scoring.md quotes this block)
//
//   1. Multiple choice (the question has `choices` and a `label`): the answer text names a
//      choice — by letter (`B`, `(b)`, `B) ...`, `Answer: B`, `Option B`) or by the exact text of
//      one choice (SQuAD-normalized, a choice's own `A.` prefix ignored, optionally followed by
//      an explanation: `Carbon dioxide, because…`) or by a letter a sentence asserts (`B is
//      correct.`, `I think B`, `not B; it is A`) — or, when the text names none, the index the
//      strategy returned; a choice the text denies (`Definitely not A.`) is never picked;
//      correct = that choice is the label.
//   2. Otherwise each gold answer is judged by its own kind, and the prediction is correct
//      when any gold answer accepts it:
//      a. yes/no gold (yesNo.ts): decided by the question's form and the gold's meaning, not
//         its first word alone; the answer's yes/no word must agree, with negation ("not yes")
//         and abstention ("not stated", "cannot be determined") understood;
//      b. numeric gold (numericJudge.ts): a short quantity, a year, a date, a time of day or a
//         range. The answer's *claimed* value must match — unit, scale, currency and percent
//         agreeing when both state one, the question's stated unit ("in USD millions") scaling
//         bare numbers; counts exactly, measured quantities within `relTol` (1%) or as the gold
//         rounded; years, dates, times and ranges as values; a denied value ("not 25") is no
//         claim; number words equal digits; an answer that lists three or more candidate
//         values, or offers alternatives, claims none;
//      c. sentence gold to a question that asks for a quantity: its numeric claims, each stated;
//      d. any other gold of at most `maxGoldWords` (9) words that is not a procedure: normalized
//         exact match, token F1 ≥ 0.5, or the normalized gold contained in an answer of at most
//         max(40, 4 × gold) tokens; an abstention never matches a free-text gold, nor does an
//         answer that names the gold only to deny it or as one of alternatives (`Not Canberra`,
//         `Canberra or Sydney`);
//      e. a longer free-text gold, or a procedure (steps, menu paths): **ungradable** — token
//         overlap cannot tell a right answer from a wrong one there, so the rule gives no
//         verdict (`correct: null`, `ungradable: 'long' | 'procedural'`); accuracy leaves the
//         question out and says so, and the LLM judge (`scoring.judge`) grades it.
//      A question is ungradable when every gold is; otherwise its gradable golds decide.
//   The thresholds are options (`f1Threshold`, `shortAnswerWords`, `maxGoldWords`, `relTol`,
//   `absTol`). Exact match and F1 are always reported too, as the official SQuAD v1.1 script
//   computes them (maximum over gold answers).
// ------------------------------------------------------------------------------------------

import type { AnswerScores, Question } from '../types.ts';
import type { NumericTolerance } from './numbers.ts';
import { claimedValueMatch, goldClaims, numericGoldKind, sentenceClaimsMatch } from './numericJudge.ts';
import { asksForQuantity } from './questionForm.ts';
import { goldPolarity, isAbstention, yesNoMatch } from './yesNo.ts';

import { answerTokenSpans, answerTokens, normalizeAnswer } from './normalize.ts';
import { asksAboutNegation, denied, offeredAsAlternative } from './denial.ts';

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

/**
 * True when the gold is judged by its numbers: a short quantity, year, date, time or range, or a
 * sentence gold with numeric claims to a question that asks for a quantity (numericJudge.ts).
 */
export function goldHasNumber(gold: string, shortAnswerWords = 6, question?: string): boolean {
  return numericGoldKind(gold, shortAnswerWords) !== null || (question !== undefined && goldPolarity(gold, question) === null && asksForQuantity(question) && goldClaims(gold, question).length > 0);
}

/** 1 when the answer's claimed value matches a numeric gold (or a sentence gold's claims), 0 when not, null when the gold is not judged by numbers. */
export function numericMatchOne(pred: string, gold: string, tol: NumericTolerance = {}, shortAnswerWords = 6, question?: string): number | null {
  const short = claimedValueMatch(pred, gold, tol, shortAnswerWords, question);
  if (short !== null) return short;
  return question !== undefined && goldPolarity(gold, question) === null ? sentenceClaimsMatch(pred, gold, question, tol) : null;
}

/** Numeric match over gold answers: null when no gold answer is numeric, else the maximum. */
export function numericMatch(pred: string, golds: readonly string[], tol: NumericTolerance = {}, shortAnswerWords = 6, question?: string): number | null {
  return bestNumericVerdict(golds.map((g) => numericMatchOne(pred, g, tol, shortAnswerWords, question)));
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

/** Where the phrase's normalized tokens stand, in order, in the text: spans of the text. */
function mentions(text: string, phrase: string): Array<{ start: number; end: number }> {
  const g = answerTokens(phrase);
  if (g.length === 0) return [];
  const spans = answerTokenSpans(text);
  const out: Array<{ start: number; end: number }> = [];
  for (let i = 0; i + g.length <= spans.length; i++) {
    if (g.every((t, j) => spans[i + j]!.token === t)) out.push({ start: spans[i]!.start, end: spans[i + g.length - 1]!.end });
  }
  return out;
}

/**
 * True when the answer mentions the gold only to deny it ("It is not Canberra.", "Canberra is not
 * the capital", "Sydney rather than Canberra") or as one of alternatives ("Either Canberra or
 * Sydney", "Sydney, Melbourne, or Canberra"). Such an answer does not state the gold however many
 * words it shares with it — the reading numeric golds already get (denial.ts); one mention that
 * states it ("Canberra, not Sydney.") is enough.
 */
export function mentionsOnlyDeniedOrHedged(pred: string, gold: string, question?: string): boolean {
  const found = mentions(pred, gold);
  // To "Which feature is not supported?", "Bluetooth is not supported." states the gold.
  const readDenials = !asksAboutNegation(question);
  return found.length > 0 && found.every((m) => (readDenials && denied(pred, m.start, m.end)) || offeredAsAlternative(pred, m.start, m.end));
}

// ---------------------------------------------------------------------------------------------
// Multiple choice

export function choiceMatch(predChoice: number | null | undefined, label: number): number {
  return predChoice !== null && predChoice !== undefined && predChoice === label ? 1 : 0;
}

// A choice's own label, as datasets often write them: `A. Paris`, `(B) London`, `C) Rome`.
const CHOICE_PREFIX_RE = /^\s*\(?[A-Za-z]\s*[).:]\s+/;
// What answers put before the choice: "The answer is", "Answer:", "Option", "It is".
const LEAD_IN_RE = /^\s*(?:(?:the\s+)?(?:correct\s+|right\s+|final\s+)?(?:answer|choice|option)\s*(?:is|:)?\s*|it\s+is\s+|i\s+(?:choose|pick|select)\s+)/i;

/**
 * Read a choice index from answer text: a lone letter (`B`, `(b)`, `B.`), a leading letter with
 * a delimiter (`B) Paris`, `(B) Paris`), a letter after a lead-in (`Answer: B`, `Option B`), or
 * the exact normalized text of exactly one choice (its `A.` prefix ignored), alone or followed by
 * an explanation after punctuation (`Carbon dioxide, because…`). Undefined when the text names
 * no choice, or several.
 */
export function inferChoice(answer: string, choices: readonly string[], question?: string): number | undefined {
  const trimmed = answer.trim().replace(LEAD_IN_RE, '').trim();
  const letter =
    /^\(?([A-Za-z])\)?[.:]?$/.exec(trimmed) ?? /^(?:\(([A-Za-z])\)|([A-Za-z])[).:])(?:\s|$)/.exec(trimmed);
  if (letter) {
    const ch = (letter[1] ?? letter[2])!.toUpperCase();
    const idx = ch.charCodeAt(0) - 65;
    if (idx >= 0 && idx < choices.length) return idx;
  }
  const texts = choices.map((c) => normalizeAnswer(c.replace(CHOICE_PREFIX_RE, '')));
  const norm = normalizeAnswer(trimmed.replace(CHOICE_PREFIX_RE, ''));
  const exact = texts.map((t, i) => (t === norm ? i : -1)).filter((i) => i >= 0);
  if (exact.length === 1) return exact[0];
  if (exact.length > 1) return undefined;
  // The exact text of one choice, then an explanation after punctuation: the longest choice
  // that opens the answer this way, when no other choice does.
  const head = (t: string) => {
    const raw = trimmed.replace(CHOICE_PREFIX_RE, '');
    const cut = raw.search(/[,;:.(—–]\s|\s+(?:because|since|as)\s/i);
    return cut < 0 ? null : normalizeAnswer(raw.slice(0, cut)) === t;
  };
  const opening = texts.map((t, i) => (t && head(t) ? i : -1)).filter((i) => i >= 0);
  if (opening.length === 1) return opening[0];
  if (opening.length > 1) return undefined;
  // A letter inside a sentence ("B is correct.", "I think B", "The answer is not B; it is A."):
  // the one choice the text names without denying it.
  // (To "Which of these is NOT a mammal?", "B is not a mammal." names B.)
  const negativeQuestion = asksAboutNegation(question);
  const asserted = new Set(letterMentions(answer, choices.length).filter((m) => negativeQuestion || !m.denied).map((m) => m.index));
  return asserted.size === 1 ? [...asserted][0] : undefined;
}

// A choice letter inside a sentence: a capital letter standing as a word (not `U.S.`), optionally
// in parentheses. It names a choice where one is named: after the start, a clause mark or a word
// that introduces a pick ("think B", "is A", "not A", "Either A or B"); and, for `A` and `I`, which
// are also English words ("A city…", "I think…"), only before a clause mark, the end, `or`, or a
// verb ("A is correct"). A capital letter in parentheses names one anywhere ("London (B)").
// Lower-case letters are left to the opening forms above (`(b)`, `b.`).
const LETTER_RE = /(?<![\p{L}\p{N}'’.\-])\(?([A-Z])\)?(?![\p{L}\p{N}'’\-])(?!\.[\p{L}])/gu;
const LETTER_CUE_BEFORE_RE = /(?:^|[.,;:!?(—–]|(?<![\p{L}])(?:is|be|not|think|pick|choose|chose|select|say|go with|answer|option|choice|letter|probably|definitely|likely|clearly|perhaps|maybe|so|thus|hence|therefore|either|or|than))\s*$/iu;
const WORD_CUE_BEFORE_RE = /[\p{L}]\s*$/u;
const LETTER_AFTER_RE = /^\s*(?:$|[.,;:!?)(—–]|(?:is|was|would|seems|appears|looks|must|should|or|because|since)(?![\p{L}]))/iu;

/** The choice letters a text names in its sentences, each with whether the text denies it ("not A", "B is wrong"). */
function letterMentions(answer: string, nChoices: number): Array<{ index: number; denied: boolean }> {
  const out: Array<{ index: number; denied: boolean }> = [];
  for (const m of answer.matchAll(LETTER_RE)) {
    const index = m[1]!.charCodeAt(0) - 65;
    if (index >= nChoices) continue;
    const start = m.index ?? 0;
    const end = start + m[0].length;
    const before = answer.slice(Math.max(0, start - 24), start);
    // A letter in parentheses names a choice wherever it stands: "London (B)".
    if (m[0].startsWith('(') && m[0].endsWith(')')) {
      out.push({ index, denied: denied(answer, start, end) });
      continue;
    }
    if (!LETTER_CUE_BEFORE_RE.test(before)) continue;
    const afterCueWord = WORD_CUE_BEFORE_RE.test(before);
    if ((!afterCueWord || m[1] === 'A' || m[1] === 'I') && !LETTER_AFTER_RE.test(answer.slice(end))) continue;
    out.push({ index, denied: denied(answer, start, end) });
  }
  return out;
}

/** The choices the text denies, by letter ("Definitely not A.") or by text ("Not Paris."), and nowhere states. */
export function deniedChoices(answer: string, choices: readonly string[]): Set<number> {
  const letters = letterMentions(answer, choices.length);
  const out = new Set<number>();
  for (let i = 0; i < choices.length; i++) {
    const byLetter = letters.filter((m) => m.index === i);
    const text = choices[i]!.replace(CHOICE_PREFIX_RE, '');
    const byText = mentions(answer, text).map((m) => denied(answer, m.start, m.end));
    const all = [...byLetter.map((m) => m.denied), ...byText];
    if (all.length > 0 && all.every(Boolean)) out.add(i);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The record's scores

export interface AnswerScoreOptions extends NumericTolerance {
  /** Token F1 at or above this counts as correct for free-text golds. Default 0.5. */
  f1Threshold?: number;
  /** A numeric gold with at most this many words is judged by numeric match. Default 6. */
  shortAnswerWords?: number;
  /** A free-text gold with more words than this is ungradable by the rule. Default 9. */
  maxGoldWords?: number;
}

/** The default of `maxGoldWords`: extractive-QA overlap (SQuAD EM/F1) is made for short spans. */
export const MAX_GOLD_WORDS = 9;

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

// ---------------------------------------------------------------------------------------------
// Which golds the rule can judge

/** How the rule judges a gold (rule 2 above). */
export type GoldKind = 'yes/no' | 'number' | 'claims' | 'text' | 'ungradable';

const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;

// A procedure: a menu path (`Settings > Display`), or two or more instructions (sentences or
// clauses that open with an imperative: "From Settings, tap …. Tap … to enable.").
const MENU_PATH_RE = /[\p{L}\p{N})]\s+>\s+[\p{L}\p{N}(]/u;
const INSTRUCTION_RE = /(?:^|[.!?:;]\s+|,\s+(?:then|and then)\s+)(?:from|tap|touch|press|select|open|go to|click|choose|swipe|drag|enter|turn|set|hold|navigate|launch|slide|scroll|type|check|uncheck|toggle|run|install|configure|sign in|log in)(?![\p{L}])/giu;

/** True when the gold reads as instructions: a menu path, or two or more instructions. */
export function isProcedural(gold: string): boolean {
  return MENU_PATH_RE.test(gold) || (gold.match(INSTRUCTION_RE)?.length ?? 0) >= 2;
}

/** The gold's kind, and for an ungradable gold why (`long` or `procedural`). */
export function goldKind(gold: string, question: string | undefined, opts: { shortAnswerWords?: number; maxGoldWords?: number } = {}): { kind: GoldKind; reason?: 'long' | 'procedural' } {
  const short = opts.shortAnswerWords ?? 6;
  if (goldPolarity(gold, question) !== null) return { kind: 'yes/no' };
  if (numericGoldKind(gold, short) !== null) return { kind: 'number' };
  if (asksForQuantity(question) && goldClaims(gold, question).length > 0) return { kind: 'claims' };
  const n = wordCount(gold);
  if (n > short && isProcedural(gold)) return { kind: 'ungradable', reason: 'procedural' };
  if (n > (opts.maxGoldWords ?? MAX_GOLD_WORDS)) return { kind: 'ungradable', reason: 'long' };
  return { kind: 'text' };
}

/** Verdict of one gradable gold answer on the prediction, by the gold's kind (rule 2 above). */
function goldAccepts(pred: string, gold: string, kind: GoldKind, question: string, numeric: number | null, opts: Required<AnswerScoreOptions>): boolean {
  if (kind === 'yes/no') return yesNoMatch(pred, [gold], question) === 1;
  if (kind === 'number' || kind === 'claims') return numeric === 1;
  if (exactMatchOne(pred, gold) === 1) return true;
  // An abstention is never a free-text answer, however many words it shares with the gold.
  if (isAbstention(pred) && !isAbstention(gold)) return false;
  // A gold the answer names only to deny it, or as one of alternatives, is not its answer, however
  // many words the two share ("Not Canberra", "Canberra or Sydney" for `Canberra`).
  if (mentionsOnlyDeniedOrHedged(pred, gold, question)) return false;
  return tokenF1One(pred, gold) >= opts.f1Threshold || containsGold(pred, gold) === 1;
}

/** Why the rule cannot judge a question (every gold is long or procedural), or null when it can. */
export function ungradableReason(question: Pick<Question, 'question' | 'answers' | 'choices' | 'label'>, opts: AnswerScoreOptions = {}): 'long' | 'procedural' | null {
  if (isMultipleChoice(question as Question)) return null;
  const golds = goldAnswers(question as Question);
  if (golds.length === 0) return null;
  const kinds = golds.map((g) => goldKind(g, question.question, opts));
  if (!kinds.every((k) => k.kind === 'ungradable')) return null;
  return kinds.some((k) => k.reason === 'procedural') ? 'procedural' : 'long';
}

export function scoreAnswer(
  question: Question,
  result: { answer: string; choice?: number },
  options: AnswerScoreOptions = {},
): AnswerScores {
  const opts: Required<AnswerScoreOptions> = {
    f1Threshold: options.f1Threshold ?? 0.5,
    shortAnswerWords: options.shortAnswerWords ?? 6,
    maxGoldWords: options.maxGoldWords ?? MAX_GOLD_WORDS,
    relTol: options.relTol ?? 0.01,
    absTol: options.absTol ?? 0,
  };
  const pred = result.answer ?? '';
  const golds = goldAnswers(question);

  let choice: number | null = null;
  if (isMultipleChoice(question)) {
    // What the answer says beats the index a strategy attached to it: a reader sees the text.
    let picked = inferChoice(pred, question.choices, question.question) ?? result.choice;
    // A choice the text denies is not picked, whatever index came with it: "Definitely not A."
    // (Not to "Which of these is NOT a mammal?", where "B is not a mammal." picks B.)
    if (picked !== undefined && !asksAboutNegation(question.question) && deniedChoices(pred, question.choices).has(picked)) picked = undefined;
    choice = choiceMatch(picked, question.label);
  }

  // Each gold's numeric verdict (null: not judged by numbers), once: the numeric-match score is
  // their maximum, and the verdict of a numeric gold is its own.
  const numeric = golds.map((g) => numericMatchOne(pred, g, opts, opts.shortAnswerWords, question.question));
  const scores: AnswerScores = {
    exactMatch: exactMatch(pred, golds),
    f1: tokenF1(pred, golds),
    numericMatch: bestNumericVerdict(numeric),
    yesNo: yesNoMatch(pred, golds, question.question),
    choice,
    correct: 0,
  };
  if (choice !== null) {
    scores.correct = choice;
    return scores;
  }
  const kinds = golds.map((g) => goldKind(g, question.question, opts));
  const gradable = golds.map((g, i) => ({ g, i, kind: kinds[i]!.kind })).filter((x) => x.kind !== 'ungradable');
  if (golds.length > 0 && gradable.length === 0) {
    scores.correct = null;
    scores.ungradable = kinds.some((k) => k.reason === 'procedural') ? 'procedural' : 'long';
    return scores;
  }
  scores.correct = gradable.some(({ g, i, kind }) => goldAccepts(pred, g, kind, question.question, numeric[i] ?? null, opts)) ? 1 : 0;
  return scores;
}
