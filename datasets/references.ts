// The documents a question refers to, apart from the FinanceBench loader (which uses it too), so
// that loading a dataset does not load the PDF reader the loader needs.
import type { Question } from '../harness/types.ts';

/** The documents a question names: its docIds and its gold evidence's documents, once each. */
export function referencedDocs(q: Question): string[] {
  return [...new Set([...(q.docIds ?? []), ...(q.evidence ?? []).map((e) => e.docId)])];
}
