// `layerwise` — level-by-level descent through the outline. At each level the model sees one
// level of children (id, title, summary, pages, has_children) and picks up to `maxPerLevel`,
// or "NONE" (nothing here: stop this branch), or "__self__" (the current node holds the answer:
// open it, go no deeper). Every chosen branch is explored, breadth first, down to `maxDepth`
// levels; chosen leaves are opened, and chosen sections at the depth limit are opened instead of
// expanded. A small flat document (top level of at most `flatLeafLimit` leaves) is taken whole
// with zero model calls.
//
// Budget conventions:
// - a node counts as *visited* when it is chosen (by the model, a fallback, or the flat-document
//   rule) or opened; children that are only shown to the model are not visited;
// - the search keeps one model call in reserve for the answer: when only that call is left it
//   stops descending, answers from what it opened, and marks the `calls` budget as exhausted;
// - any BudgetExhaustedError (calls, tokens, time, nodes, evidence tokens) ends the search and
//   the strategy answers from the evidence it has.
import { z } from 'zod';
import type { EvidenceItem, TraceStep, TreeNode } from '../harness/types.ts';
import type { Strategy, StrategyContext } from './types.ts';
import type { ChildView } from './prompts.ts';
import { answerFromEvidence } from './shared/answer.ts';
import { ask } from './shared/ask.ts';
import { docSelectParams, selectDocuments } from './shared/docSelect.ts';
import { openNode, rankEvidence, Trace } from './shared/evidence.ts';
import { asStringList, parseJsonObject } from '../harness/protocol/jsonReply.ts';
import { subtreeScores, type SubtreeScores } from './shared/subtreeScores.ts';
import { childViews, indexDoc, isLeaf } from './shared/tree.ts';
import { isBudgetExhausted } from '../harness/run/budget.ts';
import { promptInfo } from './prompts.ts';

const params = z
  .object({
    /** Children the model may pick at each level. */
    maxPerLevel: z.number().int().min(1).max(20).default(3),
    /** Levels the model descends at most (1 = only the top level is shown). */
    maxDepth: z.number().int().min(1).max(32).default(4),
    /** A document whose top level is at most this many nodes, all leaves, is opened whole with no call (0 = never). */
    flatLeafLimit: z.number().int().min(0).default(8),
    /** Size of one level's children in a prompt; a larger level is shown in several pages (one call each). */
    maxLevelTokens: z.number().int().min(200).default(8000),
    /** When the descent opens nothing, open the best value-search nodes rather than answer blind. */
    valueFallback: z.boolean().default(true),
    maxContextTokens: z.number().int().min(100).default(6000),
    ...docSelectParams,
  })
  .strict();

export type LayerwiseParams = z.infer<typeof params>;

export const NONE = 'NONE';
export const SELF = '__self__';
/** Chunk hits fetched when a fallback needs value scores. */
const VALUE_TOP_K = 50;

/** One level waiting to be shown to the model: the children of `parent` (null = top level). */
interface Frame {
  docId: string;
  parent: TreeNode | null;
  /** Depth of the children shown (0 = top level). */
  depth: number;
  /** Preference path (document index, then pick index per level) used to rank evidence. */
  rank: number[];
}

interface Pick {
  node: TreeNode;
  source: TraceStep['source'];
  score?: number;
}

interface LevelDecision {
  picks: Pick[];
  self: boolean;
  /** No call could be made for this level: the search is out of calls. */
  outOfCalls: boolean;
}

/**
 * Maps one entry of a model's `choices` to a child id, NONE or SELF; null when it names nothing.
 * Models echo ids with different case or answer with a title instead of the id: both resolve
 * when they are unambiguous.
 */
