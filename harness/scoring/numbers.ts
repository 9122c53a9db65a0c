// Numbers with units in free-text answers, for numeric match (see answer.ts).
//
// Financial and technical answers write the same quantity many ways: `$1,577.00`, `$1.6 billion`,
// `(1,234)` (accounting negative), `24.5%`, `24.5 percent`, `$3.7B`, `450 million`, `14 days`.
// `parseNumbers` finds every number in a text and reads, around each one:
//   - sign: a minus glued to the number (`-5`, `−14.76%`, `-$5`) that is not a range dash
//     (`pages 5 - 7`, `5-7`), or accounting parentheses around an amount that looks like money:
//     a currency, thousands separators or decimals (`(1,234)`, `$(1,234)`, `(12.5)`); a bare small
//     integer in parentheses is a label (`see step (5)`), not a negative;
//   - currency: `$ € £ ¥ ₹` or a code (`USD`, `US$`, `EUR`, `GBP`, `JPY`, `INR`) just before it;
//   - magnitude: the words thousand/million/billion/trillion (singular or plural) always; the
//     abbreviations k, m, mm, mn, b, bn, t, tn only after a currency (`$3.7B`, `USD 450 mn`),
//     because without one `5 m`, `250 MB` or `3 mm` are units, not magnitudes;
//   - percent: `%`, `percent`, `per cent`, `pct`;
//   - unit: the next word (`days`, `seconds`, `MB`); `canonicalUnit` maps known units (time,
//     data size) to a dimension and factor so `900 seconds` = `15 minutes` but ≠ `900 minutes`;
//   - role: `date` for the day and year of a date (`December 31, 2017`, `2023-01-28`), `label`
//     for a number that names a thing (`page 5`, `step (5)`, `Note 12`, `Item 7`); neither is a
//     quantity an answer claims (see numericJudge.ts).
// A number glued to a preceding letter (`FY2022`, `Q2`, `S10`, `EC2`) is part of a name, not a
// quantity, and is skipped. Numbers written as words ("fourteen") are not read.

import { RecentTexts } from './recentTexts.ts';

export interface ParsedNumber {
  /** The number as written, with its sign: `$1.2 billion` → 1.2, `(1,234)` → -1234. */
  value: number;
  /** 1, 1e3, 1e6, 1e9 or 1e12 from a magnitude word or abbreviation. */
  magnitude: number;
  /** value × magnitude. */
  scaled: number;
  percent: boolean;
  currency: string | null;
  /** The word after the number (after any magnitude/percent), lowercased, e.g. `days`. */
  unit: string | null;
  /** True for a bare integer 1900–2099 with nothing around it: most likely a year. */
  yearLike: boolean;
  /** The matched text, for messages. */
  text: string;
  /** `date`: part of a date; `label`: names a page, step, note…; null: a quantity. */
  role: 'date' | 'label' | null;
  /** Offset of the digits in the input. */
  index: number;
}

// Digits with thousands separators (`1,577.00`), plain digits (`1577.00`), or a leading-dot
// decimal (`.5`). Not preceded by a letter, digit, `_` or `.` (so `FY2022` and the `.3` of
// `1.2.3` are not numbers).
const NUMBER_RE = /(?<![\p{L}\p{N}_.])(?:\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)/gu;

