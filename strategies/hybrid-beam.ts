// `hybrid-beam` — the production PageIndex-style architecture (issue 3): two channels feed ONE
// node queue, deduplicated by (document, node); a beam takes the best nodes each round; a
// sufficiency check after each round decides whether to stop and steers the next round.
//
// Channels
// - value search: the question's chunk hits, mapped to their nodes (NodeScore =
//   sum(ChunkScore) / sqrt(N + 1)), seed the queue. Later re-queried with the missing aspects.
// - structural search: one 'select-nodes' call over the outline (paged when large) in which the
//   model reasons about where the answer is written; it finds branches with no chunk hit at all.
//
// Priority of a queued node (higher first):
//   priority = value + llmBonus * [picked by the model] + suggestBonus * [suggested by sufficiency]
// where value in [0, 1] is the node's *subtree* score (the NodeScores of the node and all its
// descendants, summed) divided by the best single NodeScore of that query, capped at 1, and
// maximised over the queries made (question, then missing aspects). Ties: deeper node first
// (more specific), then the order the nodes were queued. With beamWidth >= 2 each channel that
// has queued nodes gets at least one slot per round (its best node), so a flood of value hits
// cannot starve the model's picks, nor the other way round. llmBonus defaults to 1 so a node the
// model chose with no chunk hit at all ranks level with the best value hit: the structural
// channel exists to find exactly those branches.
//
// A round takes the best `beamWidth` nodes. An internal node is expanded ('choose-children': the
// model sees the children with their value score as a weak prior and may pick low-value ones or
// "__self__"); a pure wrapper (one child, no text) is passed through without a call; a leaf is
// opened. After a round that opened new evidence (and is not the last), a 'sufficiency' check
// returns { sufficient, missingAspects, suggestedBranches }: missing aspects go to the next
// choose-children payloads and re-query value search; suggested branches enter the queue.
//
// Stop reasons (StrategyResult.stopReason and a final `skip` trace step): 'sufficient',
// 'queue-empty', 'max-rounds', 'budget:<param>' for this strategy's own limits (maxVisited,
// maxOpened, maxCalls, maxEvidenceTokens, maxTimeMs) and 'budget:<name>' for the run's budgets
// (calls, tokens, dollars, timeMs, nodesVisited, nodesOpened, evidenceTokens).
//
// Budget conventions (shared with layerwise):
// - a node counts as visited when the beam takes it (expanded, passed through, or opened);
//   children only shown to the model are not visited;
// - `maxCalls` counts every model call including the answer; the search keeps one call (of
//   maxCalls and of the run's `calls` budget) and, under a `tokens` budget, an estimate of the
//   answer prompt in reserve, so the answer can always be asked;
// - `maxTimeMs` bounds the search (checked before each step; an in-flight call is not cut);
//   the answer call is made after it;
// - when the search stops with no evidence at all, the best queued nodes (up to beamWidth) are
//   opened within the budgets left rather than answering blind.
//
// Evidence is ranked by the priority its node had when it was opened (the search's own belief,
// combining both channels), ties in opening order.
import { z } from 'zod';
import type { ChatMessage, DocTree, EvidenceItem, QuestionInput, StrategyResult, TraceStep, TreeNode } from '../harness/types.ts';
import { BudgetExhaustedError, isBudgetExhausted } from '../harness/run/budget.ts';
import type { Strategy, StrategyContext } from './types.ts';
import type { Passage, TaskAnswers } from './prompts.ts';
import { answerFromEvidence, toPassages } from './shared/answer.ts';
import { ask, type Validator } from './shared/ask.ts';
import { docSelectParams, selectDocuments } from './shared/docSelect.ts';
import { nodeKey, openNode, rankEvidence, Trace } from './shared/evidence.ts';
import { asStringList } from '../harness/protocol/jsonReply.ts';
import { subtreeScores, type SubtreeScores } from './shared/subtreeScores.ts';
import { childViews, clip, indexDoc, nodeText, type DocIndex } from './shared/tree.ts';
import { assessOutline, flattenPoorLevels, type OutlineQualityOptions } from '../harness/trees/outlineQuality.ts';
import { buildOutline, pageOutline, QUALIFIER } from './node-list.ts';
import { promptInfo } from './prompts.ts';

