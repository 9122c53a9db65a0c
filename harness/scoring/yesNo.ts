// Yes/no answers judged by meaning (docs/scoring.md quotes the rules).
//
// Gold: a gold is a yes/no gold when it opens with yes/no/true/false *as an answer*:
//   - the question is known and asks for yes or no (opens with an auxiliary: is, does, has, can,
//     …, or has a clause that does: "Based on the 10-K, does…?"): the gold's first word decides
//     ("No more than 3 devices" to "Can I pair 4 devices?" is no);
//   - the question is known and asks something else (how many, what, which…): only a gold that
//     is a bare yes/no word counts ("No more than 3 devices" to "How many devices…?" is a count);
//   - the question is unknown: `yes`/`no` followed by punctuation, the end, or a clause ("No the
//     margins declined"), but not `no` starting a phrase (`no more than`, `no later than`) and not
//     `true`/`false` followed by a word (`True Tone display` is a name).
// Prediction: an abstention ("not stated", "cannot be determined", "no information is given",
// "unknown") has no polarity. Otherwise the first answer word (yes/no/true/false) decides: the
// answer's first word, or a word closing a clause ("Overall, no: it declined"), or `yes`
// anywhere; `no` inside a phrase ("no evidence of") is not an answer word. "not yes" is no.
// "yes and no" / "yes or no" hedge: no polarity; so does an answer whose yes and no each answer
// on their own ("Yes. Actually, no.", "No. Yes, it is."), and a yes/no that stands alone beats a
// `no` that opens a phrase ("No evidence suggests otherwise, so yes." is yes). Colloquial forms
// (yep, yeah, nope…) count, and an opening "Correct," / "Incorrect," answers yes / no.
import { answerTokens } from './normalize.ts';

export type Polarity = 'yes' | 'no';
const POLARITY: Record<string, Polarity> = { yes: 'yes', true: 'yes', no: 'no', false: 'no' };
const FLIP: Record<Polarity, Polarity> = { yes: 'no', no: 'yes' };

const AUXILIARIES = new Set(
  'is are was were am do does did has have had can could will would should shall may might must isnt arent wasnt werent doesnt dont didnt hasnt havent hadnt cant couldnt wont wouldnt shouldnt'.split(' '),
);
// `no` opening a quantifier or comparison phrase is not an answer.
const NO_PHRASE_NEXT = new Set('more less fewer longer later earlier sooner other one further additional than greater smaller larger higher lower'.split(' '));

const WH = new Set('what which who whom whose when where why how'.split(' '));
const LEADING_CONJUNCTIONS = new Set('and but so then also'.split(' '));

/**
 * True / false / null (unknown) for "does this question ask for yes or no?": it opens with an
 * auxiliary (`Is…`, `Does…`), or, not being a wh-question, has a clause that does ("Based on the
 * 10-K, does Boeing…?", "If gross margin is not useful, is…?").
 */
