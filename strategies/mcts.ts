// `mcts` — Monte Carlo tree search over the outline (AlphaZero-style, the model standing in for
// rollouts). Each simulation walks from the root by PUCT,
//     score(child) = Q(child) + c * P(child) * sqrt(N(parent)) / (1 + N(child)),
// until it reaches a node not yet evaluated, evaluates it with one model call, and backs the
// value up the path (every node on it: N += 1, W += value, Q = W / N).
//
// Choices (documented in docs/strategies.md):
// - Priors P come from value search: chunk hits -> NodeScore -> each child's own score plus its
//   descendants' (shared/subtreeScores.ts), normalised over siblings, uniform when no sibling
//   has a hit, then mixed with a 10 % uniform share so no child is unreachable.
// - Expansion: the first time the walk reaches an internal node, ONE 'estimate-values' call
//   rates all its children. The estimates serve as the initial Q of each unvisited child, and
//   the best of them is the value backed up for the expansion (a section is worth its most
//   promising sub-section). Children without an estimate start at their parent's mean value.
// - Reading: a leaf is read when the walk reaches it: one 'reward' call on its text gives the
//   value in [0, 1]. Rewards are cached per node, so later walks to it cost no call and simply
//   back the reward up again — this is what concentrates visits on the best passages. With
//   `readInternal`, a section with its own text (the text before its first sub-section) also
//   gets a "read this section itself" child that competes with its sub-sections under PUCT.
// - Reading for a reward costs a call and tokens, not `nodesOpened`: only the final evidence is
//   opened. A node counts as *visited* when a walk selects it.
// - The search stops after `simulations`, when `maxCalls` search calls are spent (document
//   choice and the answer are not counted), or when the run's budget refuses a step; one call of
//   the run's `calls` budget is always kept for the answer.
// - Final evidence: the `topNodes` read nodes with the most visits, then the best mean value.
// - Randomness only breaks exact ties in PUCT, from `seed` when set, else the run's seeded
//   ctx.random(): the same seed and the same model answers give the same search, step by step.
import { z } from 'zod';
import type { EvidenceItem, TraceStep, TreeNode } from '../harness/types.ts';
import type { Strategy } from './types.ts';
import type { ChildView } from './prompts.ts';
import { answerFromEvidence } from './shared/answer.ts';
import { ask } from './shared/ask.ts';
import { docSelectParams, selectDocuments } from './shared/docSelect.ts';
import { nodeKey, openNode, rankEvidence, Trace } from './shared/evidence.ts';
import { emptySubtreeScores, subtreeScores, type SubtreeScores } from './shared/subtreeScores.ts';
import { childViews, indexDoc, isLeaf, nodeText } from './shared/tree.ts';
import { isBudgetExhausted } from '../harness/run/budget.ts';
import { seededRandom } from '../harness/run/context.ts';
import { promptInfo } from './prompts.ts';

const params = z
  .object({
    /** Walks from the root; each asks the model at most once (one call, two with a retry); walks to read nodes are free. */
    simulations: z.number().int().min(1).max(10_000).default(24),
    /** PUCT exploration constant. */
    c: z.number().min(0).max(100).default(1.4),
    /** Overrides the run's per-question seed (ties in PUCT), for reproducing one search. */
    seed: z.number().int().optional(),
    /** Model calls the search may make (estimate-values and reward; not document choice or the answer). */
    maxCalls: z.number().int().min(0).default(16),
    /** Read nodes kept as final evidence. */
    topNodes: z.number().int().min(1).max(50).default(3),
    /** Chunk hits used for priors (0 = uniform priors, no value search). */
    valueTopK: z.number().int().min(0).max(1000).default(30),
    /** Let a section's own text (before its sub-sections) be read as a candidate of its own. */
    readInternal: z.boolean().default(true),
    /** Tokens of context for the answer; a passage read for a reward is clipped to this too. */
    maxContextTokens: z.number().int().min(100).default(6000),
    ...docSelectParams,
  })
  .strict();

