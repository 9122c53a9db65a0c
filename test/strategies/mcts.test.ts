import { describe, it, expect } from 'vitest';
import { mctsStrategy, priorsFrom, type MctsParams } from '../../strategies/mcts.ts';
import { corpusOf, node, scriptedContext, type Script } from '../helpers/scriptedContext.ts';
import { byTask, flat, hit, manual, overruns, randomBudgets } from './treeFixtures.ts';
import type { Budget, DocTree, TraceStep } from '../../harness/types.ts';
import type { ChunkHit } from '../../strategies/types.ts';

const defaults = (over: Partial<MctsParams> = {}): MctsParams => mctsStrategy.params.parse(over);
const Q = { id: 'q1', question: 'How do I record video?' };

/** x[x1, x2], y[y1, y2], z[z1, z2] */
const three = (docId = 'three'): DocTree => ({
  docId,
  title: 'Three branches',
  nodes: ['x', 'y', 'z'].map((b) => node(b, `Branch ${b}`, [node(`${b}1`, `Leaf ${b}1`), node(`${b}2`, `Leaf ${b}2`)])),
});

const rewardOf = (table: Record<string, number>, other = 0.1) => byTask({ reward: (p) => ({ reward: table[p.passage.node_id] ?? other, reason: `scripted ${p.passage.node_id}` }) });

async function run(script: Script, opts: { docs?: DocTree[]; params?: Partial<MctsParams>; hits?: ChunkHit[]; budget?: Budget; seed?: number } = {}) {
  const ctx = scriptedContext({ corpus: corpusOf(...(opts.docs ?? [three()])), script, hits: opts.hits ?? [], budget: opts.budget, seed: opts.seed, honourMaxTokens: true });
  const res = await mctsStrategy.run(Q, ctx, defaults(opts.params));
  const searchCalls = ctx.chats.filter((c) => c.payload?.task === 'estimate-values' || c.payload?.task === 'reward').length;
  return { ctx, res, searchCalls };
}

/** Select steps per top-level branch (node ids start with the branch letter). */
function visitsByBranch(trace: TraceStep[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of trace) if (s.action === 'select' && s.nodeId) out[s.nodeId[0]] = (out[s.nodeId[0]] ?? 0) + 1;
  return out;
}

describe('mcts params', () => {
  it('has the documented defaults and rejects unknown keys', () => {
    expect(defaults()).toMatchObject({ simulations: 24, c: 1.4, maxCalls: 16, topNodes: 3, valueTopK: 30, readInternal: true, maxContextTokens: 6000, docSelect: 'fused', maxDocs: 3 });
    expect(defaults().seed).toBeUndefined();
    expect(() => mctsStrategy.params.parse({ simulation: 3 })).toThrow();
    expect(() => mctsStrategy.params.parse({ c: -1 })).toThrow();
  });

  it('normalises priors over siblings, uniform without hits', () => {
    expect(priorsFrom([0, 0, 0, 0])).toEqual([0.25, 0.25, 0.25, 0.25]);
    const p = priorsFrom([3, 1, 0]);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(p[0]).toBeGreaterThan(p[1]);
    expect(p[2]).toBeGreaterThan(0); // a uniform share keeps every child reachable
  });
});

