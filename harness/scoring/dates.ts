// Dates and times of day written in a text, as values: `December 31, 2017` = `2017-12-31`,
// `2 PM` = `14:00`, and `2:30 PM` is another time than `2 PM`. Numbers inside a date or a time
// are not quantities (numbers.ts gives them the role `date` / `time`).
import { RecentTexts } from './recentTexts.ts';

const HAS_DIGIT_RE = /\d/;

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
// Times of day

export interface TimeOfDay {
  /** Minutes since midnight. */
  minutes: number;
  start: number;
  end: number;
}

// 2 PM · 2:30 p.m. · 11am · 14:30 · 09:05 · noon · midnight. A 12-hour time needs am/pm; a bare
// `h:mm` is read as a 24-hour time (hours 0–23, minutes 00–59), so a ratio like `3:1` is not one.
const TWELVE_HOUR_RE = /(?<![\p{L}\p{N}:.])(\d{1,2})(?::([0-5]\d))?\s*([ap])\.?\s?m\.?(?![\p{L}])/giu;
const TWENTY_FOUR_RE = /(?<![\p{L}\p{N}:.])([01]?\d|2[0-3]):([0-5]\d)(?![\p{N}:]|\s*[ap]\.?\s?m\b)/giu;
const NAMED_RE = /(?<![\p{L}])(noon|midday|midnight)(?![\p{L}])/giu;

/** Times of day in a text, with their spans. */
export function findTimes(text: string): readonly TimeOfDay[] {
  return recentTimes.get(text);
}
const recentTimes = new RecentTexts((text) => readTimes(text));

function readTimes(text: string): TimeOfDay[] {
  const out: TimeOfDay[] = [];
  const add = (minutes: number, start: number, end: number) => {
    if (!out.some((t) => start < t.end && end > t.start)) out.push({ minutes, start, end });
  };
  if (HAS_DIGIT_RE.test(text)) {
    for (const m of text.matchAll(TWELVE_HOUR_RE)) {
      const h = Number(m[1]);
      if (h < 1 || h > 12) continue;
      const pm = m[3]!.toLowerCase() === 'p';
      add(((h % 12) + (pm ? 12 : 0)) * 60 + Number(m[2] ?? 0), m.index ?? 0, (m.index ?? 0) + m[0].length);
    }
    for (const m of text.matchAll(TWENTY_FOUR_RE)) add(Number(m[1]) * 60 + Number(m[2]), m.index ?? 0, (m.index ?? 0) + m[0].length);
  }
  if (/noon|midday|midnight/i.test(text)) {
    for (const m of text.matchAll(NAMED_RE)) add(m[1]!.toLowerCase() === 'midnight' ? 0 : 720, m.index ?? 0, (m.index ?? 0) + m[0].length);
  }
  return out.sort((a, b) => a.start - b.start);
}