export type MctsParams = z.infer<typeof params>;

/** Share of every prior that is uniform over the siblings. */
const PRIOR_UNIFORM_MIX = 0.1;
/** Scores closer than this are a tie (broken by the seeded random numbers). */
const TIE_EPS = 1e-12;

/** A node of the search tree: the root of several documents, a document, a section, or a section's own text. */
export interface SearchNode {
  kind: 'root' | 'doc' | 'node' | 'self';
  docId?: string;
  tree?: TreeNode;
  /** Depth of `tree` in its document (0 = top level). */
  depth?: number;
  prior: number;
  /** Initial Q from the parent's estimate-values call (or value fallback). */
  estimate?: number;
  /** Visits and summed backed-up value. */
  n: number;
  w: number;
  children?: SearchNode[];
  /** Cached reward of a read node. */
  reward?: number;
}

const mean = (s: SearchNode): number => (s.n > 0 ? s.w / s.n : 0);
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Cuts text to about `limit` tokens of the run's tokenizer. */
function clipTokens(text: string, limit: number, count: (s: string) => number): string {
  let out = text;
  for (let tokens = count(out); tokens > limit && out.length > 0; tokens = count(out)) {
    out = out.slice(0, Math.max(0, Math.floor((out.length * limit) / tokens) - 1));
  }
  return out.length < text.length ? `${out}…` : out;
}

/** Parses a probability a model wrote as a number or a numeric string; null when it is not one in [0, 1]. */
function probability(v: unknown): number | null {
  const x = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(x) && x >= 0 && x <= 1 ? x : null;
}

/** Normalises raw scores into priors (uniform when all are 0), mixed with a uniform share. */
export function priorsFrom(raw: number[]): number[] {
  const n = raw.length;
  if (n === 0) return [];
  const sum = raw.reduce((a, b) => a + Math.max(0, b), 0);
  return raw.map((x) => (sum > 0 ? (1 - PRIOR_UNIFORM_MIX) * (Math.max(0, x) / sum) + PRIOR_UNIFORM_MIX / n : 1 / n));
}

