import { describe, it, expect } from 'vitest';
import { layerwiseStrategy, pageChildren, resolveChoice, type LayerwiseParams } from '../../strategies/layerwise.ts';
import { corpusOf, node, scriptedContext } from '../helpers/scriptedContext.ts';
import { byTask, flat, hit, manual, overruns, randomBudgets } from './treeFixtures.ts';
import type { Budget, DocTree } from '../../harness/types.ts';
import type { ChunkHit } from '../../strategies/types.ts';
import type { Script } from '../helpers/scriptedContext.ts';

const defaults = (over: Partial<LayerwiseParams> = {}): LayerwiseParams => layerwiseStrategy.params.parse(over);
const Q = { id: 'q1', question: 'Where do I turn on location?' };

/** Picks per parent id (null = top level); unknown parents get NONE. */
const picks = (table: Record<string, string[]>) =>
  byTask({
    choose: (p) => ({ thinking: `at ${p.parent?.node_id ?? 'root'}`, choices: table[p.parent?.node_id ?? 'root'] ?? ['NONE'] }),
  });

async function run(script: Script, opts: { docs?: DocTree[]; params?: Partial<LayerwiseParams>; hits?: ChunkHit[]; budget?: Budget } = {}) {
  const ctx = scriptedContext({ corpus: corpusOf(...(opts.docs ?? [manual()])), script, hits: opts.hits ?? [], budget: opts.budget, honourMaxTokens: true });
  const res = await layerwiseStrategy.run(Q, ctx, defaults(opts.params));
  const chooses = ctx.chats.filter((c) => c.payload?.task === 'choose-children');
  return { ctx, res, chooses, ids: res.evidence.map((e) => e.nodeId) };
}

describe('layerwise params', () => {
  it('has the documented defaults and rejects unknown keys', () => {
    const p = defaults();
    expect(p).toMatchObject({ maxPerLevel: 3, maxDepth: 4, flatLeafLimit: 8, maxContextTokens: 6000, valueFallback: true, docSelect: 'fused', maxDocs: 3 });
    expect(() => layerwiseStrategy.params.parse({ maxPerLevle: 2 })).toThrow();
    expect(() => layerwiseStrategy.params.parse({ maxDepth: 0 })).toThrow();
  });
});