describe('mcts search', () => {
  it('concentrates its visits on the branch with the highest reward', async () => {
    const { res, searchCalls } = await run(rewardOf({ y1: 1, y2: 0.8 }), { params: { readInternal: false } });
    const v = visitsByBranch(res.trace);
    expect(v.y).toBeGreaterThan(v.x);
    expect(v.y).toBeGreaterThan(v.z);
    expect(v.y).toBeGreaterThan(v.x + v.z);
    expect(res.evidence.map((e) => e.nodeId).slice(0, 2)).toEqual(['y1', 'y2']);
    expect(searchCalls).toBeLessThanOrEqual(16);
    expect(res.stopReason).toBe('simulations');
  });

  it('reads each node once: later walks reuse the cached reward', async () => {
    const { ctx, res } = await run(rewardOf({ z2: 0.9 }), { params: { readInternal: false, simulations: 40, maxCalls: 40 } });
    const read = ctx.chats.filter((c) => c.payload?.task === 'reward').map((c) => (c.payload as { passage: { node_id: string } }).passage.node_id);
    expect(new Set(read).size).toBe(read.length);
    expect(read.sort()).toEqual(['x1', 'x2', 'y1', 'y2', 'z1', 'z2']);
    expect(res.trace.some((s) => s.action === 'score' && s.reason?.includes('cached'))).toBe(true);
    expect(res.evidence[0].nodeId).toBe('z2');
  });

  it('makes one estimate-values call per expanded node and uses the estimates as initial Q', async () => {
    const script = byTask({
      estimate: (p) => ({ values: Object.fromEntries(p.children.map((c) => [c.node_id, c.node_id.startsWith('z') ? 0.9 : 0.1])) }),
      reward: (p) => ({ reward: p.passage.node_id.startsWith('z') ? 0.9 : 0.1 }),
    });
    const { ctx, res } = await run(script, { params: { readInternal: false, simulations: 6 } });
    const expanded = ctx.chats.filter((c) => c.payload?.task === 'estimate-values').map((c) => (c.payload as { parent: { node_id: string } | null }).parent?.node_id ?? 'root');
    expect(new Set(expanded).size).toBe(expanded.length);
    // The root, then straight into z (estimate 0.9) without touching x or y.
    expect(expanded.slice(0, 2)).toEqual(['root', 'z']);
    const v = visitsByBranch(res.trace);
    expect(v.z).toBeGreaterThan((v.x ?? 0) + (v.y ?? 0));
  });

  it('follows value-search priors when estimates tie', async () => {
    const { res } = await run(byTask({}), { hits: [hit('three', 'z2', 0.9), hit('three', 'z1', 0.4)], params: { readInternal: false, simulations: 3 } });
    expect(res.trace.find((s) => s.action === 'select')?.nodeId).toBe('z');
    expect(res.trace.find((s) => s.action === 'score' && s.source === 'value')?.reason).toMatch(/priors from 2 chunk hits/);
  });

  it('lets a section be read for its own text (readInternal)', async () => {
    const { ctx, res } = await run(rewardOf({ y: 1 }, 0), { params: { simulations: 40, maxCalls: 40 } });
    const est = ctx.chats.find((c) => c.payload?.task === 'estimate-values' && (c.payload as { parent: { node_id: string } | null }).parent?.node_id === 'y');
    expect((est?.payload as { children: Array<{ node_id: string; title: string }> }).children.at(-1)).toMatchObject({ node_id: 'y', title: expect.stringContaining('own text') });
    expect(res.evidence[0]).toMatchObject({ nodeId: 'y', text: 'Branch y text.' });
  });

  it('repeats itself exactly under the same seed', async () => {
    const script = rewardOf({ x2: 0.7, y1: 0.7, z1: 0.7 }, 0.3);
    const a = await run(script, { seed: 11 });
    const b = await run(script, { seed: 11 });
    expect(b.res.trace).toEqual(a.res.trace);
    expect(b.res.evidence).toEqual(a.res.evidence);
    expect(b.ctx.chats.map((c) => c.messages)).toEqual(a.ctx.chats.map((c) => c.messages));
    // The seed param overrides the run's seed.
    const c = await run(script, { seed: 1, params: { seed: 42 } });
    const d = await run(script, { seed: 2, params: { seed: 42 } });
    expect(d.res.trace).toEqual(c.res.trace);
  });

  it('breaks ties with the seed, so different seeds can search differently', async () => {
    const script = rewardOf({}, 0.5);
    const traces = new Set<string>();
    for (let seed = 1; seed <= 8; seed++) traces.add(JSON.stringify((await run(script, { params: { seed } })).res.trace));
    expect(traces.size).toBeGreaterThan(1);
  });

  it('searches several documents under one root', async () => {
    const docs = [three('t1'), three('t2'), flat(3, 'f')];
    const { res } = await run(rewardOf({}, 0.5), { docs, hits: [hit('t2', 'y1', 0.9), hit('t1', 'x1', 0.2)], params: { maxDocs: 2, readInternal: false } });
    expect(res.trace.filter((s) => s.action === 'doc-select').map((s) => s.docId)).toEqual(['t2', 't1']);
    expect(new Set(res.trace.filter((s) => s.action === 'select').map((s) => s.docId))).toEqual(new Set(['t1', 't2']));
    expect(res.trace.find((s) => s.action === 'select')?.docId).toBe('t2');
  });
});

