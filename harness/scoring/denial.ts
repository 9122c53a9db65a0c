// Is a value, a date, a choice or a name that an answer mentions one the answer *claims*? A
// careful reader does not credit "It is not 25", "Not March 5", "Definitely not A" or "Either
// Canberra or Sydney" with the value they mention. One reading of denials and alternatives,
// shared by the numeric judge (numbers.ts), dates (numericJudge.ts), multiple choice and text
// golds (answer.ts), so every kind of gold is read the same way.

// A denial right before the mention, in the same clause: `not 25`, `isn't 25`, `rather than 25`,
// `did not close on March 5`.
const NEGATION_BEFORE_RE = /(?:(?<![\p{L}])(?:not|never|no longer|rather than|instead of|other than)|n['’]t)((?:\s+[\p{L}'’]+){0,3})\s*$/iu;
// …unless the words between make it a bound: `not more than 25`, `not less than 25`.
const BOUND_WORDS_RE = /(?<![\p{L}])(?:more|less|fewer|greater|higher|lower|later|earlier|sooner|longer|shorter|over|under|above|below|exceed\w*|beyond|only|just|least|most|until|before|after)(?![\p{L}])/iu;
// Where the denying clause ends: a sentence or clause mark, `, and`, or `but` ("not Sydney but
// Canberra" denies Sydney, not Canberra).
const CLAUSE_BREAK_RE = /[.;!?]|,\s*and\b|\bbut\b/i;

/** The clause before `index` denies what stands there (`It is not 25`), and does not bound it (`not more than 25`). */
export function deniedBefore(text: string, index: number): boolean {
  const clause = text.slice(Math.max(0, index - 40), index).split(CLAUSE_BREAK_RE).pop()!.replace(/[$€£¥₹(\s\-−]+$/u, '');
  const m = NEGATION_BEFORE_RE.exec(clause);
  return m !== null && !BOUND_WORDS_RE.test(m[1] ?? '');
}

// The mention is the subject of a denial: "Canberra is not the capital", "B is wrong", "B isn't
// right". Not "is not only…" (which affirms and adds).
const DENIED_AFTER_RE = /^[\s"'”’)]*(?:(?:is|was|are|were)\s+not(?![\p{L}])(?!\s+(?:only|just|merely|simply)(?![\p{L}]))|(?:is|was|are|were)n['’]t(?![\p{L}])(?!\s+(?:only|just|merely|simply)(?![\p{L}]))|(?:is|was|are|were)\s+(?:wrong|incorrect|false)(?![\p{L}]))/iu;

/** The text right after a mention denies it ("Canberra is not the capital", "B is incorrect"). */
export function deniedAfter(text: string, end: number): boolean {
  return DENIED_AFTER_RE.test(text.slice(end, end + 40));
}

/** The mention at [start, end) is denied, before or after. */
export function denied(text: string, start: number, end: number): boolean {
  return deniedBefore(text, start) || deniedAfter(text, end);
}

// The mention is one of alternatives offered side by side: `Canberra or Sydney`, `either
// Canberra or …`, `Sydney, Melbourne, or Canberra`, `Canberra/Sydney`. Only an `or` touching the
// mention counts ("Canberra, not Sydney or Melbourne" offers no alternative to Canberra).
// (`or more precisely…`, `or so` refine the mention rather than offer another.)
const ALTERNATIVE_AFTER_RE = /^[\s"'”’]*(?:[,(]?\s*or(?![\p{L}])(?!\s+(?:more|so)(?![\p{L}]))|\/\s*[\p{L}\p{N}])/iu;
const ALTERNATIVE_BEFORE_RE = /(?:(?<![\p{L}])(?:or|either)[\s"'“‘(]*|[\p{L}\p{N}]\s*\/\s*)$/iu;

/** The mention at [start, end) is offered as one of alternatives. */
export function offeredAsAlternative(text: string, start: number, end: number): boolean {
  return ALTERNATIVE_BEFORE_RE.test(text.slice(Math.max(0, start - 12), start)) || ALTERNATIVE_AFTER_RE.test(text.slice(end, end + 12));
}

// A question about what is *not* so ("Which feature is not supported?", "What does the warranty
// exclude?", "Which of these is NOT a mammal?") is answered by a denial: "Bluetooth is not
// supported", "It does not cover water damage", "B is not a mammal". There a denial states the
// answer rather than withdrawing it, so text golds and choices do not read denials at all.
const NEGATIVE_QUESTION_RE = /(?<![\p{L}])(?:not|never|no|none|neither|nor|cannot|without|except|excluding|unsupported|unavailable|ineligible|exclud\w*|exempt\w*|prohibit\w*|forbid\w*|disallow\w*|lack\w*|missing)(?![\p{L}])|n['’]t(?![\p{L}])/iu;

/** The question asks about what is not so, or is left out: an answer's denial may be its answer. */
export function asksAboutNegation(question: string | undefined): boolean {
  return question !== undefined && NEGATIVE_QUESTION_RE.test(question);
}
