// Numbers with units in free-text answers, for numeric match (see answer.ts).
//
// Financial and technical answers write the same quantity many ways: `$1,577.00`, `$1.6 billion`,
// `(1,234)` (accounting negative), `24.5%`, `24.5 percent`, `$3.7B`, `450 million`, `14 days`,
// `five working days`. `parseNumbers` finds every number in a text — digits, and numbers written
// as words (numberWords.ts) — and reads, around each one:
//   - sign: a minus glued to the number (`-5`, `−14.76%`, `-$5`) that is not a range dash
//     (`pages 5 - 7`, `5-7`), or accounting parentheses around an amount that looks like money:
//     a currency, thousands separators or decimals (`(1,234)`, `$(1,234)`, `(12.5)`); a bare small
//     integer in parentheses is a label (`see step (5)`), not a negative;
//   - currency: `$ € £ ¥ ₹` or a code (`USD`, `US$`, `EUR`, `GBP`, `JPY`, `INR`) just before it,
//     or a currency word or code after it and its scale (`1.2 billion euros`, `500 million yen`,
//     `1.2 billion USD`, `3 million pounds`);
//   - magnitude: the words thousand/million/billion/trillion (singular or plural) always; the
//     abbreviations k, m, mm, mn, b, bn, t, tn only after a currency (`$3.7B`, `USD 450 mn`),
//     because without one `5 m`, `250 MB` or `3 mm` are units, not magnitudes;
//   - percent: `%`, `percent`, `per cent`, `pct`; `basis points` are hundredths of a percent
//     (`15 basis points` is 0.15%);
//   - unit: the next word, or the word after a qualifier (`5 working days`, `8 business hours`
//     are in days and hours); a function word (`in`, `of`, `and`…) is no unit. `canonicalUnit`
//     maps known units (time, length, data, bit rates, frequency, pixels, sound…) to a dimension
//     and factor so `900 seconds` = `15 minutes` but ≠ `900 minutes`, and `12 MP` ≠ `12 hours`;
//   - precision: the decimals as written (`1.6` has 1), and whether an approximation word stands
//     before it (`about 22 dB`, `~90%`, `approximately $20 billion`);
//   - negation: a number the text denies (`not 25`, `isn't 25`, `rather than 25`, `instead of
//     25`) is flagged `negated`; a bound (`not more than 25`, `not less than 25`) is not a denial
//     (denial.ts, which dates, choices and text golds share);
//   - role: `date` for the day and year of a date (`December 31, 2017`, `2023-01-28`), `time`
//     for the figures of a time of day (`2:30 PM`), `label` for a number that names a thing
//     (`page 5`, `step (5)`, `Note 12`, `Item 7`), `range` for the ends of a range (`3-5 days`,
//     `36 to 55 µg/m³`, `between 3 and 5`; see findRanges); none of these is a quantity an
//     answer claims on its own (see numericJudge.ts).
// A number glued to a preceding letter (`FY2022`, `Q2`, `S10`, `EC2`) is part of a name, not a
// quantity, and is skipped.

import { RecentTexts } from './recentTexts.ts';
import { findWordNumbers } from './numberWords.ts';
import { findDates, findTimes } from './dates.ts';
import { deniedBefore } from './denial.ts';

export { findDates, findTimes, type DateParts, type TimeOfDay } from './dates.ts';

export interface ParsedNumber {
  /** The number as written, with its sign: `$1.2 billion` → 1.2, `(1,234)` → -1234. */
  value: number;
  /** 1, 1e3, 1e6, 1e9 or 1e12 from a magnitude word or abbreviation. */
  magnitude: number;
  /** value × magnitude. */
  scaled: number;
  percent: boolean;
  currency: string | null;
  /** The unit word (see the top), lowercased, e.g. `days`; null when none. */
  unit: string | null;
  /** True for a bare integer 1900–2099 with nothing around it: most likely a year. */
  yearLike: boolean;
  /** The matched text (digits or words), for messages. */
  text: string;
  /** `date` / `time`: part of a date or time of day; `label`: names a page, step, note…; `range`: an end of a range; null: a quantity. */
  role: 'date' | 'time' | 'label' | 'range' | null;
  /** Offset of the number in the input. */
  index: number;
  /** Digits after the decimal point as written (`1.60` → 2); 0 for integers and words. */
  decimals: number;
  /** An approximation word stands before it (`about`, `approximately`, `~`…). */
  approx: boolean;
  /** The text denies this value (`not 25`, `rather than 25`). */
  negated: boolean;
  /** Written as words (`five`). */
  word: boolean;
}