describe('mcts robustness and budgets', () => {
  it('never makes more than maxCalls search calls, retries included', async () => {
    // Every other reply is garbage, so many asks need their retry.
    const script: Script = (payload, messages, i) => (payload?.task === 'answer' ? { answer: 'a' } : i % 2 === 0 ? 'not json' : byTask({})(payload, messages));
    for (const maxCalls of [0, 1, 2, 3, 5, 8, 13]) {
      const { searchCalls, res, ctx } = await run(script, { params: { maxCalls } });
      expect(searchCalls).toBeLessThanOrEqual(maxCalls);
      expect(res.stopReason).toBe('max-calls');
      expect(ctx.chats.at(-1)?.payload?.task).toBe('answer');
    }
  });

  it('with no search calls at all, answers from value-search nodes', async () => {
    const { res, searchCalls } = await run(byTask({}), { params: { maxCalls: 0 }, hits: [hit('three', 'x2', 0.5)] });
    expect(searchCalls).toBe(0);
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['x2']);
    expect(res.trace.some((s) => s.action === 'fallback' && s.source === 'value')).toBe(true);
  });

  it('degrades an unusable estimate reply to value scores and counts the failures', async () => {
    const script = byTask({ estimate: (p) => (p.parent === null ? { values: { nope: 0.5 } } : { values: Object.fromEntries(p.children.map((c) => [c.node_id, 0.5])) }) });
    const { res, ctx } = await run(script, { hits: [hit('three', 'y1', 0.8)], params: { simulations: 3 } });
    expect(ctx.chats[1].messages.at(-1)?.content).toMatch(/unknown node ids: nope/);
    expect(res.parseFailures).toBe(2);
    expect(res.trace.find((s) => s.action === 'fallback')).toMatchObject({ source: 'value' });
    expect(res.trace.find((s) => s.action === 'score' && s.nodeId === 'y')).toMatchObject({ source: 'value', score: 1 });
  });

  it('rejects rewards outside [0, 1] and retries', async () => {
    const script = byTask({ reward: (_p, attempt) => (attempt === 0 ? { reward: 7 } : { reward: '0.6' }) });
    // Root, then x, y and z are expanded (unvisited siblings win on exploration), then the first read.
    const { res } = await run(script, { params: { simulations: 5, readInternal: false } });
    expect(res.parseFailures).toBe(1);
    expect(res.trace.find((s) => s.action === 'score' && s.reason?.startsWith('reward'))?.score).toBe(0.6);
  });

  it('keeps a call of the run budget for the answer', async () => {
    const { ctx, res } = await run(byTask({}), { budget: { calls: 4 } });
    expect(ctx.budget.used.calls).toBe(4);
    expect(ctx.chats.at(-1)?.payload?.task).toBe('answer');
    expect(res.stopReason).toBe('budget');
    expect(ctx.budget.exhausted).toBe('calls');
  });

  it('never exceeds a randomly drawn budget and never throws', async () => {
    const docs = [manual('m1'), three('t'), flat(4, 'f')];
    const hits = [hit('m1', 'b2y', 0.9), hit('t', 'z1', 0.6), hit('f', 'n2', 0.4)];
    const script: Script = (payload, messages, i) => {
      if (i % 5 === 3) return 'garbage';
      if (i % 7 === 6) return { thinking: 'long '.repeat(60), values: {} };
      return byTask({ reward: (p) => ({ reward: (p.passage.node_id.length % 3) / 2 }) })(payload, messages);
    };
    for (const [i, budget] of randomBudgets(80, 99).entries()) {
      const ctx = scriptedContext({ corpus: corpusOf(...docs), script, hits, budget, honourMaxTokens: true, seed: i });
      const res = await mctsStrategy.run({ ...Q, id: `q${i}` }, ctx, defaults({ maxDocs: 2 }));
      expect(overruns(budget, ctx.budget.used as unknown as Record<string, number>), JSON.stringify(budget)).toEqual([]);
      expect(typeof res.answer).toBe('string');
      expect(res.evidence.length).toBeLessThanOrEqual(3);
      const searchCalls = ctx.chats.filter((c) => c.payload?.task === 'estimate-values' || c.payload?.task === 'reward').length;
      expect(searchCalls).toBeLessThanOrEqual(16);
    }
  });
});
