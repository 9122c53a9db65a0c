// Numeric golds judged as a careful reader would (docs/scoring.md quotes the rules).
//
// A gold is **numeric** when a number is what it says: a quantity (not a date part or a label)
// in at most `shortAnswerWords` words, with at most two other content words and no arithmetic
// (`length of attribute name + 1 byte` is a formula, so it is judged as text). A gold that is
// only a **year** (`2019`), a **date** (`December 31, 2017`) or a **time of day** (`2 PM`) must be
// matched exactly; a gold that is a **range** (`3-5 days`, `36 to 55 µg/m³`) is matched by the
// same range.
//
// The answer is matched by the value it *claims*, not by any number in it:
//   1. Candidates are the answer's quantities: date parts (`December 31`), times, labels (`page
//      5`, `step (5)`), names (`FY2022`), bare years, the ends of a range (`3-5 days` claims no
//      single value) and denied values (`not 25`) are not quantities; a number whose unit, scale,
//      currency or percent disagrees with the gold's (when both state one) is not a candidate for
//      this gold (`250 MB` for `250 GB`, `24.5 million` for `24.5%`, `12 MP` for `12 hours`).
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
// Values agree as numbers.ts `numbersMatch` says: counts exactly, measured quantities within the
// tolerance or as the gold rounded, with the question's stated scale applied to bare numbers.
//
// A **sentence gold** to a question that asks for a quantity ("What is the amount of the cash
// proceeds…?" — "JnJ realised $13.2 billion in cash proceeds from the separation of Kenvue.")
// yields its numeric claims: the quantities of the kind the question asks for (a percentage,
// money, a count, a duration), else all of them. The answer is correct when it states every one
// of them and offers no alternatives (`sentenceClaimsMatch`).
import { memoByText } from '../text/memo.ts';
import {
  canonicalUnit,
  findDates,
  findRanges,
  findTimes,
  mainNumber,
  NO_QUESTION_UNIT,
  numbersMatch,
  parseNumbers,
  type DateParts,
  type NumericTolerance,
  type ParsedNumber,
  type ParsedRange,
  type QuestionUnit,
} from './numbers.ts';
import { asksForQuantity, expectedQuantity, questionUnit } from './questionForm.ts';
import { deniedBefore } from './denial.ts';

export type NumericGoldKind = 'year' | 'date' | 'time' | 'range' | 'number';

const STOP = new Set(['a', 'an', 'the', 'of', 'in', 'on', 'at', 'to', 'for', 'and', 'by', 'is', 'was', 'are', 'were', 'about', 'approximately', 'approx', 'around', 'roughly', 'nearly', 'almost', 'over', 'under', 'than', 'more', 'less', 'total', 'usd', 'us', 'dollars', 'dollar', 'percent', 'per', 'cent', 'million', 'billion', 'thousand', 'trillion', 'mn', 'bn', 'mm', 'between', 'from', 'within', 'every', 'least', 'most', 'up']);

function words(s: string): string[] {
  return s.split(/\s+/).filter((t) => t.length > 0);
}

/** What is left of a text once `spans` are cut out, trimmed. */
function without(text: string, spans: ReadonlyArray<{ start: number; end: number }>): string {
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + ' ';
    at = s.end;
  }
  return (out + text.slice(at)).trim();
}

