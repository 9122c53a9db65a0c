// Groundedness: is the answer supported by the evidence the strategy retrieved? (ragas calls it
// faithfulness: the share of the answer's claims the retrieved context supports.) It is measured
// apart from correctness — a right answer from the model's memory is correct and ungrounded, a
// wrong answer copied from a retrieved page is grounded — and needs no gold answer.
//
// Two measures, both 0–1 per record, null when there is nothing to measure (no answer, an
// abstention, a failed record, no claim):
//   - `groundedness` (optional, `scoring.groundedness`): an LLM lists the answer's factual claims
//     and says for each whether the retrieved evidence supports it; the score is supported /
//     claims (judge/grounding.ts). Its calls are metered apart, like the LLM judge's.
//   - `groundednessLexical`, an offline **proxy**, always on: the share of the answer's content
//     words (SQuAD-normalized tokens, without stopwords) that occur in the retrieved evidence.
//     It rewards copying and cannot see paraphrase or contradiction: a trend line for cheap runs,
//     not a faithfulness verdict.
import { answerTokens } from './normalize.ts';
import { isAbstention } from './yesNo.ts';

const STOPWORDS = new Set(
  'a an the and or but nor of in on at to for from by with as into onto over under about above below between through during before after than then so if is are was were be been being it its this that these those there here they them their he she his her we our you your i me my not no yes do does did has have had can could will would should may might must shall which who whom whose what when where why how all any each every some such only also just very more most less least other another same own up down out off again further once per via'.split(
    ' ',
  ),
);

/** The answer's content words, as the lexical proxy counts them. */
export function contentTokens(text: string): string[] {
  return answerTokens(text).filter((t) => !STOPWORDS.has(t));
}

/**
 * The offline proxy: the share of the answer's content words found in the retrieved evidence
 * (each word counted once per occurrence in the answer). Null for an empty answer, an abstention
 * or an answer without content words.
 */
export function lexicalGroundedness(answer: string, evidence: readonly string[]): number | null {
  if (!answer.trim() || isAbstention(answer)) return null;
  const words = contentTokens(answer);
  if (words.length === 0) return null;
  const context = new Set(evidence.flatMap((e) => answerTokens(e)));
  return words.filter((w) => context.has(w)).length / words.length;
}