const CURRENCY_BEFORE_RE = /(?:([$€£¥₹])|(?<![\p{L}])(US\$|USD|EUR|GBP|JPY|INR)\s?)\s*$/iu;
// A minus that is a sign, not a hyphen: not glued to a preceding letter or digit (`COVID-19`,
// `2023-01`).
// The minus must touch the number (a spaced ` - ` is a dash) and must not follow a number (a
// range: `5 - 7`, `5-7`).
const MINUS_BEFORE_RE = /(?<![\p{L}\p{N}])(?<!\p{N}\s*)[-−]$/u;
// Words after which a number names a thing rather than stating a quantity.
const LABEL_BEFORE_RE =
  /(?<![\p{L}])(?:pages?|pp?\.|steps?|notes?|items?|sections?|§|figures?|fig\.|tables?|exhibits?|footnotes?|chapters?|parts?|lines?|rows?|columns?|paragraphs?|clauses?|rules?|questions?|options?|no\.|#)\s*\(?\s*$/iu;
const RANGE_BEFORE_RE = /\p{N}\s*[-–—]\s*$/u;

const MAGNITUDE_WORDS: Record<string, number> = {
  thousand: 1e3,
  million: 1e6,
  billion: 1e9,
  trillion: 1e12,
};
const MAGNITUDE_ABBREVIATIONS: Record<string, number> = {
  k: 1e3,
  m: 1e6,
  mm: 1e6,
  mn: 1e6,
  b: 1e9,
  bn: 1e9,
  t: 1e12,
  tn: 1e12,
};
const MAGNITUDE_WORD_RE = /^\s*(thousand|million|billion|trillion)s?(?![\p{L}\p{N}])/iu;
const MAGNITUDE_ABBR_RE = /^\s?(k|mm|mn|m|bn|b|tn|t)(?![\p{L}\p{N}])/iu;
const PERCENT_RE = /^\s*(?:%|per\s?cent(?![\p{L}])|pct(?![\p{L}]))/iu;
const UNIT_RE = /^\s*([\p{L}]+)/u;

// Every number and every date pattern starts with an ASCII digit (`\d`, u flag): a text without
// one has none (answers in words, most free-text golds) and needs no regex pass.
const HAS_DIGIT_RE = /\d/;

const recentNumbers = new RecentTexts((text) => (HAS_DIGIT_RE.test(text) ? readNumbers(text) : []));

export function parseNumbers(text: string): readonly ParsedNumber[] {
  return recentNumbers.get(text);
}

function readNumbers(text: string): ParsedNumber[] {
  const out: ParsedNumber[] = [];
  const dateSpans = findDates(text).map((d) => [d.start, d.end] as const);
  for (const m of text.matchAll(NUMBER_RE)) {
    const digits = m[0];
    const index = m.index ?? 0;
    let before = text.slice(Math.max(0, index - 12), index);
    let after = text.slice(index + digits.length);
    let value = Number(digits.replace(/,/g, ''));
    if (!Number.isFinite(value)) continue;

    // Accounting negative: `(1,234)`, `$(1,234)`, `($1,234)`; the parenthesis may sit on
    // either side of the currency symbol.
    let negative = false;
    let currency: string | null = null;
    let openParen = false;
    if (/\(\s*$/.test(before)) {
      openParen = true;
      before = before.replace(/\(\s*$/, '');
    }
    const cur = CURRENCY_BEFORE_RE.exec(before);
    if (cur) {
      currency = (cur[1] ?? cur[2] ?? '').toUpperCase();
      before = before.slice(0, cur.index);
    }
    if (!openParen && /\(\s*$/.test(before)) {
      openParen = true;
      before = before.replace(/\(\s*$/, '');
    }
    if (MINUS_BEFORE_RE.test(before)) negative = true;
    const wider = text.slice(Math.max(0, index - 24), index);
    const label = LABEL_BEFORE_RE.test(wider);

    let magnitude = 1;
    const word = MAGNITUDE_WORD_RE.exec(after);
    if (word) {
      magnitude = MAGNITUDE_WORDS[word[1]!.toLowerCase()]!;
      after = after.slice(word[0].length);
    } else if (currency) {
      const abbr = MAGNITUDE_ABBR_RE.exec(after);
      if (abbr) {
        magnitude = MAGNITUDE_ABBREVIATIONS[abbr[1]!.toLowerCase()]!;
        after = after.slice(abbr[0].length);
      }
    }
    if (openParen && /^\s*\)/.test(after)) {
      // `(1,234)` and `$(12.5)` are accounting negatives; `(5)` after `step` is a label.
      const moneyLike = currency !== null || /[,.]/.test(digits) || magnitude !== 1;
      if (moneyLike && !label) {
        negative = true;
        after = after.replace(/^\s*\)/, '');
      }
    }
    let percent = false;
    const pct = PERCENT_RE.exec(after);
    if (pct) {
      percent = true;
      after = after.slice(pct[0].length);
    }
    const unitMatch = percent ? null : UNIT_RE.exec(after);
    const unit = unitMatch ? unitMatch[1]!.toLowerCase() : null;

    if (negative) value = -value;
    const yearLike =
      /^\d{4}$/.test(digits) && value >= 1900 && value <= 2099 && !negative && !currency && !percent && magnitude === 1;
    out.push({
      value,
      magnitude,
      scaled: value * magnitude,
      percent,
      currency,
      unit,
      yearLike,
      text: digits,
      index,
      role: dateSpans.some(([a, b]) => index >= a && index < b) ? 'date' : label ? 'label' : null,
    });
    // A range's second number is a label when its first one is (`pages 5 - 7`).
    const prev = out[out.length - 2];
    if (prev?.role === 'label' && out[out.length - 1]!.role === null && RANGE_BEFORE_RE.test(text.slice(prev.index, index))) {
      out[out.length - 1]!.role = 'label';
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Dates

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE_PATTERNS: Array<{ re: RegExp; read: (m: RegExpExecArray) => DateParts }> = [
  // December 31, 2017 · Dec 31 · December 31st 2017
  {
    re: new RegExp(`(?<![\\p{L}])${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?![\\p{N}])(?:,?\\s+(\\d{4})(?![\\p{N}]))?`, 'giu'),
    read: (m) => ({ month: monthIndex(m[1]!), day: Number(m[2]), year: m[3] ? Number(m[3]) : null }),
  },
  // 31 December 2017 · 31st of December
  {
    re: new RegExp(`(?<![\\p{N}])(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}(?![\\p{L}])(?:,?\\s+(\\d{4})(?![\\p{N}]))?`, 'giu'),
    read: (m) => ({ day: Number(m[1]), month: monthIndex(m[2]!), year: m[3] ? Number(m[3]) : null }),
  },
  // December 2017
  {
    re: new RegExp(`(?<![\\p{L}])${MONTH}\\s+(\\d{4})(?![\\p{N}])`, 'giu'),
    read: (m) => ({ month: monthIndex(m[1]!), day: null, year: Number(m[2]) }),
  },
  // 2023-01-28
  {
    re: /(?<![\p{N}])(\d{4})-(\d{1,2})-(\d{1,2})(?![\p{N}])/gu,
    read: (m) => ({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) }),
  },
  // 01/28/2023 (US order)
  {
    re: /(?<![\p{N}/])(\d{1,2})\/(\d{1,2})\/(\d{4})(?![\p{N}])/gu,
    read: (m) => ({ month: Number(m[1]), day: Number(m[2]), year: Number(m[3]) }),
  },
];

export interface DateParts {
  year: number | null;
  month: number | null;
  day: number | null;
}

function monthIndex(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

/** Dates written out in a text, with their spans; overlapping matches keep the first found. */
export function findDates(text: string): ReadonlyArray<DateParts & { start: number; end: number }> {
  return recentDates.get(text);
}
const recentDates = new RecentTexts((text) => (HAS_DIGIT_RE.test(text) ? readDates(text) : []));

function readDates(text: string): Array<DateParts & { start: number; end: number }> {
  const out: Array<DateParts & { start: number; end: number }> = [];
  for (const { re, read } of DATE_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const start = m.index ?? 0;
      const end = start + m[0].length;
      if (out.some((d) => start < d.end && end > d.start)) continue;
      const parts = read(m as RegExpExecArray);
      if (parts.month !== null && (parts.month < 1 || parts.month > 12)) continue;
      if (parts.day !== null && (parts.day < 1 || parts.day > 31)) continue;
      out.push({ ...parts, start, end });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

// ---------------------------------------------------------------------------------------------
// Units

export interface CanonicalUnit {
  dimension: 'time' | 'data' | 'length';
  /** Size of the unit in the dimension's base (seconds, bytes). */
  factor: number;
}

const UNIT_TABLE: Array<[CanonicalUnit, string[]]> = [
  [{ dimension: 'time', factor: 1e-3 }, ['ms', 'msec', 'millisecond', 'milliseconds']],
  [{ dimension: 'time', factor: 1 }, ['s', 'sec', 'secs', 'second', 'seconds']],
  [{ dimension: 'time', factor: 60 }, ['min', 'mins', 'minute', 'minutes']],
  [{ dimension: 'time', factor: 3600 }, ['h', 'hr', 'hrs', 'hour', 'hours']],
  [{ dimension: 'time', factor: 86400 }, ['day', 'days']],
  [{ dimension: 'time', factor: 7 * 86400 }, ['week', 'weeks', 'wk', 'wks']],
  [{ dimension: 'time', factor: 30.4375 * 86400 }, ['month', 'months']],
  [{ dimension: 'time', factor: 365.25 * 86400 }, ['year', 'years', 'yr', 'yrs']],
  [{ dimension: 'length', factor: 1e-3 }, ['mm', 'millimetre', 'millimetres', 'millimeter', 'millimeters']],
  [{ dimension: 'length', factor: 1e-2 }, ['cm', 'centimetre', 'centimetres', 'centimeter', 'centimeters']],
  [{ dimension: 'length', factor: 1 }, ['m', 'metre', 'metres', 'meter', 'meters']],
  [{ dimension: 'length', factor: 1e3 }, ['km', 'kilometre', 'kilometres', 'kilometer', 'kilometers']],
  [{ dimension: 'data', factor: 1 }, ['byte', 'bytes']],
  [{ dimension: 'data', factor: 1e3 }, ['kb', 'kilobyte', 'kilobytes']],
  [{ dimension: 'data', factor: 1e6 }, ['mb', 'megabyte', 'megabytes']],
  [{ dimension: 'data', factor: 1e9 }, ['gb', 'gigabyte', 'gigabytes']],
  [{ dimension: 'data', factor: 1e12 }, ['tb', 'terabyte', 'terabytes']],
];
const UNITS = new Map<string, CanonicalUnit>(UNIT_TABLE.flatMap(([u, names]) => names.map((n) => [n, u] as [string, CanonicalUnit])));

/** A known unit word (`seconds`, `MB`) as dimension and factor; null for any other word. */
export function canonicalUnit(word: string | null): CanonicalUnit | null {
  return word ? (UNITS.get(word.toLowerCase()) ?? null) : null;
}

/**
 * The number a gold answer is about: the first one that is not a bare year, else the first.
 * ("In 2022, revenue was $5.4B" is about 5.4e9; "2022" alone is about 2022.)
 */
export function mainNumber(gold: string): ParsedNumber | null {
  const all = parseNumbers(gold).filter((n) => n.role === null);
  return all.find((n) => !n.yearLike) ?? all[0] ?? null;
}

export interface NumericTolerance {
  /** Relative tolerance, against the gold value. Default 0.01 (1%). */
  relTol?: number;
  /** Absolute tolerance. Default 0. A match needs |pred − gold| ≤ max(relTol·|gold|, absTol). */
  absTol?: number;
}

function close(pred: number, gold: number, relTol: number, absTol: number): boolean {
  return Math.abs(pred - gold) <= Math.max(relTol * Math.abs(gold), absTol);
}

/**
 * Does one predicted number match one gold number?
 *  1. Scaled values agree (`$1.2 billion` = `1,200 million` = `1200000000`).
 *  2. When only one side (or neither) states a magnitude, the values as written may agree: the
 *     unit was left implicit by the question ("in USD millions": gold `$1577.00`, prediction
 *     `$1,577 million`). Both sides stating different magnitudes never match (`1.2 million` is
 *     not `1.2 billion`).
 *  3. Percentages compare as numbers as written (`24.5%` = `24.5 percent` = `24.5`); when exactly
 *     one side is a percentage the other may also be its fraction (`24.5%` = `0.245`), since
 *     ratio questions are answered both ways.
 * Signs must agree: `(1,234)` is −1234 and does not match `1,234`.
 */
export function numbersMatch(pred: ParsedNumber, gold: ParsedNumber, tol: NumericTolerance = {}): boolean {
  const relTol = tol.relTol ?? 0.01;
  const absTol = tol.absTol ?? 0;
  if (close(pred.scaled, gold.scaled, relTol, absTol)) return true;
  if ((pred.magnitude === 1 || gold.magnitude === 1) && close(pred.value, gold.value, relTol, absTol)) return true;
  if (pred.percent !== gold.percent) {
    const p = pred.percent ? pred.scaled / 100 : pred.scaled;
    const g = gold.percent ? gold.scaled / 100 : gold.scaled;
    if (close(p, g, relTol, absTol)) return true;
  }
  return false;
}