const params = z
  .object({
    /** Nodes taken from the queue per round (expanded or opened). */
    beamWidth: z.number().int().min(1).max(20).default(3),
    /** Rounds of the beam at most. */
    maxRounds: z.number().int().min(1).max(50).default(4),
    /** Nodes the beam may take (expand, pass through or open). */
    maxVisited: z.number().int().min(1).default(40),
    /** Nodes opened into evidence. */
    maxOpened: z.number().int().min(1).default(12),
    /** Model calls, the final answer included. */
    maxCalls: z.number().int().min(1).default(20),
    /** Tokens of opened evidence. */
    maxEvidenceTokens: z.number().int().min(1).default(6000),
    /** Wall time of the search in ms (the answer call comes after). Unset: only the run's timeMs budget. */
    maxTimeMs: z.number().int().min(1).optional(),
    /** Chunks fetched per value-search query. */
    valueTopK: z.number().int().min(1).max(500).default(20),
    /** Nodes the model may pick from the outline (per outline page); 0 turns the structural channel off. */
    structuralPicks: z.number().int().min(0).max(50).default(3),
    /** Children the model may choose per expansion. */
    maxPicks: z.number().int().min(1).max(20).default(2),
    /** Priority bonus for nodes the model picked (outline or children). */
    llmBonus: z.number().min(0).max(10).default(1),
    /** Priority bonus for branches the sufficiency check suggested. */
    suggestBonus: z.number().min(0).max(10).default(0.75),
    /** Outline size per structural prompt before it is paged. */
    maxOutlineTokens: z.number().int().min(500).default(12000),
    /** Evidence tokens passed to the sufficiency check and the answer. */
    maxContextTokens: z.number().int().min(100).default(6000),
    /** Outline quality gate: flatten poor outlines ('auto'), every outline ('always'), or never ('off'). */
    outlineGate: z.enum(['auto', 'always', 'off']).default('auto'),
    /** Gate: titles this short are poor. */
    shortTitleChars: z.number().int().min(0).max(10).default(1),
    /** Gate: a (digit-folded) title used this often in a document is a duplicate. */
    duplicateTitleMin: z.number().int().min(2).default(3),
    /** Gate: share of poor titles that makes an outline poor. */
    poorTitleRatio: z.number().min(0).max(1).default(0.3),
    /** Gate: share of poor titles that makes one level meaningless (flattened). */
    poorLevelRatio: z.number().min(0).max(1).default(0.5),
    /** Gate: an outline deeper than this is extreme. */
    maxOutlineDepth: z.number().int().min(1).default(8),
    /** Gate: a level wider than this is extreme; also the most children one choose-children prompt shows. */
    maxOutlineFanout: z.number().int().min(2).default(50),
    ...docSelectParams,
  })
  .strict();

export type HybridBeamParams = z.infer<typeof params>;

export const SELF = '__self__';
export const NONE = 'NONE';

/** Budget-like limits of this strategy, and the run budget each one mirrors. */
export type LimitParam = 'maxVisited' | 'maxOpened' | 'maxCalls' | 'maxEvidenceTokens' | 'maxTimeMs';
const MIRRORS = { maxVisited: 'nodesVisited', maxOpened: 'nodesOpened', maxCalls: 'calls', maxEvidenceTokens: 'evidenceTokens', maxTimeMs: 'timeMs' } as const;

/**
 * A strategy limit was reached. It is a BudgetExhaustedError so the shared helpers (ask,
 * answerFromEvidence) treat it like any refused budget, but it does not mark the run's budget.
 */
export class LimitReached extends BudgetExhaustedError {
  constructor(
    readonly param: LimitParam,
    limit: number,
    wanted: number,
  ) {
    super(MIRRORS[param], limit, wanted);
    this.name = 'LimitReached';
    this.message = `hybrid-beam limit "${param}" reached (limit ${limit}, would reach ${Math.round(wanted * 1000) / 1000})`;
  }
}

/** Rough tokens of the answer prompt around its passages (instruction, JSON, a short reply). */
const ANSWER_OVERHEAD_TOKENS = 300;
const PER_PASSAGE_TOKENS = 25;
/** Entries of the `unexplored` list sent to the sufficiency check. */
const UNEXPLORED_LIMIT = 20;
/** Missing aspects kept from one sufficiency check. */
const MISSING_LIMIT = 5;

interface QItem {
  key: string;
  docId: string;
  nodeId: string;
  depth: number;
  /** Queued by a value-search query (seed or missing-aspects re-query). */
  fromValue: boolean;
  /** Picked by the model (outline selection or choose-children). */
  llm: boolean;
  /** Suggested by a sufficiency check. */
  suggested: boolean;
  seq: number;
  /** Why it was queued, for the trace. */
  why: string;
}

interface DocView {
  doc: DocTree;
  /** Index of the real tree (lookup, depth). */
  real: DocIndex;
  /** Index of the navigation view (flattened when the gate fired). */
  view: DocIndex;
}

export const hybridBeamStrategy: Strategy<HybridBeamParams> = {
  name: 'hybrid-beam',
  description:
    'Value search and model outline search feed one deduplicated node queue; a beam expands or opens the best nodes per round, and a sufficiency check stops the search or steers the next round.',
  prompts: promptInfo(['select-documents', 'select-nodes', 'choose-children', 'sufficiency', 'answer']),
  params,
  run(question, ctx, p) {
    return new BeamSearch(question, ctx, p).run();
  },
};

class BeamSearch {
  private readonly trace = new Trace();
  private readonly g: StrategyContext;
  private phase: 'search' | 'answer' = 'search';
  private readonly base: { calls: number; ms: number };
  private parseFailures = 0;
  private stopReason: string | null = null;

