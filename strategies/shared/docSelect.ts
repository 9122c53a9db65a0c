// Multi-document corpora: choose the documents to search before searching inside them.
//
// A question that names its documents (docIds) searches those. Otherwise `docSelect` says how:
// - `metadata`: the dataset's document table matched against the question (company, period,
//   type; strategies/shared/docMetadata.ts), no model call;
// - `value`: chunk hits of value search aggregated per document (strategies/shared/scores.ts);
// - `description` (`llm` is the older name): the model reads each document's title and
//   description and names the ones to search (one call; the offline reasoner plays it);
// - `fused` (the default): reciprocal rank fusion of metadata and value, both free of calls —
//   score(doc) = Σ over channels ranking it of 1 / (60 + rank) (Cormack et al., 2009), ties in
//   corpus order. A corpus without metadata fuses to value search's own order.
// - `all`: every document.
// The first `maxDocs` are searched. A channel that ranks nothing falls back to value search, and
// value search that finds nothing to corpus order.
import { z } from 'zod';
import type { QuestionInput } from '../../harness/types.ts';
import type { StrategyContext } from '../types.ts';
import { ask } from './ask.ts';
import type { Trace } from './evidence.ts';
import { asStringList } from '../../harness/protocol/jsonReply.ts';
import { docScores } from './scores.ts';
import { metadataScores } from './docMetadata.ts';

export const docSelectParams = {
  /** How to pick documents: fused (metadata + chunk hits, no call), metadata, value (chunk hits), description (the model reads titles and descriptions; llm = the same), or all. */
  docSelect: z.enum(['fused', 'metadata', 'value', 'description', 'llm', 'all']).default('fused'),
  maxDocs: z.number().int().min(1).default(3),
};

export interface DocSelection {
  docIds: string[];
  parseFailures: number;
}

export async function selectDocuments(
  question: QuestionInput,
  ctx: StrategyContext,
  trace: Trace,
  opts: { docSelect: 'fused' | 'metadata' | 'value' | 'description' | 'llm' | 'all'; maxDocs: number },
): Promise<DocSelection> {
  const all = ctx.corpus.docs.map((d) => d.docId);
  const known = new Set(all);
  const named = (question.docIds ?? []).filter((id) => known.has(id));
  if (named.length) {
    for (const docId of named) trace.add({ action: 'doc-select', docId, source: 'prior', reason: 'the question names its document' });
    return { docIds: named, parseFailures: 0 };
  }
  if (opts.docSelect === 'all' || all.length <= opts.maxDocs) {
    return { docIds: all, parseFailures: 0 };
  }
  let parseFailures = 0;
  if (opts.docSelect === 'llm' || opts.docSelect === 'description') {
    const documents = ctx.corpus.docs.map((d) => ({ doc_id: d.docId, title: d.title, ...(d.description ? { description: d.description } : {}) }));
    const res = await ask(ctx, { task: 'select-documents', question: question.question, documents, max_docs: opts.maxDocs }, (obj) => {
      const ids = asStringList(obj.doc_ids);
      if (!ids) return { ok: false, error: '"doc_ids" must be a list of document ids' };
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length) return { ok: false, error: `unknown doc_ids: ${unknown.slice(0, 5).join(', ')}` };
      return { ok: true, value: { thinking: typeof obj.thinking === 'string' ? obj.thinking : undefined, doc_ids: ids } };
    });
    parseFailures += res.parseFailures;
    if (res.ok && res.value.doc_ids.length) {
      const ids = [...new Set(res.value.doc_ids)].slice(0, opts.maxDocs);
      for (const docId of ids) trace.add({ action: 'doc-select', docId, source: 'llm', reason: res.value.thinking });
      return { docIds: ids, parseFailures };
    }
    trace.add({ action: 'fallback', source: 'value', reason: res.ok ? 'model chose no document; using value search' : `document choice unusable (${res.error}); using value search` });
  }
  const byMetadata = opts.docSelect === 'metadata' || opts.docSelect === 'fused' ? metadataScores(question.question, ctx.corpus.docs) : [];
  if (opts.docSelect === 'metadata' && byMetadata.length) {
    const ids = byMetadata.slice(0, opts.maxDocs);
    for (const d of ids) trace.add({ action: 'doc-select', docId: d.docId, source: 'metadata', score: d.score, reason: d.matched.join(', ') });
    return { docIds: ids.map((d) => d.docId), parseFailures };
  }
  if (opts.docSelect === 'metadata') trace.add({ action: 'fallback', source: 'value', reason: 'no document metadata matches the question; using value search' });
  const hits = await ctx.valueSearch(question.question, { topK: 50 });
  const byValue = docScores(hits);
  if (opts.docSelect === 'fused' && byMetadata.length) {
    // Equal metadata scores share a rank (two filings of the same company): value search tells them apart.
    const metadataRanks = byMetadata.map((d) => ({ docId: d.docId, rank: 1 + byMetadata.filter((o) => o.score > d.score).length }));
    const fused = reciprocalRankFusion([metadataRanks, byValue.map((d, i) => ({ docId: d.docId, rank: i + 1 }))], all).slice(0, opts.maxDocs);
    const why = new Map(byMetadata.map((d) => [d.docId, d.matched.join(', ')]));
    const hitsOf = new Map(byValue.map((d) => [d.docId, d.hits]));
    for (const d of fused) trace.add({ action: 'doc-select', docId: d.docId, source: 'fused', score: d.score, reason: [why.get(d.docId), hitsOf.has(d.docId) ? `${hitsOf.get(d.docId)} chunk hits` : undefined].filter(Boolean).join('; ') });
    return { docIds: fused.map((d) => d.docId), parseFailures };
  }
  const ranked = byValue.slice(0, opts.maxDocs);
  for (const d of ranked) trace.add({ action: 'doc-select', docId: d.docId, source: 'value', score: d.score, reason: `${d.hits} chunk hits` });
  const ids = ranked.map((d) => d.docId);
  // No hit at all (e.g. a question with no indexed words): fall back to corpus order.
  return { docIds: ids.length ? ids : all.slice(0, opts.maxDocs), parseFailures };
}

/** Reciprocal rank fusion (k = 60) of rankings (1-based ranks, ties allowed); ties in `order` (corpus order). */
export function reciprocalRankFusion(rankings: ReadonlyArray<ReadonlyArray<{ docId: string; rank: number }>>, order: readonly string[]): Array<{ docId: string; score: number }> {
  const score = new Map<string, number>();
  for (const ranking of rankings) for (const { docId, rank } of ranking) score.set(docId, (score.get(docId) ?? 0) + 1 / (60 + rank));
  const position = new Map(order.map((id, i) => [id, i]));
  return [...score]
    .map(([docId, s]) => ({ docId, score: s }))
    .sort((a, b) => b.score - a.score || (position.get(a.docId) ?? 0) - (position.get(b.docId) ?? 0));
}