describe('layerwise descent', () => {
  it('uses at most maxPerLevel of the ids the model returns', async () => {
    const { res, chooses } = await run(picks({ root: ['a', 'b', 'c', 'd', 'e'] }), { params: { valueFallback: false } });
    const topSelects = res.trace.filter((s) => s.action === 'select' && s.depth === 0).map((s) => s.nodeId);
    expect(topSelects).toEqual(['a', 'b', 'c']);
    const skipped = res.trace.filter((s) => s.action === 'skip' && s.reason?.includes('maxPerLevel')).map((s) => s.nodeId);
    expect(skipped).toEqual(['d', 'e']);
    // The top level, then one level for each of the three chosen branches — not for d or e.
    expect(chooses.map((c) => (c.payload as { parent: { node_id: string } | null }).parent?.node_id ?? 'root')).toEqual(['root', 'a', 'b', 'c']);
    expect(chooses[0].payload).toMatchObject({ max_picks: 3, allow_self: false });
  });

  it('honours a smaller maxPerLevel', async () => {
    const { res } = await run(picks({ root: ['a', 'b', 'c'], a: ['a1', 'a2'] }), { params: { maxPerLevel: 1, valueFallback: false } });
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['a1']);
  });

  it('explores several chosen branches, breadth first, and ranks evidence by preference path', async () => {
    const { ids, chooses, ctx } = await run(picks({ root: ['b', 'a'], a: ['a2'], b: ['b2', 'b3'], b2: ['b2y'] }));
    // a2 is opened before b2y (shallower), but b's branch was preferred at the top level.
    expect(ids).toEqual(['b2y', 'b3', 'a2']);
    expect(chooses.map((c) => (c.payload as { parent: { node_id: string } | null }).parent?.node_id ?? 'root')).toEqual(['root', 'b', 'a', 'b2']);
    // Visited = chosen or opened: b, a, b2, b3, a2, b2y.
    expect(ctx.budget.used.nodesVisited).toBe(6);
    expect(ctx.budget.used.nodesOpened).toBe(3);
  });

  it('keeps the reasoning of every level in the trace', async () => {
    const { res } = await run(picks({ root: ['b'], b: ['b2'], b2: ['b2y'] }));
    const expands = res.trace.filter((s) => s.action === 'expand');
    expect(expands.map((s) => [s.nodeId, s.reason, s.depth, s.source])).toEqual([
      [undefined, 'at root', undefined, 'llm'],
      ['b', 'at b', 0, 'llm'],
      ['b2', 'at b2', 1, 'llm'],
    ]);
    expect(res.trace.filter((s) => s.action === 'select').map((s) => [s.nodeId, s.depth])).toEqual([
      ['b', 0],
      ['b2', 1],
      ['b2y', 2],
    ]);
    expect(res.trace.at(-1)).toMatchObject({ action: 'answer' });
    expect(res.answer).toBe('the answer');
  });

  it('stops at maxDepth and opens a chosen section instead of expanding it', async () => {
    const table = { root: ['b'], b: ['b1'], b1: ['b1x'] };
    const shallow = await run(picks(table), { params: { maxDepth: 2 } });
    expect(shallow.ids).toEqual(['b1']);
    expect(shallow.chooses).toHaveLength(2);
    expect(shallow.res.trace.find((s) => s.action === 'open')?.reason).toContain('maxDepth');
    const deeper = await run(picks(table), { params: { maxDepth: 3 } });
    expect(deeper.ids).toEqual(['b1x']);
    expect(deeper.chooses).toHaveLength(3);
    const top = await run(picks(table), { params: { maxDepth: 1 } });
    expect(top.ids).toEqual(['b']);
    expect(top.chooses).toHaveLength(1);
  });

  it('closes a branch on NONE and keeps exploring the others', async () => {
    const { ids, res, chooses } = await run(picks({ root: ['b', 'c'], b: ['NONE'], c: ['c1'] }), { params: { valueFallback: false } });
    expect(ids).toEqual(['c1']);
    expect(chooses).toHaveLength(3);
    expect(res.trace.find((s) => s.action === 'skip' && s.nodeId === 'b')?.reason).toMatch(/NONE/);
  });

  it('NONE at the top level with valueFallback off opens nothing and still answers', async () => {
    const { ids, ctx, res } = await run(picks({ root: ['NONE'] }), { params: { valueFallback: false }, hits: [hit('manual', 'c1', 0.9)] });
    expect(ids).toEqual([]);
    expect(ctx.searches).toHaveLength(0);
    expect(res.answer).toBe('the answer');
  });

  it('with valueFallback, a descent that opens nothing opens the best value-search nodes', async () => {
    const { ids, res } = await run(picks({ root: ['NONE'] }), { hits: [hit('manual', 'c1', 0.9), hit('manual', 'b2y', 0.5)] });
    expect(ids).toEqual(['c1', 'b2y']);
    expect(res.trace.some((s) => s.action === 'fallback' && s.source === 'value')).toBe(true);
  });

  it('on __self__ opens the current section and goes no deeper', async () => {
    const { ids, chooses, res } = await run(picks({ root: ['b'], b: ['__self__'] }));
    expect(ids).toEqual(['b']);
    expect(chooses).toHaveLength(2);
    expect(chooses[1].payload).toMatchObject({ allow_self: true, parent: { node_id: 'b', title: 'Settings' } });
    expect(res.trace.find((s) => s.action === 'select' && s.nodeId === 'b' && s.reason?.includes('__self__'))).toBeDefined();
    expect(res.evidence[0].text).toBe('Settings text.');
  });

  it('does not accept __self__ at the top level: retried, then degraded', async () => {
    const script = byTask({ choose: (p, attempt) => (p.parent ? { choices: ['NONE'] } : attempt === 0 ? { choices: ['__self__'] } : { choices: ['c'] }) });
    const { res, chooses } = await run(script, { params: { valueFallback: false } });
    expect(res.parseFailures).toBe(1);
    expect(chooses[1].messages.at(-1)?.content).toMatch(/not allowed at the top level/);
    expect(res.trace.find((s) => s.action === 'select')?.nodeId).toBe('c');
  });
});