  private docIds: string[] = [];
  private readonly views = new Map<string, DocView>();
  private readonly valueMaps: Array<{ scores: SubtreeScores; best: number }> = [];

  private readonly queue = new Map<string, QItem>();
  private readonly done = new Set<string>();
  private seq = 0;
  /** Children shown to the model and not chosen: candidates for `unexplored`. */
  private readonly passedOver = new Map<string, { docId: string; nodeId: string }>();
  private missing: string[] = [];

  private readonly visited = new Set<string>();
  private readonly evidence: Array<{ item: EvidenceItem; priority: number; order: number }> = [];
  private evidenceTokens = 0;

  constructor(
    private readonly question: QuestionInput,
    private readonly ctx: StrategyContext,
    private readonly p: HybridBeamParams,
  ) {
    this.base = { calls: ctx.budget.used.calls, ms: ctx.budget.elapsedMs() };
    this.g = guardedContext(ctx, (messages) => this.checkCall(messages));
  }

  async run(): Promise<StrategyResult> {
    try {
      await this.chooseDocuments();
      this.buildViews();
      // Value search costs no model call: it runs even when document choice hit a budget, so
      // the fallback below has something to open.
      await this.valueChannel(this.question.question, 'question');
      if (!this.stopReason) {
        await this.structuralChannel();
        await this.rounds();
      }
    } catch (err) {
      if (!isBudgetExhausted(err)) throw err;
      this.stop(reasonOf(err), err.message);
    }
    if (!this.evidence.length) await this.fallbackOpen();

    this.phase = 'answer';
    const ordered = [...this.evidence].sort((a, b) => b.priority - a.priority || a.order - b.order).map((e) => e.item);
    const ranked = rankEvidence(ordered);
    const out = await answerFromEvidence(this.question, ranked, this.g, this.trace, { maxContextTokens: this.p.maxContextTokens });
    this.parseFailures += out.parseFailures;
    return {
      answer: out.answer,
      ...(out.choice !== undefined ? { choice: out.choice } : {}),
      evidence: ranked,
      trace: this.trace.steps,
      parseFailures: this.parseFailures,
      stopReason: this.stopReason ?? 'max-rounds',
    };
  }

  // -------------------------------------------------------------------------------------------
  // Setup: documents, outline views, the two channels

  private async chooseDocuments(): Promise<void> {
    try {
      const selection = await selectDocuments(this.question, this.g, this.trace, this.p);
      this.parseFailures += selection.parseFailures;
      this.docIds = selection.docIds;
    } catch (err) {
      if (!isBudgetExhausted(err)) throw err;
      // No model left to choose documents: the ones the question names, else corpus order.
      const known = new Set(this.ctx.corpus.docs.map((d) => d.docId));
      const named = (this.question.docIds ?? []).filter((id) => known.has(id));
      this.docIds = named.length ? named : this.ctx.corpus.docs.slice(0, this.p.maxDocs).map((d) => d.docId);
      this.stop(reasonOf(err), err.message);
    }
  }

  private buildViews(): void {
    const gate: Partial<OutlineQualityOptions> = {
      shortTitleChars: this.p.shortTitleChars,
      duplicateTitleMin: this.p.duplicateTitleMin,
      poorTitleRatio: this.p.poorTitleRatio,
      poorLevelRatio: this.p.poorLevelRatio,
      maxDepth: this.p.maxOutlineDepth,
      maxFanout: this.p.maxOutlineFanout,
    };
    for (const docId of this.docIds) {
      const doc = this.ctx.doc(docId);
      const real = indexDoc(doc);
      let view = real;
      if (this.p.outlineGate !== 'off') {
        const quality = assessOutline(doc, gate);
        if (this.p.outlineGate === 'always' || quality.poor) {
          const flat = flattenPoorLevels(doc.nodes, gate);
          if (flat.transparent.length) view = indexDoc({ ...doc, nodes: flat.nodes });
          const why = quality.poor ? quality.reasons.join('; ') : 'gate set to always';
          this.trace.add({
            action: 'skip',
            docId,
            source: 'rule',
            reason: `outline gate (${why}): ${flat.transparent.length} level node(s) made transparent${flat.transparent.length ? `: ${flat.transparent.slice(0, 10).join(', ')}${flat.transparent.length > 10 ? ', …' : ''}` : ''}`,
          });
        }
      }
      this.views.set(docId, { doc, real, view });
    }
  }