export function isYesNoQuestion(question: string | undefined): boolean | null {
  if (!question || !question.trim() || question.trim() === '?') return null;
  const text = question.replace(/[’']/g, '');
  const first = answerTokens(text)[0];
  if (first === undefined) return null;
  if (AUXILIARIES.has(first)) return true;
  if (WH.has(first)) return false;
  const asked = text.includes('?') ? text.slice(0, text.indexOf('?')) : text;
  for (const clause of asked.split(/[,;:]|\.\s/)) {
    const words = answerTokens(clause);
    while (words.length && LEADING_CONJUNCTIONS.has(words[0]!)) words.shift();
    if (words[0] !== undefined && AUXILIARIES.has(words[0])) return true;
  }
  return false;
}

/** 'yes' | 'no' when the gold answers yes or no, else null (rules above). */
export function goldPolarity(gold: string, question?: string): Polarity | null {
  const tokens = answerTokens(gold);
  const first = tokens[0];
  const p = first !== undefined ? POLARITY[first] : undefined;
  if (!p) return null;
  const form = isYesNoQuestion(question);
  if (form === true) return p;
  if (form === false) return tokens.length === 1 ? p : null;
  if (tokens.length === 1) return p;
  // Unknown question: read the gold alone.
  const afterFirst = gold.trim().replace(/^\S+?(?=[\s,.;:!—–-]|$)/u, '');
  const punctuated = /^[,.;:!—–-]/u.test(afterFirst);
  if (first === 'true' || first === 'false') return punctuated ? p : null;
  if (first === 'no' && !punctuated && NO_PHRASE_NEXT.has(tokens[1]!)) return null;
  return p;
}

const ABSTAIN_RE =
  /\b(?:not (?:stated|specified|mentioned|given|provided|disclosed|available|clear|known|possible to (?:say|tell|determine))|cannot (?:be )?(?:determined?|answer(?:ed)?|say|tell|find)|can ?not (?:be )?determined?|can't (?:be )?(?:determined?|say|tell)|unable to (?:determine|answer|find)|no (?:information|data|mention|answer|evidence is given)|insufficient (?:information|data|context)|not enough (?:information|data|context)|(?:does|do|did) not (?:say|state|mention|specify|provide)|unknown|i don'?t know|n\/a)\b/i;

/** True when the answer declines to answer. */
export function isAbstention(pred: string): boolean {
  return ABSTAIN_RE.test(pred);
}

// Colloquial answer words, read like yes and no in an answer (not in a gold).
const PRED_POLARITY: Record<string, Polarity> = { ...POLARITY, yep: 'yes', yup: 'yes', yeah: 'yes', nope: 'no', nah: 'no' };
// An answer that opens by agreeing or disagreeing with the question: "Correct, remote work is
// allowed." / "Incorrect: it is not." Only as the answer's first word and before a clause mark.
const OPENING_VERDICT: Record<string, Polarity> = { correct: 'yes', incorrect: 'no' };
// A contradiction needs a word that answers on its own, which only yes and no (and their
// colloquial forms) do: "No, that is true." is not one.
const STANDALONE = new Set(['yes', 'yep', 'yup', 'yeah', 'no', 'nope', 'nah']);

/** The answer's yes/no verdict (rules above), or null when it gives none. */
export function predictionPolarity(pred: string): Polarity | null {
  if (isAbstention(pred)) return null;
  if (/\byes\s*(?:and|or|\/)\s*no\b|\bno\s*(?:and|or|\/)\s*yes\b/i.test(pred)) return null;
  // Tokens with their following punctuation, so we can tell clause-closing words.
  const re = /[\p{L}\p{N}']+|[.,;:!?—–-]/gu;
  const raw = [...pred.matchAll(re)].map((m) => m[0].toLowerCase());
  const isMark = (t: string | undefined) => t !== undefined && /^[.,;:!?—–-]$/.test(t);
  // Every answer word, strong or weak. A strong one answers on its own: a yes/no that closes a
  // clause ("No.", "…, so yes.", "Actually, no:") or a `yes` opening one ("Yes it is"). A weak
  // one only may: a `no` opening a clause before a word ("No evidence suggests otherwise" — the
  // determiner of "no evidence", or "No it isn't"), a `yes` inside a clause, true/false.
  // Strong words decide, and strong words of both polarities contradict each other ("Yes.
  // Actually, no: …", "No. Yes, it is transferable.") — no verdict; with none, the first weak
  // word decides, as before.
  const strong: Polarity[] = [];
  let weak: Polarity | null = null;
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i]!;
    const prevWord = raw[i - 1];
    const next = raw[i + 1];
    const closesClause = next === undefined || isMark(next);
    const opening = OPENING_VERDICT[t];
    if (opening && i === 0 && closesClause) {
      weak ??= opening;
      continue;
    }
    const p = PRED_POLARITY[t];
    if (!p) continue;
    const opensAnswer = i === 0 || isMark(prevWord) || prevWord === 'answer';
    const negated = prevWord === 'not';
    const isYes = p === 'yes' && t !== 'true';
    const counts = isYes || opensAnswer || closesClause || negated;
    if (!counts) continue;
    if (p === 'no' && !closesClause && next !== undefined && NO_PHRASE_NEXT.has(next)) continue;
    const said = negated ? FLIP[p] : p;
    if (STANDALONE.has(t) && !negated && (closesClause || (isYes && opensAnswer))) strong.push(said);
    else weak ??= said;
  }
  if (strong.length > 0) return strong.every((p) => p === strong[0]) ? strong[0]! : null;
  return weak;
}

/** null unless some gold answer is yes/no; else 1 when the prediction's polarity agrees with one. */
export function yesNoMatch(pred: string, golds: readonly string[], question?: string): number | null {
  const wanted = golds.map((g) => goldPolarity(g, question)).filter((p): p is Polarity => p !== null);
  if (wanted.length === 0) return null;
  const got = predictionPolarity(pred);
  return got !== null && wanted.includes(got) ? 1 : 0;
}
