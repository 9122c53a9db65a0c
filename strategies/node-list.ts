// `node-list` — PageIndex's one-shot tree search: the whole outline (ids, titles, summaries,
// pages; no text) in one prompt, the model returns { thinking, node_list }, the harness opens
// those nodes and answers. Outlines too large for `maxOutlineTokens` are split into pages, one
// call each. Several documents go into one outline, their node ids qualified as `docId::nodeId`.
import { z } from 'zod';
import type { Corpus, DocTree, EvidenceItem } from '../harness/types.ts';
import type { Strategy } from './types.ts';
import type { OutlineNode } from './prompts.ts';
import { answerFromEvidence } from './shared/answer.ts';
import { ask } from './shared/ask.ts';
import { docSelectParams, selectDocuments } from './shared/docSelect.ts';
import { openNode, rankEvidence, Trace } from './shared/evidence.ts';
import { asStringList } from '../harness/protocol/jsonReply.ts';
import { indexDoc, toOutline } from './shared/tree.ts';
import { isBudgetExhausted } from '../harness/run/budget.ts';
import { promptInfo } from './prompts.ts';

const params = z
  .object({
    /** Nodes the model may return per outline page. */
    maxNodes: z.number().int().min(1).max(50).default(4),
    /** Outline size per prompt before paging. */
    maxOutlineTokens: z.number().int().min(500).default(12000),
    maxContextTokens: z.number().int().min(100).default(6000),
    ...docSelectParams,
  })
  .strict();

export type NodeListParams = z.infer<typeof params>;

export const QUALIFIER = '::';

/** The outline of the chosen documents; with several, each document becomes a top-level entry. */
export function buildOutline(docs: DocTree[]): OutlineNode[] {
  if (docs.length === 1) return toOutline(docs[0].nodes);
  return docs.map((d) => ({
    node_id: `doc${QUALIFIER}${d.docId}`,
    title: d.title,
    ...(d.description ? { summary: d.description } : {}),
    nodes: toOutline(d.nodes, { idPrefix: `${d.docId}${QUALIFIER}` }),
  }));
}

/**
 * Splits an outline into pages of at most `maxTokens` (by the JSON the model would see),
 * keeping subtrees whole where they fit and descending into those that do not.
 */
export function pageOutline(outline: OutlineNode[], maxTokens: number, count: (s: string) => number): OutlineNode[][] {
  const pages: OutlineNode[][] = [];
  let page: OutlineNode[] = [];
  let size = 0;
  const flush = () => {
    if (page.length) pages.push(page);
    page = [];
    size = 0;
  };
  const place = (node: OutlineNode) => {
    const tokens = count(JSON.stringify(node));
    if (tokens > maxTokens && node.nodes?.length) {
      // Too big for one page: the node itself (without children) then its children.
      const { nodes, ...head } = node;
      place(head);
      for (const child of nodes) place(child);
      return;
    }
    if (size + tokens > maxTokens) flush();
    page.push(node);
    size += tokens;
  };
  for (const node of outline) place(node);
  flush();
  return pages;
}

// Every question over the same documents sees the same outline pages: build them once per corpus.
const pageCache = new WeakMap<Corpus, Map<string, OutlineNode[][]>>();
function outlinePages(corpus: Corpus, docs: DocTree[], maxTokens: number, count: (s: string) => number): OutlineNode[][] {
  let byKey = pageCache.get(corpus);
  if (!byKey) pageCache.set(corpus, (byKey = new Map()));
  const key = `${maxTokens}\u0000${docs.map((d) => d.docId).join('\u0000')}`;
  let pages = byKey.get(key);
  if (!pages) byKey.set(key, (pages = pageOutline(buildOutline(docs), maxTokens, count)));
  return pages;
}