describe('layerwise zero-call shortcut', () => {
  it('takes a small flat document whole with no selection call', async () => {
    const { ctx, ids, chooses, res } = await run(byTask({}), { docs: [flat(8)] });
    expect(chooses).toHaveLength(0);
    expect(ctx.chats.map((c) => c.payload?.task)).toEqual(['answer']);
    expect(ids).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8']);
    expect(ctx.budget.used.nodesVisited).toBe(8);
    expect(res.trace[0]).toMatchObject({ action: 'expand', source: 'rule' });
  });

  it('does not apply above flatLeafLimit, to internal nodes, or when disabled', async () => {
    expect((await run(picks({ root: ['n2'] }), { docs: [flat(9)] })).chooses).toHaveLength(1);
    const mixed: DocTree = { docId: 'mixed', title: 'Mixed', nodes: [node('x', 'X'), node('y', 'Y', [node('y1', 'Y1')])] };
    expect((await run(picks({ root: ['x'] }), { docs: [mixed] })).chooses).toHaveLength(1);
    const off = await run(picks({ root: ['n2'] }), { docs: [flat(3)], params: { flatLeafLimit: 0 } });
    expect(off.chooses).toHaveLength(1);
    expect(off.ids).toEqual(['n2']);
  });
});

describe('layerwise robustness', () => {
  it('retries unknown ids once, then degrades to the best value-scored child and counts both failures', async () => {
    const script = byTask({ choose: (p) => (p.parent ? { choices: ['NONE'] } : { thinking: 'hmm', choices: ['zzz'] }) });
    const { res, chooses } = await run(script, { hits: [hit('manual', 'c2', 0.8)], params: { maxDepth: 1 } });
    expect(chooses).toHaveLength(2);
    expect(chooses[1].messages.at(-1)?.content).toMatch(/unknown node ids: zzz/);
    expect(res.parseFailures).toBe(2);
    const fb = res.trace.find((s) => s.action === 'fallback');
    expect(fb).toMatchObject({ source: 'value' });
    // c holds the only hit (in its child c2): c is chosen, and at maxDepth 1 it is opened.
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['c']);
  });

  it('without value hits, degrades to the first child', async () => {
    const script = byTask({ choose: () => 'I think the answer is in settings' });
    const { res } = await run(script, { params: { maxDepth: 1 } });
    expect(res.parseFailures).toBe(2);
    expect(res.trace.find((s) => s.action === 'fallback')).toMatchObject({ source: 'rule' });
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['a']);
  });

  it('after a second partly-invalid reply keeps the ids that name a child', async () => {
    const script = byTask({ choose: (p) => (p.parent ? { choices: ['NONE'] } : { choices: ['b', 'nope'] }) });
    const { res } = await run(script, { params: { maxDepth: 1 } });
    expect(res.parseFailures).toBe(2);
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['b']);
  });

  it('a valid retry costs one parse failure and is used as is', async () => {
    const script = byTask({ choose: (p, attempt) => (p.parent ? { choices: ['NONE'] } : attempt === 0 ? '```json\n{"choices": ["q"]}\n```' : '```json\n{"choices": ["d"]}\n```') });
    const { res } = await run(script, { params: { maxDepth: 1 } });
    expect(res.parseFailures).toBe(1);
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['d']);
  });

  it('resolves ids by case and by unambiguous title', () => {
    const kids = manual().nodes;
    expect(resolveChoice('B', kids)).toBe('b');
    expect(resolveChoice(' camera ', kids)).toBe('c');
    expect(resolveChoice('none', kids)).toBe('NONE');
    expect(resolveChoice('__SELF__', kids)).toBe('__self__');
    expect(resolveChoice('Lock screen', kids)).toBeNull();
  });

  it('pages a level that is too large for one prompt and interleaves the picks', async () => {
    const wide: DocTree = { docId: 'wide', title: 'Wide', nodes: Array.from({ length: 12 }, (_, i) => node(`w${i}`, `Wide section ${i}`, [node(`w${i}c`, `Child ${i}`)], { summary: 'word '.repeat(40) })) };
    const script = byTask({ choose: (p) => (p.parent ? { choices: ['NONE'] } : { choices: p.children.slice(0, 2).map((c) => c.node_id) }) });
    const { chooses, res } = await run(script, { docs: [wide], params: { maxLevelTokens: 200, valueFallback: false, maxDepth: 1 } });
    const rootPages = chooses.filter((c) => (c.payload as { parent: unknown }).parent === null);
    expect(rootPages.length).toBeGreaterThan(1);
    // The first pick of every page comes before any second pick; then cut to maxPerLevel.
    const first = rootPages.map((c) => (c.payload as { children: Array<{ node_id: string }> }).children[0].node_id);
    expect(res.evidence.map((e) => e.nodeId)).toEqual(first.slice(0, 3));
    expect(pageChildren([1, 2, 3, 4, 5], 2, () => 1)).toEqual([[1, 2], [3, 4], [5]]);
  });
});

