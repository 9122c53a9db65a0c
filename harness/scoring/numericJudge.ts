// Numeric golds judged as a careful reader would (docs/scoring.md quotes the rules).
//
// A gold is **numeric** when a number is what it says: a quantity (not a date part or a label)
// in at most `shortAnswerWords` words, with at most two other content words and no arithmetic
// (`length of attribute name + 1 byte` is a formula, so it is judged as text). A gold that is
// only a **year** (`2019`) or a **date** (`December 31, 2017`) must be matched exactly.
//
// The answer is matched by the value it *claims*, not by any number in it:
//   1. Candidates are the answer's quantities: date parts (`December 31`), labels (`page 5`,
//      `step (5)`), names (`FY2022`) and bare years are not quantities; a number whose unit,
//      scale, currency or percent disagrees with the gold's (when both state one) is not a
//      candidate for this gold (`250 MB` for `250 GB`, `24.5 million` for `24.5%`).
//      A negative gold is also matched by a positive value stated as a fall ("declined by
//      14.76%" for `-14.76%`).
//   2. When the answer marks its result (`= 30.8%`, `answer: 30.8%`, `answer is 30.8%`), the
//      first candidate after the last marker is the claim.
//   3. Otherwise candidates are grouped into distinct values (within tolerance). One value is the
//      claim. Two values count when either matches ("from $5.0B in 2021 to $5.4B in 2022"),
//      unless the answer offers them as alternatives (`30% or 40%`, `either`, `between`).
//      With three or more, an answer that enumerates them (three candidates in a row separated
//      only by list punctuation or or/and and at most three words: "7 days, 14 days, 30 days or
//      90 days") claims none; otherwise the first stated value is the claim ("1,940 employees
//      (2022: 1,760), of whom 412 in R&D" claims 1,940).
import { canonicalUnit, findDates, mainNumber, numbersMatch, parseNumbers, type DateParts, type NumericTolerance, type ParsedNumber } from './numbers.ts';

export type NumericGoldKind = 'year' | 'date' | 'number';

const STOP = new Set(['a', 'an', 'the', 'of', 'in', 'on', 'at', 'to', 'for', 'and', 'by', 'is', 'was', 'are', 'were', 'about', 'approximately', 'approx', 'around', 'roughly', 'nearly', 'almost', 'over', 'under', 'than', 'more', 'less', 'total', 'usd', 'us', 'dollars', 'dollar', 'percent', 'per', 'cent', 'million', 'billion', 'thousand', 'trillion', 'mn', 'bn', 'mm']);

function words(s: string): string[] {
  return s.split(/\s+/).filter((t) => t.length > 0);
}

/** The gold's kind for numeric judging, or null when the gold is not about a number. */
export function numericGoldKind(gold: string, shortAnswerWords = 6): NumericGoldKind | null {
  const trimmed = gold.trim();
  const dates = findDates(trimmed);
  // A gold that is one date and nothing much else.
  if (dates.length === 1 && trimmed.length - (dates[0]!.end - dates[0]!.start) <= 4) return 'date';
  const main = mainNumber(trimmed);
  if (!main) return null;
  if (words(trimmed).length > shortAnswerWords) return null;
  // Arithmetic between words is a formula, not a quantity.
  if (/[\p{L})]\s*[+×*/]\s*[\p{L}\p{N}(]|[\p{L}]\s+[-−]\s+\d/u.test(trimmed)) return null;
  const others = words(trimmed.replace(/[\p{N}$€£¥₹%.,()\-−]+/gu, ' ').toLowerCase()).filter((w) => !STOP.has(w) && !canonicalUnit(w) && w !== main.unit);
  if (others.length > 2) return null;
  if (main.yearLike && main.unit === null && parseNumbers(trimmed).filter((n) => n.role === null).length === 1) return 'year';
  return 'number';
}

/** Do the stated units of the two numbers agree (only compared when both state one)? */
export function unitsAgree(pred: ParsedNumber, gold: ParsedNumber): boolean {
  const pu = canonicalUnit(pred.unit);
  const gu = canonicalUnit(gold.unit);
  const pctVsScale = (a: ParsedNumber, b: ParsedNumber) => a.percent && (b.magnitude !== 1 || b.currency !== null || canonicalUnit(b.unit) !== null);
  if (pctVsScale(pred, gold) || pctVsScale(gold, pred)) return false;
  if (pred.currency && gold.currency && currencyCode(pred.currency) !== currencyCode(gold.currency)) return false;
  if ((pred.currency && gu) || (gold.currency && pu)) return false;
  if (pu && gu && pu.dimension !== gu.dimension) return false;
  return true;
}

