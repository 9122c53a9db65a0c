// The documents a question refers to, apart from the FinanceBench loader (which uses it too), so
// that loading a dataset does not load the PDF reader the loader needs.
import type { Question } from '../harness/types.ts';

/** The documents a question names: its docIds and its gold evidence's documents, once each. */
export function referencedDocs(q: Question): string[] {
  // A loop, not a Set of spread arrays: it runs for every question of a dataset, and a question
  // names one document or a few.
  const out: string[] = [];
  for (const d of q.docIds ?? []) if (!out.includes(d)) out.push(d);
  for (const e of q.evidence ?? []) if (!out.includes(e.docId)) out.push(e.docId);
  return out;
}