  /** Runs one value-search query and queues the nodes it hits. */
  private async valueChannel(query: string, label: string): Promise<void> {
    if (!this.docIds.length || !query.trim()) return;
    const hits = await this.ctx.valueSearch(query, { topK: this.p.valueTopK, docIds: this.docIds });
    const scores = subtreeScores(this.ctx, hits.filter((h) => this.views.has(h.docId)));
    const best = scores.ranked[0]?.score ?? 0;
    if (!(best > 0)) return;
    this.valueMaps.push({ scores, best });
    for (const r of scores.ranked) {
      const before = this.queue.get(nodeKey(r.docId, r.nodeId));
      const state = this.enqueue(r.docId, r.nodeId, { fromValue: true }, `value search (${label})`);
      if (state === 'done' || (state === 'merged' && before?.fromValue)) continue;
      this.trace.add({
        action: 'score',
        docId: r.docId,
        nodeId: r.nodeId,
        source: 'value',
        score: round3(this.valueOf(r.docId, r.nodeId)),
        reason: `${label}: NodeScore ${round3(r.score)}${state === 'merged' ? ' (already queued by the model)' : ''}`,
        depth: this.depthOf(r.docId, r.nodeId),
      });
    }
  }

  /** One 'select-nodes' call per outline page over the selected documents' views. */
  private async structuralChannel(): Promise<void> {
    if (this.p.structuralPicks === 0 || !this.docIds.length) return;
    const views = this.docIds.map((id) => this.views.get(id)!);
    const single = views.length === 1;
    const resolve = new Map<string, { docId: string; nodeId: string }>();
    for (const v of views) {
      for (const id of v.real.byId.keys()) resolve.set(single ? id : `${v.doc.docId}${QUALIFIER}${id}`, { docId: v.doc.docId, nodeId: id });
    }
    const outline = buildOutline(views.map((v) => ({ ...v.doc, nodes: v.view.doc.nodes })));
    const pages = pageOutline(outline, this.p.maxOutlineTokens, (s) => this.ctx.countTokens(s));
    for (const [i, page] of pages.entries()) {
      const payload = {
        task: 'select-nodes' as const,
        question: this.question.question,
        doc_id: single ? views[0].doc.docId : '*',
        doc_title: single ? views[0].doc.title : `${views.length} documents`,
        outline: page,
        max_nodes: this.p.structuralPicks,
        ...(pages.length > 1 ? { page: { index: i + 1, count: pages.length } } : {}),
      };
      const res = await ask(this.g, payload, (obj) => {
        const list = asStringList(obj.node_list);
        if (!list) return { ok: false, error: '"node_list" must be a list of node ids' };
        const unknown = list.filter((id) => !resolve.has(id) && !id.startsWith(`doc${QUALIFIER}`));
        if (unknown.length) return { ok: false, error: `unknown node ids: ${unknown.slice(0, 5).join(', ')}` };
        return { ok: true, value: { thinking: typeof obj.thinking === 'string' ? obj.thinking : undefined, node_list: list } };
      }, { retries: this.retries() });
      this.parseFailures += res.parseFailures;
      if (!res.ok) {
        this.trace.add({ action: 'fallback', source: 'rule', reason: `structural search${pages.length > 1 ? ` (outline page ${i + 1})` : ''} unusable (${res.error}); value channel only` });
        continue;
      }
      for (const id of res.value.node_list.slice(0, this.p.structuralPicks)) {
        const target = resolve.get(id);
        if (!target) continue; // a whole document was named: nothing specific to queue
        this.pick(target.docId, target.nodeId, { llm: true }, `structural: ${clip(res.value.thinking ?? 'picked from the outline', 200)}`);
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // The beam

  private async rounds(): Promise<void> {
    for (let round = 1; ; round++) {
      if (round > this.p.maxRounds) return this.stop('max-rounds');
      this.checkTime();
      const beam = this.pickBeam();
      if (!beam.length) return this.stop('queue-empty');
      const openedBefore = this.evidence.length;
      for (const item of beam) await this.process(item, round);
      if (round === this.p.maxRounds) return this.stop(this.queue.size ? 'max-rounds' : 'queue-empty');
      if (this.evidence.length > openedBefore && (await this.sufficiency(round))) return this.stop('sufficient');
    }
  }

  private priority(it: QItem): number {
    return this.valueOf(it.docId, it.nodeId) + (it.llm ? this.p.llmBonus : 0) + (it.suggested ? this.p.suggestBonus : 0);
  }

  private byPriority = (a: QItem, b: QItem): number => this.priority(b) - this.priority(a) || b.depth - a.depth || a.seq - b.seq;

  /** The best `beamWidth` queued nodes, with one slot per channel guaranteed when B >= 2. */
  private pickBeam(): QItem[] {
    const sorted = [...this.queue.values()].sort(this.byPriority);
    const beam: QItem[] = [];
    if (this.p.beamWidth >= 2) {
      const channels: Array<(it: QItem) => boolean> = [(it) => it.llm || it.suggested, (it) => it.fromValue];
      for (const inChannel of channels) {
        if (beam.some(inChannel)) continue;
        const best = sorted.find((it) => inChannel(it) && !beam.includes(it));
        if (best) beam.push(best);
      }
    }
    for (const it of sorted) {
      if (beam.length >= this.p.beamWidth) break;
      if (!beam.includes(it)) beam.push(it);
    }
    beam.sort(this.byPriority);
    for (const it of beam) {
      this.queue.delete(it.key);
      this.done.add(it.key);
    }
    return beam;
  }

  /** Expands, passes through or opens one beam node. */
  private async process(item: QItem, round: number): Promise<void> {
    const { docId } = item;
    const priority = this.priority(item);
    const source = sourceOf(item);
    const view = this.views.get(docId)!;
    let nodeId = item.nodeId;
    this.checkTime();
    this.visit(docId, nodeId);
    // A wrapper with one child and no text of its own leaves nothing to choose: go down.
    for (;;) {
      const kids = this.viewChildren(docId, nodeId);
      const node = view.real.byId.get(nodeId)!.node;
      if (kids.length !== 1 || hasOwnText(node)) break;
      const child = kids[0];
      this.trace.add({ action: 'skip', docId, nodeId, source: 'prior', score: round3(priority), reason: `round ${round}: only child ${child.id}, descending without a model call`, depth: this.depthOf(docId, nodeId) });
      const key = nodeKey(docId, child.id);
      if (this.done.has(key)) return;
      this.queue.delete(key);
      this.done.add(key);
      nodeId = child.id;
      this.checkTime();
      this.visit(docId, nodeId);
    }
    const kids = this.viewChildren(docId, nodeId);
    if (!kids.length) {
      this.open(docId, nodeId, priority, source, `round ${round}: ${item.why}`);
      return;
    }
    await this.expand(docId, nodeId, kids, priority, source, round, item.why);
  }

  private async expand(docId: string, nodeId: string, kids: TreeNode[], priority: number, source: TraceStep['source'], round: number, why: string): Promise<void> {
    const view = this.views.get(docId)!;
    const node = view.real.byId.get(nodeId)!.node;
    const title = view.view.byId.get(nodeId)?.node.title ?? node.title;
    this.trace.add({ action: 'expand', docId, nodeId, source, score: round3(priority), reason: `round ${round}: ${why}`, pages: node.pages, depth: this.depthOf(docId, nodeId) });

    const shown = this.capChildren(docId, nodeId, kids, round);
    const allowSelf = hasOwnText(node);
    const ids = new Set(shown.map((c) => c.id));
    const hasValue = this.valueMaps.length > 0;
    const payload = {
      task: 'choose-children' as const,
      question: this.question.question,
      doc_id: docId,
      doc_title: this.ctx.doc(docId).title,
      parent: { node_id: nodeId, title },
      children: childViews(shown, hasValue ? (c) => this.valueOf(docId, c.id) : undefined),
      max_picks: this.p.maxPicks,
      allow_self: allowSelf,
      ...(this.missing.length ? { missing_aspects: [...this.missing] } : {}),
    };
    const validate: Validator<TaskAnswers['choose-children']> = (obj) => {
      const list = asStringList(obj.choices);
      if (!list) return { ok: false, error: '"choices" must be a list of child node ids' };
      const bad = list.filter((c) => !ids.has(c) && c !== NONE && !(allowSelf && c === SELF));
      if (bad.length) return { ok: false, error: `not a child of ${nodeId}${allowSelf ? '' : ` (and "${SELF}" is not allowed here)`}: ${bad.slice(0, 5).join(', ')}` };
      return { ok: true, value: { thinking: typeof obj.thinking === 'string' ? obj.thinking : undefined, choices: list } };
    };
    const res = await ask(this.g, payload, validate, { retries: this.retries() });
    this.parseFailures += res.parseFailures;

    let chosen: string[];
    if (res.ok) {
      chosen = [...new Set(res.value.choices.filter((c) => c !== NONE))].slice(0, this.p.maxPicks);
      const reason = clip(res.value.thinking ?? `chosen under ${nodeId}`, 200);
      if (!chosen.length) this.trace.add({ action: 'skip', docId, nodeId, source: 'llm', reason: `round ${round}: model says no child of ${nodeId} fits${res.value.thinking ? ` (${clip(res.value.thinking, 160)})` : ''}`, depth: this.depthOf(docId, nodeId) });
      for (const c of chosen) {
        if (c === SELF) {
          this.open(docId, nodeId, priority + this.p.llmBonus, 'llm', `round ${round}: model chose the section itself (${reason})`);
        } else {
          this.pick(docId, c, { llm: true }, `round ${round}: chosen under ${nodeId}: ${reason}`);
        }
      }
    } else {
      // Degrade to value ranking: best subtree value first, document order on ties.
      chosen = shown
        .map((c, i) => ({ id: c.id, v: this.valueOf(docId, c.id), i }))
        .sort((a, b) => b.v - a.v || a.i - b.i)
        .slice(0, this.p.maxPicks)
        .map((c) => c.id);
      this.trace.add({ action: 'fallback', docId, nodeId, source: 'value', reason: `round ${round}: children choice unusable (${res.error}); took ${chosen.join(', ')} by value score` });
      for (const c of chosen) this.pick(docId, c, { fromValue: true }, `round ${round}: value ranking under ${nodeId}`, 'value');
    }
    for (const c of shown) {
      if (!chosen.includes(c.id)) this.passedOver.set(nodeKey(docId, c.id), { docId, nodeId: c.id });
    }
  }

  /** Children for one prompt: all of them, or the best `maxOutlineFanout` by value in document order. */
  private capChildren(docId: string, nodeId: string, kids: TreeNode[], round: number): TreeNode[] {
    const cap = this.p.maxOutlineFanout;
    if (kids.length <= cap) return kids;
    const keep = new Set(
      kids
        .map((c, i) => ({ id: c.id, v: this.valueOf(docId, c.id), i }))
        .sort((a, b) => b.v - a.v || a.i - b.i)
        .slice(0, cap)
        .map((c) => c.id),
    );
    this.trace.add({ action: 'skip', docId, nodeId, source: 'value', reason: `round ${round}: ${kids.length - cap} of ${kids.length} children not shown (fanout cap ${cap}; kept the best by value score)` });
    return kids.filter((c) => keep.has(c.id));
  }

  /** Returns true when the evidence is sufficient. */
  private async sufficiency(round: number): Promise<boolean> {
    const single = this.docIds.length === 1;
    const unexplored = this.unexplored();
    const byShownId = new Map(unexplored.map((u) => [single ? u.nodeId : `${u.docId}${QUALIFIER}${u.nodeId}`, u]));
    const payload = {
      task: 'sufficiency' as const,
      question: this.question.question,
      evidence: this.contextPassages(),
      ...(unexplored.length
        ? { unexplored: unexplored.map((u) => ({ doc_id: u.docId, node_id: single ? u.nodeId : `${u.docId}${QUALIFIER}${u.nodeId}`, title: u.title })) }
        : {}),
    };
    const res = await ask(this.g, payload, (obj) => {
      const sufficient = asBoolean(obj.sufficient);
      if (sufficient === null) return { ok: false, error: '"sufficient" must be true or false' };
      const missingAspects = obj.missingAspects === undefined || obj.missingAspects === null ? [] : asStringList(obj.missingAspects);
      if (!missingAspects) return { ok: false, error: '"missingAspects" must be a list of strings' };
      const suggestedBranches = obj.suggestedBranches === undefined || obj.suggestedBranches === null ? [] : asStringList(obj.suggestedBranches);
      if (!suggestedBranches) return { ok: false, error: '"suggestedBranches" must be a list of node ids' };
      const unknown = suggestedBranches.filter((id) => !byShownId.has(id));
      if (unknown.length) return { ok: false, error: `suggestedBranches must come from "unexplored"; unknown: ${unknown.slice(0, 5).join(', ')}` };
      return { ok: true, value: { sufficient, missingAspects: missingAspects.filter(Boolean), suggestedBranches } };
    }, { retries: this.retries() });
    this.parseFailures += res.parseFailures;
    if (!res.ok) {
      this.missing = [];
      this.trace.add({ action: 'fallback', source: 'rule', reason: `round ${round}: sufficiency check unusable (${res.error}); continuing by priority` });
      return false;
    }
    const v = res.value;
    this.missing = v.sufficient ? [] : v.missingAspects.slice(0, MISSING_LIMIT);
    this.trace.add({
      action: 'sufficiency',
      source: 'llm',
      score: this.evidence.length,
      reason: v.sufficient
        ? `round ${round}: sufficient with ${this.evidence.length} passage(s)`
        : `round ${round}: not sufficient; missing: ${this.missing.join('; ') || '(none named)'}; suggested: ${v.suggestedBranches.join(', ') || '(none)'}`,
    });
    if (v.sufficient) return true;
    for (const id of v.suggestedBranches) {
      const u = byShownId.get(id)!;
      this.pick(u.docId, u.nodeId, { suggested: true }, `round ${round}: suggested by the sufficiency check`);
    }
    if (this.missing.length) await this.valueChannel(this.missing.join('; '), 'missing aspects');
    return false;
  }

  /** Not yet taken nodes worth naming to the sufficiency check: queued, passed over, top level. */
  private unexplored(): Array<{ docId: string; nodeId: string; title: string }> {
    const out: Array<{ docId: string; nodeId: string; title: string }> = [];
    const seen = new Set<string>();
    const add = (docId: string, nodeId: string) => {
      const key = nodeKey(docId, nodeId);
      if (out.length >= UNEXPLORED_LIMIT || seen.has(key) || this.done.has(key)) return;
      seen.add(key);
      out.push({ docId, nodeId, title: this.titleOf(docId, nodeId) });
    };
    for (const it of [...this.queue.values()].sort(this.byPriority)) add(it.docId, it.nodeId);
    for (const n of this.passedOver.values()) add(n.docId, n.nodeId);
    for (const docId of this.docIds) for (const n of this.views.get(docId)!.view.doc.nodes) add(docId, n.id);
    return out;
  }

  /** Opened evidence for the sufficiency check, in rank order, cut to maxContextTokens. */
  private contextPassages(): Passage[] {
    const ordered = [...this.evidence].sort((a, b) => b.priority - a.priority || a.order - b.order).map((e) => e.item);
    const out: Passage[] = [];
    let used = 0;
    for (const p of toPassages(ordered)) {
      const t = this.ctx.countTokens(p.text);
      if (used + t > this.p.maxContextTokens && out.length) break;
      out.push(p);
      used += t;
    }
    return out;
  }

  /** When the search stopped with nothing opened: open the best queued nodes within the budgets left. */
  private async fallbackOpen(): Promise<void> {
    // Nodes with text to read: leaves of the view, or sections with text of their own.
    const candidates = [...this.queue.values()]
      .filter((it) => !this.viewChildren(it.docId, it.nodeId).length || hasOwnText(this.views.get(it.docId)!.real.byId.get(it.nodeId)!.node))
      .sort(this.byPriority)
      .slice(0, this.p.beamWidth);
    if (candidates.some((it) => it.fromValue && !it.llm && !it.suggested)) {
      this.trace.add({ action: 'fallback', source: 'value', reason: 'the search opened nothing; opening the best queued nodes, value-search hits among them' });
    }
    try {
      for (const it of candidates) {
        this.queue.delete(it.key);
        this.done.add(it.key);
        this.visit(it.docId, it.nodeId);
        this.open(it.docId, it.nodeId, this.priority(it), sourceOf(it), `after the search (${this.stopReason ?? 'stopped'}): nothing opened yet; best queued node (${it.why})`);
      }
    } catch (err) {
      if (!isBudgetExhausted(err)) throw err;
      this.trace.add({ action: 'skip', source: 'rule', reason: `fallback stopped: ${err.message}` });
    }
  }

  // -------------------------------------------------------------------------------------------
  // Queue, values, budgets

  /** Queues a node (or merges flags into its queued entry). Unknown or hidden-only ids are refused upstream. */
  private enqueue(docId: string, nodeId: string, flags: Partial<Pick<QItem, 'fromValue' | 'llm' | 'suggested'>>, why: string): 'new' | 'merged' | 'done' {
    const key = nodeKey(docId, nodeId);
    if (this.done.has(key)) return 'done';
    const cur = this.queue.get(key);
    if (cur) {
      cur.fromValue ||= Boolean(flags.fromValue);
      cur.llm ||= Boolean(flags.llm);
      cur.suggested ||= Boolean(flags.suggested);
      // The strongest reason leads: model and sufficiency picks over value hits.
      if (flags.llm || flags.suggested) cur.why = why;
      return 'merged';
    }
    this.queue.set(key, {
      key,
      docId,
      nodeId,
      depth: this.depthOf(docId, nodeId) ?? 0,
      fromValue: Boolean(flags.fromValue),
      llm: Boolean(flags.llm),
      suggested: Boolean(flags.suggested),
      seq: this.seq++,
      why,
    });
    return 'new';
  }

  /** Queues a node picked by a channel and records a `select` step (or `skip` when already taken). */
  private pick(docId: string, nodeId: string, flags: Partial<Pick<QItem, 'fromValue' | 'llm' | 'suggested'>>, why: string, source: TraceStep['source'] = 'llm'): void {
    const state = this.enqueue(docId, nodeId, flags, why);
    const depth = this.depthOf(docId, nodeId);
    if (state === 'done') {
      this.trace.add({ action: 'skip', docId, nodeId, source, reason: `${why} — already taken, not queued again`, depth });
      return;
    }
    const it = this.queue.get(nodeKey(docId, nodeId))!;
    this.trace.add({ action: 'select', docId, nodeId, source, score: round3(this.priority(it)), reason: why, depth });
  }

  /** Value in [0, 1]: subtree score over the query's best NodeScore, capped, max over queries. */
  private valueOf(docId: string, nodeId: string): number {
    let v = 0;
    for (const m of this.valueMaps) v = Math.max(v, Math.min(1, m.scores.subtree(docId, nodeId) / m.best));
    return v;
  }

  private viewChildren(docId: string, nodeId: string): TreeNode[] {
    // A node hidden by the gate is not in the view: it is opened for its own text.
    return this.views.get(docId)?.view.byId.get(nodeId)?.node.children ?? [];
  }

  private titleOf(docId: string, nodeId: string): string {
    const v = this.views.get(docId);
    return v?.view.byId.get(nodeId)?.node.title ?? v?.real.byId.get(nodeId)?.node.title ?? nodeId;
  }

  private depthOf(docId: string, nodeId: string): number | undefined {
    return this.views.get(docId)?.real.byId.get(nodeId)?.depth;
  }

  private visit(docId: string, nodeId: string): void {
    const key = nodeKey(docId, nodeId);
    if (this.visited.has(key)) return;
    if (this.visited.size + 1 > this.p.maxVisited) throw new LimitReached('maxVisited', this.p.maxVisited, this.visited.size + 1);
    this.ctx.budget.visit(docId, nodeId);
    this.visited.add(key);
  }

  private open(docId: string, nodeId: string, priority: number, source: TraceStep['source'], reason: string): void {
    const v = this.views.get(docId)!;
    const node = v.real.byId.get(nodeId)!.node;
    const text = nodeText(v.doc, node);
    const tokens = this.ctx.countTokens(text);
    this.checkTime();
    if (this.evidence.length + 1 > this.p.maxOpened) throw new LimitReached('maxOpened', this.p.maxOpened, this.evidence.length + 1);
    if (this.evidenceTokens + tokens > this.p.maxEvidenceTokens) throw new LimitReached('maxEvidenceTokens', this.p.maxEvidenceTokens, this.evidenceTokens + tokens);
    // Under a tokens budget, keep room for the answer prompt that will carry this text.
    const tokensLeft = this.ctx.budget.remaining('tokens');
    if (Number.isFinite(tokensLeft) && tokensLeft < this.answerCost(tokens)) {
      this.ctx.budget.exhausted ??= 'tokens';
      throw new BudgetExhaustedError('tokens', this.ctx.budget.limits.tokens ?? 0, this.ctx.budget.used.tokens + this.answerCost(tokens));
    }
    const item = openNode(this.ctx, this.trace, docId, nodeId, { source, reason, score: round3(priority), text });
    this.evidenceTokens += tokens;
    this.evidence.push({ item, priority, order: this.evidence.length });
  }

  /** Estimated tokens of the answer call once `extra` more evidence tokens are opened. */
  private answerCost(extra: number): number {
    const passages = this.evidence.length + (extra > 0 ? 1 : 0);
    return ANSWER_OVERHEAD_TOKENS + this.ctx.countTokens(this.question.question) + Math.min(this.p.maxContextTokens, this.evidenceTokens + extra) + PER_PASSAGE_TOKENS * passages;
  }

  private checkTime(): void {
    if (this.p.maxTimeMs === undefined) return;
    const elapsed = this.ctx.budget.elapsedMs() - this.base.ms;
    if (elapsed >= this.p.maxTimeMs) throw new LimitReached('maxTimeMs', this.p.maxTimeMs, elapsed);
  }

  /**
   * The retry ask() may make: none when the search has a single call left, so a bad reply
   * degrades (and is counted) instead of the retry hitting the limit and losing the count.
   */
  private retries(): number {
    const made = this.ctx.budget.used.calls - this.base.calls;
    const left = Math.min(this.p.maxCalls - made - 1, this.ctx.budget.remaining('calls') - 1);
    return left >= 2 ? 1 : 0;
  }

  /** Runs before every model call made through `this.g`. */
  private checkCall(messages: ChatMessage[]): void {
    const reserve = this.phase === 'search' ? 1 : 0;
    const made = this.ctx.budget.used.calls - this.base.calls;
    if (made + 1 + reserve > this.p.maxCalls) throw new LimitReached('maxCalls', this.p.maxCalls, made + 1 + reserve);
    if (this.phase !== 'search') return;
    this.checkTime();
    const budget = this.ctx.budget;
    if (budget.remaining('calls') < 1 + reserve) {
      budget.exhausted ??= 'calls';
      throw new BudgetExhaustedError('calls', budget.limits.calls ?? 0, budget.used.calls + 1 + reserve);
    }
    const tokensLeft = budget.remaining('tokens');
    if (Number.isFinite(tokensLeft)) {
      const need = messages.reduce((n, m) => n + this.ctx.countTokens(m.content), 0) + 1 + this.answerCost(0);
      if (tokensLeft < need) {
        budget.exhausted ??= 'tokens';
        throw new BudgetExhaustedError('tokens', budget.limits.tokens ?? 0, budget.used.tokens + need);
      }
    }
  }

  private stop(reason: string, detail?: string): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.trace.add({ action: 'skip', source: 'rule', reason: `stop: ${reason}${detail ? ` (${detail})` : ''}` });
  }
}

// ---------------------------------------------------------------------------------------------

/** The context with a check in front of every chat call; everything else is the context itself. */
function guardedContext(ctx: StrategyContext, check: (messages: ChatMessage[]) => void): StrategyContext {
  const chat: StrategyContext['chat'] = async (messages, opts) => {
    check(messages);
    return ctx.chat(messages, opts);
  };
  return new Proxy(ctx, {
    get(target, prop) {
      if (prop === 'chat') return chat;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function reasonOf(err: BudgetExhaustedError): string {
  return err instanceof LimitReached ? `budget:${err.param}` : `budget:${err.budget}`;
}

function sourceOf(it: QItem): TraceStep['source'] {
  return it.llm || it.suggested ? 'llm' : it.fromValue ? 'value' : 'prior';
}

function hasOwnText(node: TreeNode): boolean {
  return Boolean(node.text && node.text.trim());
}

function asBoolean(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false|yes|no)$/i.test(v.trim())) return /^(true|yes)$/i.test(v.trim());
  return null;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