export function resolveChoice(raw: string, children: TreeNode[]): string | null {
  const t = raw.trim().replace(/^["'`]+|["'`]+$/g, '');
  if (t.toUpperCase() === NONE) return NONE;
  if (t.toLowerCase() === SELF) return SELF;
  const exact = children.find((c) => c.id === t);
  if (exact) return exact.id;
  const lower = t.toLowerCase();
  const byId = children.filter((c) => c.id.toLowerCase() === lower);
  if (byId.length === 1) return byId[0].id;
  const byTitle = children.filter((c) => c.title.trim().toLowerCase() === lower);
  if (byTitle.length === 1) return byTitle[0].id;
  return null;
}

/** Splits a level's child views into prompt pages of at most `maxTokens` each (never empty pages). */
export function pageChildren<T>(items: T[], maxTokens: number, count: (item: T) => number): T[][] {
  const pages: T[][] = [];
  let page: T[] = [];
  let size = 0;
  for (const item of items) {
    const tokens = count(item);
    if (page.length && size + tokens > maxTokens) {
      pages.push(page);
      page = [];
      size = 0;
    }
    page.push(item);
    size += tokens;
  }
  if (page.length) pages.push(page);
  return pages;
}

/** Calls the search may still make, keeping one for the answer. */
const searchCallsLeft = (ctx: StrategyContext): number => ctx.budget.remaining('calls') - 1;

/** Interleaves ranked lists (first of each, then second of each, ...), dropping duplicates. */
function interleave(lists: Pick[][]): Pick[] {
  const out: Pick[] = [];
  const seen = new Set<string>();
  for (let i = 0; lists.some((l) => i < l.length); i++) {
    for (const l of lists) {
      const p = l[i];
      if (p && !seen.has(p.node.id)) {
        seen.add(p.node.id);
        out.push(p);
      }
    }
  }
  return out;
}

const compareRank = (a: number[], b: number[]): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
};

export const layerwiseStrategy: Strategy<LayerwiseParams> = {
  name: 'layerwise',
  description:
    'Level-by-level descent: the model picks up to maxPerLevel children per level (or NONE / __self__), several branches explored down to maxDepth; small flat documents are taken whole with no call.',
  prompts: promptInfo(['select-documents', 'choose-children', 'answer']),
  params,
  async run(question, ctx, p) {
    const trace = new Trace();
    const selection = await selectDocuments(question, ctx, trace, p);
    let parseFailures = selection.parseFailures;
    const opened: Array<{ item: EvidenceItem; rank: number[] }> = [];

    let values: SubtreeScores | null = null;
    const valueScores = async (): Promise<SubtreeScores> =>
      (values ??= subtreeScores(ctx, await ctx.valueSearch(question.question, { topK: VALUE_TOP_K, docIds: selection.docIds })));

    const open = (docId: string, node: TreeNode, rank: number[], info: { source: TraceStep['source']; reason?: string; score?: number }) => {
      ctx.budget.visit(docId, node.id);
      opened.push({ item: openNode(ctx, trace, docId, node.id, info), rank });
    };

    /** Shows one level (in pages when it is large) and gathers the picks. */
    const decide = async (frame: Frame, children: TreeNode[]): Promise<LevelDecision> => {
      const { docId, parent } = frame;
      const parentDepth = parent ? frame.depth - 1 : undefined;
      const allowSelf = parent !== null;
      const views = childViews(children);
      const byId = new Map(children.map((c) => [c.id, c]));
      const pages = pageChildren(views, p.maxLevelTokens, (v) => ctx.countTokens(JSON.stringify(v, null, 1)));
      const lists: Pick[][] = [];
      let self = false;
      let asked = 0;
      for (const [i, page] of pages.entries()) {
        const left = searchCallsLeft(ctx);
        if (left < 1) break;
        asked++;
        const pageNodes = page.map((v: ChildView) => byId.get(v.node_id)!);
        const pageTag = pages.length > 1 ? `[page ${i + 1}/${pages.length}] ` : '';
        const payload = {
          task: 'choose-children' as const,
          question: question.question,
          doc_id: docId,
          doc_title: ctx.doc(docId).title,
          parent: parent ? { node_id: parent.id, title: parent.title } : null,
          children: page,
          max_picks: p.maxPerLevel,
          allow_self: allowSelf,
        };
        const res = await ask(
          ctx,
          payload,
          (obj) => {
            const list = asStringList(obj.choices);
            if (!list) return { ok: false, error: `"choices" must be a list of node ids, ["${NONE}"] or ["${SELF}"]` };
            const picks: string[] = [];
            const unknown: string[] = [];
            for (const raw of list) {
              const r = resolveChoice(raw, pageNodes);
              if (r === null) unknown.push(raw);
              else if (r === SELF && !allowSelf) return { ok: false, error: `"${SELF}" is not allowed at the top level; choose child ids or "${NONE}"` };
              else if (!picks.includes(r)) picks.push(r);
            }
            if (unknown.length) {
              const valid = pageNodes.map((c) => c.id);
              return { ok: false, error: `unknown node ids: ${unknown.slice(0, 5).join(', ')}; the children are: ${valid.slice(0, 30).join(', ')}${valid.length > 30 ? ', ...' : ''}` };
            }
            return { ok: true, value: { thinking: typeof obj.thinking === 'string' ? obj.thinking : undefined, choices: picks } };
          },
          { retries: left >= 2 ? 1 : 0 },
        );
        parseFailures += res.parseFailures;
        if (res.ok) {
          const choices = res.value.choices;
          trace.add({ action: 'expand', docId, nodeId: parent?.id, source: 'llm', reason: `${pageTag}${res.value.thinking ?? ''}`.trim() || undefined, depth: parentDepth });
          if (choices.includes(SELF)) self = true;
          lists.push(choices.filter((c) => c !== NONE && c !== SELF).map((id) => ({ node: byId.get(id)!, source: 'llm' as const })));
          continue;
        }
        // Unusable after the retry. Degrade: keep the ids of the last reply that do name a child;
        // when none does, take the child with the best value score, else the first child.
        const last = parseJsonObject(res.raw);
        const known = last.ok
          ? [...new Set((asStringList(last.value.choices) ?? []).map((raw) => resolveChoice(raw, pageNodes)).filter((r): r is string => !!r && r !== NONE && r !== SELF))]
          : [];
        if (known.length) {
          trace.add({ action: 'fallback', docId, nodeId: parent?.id, source: 'llm', reason: `${pageTag}reply still invalid after retry (${res.error}); kept its ${known.length} known id(s)`, depth: parentDepth });
          lists.push(known.map((id) => ({ node: byId.get(id)!, source: 'llm' as const })));
          continue;
        }
        const v = await valueScores();
        const scored = pageNodes.map((node) => ({ node, score: v.subtree(docId, node.id) }));
        const best = scored.reduce((a, b) => (b.score > a.score ? b : a));
        const pick: Pick = best.score > 0 ? { node: best.node, source: 'value', score: best.score } : { node: pageNodes[0], source: 'rule' };
        trace.add({
          action: 'fallback',
          docId,
          nodeId: parent?.id,
          source: pick.source,
          reason: `${pageTag}reply unusable after retry (${res.error}); taking ${best.score > 0 ? 'the child with the best value score' : 'the first child (no value hits)'}`,
          depth: parentDepth,
        });
        lists.push([pick]);
      }
      return { picks: interleave(lists), self, outOfCalls: asked === 0 };
    };

    const queue: Frame[] = selection.docIds.map((docId, i) => ({ docId, parent: null, depth: 0, rank: [i] }));
    try {
      while (queue.length) {
        const frame = queue.shift()!;
        const { docId, parent } = frame;
        const doc = ctx.doc(docId);
        const children = parent ? parent.children : doc.nodes;
        if (children.length === 0) continue;
        if (!parent && p.flatLeafLimit > 0 && children.length <= p.flatLeafLimit && children.every(isLeaf)) {
          trace.add({ action: 'expand', docId, source: 'rule', reason: `flat document: ${children.length} top-level leaves (flatLeafLimit ${p.flatLeafLimit}), taken whole without a model call` });
          children.forEach((c, i) => open(docId, c, [...frame.rank, i], { source: 'rule', reason: 'flat document taken whole' }));
          continue;
        }
        const d = await decide(frame, children);
        if (d.outOfCalls) {
          // Only the answer's call is left: stop here and say which budget ended the search.
          ctx.budget.exhausted ??= 'calls';
          trace.add({ action: 'skip', docId, nodeId: parent?.id, source: 'rule', reason: 'call budget: the last call is kept for the answer', depth: parent ? frame.depth - 1 : undefined });
          break;
        }
        const parentDepth = parent ? frame.depth - 1 : undefined;
        if (d.self && parent) {
          trace.add({ action: 'select', docId, nodeId: parent.id, source: 'llm', reason: `${SELF}: the answer is in this section itself`, depth: parentDepth });
          for (const pick of d.picks) trace.add({ action: 'skip', docId, nodeId: pick.node.id, source: 'llm', reason: `not descended: the model answered ${SELF}`, depth: frame.depth });
          open(docId, parent, frame.rank, { source: 'llm', reason: SELF });
          continue;
        }
        if (d.picks.length === 0) {
          trace.add({ action: 'skip', docId, nodeId: parent?.id, source: 'llm', reason: `${NONE}: no child can hold the answer; branch closed`, depth: parentDepth });
          continue;
        }
        const chosen = d.picks.slice(0, p.maxPerLevel);
        for (const extra of d.picks.slice(p.maxPerLevel)) {
          trace.add({ action: 'skip', docId, nodeId: extra.node.id, source: extra.source, reason: `beyond maxPerLevel (${p.maxPerLevel})`, depth: frame.depth });
        }
        for (const [i, pick] of chosen.entries()) {
          const child = pick.node;
          ctx.budget.visit(docId, child.id);
          trace.add({ action: 'select', docId, nodeId: child.id, source: pick.source, score: pick.score, reason: `pick ${i + 1} of ${chosen.length}`, depth: frame.depth });
          const rank = [...frame.rank, i];
          if (isLeaf(child)) open(docId, child, rank, { source: pick.source, reason: 'chosen leaf' });
          else if (frame.depth + 1 < p.maxDepth) queue.push({ docId, parent: child, depth: frame.depth + 1, rank });
          else open(docId, child, rank, { source: pick.source, reason: `maxDepth (${p.maxDepth}) reached: opened instead of expanded` });
        }
      }
    } catch (err) {
      if (!isBudgetExhausted(err)) throw err;
      trace.add({ action: 'skip', source: 'rule', reason: `search stopped: ${(err as Error).message}` });
    }

    if (opened.length === 0 && p.valueFallback) {
      try {
        const v = await valueScores();
        const top = v.ranked.slice(0, p.maxPerLevel);
        if (top.length) trace.add({ action: 'fallback', source: 'value', reason: 'the descent opened nothing; opening the best value-search nodes' });
        for (const [i, h] of top.entries()) {
          const node = indexDoc(ctx.doc(h.docId)).byId.get(h.nodeId)!.node;
          open(h.docId, node, [i], { source: 'value', score: h.score, reason: 'value-search fallback' });
        }
      } catch (err) {
        if (!isBudgetExhausted(err)) throw err;
      }
    }

    // Rank by preference path: the model's first pick at each level before its second, across levels.
    const ranked = rankEvidence([...opened].sort((a, b) => compareRank(a.rank, b.rank)).map((o) => o.item));
    const out = await answerFromEvidence(question, ranked, ctx, trace, { maxContextTokens: p.maxContextTokens });
    parseFailures += out.parseFailures;
    return { answer: out.answer, ...(out.choice !== undefined ? { choice: out.choice } : {}), evidence: ranked, trace: trace.steps, parseFailures };
  },
};