export const mctsStrategy: Strategy<MctsParams> = {
  name: 'mcts',
  description:
    'Monte Carlo tree search over the outline: PUCT with value-search priors, one estimate-values call per expansion, a cached reward call per read node; evidence = most visited read nodes.',
  prompts: promptInfo(['select-documents', 'estimate-values', 'reward', 'answer']),
  params,
  async run(question, ctx, p) {
    const trace = new Trace();
    const rng = p.seed !== undefined ? seededRandom(p.seed) : () => ctx.random();
    const selection = await selectDocuments(question, ctx, trace, p);
    let parseFailures = selection.parseFailures;

    let values: SubtreeScores = emptySubtreeScores;
    if (p.valueTopK > 0) {
      const hits = await ctx.valueSearch(question.question, { topK: p.valueTopK, docIds: selection.docIds });
      values = subtreeScores(ctx, hits);
      trace.add({ action: 'score', source: 'value', reason: hits.length ? `priors from ${hits.length} chunk hits over ${values.ranked.length} nodes` : 'no chunk hits: uniform priors' });
    }

    // ----- search tree construction
    const nodeChildren = (docId: string, parent: TreeNode | null): SearchNode[] => {
      const kids = parent ? parent.children : ctx.doc(docId).nodes;
      const depth = parent ? indexDoc(ctx.doc(docId)).byId.get(parent.id)!.depth + 1 : 0;
      const out: SearchNode[] = kids.map((t) => ({ kind: 'node', docId, tree: t, depth, prior: 0, n: 0, w: 0 }));
      const raw = kids.map((t) => values.subtree(docId, t.id));
      if (parent && p.readInternal && parent.text?.trim()) {
        out.push({ kind: 'self', docId, tree: parent, depth: depth - 1, prior: 0, n: 0, w: 0 });
        raw.push(values.own(docId, parent.id));
      }
      priorsFrom(raw).forEach((pr, i) => (out[i].prior = pr));
      return out;
    };
    let root: SearchNode;
    if (selection.docIds.length === 1) {
      root = { kind: 'doc', docId: selection.docIds[0], prior: 1, n: 0, w: 0 };
    } else {
      const docs: SearchNode[] = selection.docIds.map((docId) => ({ kind: 'doc', docId, prior: 0, n: 0, w: 0 }));
      priorsFrom(selection.docIds.map((d) => values.doc(d))).forEach((pr, i) => (docs[i].prior = pr));
      // Choosing among documents needs no call; the root's creation counts as its first visit so
      // the priors weigh in from the first walk.
      root = { kind: 'root', prior: 1, n: 1, w: 0, children: docs };
    }
    const terminal = (s: SearchNode): boolean =>
      s.kind === 'self' || (s.kind === 'node' && isLeaf(s.tree!)) || (s.kind === 'doc' && ctx.doc(s.docId!).nodes.length === 0) || (s.kind === 'root' && s.children!.length === 0);
    const label = (s: SearchNode): Pick<TraceStep, 'docId' | 'nodeId' | 'depth'> => ({
      ...(s.docId !== undefined ? { docId: s.docId } : {}),
      ...(s.tree ? { nodeId: s.tree.id, depth: s.depth } : {}),
    });

    // ----- call accounting: maxCalls for the search, and one call of the run's budget kept for the answer
    const callsAtStart = ctx.budget.used.calls;
    let stopReason = 'simulations';
    const callsLeft = (): number => Math.min(p.maxCalls - (ctx.budget.used.calls - callsAtStart), ctx.budget.remaining('calls') - 1);
    const outOfCalls = (): boolean => {
      if (callsLeft() >= 1) return false;
      if (p.maxCalls - (ctx.budget.used.calls - callsAtStart) < 1) stopReason = 'max-calls';
      else {
        stopReason = 'budget';
        ctx.budget.exhausted ??= 'calls';
      }
      return true;
    };

    /** Expands an internal node with one estimate-values call; returns the value to back up, or null when out of calls. */
    const expand = async (s: SearchNode): Promise<number | null> => {
      if (outOfCalls()) return null;
      const docId = s.docId!;
      const parent = s.kind === 'node' ? s.tree! : null;
      const children = nodeChildren(docId, parent);
      const views: ChildView[] = childViews(children.filter((c) => c.kind === 'node').map((c) => c.tree!));
      const self = children.find((c) => c.kind === 'self');
      if (self && parent) {
        views.push({
          node_id: parent.id,
          title: `${parent.title} (the section's own text, before its sub-sections)`,
          ...(parent.summary ? { summary: childViews([parent])[0].summary } : {}),
          ...(parent.pages ? { pages: parent.pages } : {}),
          has_children: false,
        });
      }
      const byId = new Map<string, SearchNode>(children.map((c) => [c.tree!.id, c]));
      const lower = new Map<string, string>(children.map((c) => [c.tree!.id.toLowerCase(), c.tree!.id]));
      const res = await ask(
        ctx,
        { task: 'estimate-values', question: question.question, doc_id: docId, doc_title: ctx.doc(docId).title, parent: parent ? { node_id: parent.id, title: parent.title } : null, children: views },
        (obj) => {
          const raw = obj.values;
          if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, error: '"values" must be an object {"<node_id>": <0..1>, ...}' };
          const out: Record<string, number> = {};
          const unknown: string[] = [];
          const bad: string[] = [];
          for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
            const id = byId.has(k) ? k : lower.get(k.trim().toLowerCase());
            if (!id) unknown.push(k);
            else {
              const x = probability(v);
              if (x === null) bad.push(k);
              else out[id] = x;
            }
          }
          if (unknown.length) return { ok: false, error: `unknown node ids: ${unknown.slice(0, 5).join(', ')}; the children are: ${[...byId.keys()].slice(0, 30).join(', ')}` };
          if (bad.length) return { ok: false, error: `values must be numbers from 0 to 1 (bad: ${bad.slice(0, 5).join(', ')})` };
          if (Object.keys(out).length === 0) return { ok: false, error: 'no value for any child' };
          return { ok: true, value: { thinking: typeof obj.thinking === 'string' ? obj.thinking : undefined, values: out } };
        },
        { retries: callsLeft() >= 2 ? 1 : 0 },
      );
      parseFailures += res.parseFailures;
      s.children = children;
      let source: TraceStep['source'] = 'llm';
      if (res.ok) {
        for (const c of children) {
          const v = res.value.values[c.tree!.id];
          if (v !== undefined) c.estimate = v;
        }
        trace.add({ action: 'expand', ...label(s), source: 'llm', reason: res.value.thinking });
      } else {
        // Degrade to value search: a child's estimate is its subtree score relative to the best sibling.
        source = 'value';
        const raw = children.map((c) => (c.kind === 'self' ? values.own(docId, c.tree!.id) : values.subtree(docId, c.tree!.id)));
        const top = Math.max(...raw);
        if (top > 0) children.forEach((c, i) => (c.estimate = raw[i] / top));
        trace.add({ action: 'fallback', ...label(s), source: 'value', reason: `estimate-values reply unusable after retry (${res.error}); ${top > 0 ? 'value scores used as estimates' : 'no estimates (no value hits)'}` });
      }
      for (const c of children) {
        if (c.estimate !== undefined) trace.add({ action: 'score', ...label(c), source, score: r3(c.estimate), reason: c.kind === 'self' ? 'estimate: own text' : 'estimate' });
      }
      const estimates = children.map((c) => c.estimate).filter((x): x is number => x !== undefined);
      return estimates.length ? Math.max(...estimates) : (s.estimate ?? 0);
    };

    const readOrder: SearchNode[] = [];
    /** Reads a terminal node: cached reward, else one reward call; null when out of calls. */
    const read = async (s: SearchNode): Promise<number | null> => {
      if (!s.tree) return 0; // an empty document
      if (s.reward !== undefined) {
        trace.add({ action: 'score', ...label(s), source: 'llm', score: r3(s.reward), reason: 'reward (cached, no call)' });
        return s.reward;
      }
      if (outOfCalls()) return null;
      const doc = ctx.doc(s.docId!);
      const node = s.tree;
      const passage = {
        doc_id: doc.docId,
        node_id: node.id,
        title: node.title,
        ...(node.pages ? { pages: node.pages } : {}),
        text: clipTokens(nodeText(doc, node), p.maxContextTokens, (t) => ctx.countTokens(t)),
      };
      const res = await ask(
        ctx,
        { task: 'reward', question: question.question, passage },
        (obj) => {
          const r = probability(obj.reward);
          if (r === null) return { ok: false, error: '"reward" must be a number from 0 to 1' };
          return { ok: true, value: { reward: r, reason: typeof obj.reason === 'string' ? obj.reason : undefined } };
        },
        { retries: callsLeft() >= 2 ? 1 : 0, maxTokens: 256 },
      );
      parseFailures += res.parseFailures;
      if (res.ok) {
        s.reward = res.value.reward;
        trace.add({ action: 'score', ...label(s), source: 'llm', score: r3(s.reward), reason: `reward${s.kind === 'self' ? ' (own text)' : ''}${res.value.reason ? `: ${res.value.reason}` : ''}` });
      } else {
        // The node's estimate stands in for the reward; cached so a bad node is not re-asked.
        s.reward = s.estimate ?? 0;
        trace.add({ action: 'fallback', ...label(s), source: 'rule', score: r3(s.reward), reason: `reward reply unusable after retry (${res.error}); using the node's estimate` });
      }
      readOrder.push(s);
      return s.reward;
    };

    const select = (s: SearchNode, sim: number): SearchNode => {
      const kids = s.children!;
      const sqrtN = Math.sqrt(s.n);
      const fpu = mean(s);
      let best = -Infinity;
      let ties: Array<{ c: SearchNode; q: number }> = [];
      for (const c of kids) {
        const q = c.n > 0 ? c.w / c.n : (c.estimate ?? fpu);
        const u = q + (p.c * c.prior * sqrtN) / (1 + c.n);
        if (u > best + TIE_EPS) {
          best = u;
          ties = [{ c, q }];
        } else if (Math.abs(u - best) <= TIE_EPS) ties.push({ c, q });
      }
      const pick = ties.length === 1 ? ties[0] : ties[Math.floor(rng() * ties.length)];
      const c = pick.c;
      if (c.tree) ctx.budget.visit(c.docId!, c.tree.id);
      trace.add({
        action: 'select',
        ...label(c),
        source: 'prior',
        score: r3(best),
        reason: `sim ${sim + 1}${c.kind === 'self' ? ' own text' : ''}: Q=${r3(pick.q)} P=${r3(c.prior)} N=${c.n}${ties.length > 1 ? ` (tie of ${ties.length})` : ''}`,
      });
      return c;
    };

    // ----- the search
    let simulations = 0;
    try {
      for (; simulations < p.simulations; simulations++) {
        const path: SearchNode[] = [root];
        let s = root;
        while (s.children && !terminal(s)) {
          s = select(s, simulations);
          path.push(s);
        }
        const value = terminal(s) ? await read(s) : await expand(s);
        if (value === null) break;
        for (const x of path) {
          x.n += 1;
          x.w += value;
        }
      }
    } catch (err) {
      if (!isBudgetExhausted(err)) throw err;
      stopReason = 'budget';
      trace.add({ action: 'skip', source: 'rule', reason: `search stopped: ${(err as Error).message}` });
    }
    trace.add({ action: 'score', source: 'rule', reason: `search ended after ${simulations} simulation(s): ${stopReason}` });

    // ----- final evidence: read nodes by visits, then mean value (then first read, for a stable order)
    const evidence: EvidenceItem[] = [];
    const best = readOrder
      .map((s, i) => ({ s, i }))
      .sort((a, b) => b.s.n - a.s.n || mean(b.s) - mean(a.s) || a.i - b.i)
      .slice(0, p.topNodes)
      .map((x) => x.s);
    try {
      const seen = new Set<string>();
      for (const s of best) {
        const key = nodeKey(s.docId!, s.tree!.id);
        if (seen.has(key)) continue;
        seen.add(key);
        evidence.push(openNode(ctx, trace, s.docId!, s.tree!.id, { source: 'llm', score: r3(mean(s)), reason: `visits ${s.n}, mean value ${r3(mean(s))}, reward ${r3(s.reward ?? 0)}` }));
      }
      if (evidence.length === 0 && values.ranked.length) {
        trace.add({ action: 'fallback', source: 'value', reason: 'the search read no node; opening the best value-search nodes' });
        for (const h of values.ranked.slice(0, p.topNodes)) {
          ctx.budget.visit(h.docId, h.nodeId);
          evidence.push(openNode(ctx, trace, h.docId, h.nodeId, { source: 'value', score: h.score, reason: 'value-search fallback' }));
        }
      }
    } catch (err) {
      if (!isBudgetExhausted(err)) throw err;
    }

    const ranked = rankEvidence(evidence);
    const out = await answerFromEvidence(question, ranked, ctx, trace, { maxContextTokens: p.maxContextTokens });
    parseFailures += out.parseFailures;
    return {
      answer: out.answer,
      ...(out.choice !== undefined ? { choice: out.choice } : {}),
      evidence: ranked,
      trace: trace.steps,
      parseFailures,
      stopReason,
    };
  },
};
