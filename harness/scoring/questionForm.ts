// What the question says about the answer it wants, for the numeric judge: the unit of bare
// numbers ("in USD millions", "Answer in USD billions", "in units of percents") and whether it
// asks for a quantity at all ("How much…", "What is the amount of…", "What percent…").
import type { QuestionUnit } from './numbers.ts';

const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12, k: 1e3, mn: 1e6, mm: 1e6, bn: 1e9 };

// "in USD millions", "(in USD millions)", "in millions", "in $ millions", "in USD million",
// "in units of millions", "in millions of dollars", "USD millions)", "(in thousands)".
const SCALE_RE = /(?<![\p{L}])(?:in\s+(?:units\s+of\s+)?(?:(?:US\$|USD|US dollars?|dollars?|EUR|GBP|\$|€|£)\s*)?|\(\s*(?:in\s+)?(?:US\$|USD|\$|€|£|EUR|GBP)?\s*)(thousand|million|billion|trillion|mn|mm|bn|k)s?(?![\p{L}])/iu;
// A percentage as the unit of the answer: "in units of percents", "(in %)", "What percent…".
// Not "as a percent of net sales" inside another question ("What drove…", "Did … increase?").
const PERCENT_RE = /(?<![\p{L}])(?:in\s+(?:units\s+of\s+)?(?:percents?|percentages?|%)|\(\s*%\s*\)|what\s+percent(?:age)?)(?![\p{L}])/iu;

/** The unit the question states for bare numbers, if any. */
export function questionUnit(question: string | undefined): QuestionUnit {
  if (!question) return { scale: null, percent: false };
  const m = SCALE_RE.exec(question);
  return { scale: m ? SCALES[m[1]!.toLowerCase()]! : null, percent: PERCENT_RE.test(question) };
}

// Questions that ask for a number: how much/many/long…, what is the amount/value/ratio…,
// what percent…, calculate/compute…, or a stated unit.
const QUANTITY_RE = new RegExp(
  [
    String.raw`\bhow\s+(?:much|many|long|large|big|high|far|often|old|tall|wide|heavy|fast|soon|loud|quickly|frequently)\b`,
    String.raw`\bwhat\s+(?:is|was|are|were|'s|will\s+be)\s+(?:(?:the|its|their|his|her|our|\S+'s)\s+)?(?:[\w-]+\s+){0,6}?(?:amount|value|number|total|sum|percentage|percent|share|proportion|rate|ratio|margin|size|price|cost|revenue|revenues|sales|income|expenditure|expenditures|capex|level|count|balance|gain|loss|proceeds|spend|spending|expense|expenses|growth|change|dpo|dso|dio|eps|ebitda|ebit|ppne|ppe|debt|cash|earnings|limit|maximum|minimum|duration|length|period|timeout|interval)\b`,
    String.raw`\bwhat\s+percent(?:age)?\b`,
    String.raw`\b(?:calculate|compute|estimate)\b`,
  ].join('|'),
  'i',
);

/** True when the question asks for a quantity (so a sentence gold's numbers are what it asks). */
export function asksForQuantity(question: string | undefined): boolean {
  if (!question) return false;
  const u = questionUnit(question);
  return u.scale !== null || u.percent || QUANTITY_RE.test(question);
}

/** The kind of number the question wants, when it says: a percentage, money, a count, a duration. */
export type QuantityKind = 'percent' | 'money' | 'count' | 'duration' | null;

export function expectedQuantity(question: string | undefined): QuantityKind {
  if (!question) return null;
  if (questionUnit(question).percent || /\b(?:percent(?:age)?|margin|ratio\b.*%|growth rate|rate of)\b/i.test(question)) return 'percent';
  if (questionUnit(question).scale !== null || /\b(?:USD|dollars?|\$|amount|proceeds|gain|cost|price|revenue|expenditure|capex|cash)\b/i.test(question)) return 'money';
  if (/\bhow\s+many\b/i.test(question)) return 'count';
  if (/\bhow\s+(?:long|soon|often)\b/i.test(question)) return 'duration';
  return null;
}