export const nodeListStrategy: Strategy<NodeListParams> = {
  name: 'node-list',
  description: 'PageIndex one-shot search: the whole outline in one prompt, open the returned nodes, answer (2 calls; more when the outline is paged).',
  prompts: promptInfo(['select-documents', 'select-nodes', 'answer']),
  params,
  async run(question, ctx, p) {
    const trace = new Trace();
    const selection = await selectDocuments(question, ctx, trace, p);
    let parseFailures = selection.parseFailures;
    const docs = selection.docIds.map((id) => ctx.doc(id));
    // Resolve the ids the model may answer with back to (document, node).
    const resolve = new Map<string, { docId: string; nodeId: string }>();
    for (const d of docs) {
      for (const id of indexDoc(d).byId.keys()) {
        resolve.set(docs.length === 1 ? id : `${d.docId}${QUALIFIER}${id}`, { docId: d.docId, nodeId: id });
      }
    }
    const pages = outlinePages(ctx.corpus, docs, p.maxOutlineTokens, (s) => ctx.countTokens(s));
    const chosen: Array<{ docId: string; nodeId: string; reason?: string }> = [];
    const evidence: EvidenceItem[] = [];
    try {
      for (const [i, outline] of pages.entries()) {
        const payload = {
          task: 'select-nodes' as const,
          question: question.question,
          doc_id: docs.length === 1 ? docs[0].docId : '*',
          doc_title: docs.length === 1 ? docs[0].title : `${docs.length} documents`,
          outline,
          max_nodes: p.maxNodes,
          ...(pages.length > 1 ? { page: { index: i + 1, count: pages.length } } : {}),
        };
        const res = await ask(ctx, payload, (obj) => {
          const list = asStringList(obj.node_list);
          if (!list) return { ok: false, error: '"node_list" must be a list of node ids' };
          const unknown = list.filter((id) => !resolve.has(id) && !id.startsWith(`doc${QUALIFIER}`));
          if (unknown.length) return { ok: false, error: `unknown node ids: ${unknown.slice(0, 5).join(', ')}` };
          return { ok: true, value: { thinking: typeof obj.thinking === 'string' ? obj.thinking : undefined, node_list: list } };
        });
        parseFailures += res.parseFailures;
        if (!res.ok) {
          trace.add({ action: 'fallback', source: 'rule', reason: `outline page ${i + 1}: unusable reply (${res.error})` });
          continue;
        }
        for (const id of res.value.node_list.slice(0, p.maxNodes)) {
          const target = resolve.get(id);
          if (!target) continue; // a whole document was named: nothing specific to open
          ctx.budget.visit(target.docId, target.nodeId);
          trace.add({ action: 'select', docId: target.docId, nodeId: target.nodeId, source: 'llm', reason: res.value.thinking, depth: indexDoc(ctx.doc(target.docId)).byId.get(target.nodeId)?.depth });
          chosen.push({ ...target, reason: res.value.thinking });
        }
      }
      if (chosen.length === 0) {
        // The model found nothing usable: rank nodes by value search rather than answer blind.
        const hits = await ctx.valueSearch(question.question, { topK: p.maxNodes, docIds: docs.map((d) => d.docId) });
        for (const h of hits) chosen.push({ docId: h.docId, nodeId: h.nodeId, reason: 'value-search fallback' });
        trace.add({ action: 'fallback', source: 'value', reason: 'no node selected by the model; opened value-search hits' });
      }
      for (const c of chosen) evidence.push(openNode(ctx, trace, c.docId, c.nodeId, { source: 'llm' }));
    } catch (err) {
      if (!isBudgetExhausted(err)) throw err;
    }
    const ranked = rankEvidence(evidence);
    const out = await answerFromEvidence(question, ranked, ctx, trace, { maxContextTokens: p.maxContextTokens });
    parseFailures += out.parseFailures;
    return { answer: out.answer, ...(out.choice !== undefined ? { choice: out.choice } : {}), evidence: ranked, trace: trace.steps, parseFailures };
  },
};