/** At most a few function words besides the span (`at 2 PM`, `by 2 PM`, `36 to 55 µg/m³`). */
const onlyFiller = (rest: string) => words(rest.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ')).every((w) => STOP.has(w));

// Every answer to a question is judged against the same golds (each strategy, each repeat), and
// reading a gold (its kind: dates, times, ranges; its main number) was most of scoring an answer:
// both are remembered by gold text.
const goldKindMemos = new Map<number, (gold: string) => NumericGoldKind | null>();
const goldMainNumber = memoByText((gold) => {
  const main = mainNumber(gold);
  return main && Object.freeze(main);
});

/** The gold's kind for numeric judging, or null when the gold is not about a number. */
export function numericGoldKind(gold: string, shortAnswerWords = 6): NumericGoldKind | null {
  let memo = goldKindMemos.get(shortAnswerWords);
  if (!memo) goldKindMemos.set(shortAnswerWords, (memo = memoByText((g) => readGoldKind(g, shortAnswerWords))));
  return memo(gold);
}

function readGoldKind(gold: string, shortAnswerWords: number): NumericGoldKind | null {
  const trimmed = gold.trim();
  const dates = findDates(trimmed);
  // A gold that is one date and nothing much else.
  if (dates.length === 1 && trimmed.length - (dates[0]!.end - dates[0]!.start) <= 4) return 'date';
  const times = findTimes(trimmed);
  if (times.length === 1 && onlyFiller(without(trimmed, times))) return 'time';
  const main = mainNumber(trimmed);
  const ranges = findRanges(trimmed);
  if (words(trimmed).length > shortAnswerWords) return null;
  // Arithmetic between words is a formula, not a quantity.
  // (`µg/m³` is a unit, not a division: a slash counts only with spaces around it.)
  if (/[\p{L})]\s*[+×*]\s*[\p{L}\p{N}(]|[\p{L})]\s+\/\s+[\p{L}\p{N}(]|[\p{L}]\s+[-−]\s+\d/u.test(trimmed)) return null;
  if (ranges.length === 1 && (!main || main === ranges[0]!.lo || main === ranges[0]!.hi || parseNumbers(trimmed).every((n) => n.role !== null))) {
    const r = ranges[0]!;
    const rest = without(trimmed, [{ start: r.start, end: r.end }]).toLowerCase();
    const others = words(rest.replace(/[\p{N}$€£¥₹%.,()\-−–]+/gu, ' ')).filter((w) => !STOP.has(w) && !canonicalUnit(w) && w !== r.hi.unit && w !== r.lo.unit);
    if (others.length <= 2) return 'range';
  }
  if (!main) return null;
  const others = words(trimmed.replace(/[\p{N}$€£¥₹%.,()\-−]+/gu, ' ').toLowerCase()).filter((w) => !STOP.has(w) && !canonicalUnit(w) && w !== main.unit && w !== main.text.toLowerCase());
  if (others.length > 2) return null;
  if (main.yearLike && main.unit === null && parseNumbers(trimmed).filter((n) => n.role === null).length === 1) return 'year';
  return 'number';
}

// `bp`/`bps` beside a percentage are basis points (`15 bps` = 0.15%), not bits per second: a
// percentage and a bit rate are never the same quantity, so the reading costs nothing elsewhere.
const isBpAbbreviation = (n: ParsedNumber) => !n.percent && n.magnitude === 1 && n.currency === null && /^bps?$/i.test(n.unit ?? '');
const asBasisPoints = (n: ParsedNumber): ParsedNumber => ({ ...n, value: n.value / 100, scaled: n.scaled / 100, percent: true, unit: null, decimals: n.decimals + 2 });

/** The pair with a `bp`/`bps` figure read as a percentage when the other side is one. */
function withBasisPoints(pred: ParsedNumber, gold: ParsedNumber): [ParsedNumber, ParsedNumber] {
  if (gold.percent && isBpAbbreviation(pred)) return [asBasisPoints(pred), gold];
  if (pred.percent && isBpAbbreviation(gold)) return [pred, asBasisPoints(gold)];
  return [pred, gold];
}

/** Do the stated units of the two numbers agree (compared when both state one)? */
export function unitsAgree(pred: ParsedNumber, gold: ParsedNumber): boolean {
  return unitsAgreeRead(...withBasisPoints(pred, gold));
}

/** unitsAgree of a pair whose `bp` figures are already read (withBasisPoints). */
function unitsAgreeRead(pred: ParsedNumber, gold: ParsedNumber): boolean {
  const pu = canonicalUnit(pred.unit);
  const gu = canonicalUnit(gold.unit);
  const pctVsScale = (a: ParsedNumber, b: ParsedNumber) => a.percent && (b.magnitude !== 1 || b.currency !== null || canonicalUnit(b.unit) !== null);
  if (pctVsScale(pred, gold) || pctVsScale(gold, pred)) return false;
  if (pred.currency && gold.currency && currencyCode(pred.currency) !== currencyCode(gold.currency)) return false;
  if ((pred.currency && gu) || (gold.currency && pu)) return false;
  if (pu && gu && pu.dimension !== gu.dimension) return false;
  // A known unit against another unit word: `12 MP` is not `12 hours`, `5 kg` not `5 days`. Two
  // words neither of which is a known unit (`1,940 employees`, `1,940 people`) are not compared.
  if ((pu && !gu && gold.unit !== null && !gold.currency) || (gu && !pu && pred.unit !== null && !pred.currency)) return false;
  return true;
}

function currencyCode(c: string): string {
  return ({ $: 'USD', US$: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR' } as Record<string, string>)[c] ?? c;
}

/** Value match after unit agreement; known units of one dimension compare in base units. */
export function quantityMatches(predIn: ParsedNumber, goldIn: ParsedNumber, tol: NumericTolerance = {}, q: QuestionUnit = NO_QUESTION_UNIT): boolean {
  const [pred, gold] = withBasisPoints(predIn, goldIn);
  if (!unitsAgreeRead(pred, gold)) return false;
  const pu = canonicalUnit(pred.unit);
  const gu = canonicalUnit(gold.unit);
  if (pu && gu && pu.factor !== gu.factor) {
    // In the gold's unit, so that a count stays a count (`15 minutes` = `900 seconds` exactly).
    const factor = pu.factor / gu.factor;
    const inGoldUnit: ParsedNumber = { ...pred, value: pred.value * factor, scaled: pred.scaled * factor, unit: gold.unit, decimals: Math.max(0, pred.decimals - Math.round(Math.log10(factor))) };
    return numbersMatch(inGoldUnit, gold, tol, q);
  }
  return numbersMatch(pred, gold, tol, q);
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
      if (n.role !== null || n.negated) return false;
      if (kind === 'year') return n.yearLike || (Number.isInteger(n.value) && n.magnitude === 1 && !n.percent && !n.currency);
      if (n.yearLike && !gold.yearLike) return false;
      return unitsAgree(n, gold);
    });
}

function sameQuantity(a: ParsedNumber, b: ParsedNumber, tol: NumericTolerance, q: QuestionUnit): boolean {
  return quantityMatches(a, b, tol, q) || quantityMatches(b, a, tol, q);
}

/** 1 when the answer's claimed value matches a numeric gold, 0 when not, null when the gold is not numeric. */
export function claimedValueMatch(pred: string, gold: string, tol: NumericTolerance = {}, shortAnswerWords = 6, question?: string): number | null {
  const kind = numericGoldKind(gold, shortAnswerWords);
  if (kind === null) return null;
  if (kind === 'date') return dateMatch(pred, findDates(gold)[0]!) ? 1 : 0;
  if (kind === 'time') return timeMatch(pred, findTimes(gold)[0]!.minutes) ? 1 : 0;
  const q = questionUnit(question);
  if (kind === 'range') return rangeMatch(pred, findRanges(gold)[0]!, tol, q) ? 1 : 0;
  return claimMatches(pred, goldMainNumber(gold)!, kind, tol, q) ? 1 : 0;
}

/** Rules 1–3 for one gold value. */
function claimMatches(pred: string, g: ParsedNumber, kind: NumericGoldKind, tol: NumericTolerance, q: QuestionUnit): boolean {
  const accepts = (n: ParsedNumber) => (kind === 'year' ? n.value === g.value : quantityMatches(n, g, tol, q));
  const cands = candidates(pred, g, kind);
  if (cands.length === 0) return false;

  // Rule 2: a marked result.
  for (let i = cands.length - 1; i >= 0; i--) {
    const c = cands[i]!;
    const before = pred.slice(Math.max(0, c.index - 16), c.index).replace(/[$€£¥₹(\s\-−]+$/u, '');
    if (MARKER_RE.test(before)) return accepts(c);
  }

  // Rule 3: distinct values.
  const distinct: ParsedNumber[] = [];
  for (const c of cands) if (!distinct.some((d) => (kind === 'year' ? d.value === c.value : sameQuantity(d, c, tol, q)))) distinct.push(c);
  if (distinct.length === 1) return accepts(distinct[0]!);
  if (distinct.length === 2) {
    const [a, b] = distinct as [ParsedNumber, ParsedNumber];
    const between = pred.slice(Math.min(a.index, b.index), Math.max(a.index, b.index));
    const lead = pred.slice(Math.max(0, Math.min(a.index, b.index) - 12), Math.min(a.index, b.index));
    // Alternatives: `30% or 40%`, `30%/40%`, `either 30% or 40%` — the or-word sits right
    // between the two values (not "at or below … 450 mm").
    const closeGap = (between.match(/[\p{L}\p{N}]+/gu) ?? []).length <= 4;
    if ((closeGap && ALTERNATIVE_RE.test(between.slice(a.text.length))) || /\b(?:either|between)\s*\S*$/i.test(lead)) return false;
    return accepts(a) || accepts(b);
  }
  return enumerates(pred, cands) ? false : accepts(cands[0]!);
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
  // A denied date is no claim, as a denied number is none: "Not March 5, 2021; it closed on
  // April 9, 2021." claims April 9 only.
  const dates = findDates(pred).filter((d) => !deniedBefore(pred, d.start));
  const agrees = (d: DateParts) =>
    (gold.year === null || d.year === gold.year) && (gold.month === null || d.month === gold.month) && (gold.day === null || d.day === gold.day);
  const distinct = new Set(dates.map((d) => `${d.year}-${d.month}-${d.day}`));
  return distinct.size >= 1 && distinct.size <= 2 && dates.some(agrees) && !(distinct.size === 2 && ALTERNATIVE_RE.test(pred));
}

/** The answer names the gold's time of day (`14:00` = `2 PM`), and offers no other as an alternative. */
function timeMatch(pred: string, minutes: number): boolean {
  const times = findTimes(pred).filter((t) => !deniedBefore(pred, t.start));
  const distinct = new Set(times.map((t) => t.minutes));
  return distinct.has(minutes) && distinct.size <= 2 && !(distinct.size === 2 && ALTERNATIVE_RE.test(pred));
}

/** The answer states the gold's range: both ends agree (`36–55 µg/m³` = `between 36 and 55`). */
function rangeMatch(pred: string, gold: ParsedRange, tol: NumericTolerance, q: QuestionUnit): boolean {
  const ranges = findRanges(pred).filter((r) => unitsAgree(r.lo, gold.lo) && unitsAgree(r.hi, gold.hi));
  const same = (r: ParsedRange) => quantityMatches(r.lo, gold.lo, tol, q) && quantityMatches(r.hi, gold.hi, tol, q);
  if (!ranges.some(same)) return false;
  // Ranges offered as alternatives (`36–55 or 56–150`) or listed bare (`0–12, 13–35, 36–55`)
  // claim none; ranges each tied to what they describe ("orange for 36–55 µg/m³ (poor)") do.
  let run = 1;
  for (let i = 1; i < ranges.length; i++) {
    const gap = pred.slice(ranges[i - 1]!.end, ranges[i]!.start).replace(/[\p{L}µ°]+\/[\p{L}µ]+[²³23]?/gu, ' ');
    if (/\b(?:or|either)\b/i.test(gap) && (gap.match(/[\p{L}\p{N}]+/gu) ?? []).length <= 4) return false;
    // A bare list: nothing between two ranges but separators (no label of what each one is).
    run = /[,;]|\band\b/i.test(gap) && (gap.match(/[\p{L}\p{N}]+/gu) ?? []).every((w) => /^(?:and|or)$/i.test(w)) ? run + 1 : 1;
    if (run >= 3) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Sentence golds

/** The numeric claims of a sentence gold: its quantities (and ranges), of the kind the question asks for when that leaves any. */
export function goldClaims(gold: string, question: string | undefined): Array<ParsedNumber | ParsedRange> {
  const numbers = parseNumbers(gold).filter((n) => n.role === null && !n.negated && !n.yearLike);
  const claims: Array<ParsedNumber | ParsedRange> = [...numbers, ...findRanges(gold)];
  const want = expectedQuantity(question);
  const first = (c: ParsedNumber | ParsedRange) => ('lo' in c ? c.lo : c);
  const ofKind = claims.filter((c) => {
    const n = first(c);
    if (want === 'percent') return n.percent;
    if (want === 'money') return n.currency !== null || (n.magnitude !== 1 && !n.percent);
    if (want === 'count') return !n.percent && n.currency === null && canonicalUnit(n.unit)?.dimension !== 'time';
    if (want === 'duration') return canonicalUnit(n.unit)?.dimension === 'time';
    return true;
  });
  return (ofKind.length ? ofKind : claims).sort((a, b) => first(a).index - first(b).index);
}

/**
 * A sentence gold to a quantity question, judged by its numeric claims: 1 when the answer states
 * every claim (each as rule 1–3 would for a numeric gold of that value, or the same range) and
 * offers no alternatives; 0 when not; null when the rule does not apply (the question asks for
 * no quantity, or the gold has no numeric claim).
 */
export function sentenceClaimsMatch(pred: string, gold: string, question: string | undefined, tol: NumericTolerance = {}): number | null {
  if (!asksForQuantity(question)) return null;
  const claims = goldClaims(gold, question);
  if (claims.length === 0) return null;
  const q = questionUnit(question);
  if (claims.length === 1) {
    const c = claims[0]!;
    return ('lo' in c ? rangeMatch(pred, c, tol, q) : claimMatches(pred, c, 'number', tol, q)) ? 1 : 0;
  }
  // Several claims: each must be stated (not denied, not a range end), and the answer must not enumerate alternatives.
  const stated = (c: ParsedNumber | ParsedRange) => ('lo' in c ? rangeMatch(pred, c, tol, q) : candidates(pred, c, 'number').some((n) => quantityMatches(n, c, tol, q)));
  if (!claims.every(stated)) return 0;
  return /\b(?:either|or)\b/i.test(pred) && enumerates(pred, parseNumbers(pred).filter((n) => n.role === null)) ? 0 : 1;
}