/** A range of values: `3-5 days`, `36 to 55 µg/m³`, `between $5 and $7 million`. */
export interface ParsedRange {
  lo: ParsedNumber;
  hi: ParsedNumber;
  start: number;
  end: number;
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
const APPROX_BEFORE_RE = /(?:(?<![\p{L}])(?:about|approximately|approx\.?|around|roughly|nearly|almost|circa|some|an estimated|estimated)|~|≈|(?<![\p{L}])c\.)\s*$/iu;
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
// A currency written after the amount, as a word or a code: `1.2 billion euros`, `500 million
// yen`, `1.2 billion USD`, `£`-less `3 million pounds sterling`. Without this, `1.2 billion
// euros` read as 1.2e9 with an unknown unit word, which is never compared, so it matched
// `$1.2 billion`. A bare `pounds` is money only after a scale word (`3 million pounds`): `3
// pounds` may be a weight.
const CURRENCY_WORDS: Array<[RegExp, string]> = [
  [/^(?:U\.?S\.?\s+dollars?|dollars?|USD|US\$)/iu, 'USD'],
  [/^(?:canadian\s+dollars?|CAD)/iu, 'CAD'],
  [/^(?:australian\s+dollars?|AUD)/iu, 'AUD'],
  [/^(?:euros?|EUR)/iu, 'EUR'],
  [/^(?:pounds?\s+sterling|sterling|GBP)/iu, 'GBP'],
  [/^(?:yen|JPY)/iu, 'JPY'],
  [/^(?:yuan|renminbi|RMB|CNY)/iu, 'CNY'],
  [/^(?:swiss\s+francs?|CHF)/iu, 'CHF'],
  [/^(?:rupees?|INR)/iu, 'INR'],
];
const POUNDS_RE = /^pounds?/iu;
// A basis point is a hundredth of a percentage point: `15 basis points` is 0.15%, not 15%. (The
// abbreviations `bp`/`bps`, which also mean bits per second, are read as basis points only beside
// a percentage: numericJudge.ts.)
const BASIS_POINTS_RE = /^\s*basis[\s-]+points?(?![\p{L}])/iu;

/** The currency word or code at the start of `after` and its length, or null. */
function currencyAfter(after: string, scaled: boolean): { code: string; length: number } | null {
  const lead = /^\s*/.exec(after)![0].length;
  const rest = after.slice(lead);
  for (const [re, code] of scaled ? [...CURRENCY_WORDS, [POUNDS_RE, 'GBP'] as [RegExp, string]] : CURRENCY_WORDS) {
    const m = re.exec(rest);
    if (m && !/^[\p{L}\p{N}]/u.test(rest.slice(m[0].length))) return { code, length: lead + m[0].length };
  }
  return null;
}
// A unit word: letters, and the `/m³` of `µg/m³`; `°C` counts.
const UNIT_WORD_RE = /^[\s-]*(°?[\p{L}µ]+(?:\/[\p{L}µ]+[²³23]?)?)/u;
const FUNCTION_WORDS = new Set(
  'a an the of in on at to for and or but nor by from with as is was are were be been being this that these those than then per it its their his her our your into onto over under up down so if when while which who whom what where why how vs versus each every all any some no not also only just about around after before during since until till within without between among against via plus minus times whereas respectively compared'.split(' '),
);

// Every number, date and time pattern starts with an ASCII digit (`\d`, u flag), and every word
// number with one of a few letters: a text with neither holds no number.
const HAS_DIGIT_RE = /\d/;
const MAYBE_WORD_NUMBER_RE = /(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|zero)/i;

interface Parsed {
  numbers: ParsedNumber[];
  ranges: ParsedRange[];
}
const NO_NUMBERS: Parsed = { numbers: [], ranges: [] };

const recentNumbers = new RecentTexts((text) => (HAS_DIGIT_RE.test(text) || MAYBE_WORD_NUMBER_RE.test(text) ? readNumbers(text) : NO_NUMBERS));

export function parseNumbers(text: string): readonly ParsedNumber[] {
  return recentNumbers.get(text).numbers;
}

/** The ranges of a text (their ends are numbers with role `range`). */
export function findRanges(text: string): readonly ParsedRange[] {
  return recentNumbers.get(text).ranges;
}

/** The unit after a number: the next word, or the known unit after a qualifier; null for a function word. */
function readUnit(after: string): string | null {
  const first = UNIT_WORD_RE.exec(after);
  if (!first) return null;
  const w1 = first[1]!.toLowerCase();
  if (FUNCTION_WORDS.has(w1)) return null;
  if (canonicalUnit(w1)) return w1;
  const w2 = UNIT_WORD_RE.exec(after.slice(first[0].length))?.[1]?.toLowerCase();
  if (w2 && canonicalUnit(w2)) return w2;
  return w1;
}

/** A word number "one" counts only before a noun, a unit or a scale word ("one device", "one hour", "one million"). */
function unitOrScaleAfter(after: string): boolean {
  if (MAGNITUDE_WORD_RE.test(after) || PERCENT_RE.test(after)) return true;
  return readUnit(after) !== null;
}

function readNumbers(text: string): Parsed {
  const out: ParsedNumber[] = [];
  const dateSpans = findDates(text).map((d) => [d.start, d.end] as const);
  const timeSpans = findTimes(text).map((t) => [t.start, t.end] as const);
  const tokens: Array<{ index: number; text: string; value: number; decimals: number; word: boolean }> = [];
  for (const m of text.matchAll(NUMBER_RE)) {
    const digits = m[0];
    const value = Number(digits.replace(/,/g, ''));
    if (!Number.isFinite(value)) continue;
    const dot = digits.indexOf('.');
    tokens.push({ index: m.index ?? 0, text: digits, value, decimals: dot < 0 ? 0 : digits.length - dot - 1, word: false });
  }
  for (const w of findWordNumbers(text, unitOrScaleAfter)) tokens.push({ index: w.index, text: w.text, value: w.value, decimals: 0, word: true });
  tokens.sort((a, b) => a.index - b.index);

  for (const t of tokens) {
    const { index, text: digits } = t;
    let value = t.value;
    let before = text.slice(Math.max(0, index - 12), index);
    let after = text.slice(index + digits.length);

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
    if (!t.word && MINUS_BEFORE_RE.test(before)) negative = true;
    const wider = text.slice(Math.max(0, index - 24), index);
    const label = LABEL_BEFORE_RE.test(wider);
    // The words before the number, without its currency, parenthesis or sign: `about $(5`.
    const lead = text.slice(Math.max(0, index - 24), index).replace(/(?:[$€£¥₹(\s\-−]|US\$|USD|EUR|GBP|JPY|INR)+$/iu, '');
    const approx = APPROX_BEFORE_RE.test(lead);

    let magnitude = 1;
    const word = MAGNITUDE_WORD_RE.exec(after);
    if (word) {
      magnitude = MAGNITUDE_WORDS[word[1]!.toLowerCase()]!;
      after = after.slice(word[0].length);
    } else {
      // An abbreviation is a scale only beside a currency: `$3.7B`, `3.7bn euros` (`5 m` is metres).
      const abbr = MAGNITUDE_ABBR_RE.exec(after);
      if (abbr && (currency || currencyAfter(after.slice(abbr[0].length), true))) {
        magnitude = MAGNITUDE_ABBREVIATIONS[abbr[1]!.toLowerCase()]!;
        after = after.slice(abbr[0].length);
      }
    }
    const curWord = currencyAfter(after, magnitude !== 1);
    if (curWord) {
      // `$1.2 billion USD` states one currency twice; a prefix currency wins if they differ.
      currency ??= curWord.code;
      after = after.slice(curWord.length);
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
    let decimals = t.decimals;
    const pct = PERCENT_RE.exec(after);
    const bp = pct ? null : BASIS_POINTS_RE.exec(after);
    if (pct) {
      percent = true;
      after = after.slice(pct[0].length);
    } else if (bp) {
      percent = true;
      value /= 100;
      decimals += 2;
      after = after.slice(bp[0].length);
    }
    const unit = percent ? null : readUnit(after);

    if (negative) value = -value;
    const yearLike =
      !t.word && /^\d{4}$/.test(digits) && value >= 1900 && value <= 2099 && !negative && !currency && !percent && magnitude === 1;
    const inSpan = (spans: ReadonlyArray<readonly [number, number]>) => spans.some(([a, b]) => index >= a && index < b);
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
      role: inSpan(dateSpans) ? 'date' : inSpan(timeSpans) ? 'time' : label ? 'label' : null,
      decimals,
      approx,
      negated: deniedBefore(text, index),
      word: t.word,
    });
    // A range's second number is a label when its first one is (`pages 5 - 7`).
    const prev = out[out.length - 2];
    if (prev?.role === 'label' && out[out.length - 1]!.role === null && RANGE_BEFORE_RE.test(text.slice(prev.index, index))) {
      out[out.length - 1]!.role = 'label';
    }
  }
  return { numbers: out, ranges: readRanges(text, out) };
}

// ---------------------------------------------------------------------------------------------
// Ranges

// Between the two ends: an optional unit or scale word on the first end, then a dash or `to`
// (`3-5`, `3 – 5`, `3 days to 5 days`, `$5 million to $7 million`), or `and` after `between`.
const RANGE_JOIN_RE = /^\s*(?:%\s*|[\p{L}µ°][\p{L}µ/³²]*\s*){0,2}(-|–|—|to|through|and)\s*(?:[$€£¥₹]|US\$|USD|EUR|GBP)?\s*$/iu;
// A change, not a range: "rose from 5 to 7", "went from $5.0 billion to $5.4 billion".
const CHANGE_BEFORE_RE = /(?:rose|rise|rising|risen|fell|fall|falling|fallen|increas\w*|decreas\w*|grew|grow\w*|declin\w*|went|go(?:es|ing)?|improv\w*|dropp?\w*|jump\w*|climb\w*|chang\w*|mov\w*|expand\w*|shr[iau]nk\w*|reduc\w*|rais\w*|cut|up|down|moved|shift\w*)\s+(?:\w+\s+){0,3}from\s*[$€£¥₹]?\s*$/iu;

function readRanges(text: string, numbers: ParsedNumber[]): ParsedRange[] {
  const ranges: ParsedRange[] = [];
  for (let i = 0; i + 1 < numbers.length; i++) {
    const lo = numbers[i]!;
    const hi = numbers[i + 1]!;
    if (lo.role !== null || hi.role !== null || lo.yearLike || hi.yearLike || lo.negated) continue;
    if (lo.currency && hi.currency && lo.currency !== hi.currency) continue;
    if (lo.percent && !hi.percent) continue;
    if ((lo.currency === null) !== (hi.currency === null) && lo.currency !== null) continue;
    const between = text.slice(lo.index + lo.text.length, hi.index);
    const join = RANGE_JOIN_RE.exec(between);
    if (!join) continue;
    const lead = text.slice(Math.max(0, lo.index - 60), lo.index);
    const word = join[1]!.toLowerCase();
    if (word === 'and' && !/(?<![\p{L}])between\s*[$€£¥₹]?\s*$/iu.test(lead)) continue;
    if (word === 'to' && CHANGE_BEFORE_RE.test(lead)) continue;
    // A unit stated once covers both ends: `3 to 5 days`, `5 to 7 million`, `10-20%`.
    if (lo.unit === null && hi.unit !== null && word !== 'and') lo.unit = hi.unit;
    if (lo.magnitude === 1 && hi.magnitude !== 1) {
      lo.magnitude = hi.magnitude;
      lo.scaled = lo.value * lo.magnitude;
    }
    if (!lo.percent && hi.percent) lo.percent = true;
    if (lo.currency === null && hi.currency !== null) lo.currency = hi.currency;
    lo.role = 'range';
    hi.role = 'range';
    ranges.push({ lo, hi, start: lo.index, end: hi.index + hi.text.length });
    i++;
  }
  return ranges;
}

// ---------------------------------------------------------------------------------------------
// Units

export interface CanonicalUnit {
  /** What the unit measures; units of one dimension convert, of two never match. */
  dimension: string;
  /** Size of the unit in the dimension's base (seconds, bytes, metres…). */
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
  [{ dimension: 'length', factor: 0.3048 }, ['ft', 'foot', 'feet']],
  [{ dimension: 'length', factor: 1609.344 }, ['mi', 'mile', 'miles']],
  [{ dimension: 'data', factor: 1 }, ['byte', 'bytes']],
  [{ dimension: 'data', factor: 1e3 }, ['kb', 'kilobyte', 'kilobytes']],
  [{ dimension: 'data', factor: 1e6 }, ['mb', 'megabyte', 'megabytes']],
  [{ dimension: 'data', factor: 1e9 }, ['gb', 'gigabyte', 'gigabytes']],
  [{ dimension: 'data', factor: 1e12 }, ['tb', 'terabyte', 'terabytes']],
  [{ dimension: 'bits', factor: 1 }, ['bit', 'bits']],
  [{ dimension: 'bitrate', factor: 1 }, ['bps']],
  [{ dimension: 'bitrate', factor: 1e3 }, ['kbps', 'kbit/s', 'kb/s']],
  [{ dimension: 'bitrate', factor: 1e6 }, ['mbps', 'mbit/s', 'mb/s']],
  [{ dimension: 'bitrate', factor: 1e9 }, ['gbps', 'gbit/s', 'gb/s']],
  [{ dimension: 'frequency', factor: 1 }, ['hz', 'hertz']],
  [{ dimension: 'frequency', factor: 1e3 }, ['khz']],
  [{ dimension: 'frequency', factor: 1e6 }, ['mhz']],
  [{ dimension: 'frequency', factor: 1e9 }, ['ghz']],
  [{ dimension: 'pixels', factor: 1 }, ['px', 'pixel', 'pixels']],
  [{ dimension: 'pixels', factor: 1e6 }, ['mp', 'megapixel', 'megapixels']],
  [{ dimension: 'sound', factor: 1 }, ['db', 'dba', 'decibel', 'decibels']],
  [{ dimension: 'mass', factor: 1e-3 }, ['mg', 'milligram', 'milligrams']],
  [{ dimension: 'mass', factor: 1 }, ['g', 'gram', 'grams']],
  [{ dimension: 'mass', factor: 1e3 }, ['kg', 'kilogram', 'kilograms']],
  [{ dimension: 'power', factor: 1 }, ['w', 'watt', 'watts']],
  [{ dimension: 'power', factor: 1e3 }, ['kw', 'kilowatt', 'kilowatts']],
  [{ dimension: 'charge', factor: 1 }, ['mah']],
  [{ dimension: 'voltage', factor: 1 }, ['v', 'volt', 'volts']],
  [{ dimension: 'celsius', factor: 1 }, ['°c', 'celsius']],
  [{ dimension: 'fahrenheit', factor: 1 }, ['°f', 'fahrenheit']],
  [{ dimension: 'concentration', factor: 1 }, ['µg/m³', 'µg/m3', 'ug/m³', 'ug/m3']],
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
  const all = parseNumbers(gold).filter((n) => n.role === null && !n.negated);
  return all.find((n) => !n.yearLike) ?? all[0] ?? null;
}

export interface NumericTolerance {
  /** Relative tolerance, against the gold value, for measured quantities. Default 0.01 (1%). */
  relTol?: number;
  /** Absolute tolerance. Default 0. A match needs |pred − gold| ≤ max(relTol·|gold|, absTol). */
  absTol?: number;
}

/** What the question says about the unit of bare numbers: "(in USD millions)", "in units of percents". */
export interface QuestionUnit {
  /** 1e3, 1e6, 1e9 or 1e12 when the question states a scale; null when it does not. */
  scale: number | null;
  /** The question asks for a percentage: a bare gold number is one. */
  percent: boolean;
}

export const NO_QUESTION_UNIT: QuestionUnit = { scale: null, percent: false };

/** A number the question's scale applies to: a bare amount (no scale word, percent or unit other than a currency). */
export function scalable(n: ParsedNumber): boolean {
  return n.magnitude === 1 && !n.percent && !n.yearLike && n.role !== 'date' && n.role !== 'time' && n.role !== 'label' && (n.unit === null || n.currency !== null);
}

/** Significant digits as written: `1.6` 2, `0.05` 1, `1,577.00` 6; an integer's trailing zeros do not count (`100` 1). */
function significantDigits(n: ParsedNumber): number {
  if (n.word) return String(Math.abs(n.value)).replace(/0+$/, '').length || 1;
  const digits = n.text.replace(/,/g, '');
  const hasPoint = digits.includes('.');
  let d = digits.replace('.', '').replace(/^0+/, '');
  if (!hasPoint) d = d.replace(/0+$/, '');
  return Math.max(1, d.length);
}

const sameValue = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
const roundTo = (x: number, step: number) => Math.round(x / step) * step;

/** One reading of a number in a frame: its value and the size of its last stated digit. */
interface Reading {
  v: number;
  step: number;
}

/**
 * Do two readings agree, the way a careful reader compares a stated value with the gold?
 *   - equal values always;
 *   - within `absTol` (default 0), which the user sets;
 *   - a measured gold (decimals, a percentage, a scale word or the question's scale, or an
 *     approximation word) within `relTol` (default 1% of the gold);
 *   - an answer stated more coarsely than the gold (a scale word or fewer decimals) that is the
 *     gold rounded to its last digit, with at least two significant digits (`$1.6 billion` for
 *     `$1577` million; not `$2 billion`);
 *   - a gold marked approximate (`about 22 dB`, `approximately $20 billion`) that the answer
 *     rounds to.
 * A count (an integer gold without any of these: `99`, `14 days`, `2,019 stores`) needs the
 * same value: `100` is not `99`.
 */
function readingsAgree(p: Reading, g: Reading, pred: ParsedNumber, gold: ParsedNumber, measured: boolean, tol: NumericTolerance): boolean {
  if (sameValue(p.v, g.v)) return true;
  // An absolute tolerance is the user's own, stated in the config: it holds for counts too.
  if (Math.abs(p.v - g.v) <= (tol.absTol ?? 0)) return true;
  if (measured && Math.abs(p.v - g.v) <= (tol.relTol ?? 0.01) * Math.abs(g.v)) return true;
  if (p.step > g.step * (1 + 1e-9) && significantDigits(pred) >= 2 && sameValue(roundTo(g.v, p.step), p.v)) return true;
  if (gold.approx && sameValue(roundTo(p.v, g.step), g.v)) return true;
  return false;
}

/**
 * Does one predicted number match one gold number (units aside: see numericJudge.ts)?
 *  1. Scaled values agree (`$1.2 billion` = `1,200 million` = `1200000000`). When the question
 *     states a scale ("in USD millions"), a bare gold is in that scale (`$5818.00` is 5.818e9:
 *     `$5.8 billion` matches, `$59,268 thousand` for `$59268.00` does not), and a bare answer
 *     number may be too (`5,818`).
 *  2. When the question states no scale and only one side (or neither) states a magnitude, the
 *     values as written may agree: the unit was left implicit (gold `$1577.00`, answer `$1,577
 *     million`). Both sides stating different magnitudes never match (`1.2 million` is not
 *     `1.2 billion`).
 *  3. Percentages compare as numbers as written (`24.5%` = `24.5 percent` = `24.5`); when exactly
 *     one side is a percentage the other may also be its fraction (`24.5%` = `0.245`), since
 *     ratio questions are answered both ways.
 * Agreement in each frame is `readingsAgree`. Signs must agree: `(1,234)` is −1234 and does not
 * match `1,234`.
 */
export function numbersMatch(pred: ParsedNumber, gold: ParsedNumber, tol: NumericTolerance = {}, q: QuestionUnit = NO_QUESTION_UNIT): boolean {
  const unitStep = (n: ParsedNumber) => 10 ** -n.decimals;
  const qScale = q.scale;
  const goldScaledByQuestion = qScale !== null && scalable(gold);
  const goldPercent = gold.percent || (q.percent && gold.unit === null && gold.currency === null && gold.magnitude === 1);
  const measured = gold.decimals > 0 || goldPercent || gold.magnitude !== 1 || gold.approx || goldScaledByQuestion;
  const g: Reading = goldScaledByQuestion ? { v: gold.value * qScale!, step: unitStep(gold) * qScale! } : { v: gold.scaled, step: unitStep(gold) * gold.magnitude };
  const agree = (p: Reading, gr: Reading) => readingsAgree(p, gr, pred, gold, measured, tol);

  // 1. Scaled.
  const readings: Reading[] = [{ v: pred.scaled, step: unitStep(pred) * pred.magnitude }];
  if (qScale !== null && scalable(pred)) readings.push({ v: pred.value * qScale, step: unitStep(pred) * qScale });
  if (readings.some((r) => agree(r, g))) return true;
  // 2. As written, when the question leaves the scale implicit.
  if (qScale === null && (pred.magnitude === 1 || gold.magnitude === 1) && agree({ v: pred.value, step: unitStep(pred) }, { v: gold.value, step: unitStep(gold) })) return true;
  // 3. A percentage against its fraction.
  if (pred.percent !== goldPercent) {
    const p = pred.percent ? { v: pred.scaled / 100, step: (unitStep(pred) * pred.magnitude) / 100 } : readings[0]!;
    const gr = goldPercent ? { v: g.v / 100, step: g.step / 100 } : g;
    if (agree(p, gr)) return true;
  }
  return false;
}
