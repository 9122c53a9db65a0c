// Multi-document corpora: choose the documents to search before searching inside them.
import { z } from 'zod';
import type { QuestionInput } from '../../harness/types.ts';
import type { StrategyContext } from '../types.ts';
import { ask } from './ask.ts';
import type { Trace } from './evidence.ts';
import { asStringList } from '../../harness/protocol/jsonReply.ts';
import { docScores } from './scores.ts';

export const docSelectParams = {
  /** How to pick documents: by chunk hits (no model call), by the model reading descriptions, or all. */
  docSelect: z.enum(['value', 'llm', 'all']).default('value'),
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
  opts: { docSelect: 'value' | 'llm' | 'all'; maxDocs: number },
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
  if (opts.docSelect === 'llm') {
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
  const hits = await ctx.valueSearch(question.question, { topK: 50 });
  const ranked = docScores(hits).slice(0, opts.maxDocs);
  for (const d of ranked) trace.add({ action: 'doc-select', docId: d.docId, source: 'value', score: d.score, reason: `${d.hits} chunk hits` });
  const ids = ranked.map((d) => d.docId);
  // No hit at all (e.g. a question with no indexed words): fall back to corpus order.
  return { docIds: ids.length ? ids : all.slice(0, opts.maxDocs), parseFailures };
}
