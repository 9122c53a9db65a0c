// TREC run and qrels files from a run's records, so its retrieval numbers can be checked with
// trec_eval or ranx. Formats (TREC, trec_eval README):
//   run:   `qid Q0 docno rank score tag` — one line per retrieved item, whitespace-separated;
//          trec_eval orders by score (descending), so scores here strictly decrease with rank.
//   qrels: `qid 0 docno relevance` — one line per relevant item (binary relevance, 1).
// Ids: qid is the question id; docno is `docId#nodeId` (node level), `docId#p<page>` (page
// level) or `docId` (document level). Whitespace and `%` in ids are percent-encoded, since
// both formats split on whitespace. Lists are deduplicated (first occurrence keeps its rank),
// exactly as treebench's metrics see them, and written whole: trec_eval applies its own cutoffs.
import type { RetrievalLevel } from '../summary/summary.ts';
import { rankedLevels } from '../scoring/retrieval.ts';
import type { Corpus, Question, RunRecord } from '../types.ts';

export const encodeTrecId = (id: string): string => id.replace(/[%\s]/gu, (c) => `%${c.codePointAt(0)!.toString(16).toUpperCase().padStart(2, '0')}`);

/** treebench's internal level ids (`docId\u0000nodeId`) as TREC docnos. */
function docno(level: RetrievalLevel, id: string): string {
  const [doc, rest] = id.split('\u0000') as [string, string | undefined];
  if (level === 'doc' || rest === undefined) return encodeTrecId(doc);
  return encodeTrecId(level === 'page' ? `${doc}#p${rest}` : `${doc}#${rest}`);
}

export interface TrecFiles {
  run: string;
  qrels: string;
  /** Questions written to the run file, and those with gold at this level (in the qrels). */
  queries: number;
  judged: number;
}

/** One strategy's records (one repeat) as TREC run and qrels text. */
export function trecFiles(records: readonly RunRecord[], questions: ReadonlyMap<string, Question>, corpus: Corpus, level: RetrievalLevel, tag: string): TrecFiles {
  const run: string[] = [];
  const qrels: string[] = [];
  let judged = 0;
  for (const r of records) {
    const q = questions.get(r.questionId);
    if (!q) continue;
    const lists = rankedLevels(q, r.evidence, corpus)[level];
    const qid = encodeTrecId(r.questionId);
    const seen = new Set<string>();
    const ranked = lists.ranked.filter((id) => !seen.has(id) && seen.add(id));
    ranked.forEach((id, i) => run.push(`${qid} Q0 ${docno(level, id)} ${i + 1} ${ranked.length - i} ${encodeTrecId(tag)}`));
    if (lists.gold.size) judged += 1;
    for (const id of [...lists.gold].sort()) qrels.push(`${qid} 0 ${docno(level, id)} 1`);
  }
  return { run: run.join('\n') + (run.length ? '\n' : ''), qrels: qrels.join('\n') + (qrels.length ? '\n' : ''), queries: records.length, judged };
}