function currencyCode(c: string): string {
  return ({ $: 'USD', US$: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR' } as Record<string, string>)[c] ?? c;
}

/** Value match after unit agreement; known units of one dimension compare in base units. */
export function quantityMatches(pred: ParsedNumber, gold: ParsedNumber, tol: NumericTolerance = {}): boolean {
  if (!unitsAgree(pred, gold)) return false;
  const pu = canonicalUnit(pred.unit);
  const gu = canonicalUnit(gold.unit);
  if (pu && gu && pu.factor !== gu.factor) {
    const relTol = tol.relTol ?? 0.01;
    const p = pred.scaled * pu.factor;
    const g = gold.scaled * gu.factor;
    return Math.abs(p - g) <= Math.max(relTol * Math.abs(g), tol.absTol ?? 0);
  }
  return numbersMatch(pred, gold, tol);
}

const MARKER_RE = /(?:=|≈|\banswer\s*(?:is|:)|\bresult\s*(?:is|:)|\*\*)\s*$/i;
const ALTERNATIVE_RE = /\bor\b|\beither\b|\bbetween\b|\//i;

const DECREASE_BEFORE_RE = /(?:decreas|declin|fell|fall|dropp?|down|lower|reduc|shrank|shrink|contract|loss|negative)\w*\s+(?:\w+\s+){0,3}$/i;

/** The answer's quantities that could state the gold's value (rule 1). */
function candidates(pred: string, gold: ParsedNumber, kind: NumericGoldKind): ParsedNumber[] {
  return parseNumbers(pred)
    // A negative gold is stated in words as well as with a sign: "a decrease of 5%" is -5%.
    .map((n) => (gold.value < 0 && n.value > 0 && DECREASE_BEFORE_RE.test(pred.slice(Math.max(0, n.index - 40), n.index).replace(/[$€£¥₹(]+\s*$/u, '')) ? { ...n, value: -n.value, scaled: -n.scaled } : n))
    .filter((n) => {
    if (n.role !== null) return false;
    if (kind === 'year') return n.yearLike || (Number.isInteger(n.value) && n.magnitude === 1 && !n.percent && !n.currency);
    if (n.yearLike && !gold.yearLike) return false;
    return unitsAgree(n, gold);
  });
}

function sameQuantity(a: ParsedNumber, b: ParsedNumber, tol: NumericTolerance): boolean {
  return quantityMatches(a, b, tol) || quantityMatches(b, a, tol);
}

/** 1 when the answer's claimed value matches a numeric gold, 0 when not, null when the gold is not numeric. */
export function claimedValueMatch(pred: string, gold: string, tol: NumericTolerance = {}, shortAnswerWords = 6): number | null {
  const kind = numericGoldKind(gold, shortAnswerWords);
  if (kind === null) return null;
  if (kind === 'date') return dateMatch(pred, findDates(gold)[0]!) ? 1 : 0;
  const g = mainNumber(gold)!;
  const accepts = (n: ParsedNumber) => (kind === 'year' ? n.value === g.value : quantityMatches(n, g, tol));
  const cands = candidates(pred, g, kind);
  if (cands.length === 0) return 0;

  // Rule 2: a marked result.
  for (let i = cands.length - 1; i >= 0; i--) {
    const c = cands[i]!;
    const before = pred.slice(Math.max(0, c.index - 16), c.index).replace(/[$€£¥₹(\s\-−]+$/u, '');
    if (MARKER_RE.test(before)) return accepts(c) ? 1 : 0;
  }

  // Rule 3: distinct values.
  const distinct: ParsedNumber[] = [];
  for (const c of cands) if (!distinct.some((d) => (kind === 'year' ? d.value === c.value : sameQuantity(d, c, tol)))) distinct.push(c);
  if (distinct.length === 1) return accepts(distinct[0]!) ? 1 : 0;
  if (distinct.length === 2) {
    const [a, b] = distinct as [ParsedNumber, ParsedNumber];
    const between = pred.slice(Math.min(a.index, b.index), Math.max(a.index, b.index));
    const lead = pred.slice(Math.max(0, Math.min(a.index, b.index) - 12), Math.min(a.index, b.index));
    // Alternatives: `30% or 40%`, `30%/40%`, `either 30% or 40%`, `between 30% and 40%` — the
    // or-word sits right between the two values (not "at or below … 450 mm").
    const closeGap = (between.match(/[\p{L}\p{N}]+/gu) ?? []).length <= 4;
    if ((closeGap && ALTERNATIVE_RE.test(between.slice(a.text.length))) || /\b(?:either|between)\s*\S*$/i.test(lead)) return 0;
    return accepts(a) || accepts(b) ? 1 : 0;
  }
  return enumerates(pred, cands) ? 0 : accepts(cands[0]!) ? 1 : 0;
}

/** Three candidates in a row with only list separators and at most three words between each. */
function enumerates(pred: string, cands: readonly ParsedNumber[]): boolean {
  let run = 1;
  for (let i = 1; i < cands.length; i++) {
    const gap = pred.slice(cands[i - 1]!.index + cands[i - 1]!.text.length, cands[i]!.index);
    const wordsBetween = (gap.match(/[\p{L}\p{N}]+/gu) ?? []).length;
    const separated = /[,;/]|\b(?:or|and)\b/i.test(gap);
    run = separated && wordsBetween <= 3 ? run + 1 : 1;
    if (run >= 3) return true;
  }
  return false;
}

/** The answer names the gold's date: every part the gold states agrees, and no other date is offered. */
function dateMatch(pred: string, gold: DateParts): boolean {
  const dates = findDates(pred);
  const agrees = (d: DateParts) =>
    (gold.year === null || d.year === gold.year) && (gold.month === null || d.month === gold.month) && (gold.day === null || d.day === gold.day);
  const distinct = new Set(dates.map((d) => `${d.year}-${d.month}-${d.day}`));
  return distinct.size >= 1 && distinct.size <= 2 && dates.some(agrees) && !(distinct.size === 2 && ALTERNATIVE_RE.test(pred));
}