describe('layerwise across documents and budgets', () => {
  it('selects documents first, then descends in each', async () => {
    const docs = [manual('m1'), manual('m2'), flat(3, 'f')];
    const script = byTask({ choose: (p) => ({ choices: p.parent ? ['NONE'] : ['c'] }) });
    const ctx = scriptedContext({ corpus: corpusOf(...docs), script, hits: [hit('m2', 'c1', 0.9), hit('m1', 'a1', 0.5), hit('f', 'n1', 0.1)] });
    const res = await layerwiseStrategy.run(Q, ctx, defaults({ maxDocs: 2, valueFallback: false }));
    expect(res.trace.filter((s) => s.action === 'doc-select').map((s) => s.docId)).toEqual(['m2', 'm1']);
    const docsAsked = ctx.chats.filter((c) => c.payload?.task === 'choose-children' && (c.payload as { parent: unknown }).parent === null).map((c) => (c.payload as { doc_id: string }).doc_id);
    expect(docsAsked).toEqual(['m2', 'm1']);
  });

  it('keeps the last call for the answer and marks the calls budget', async () => {
    const { ctx, res } = await run(picks({ root: ['b'], b: ['b2'], b2: ['b2y'] }), { budget: { calls: 3 }, params: { valueFallback: false } });
    expect(ctx.chats.map((c) => c.payload?.task)).toEqual(['choose-children', 'choose-children', 'answer']);
    expect(ctx.budget.exhausted).toBe('calls');
    expect(res.answer).toBe('the answer');
    // b2 was chosen at the second level but could not be expanded: nothing opened yet.
    expect(res.evidence).toEqual([]);
  });

  it('answers from what was opened when a budget refuses a step', async () => {
    const { ctx, res } = await run(picks({ root: ['a', 'b'], a: ['a1', 'a2'], b: ['b3'] }), { budget: { nodesOpened: 1 } });
    expect(ctx.budget.exhausted).toBe('nodesOpened');
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['a1']);
    expect(res.answer).toBe('the answer');
  });

  it('never exceeds a randomly drawn budget and never throws', async () => {
    const docs = [manual('m1'), manual('m2'), flat(4, 'f')];
    const hits = [hit('m1', 'b2y', 0.9), hit('m2', 'c1', 0.7), hit('f', 'n2', 0.4)];
    // A model that is mostly right, sometimes verbose, sometimes wrong.
    const script = byTask({
      choose: (p, attempt) => {
        const ids = p.children.map((c) => c.node_id);
        const k = (ids.length + p.question.length + attempt) % 4;
        if (k === 0) return { choices: ['unknown-id'] };
        if (k === 1) return { thinking: 'long '.repeat(40), choices: ids.slice(0, 5) };
        if (k === 2 && p.allow_self) return { choices: ['__self__'] };
        return { choices: ids.slice(-2) };
      },
    });
    for (const [i, budget] of randomBudgets(80, 7).entries()) {
      const ctx = scriptedContext({ corpus: corpusOf(...docs), script, hits, budget, honourMaxTokens: true });
      const res = await layerwiseStrategy.run({ ...Q, id: `q${i}` }, ctx, defaults({ maxDocs: 2 }));
      expect(overruns(budget, ctx.budget.used as unknown as Record<string, number>), JSON.stringify(budget)).toEqual([]);
      expect(typeof res.answer).toBe('string');
      expect(res.evidence.length).toBe(ctx.budget.used.nodesOpened);
    }
  });
});
