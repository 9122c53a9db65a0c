import { describe, it, expect } from 'vitest';
import type { Budget, ChatMessage, DocTree, StrategyResult, TraceStep, TreeNode } from '../../harness/types.ts';
import { seededRandom } from '../../harness/run/context.ts';
import type { ChunkHit } from '../../strategies/types.ts';
import type { PromptPayload } from '../../strategies/prompts.ts';
import { hybridBeamStrategy, type HybridBeamParams } from '../../strategies/hybrid-beam.ts';
import { corpusOf, node, scriptedContext, type Script, type ScriptedContext } from '../helpers/scriptedContext.ts';

// ---------------------------------------------------------------------------------------------
// Fixtures

const manual: DocTree = {
  docId: 'manual',
  title: 'Dishwasher manual',
  nodes: [
    node('A', 'Installation', [node('a1', 'Mounting the unit'), node('a2', 'Electrical connection')]),
    node('B', 'Safety', [node('b1', 'General warnings'), node('b2', 'Battery disposal', [], { text: 'Return used batteries to a collection point.' })]),
    node('C', 'Maintenance', [node('c1', 'Cleaning the filter'), node('c2', 'Descaling')]),
  ],
};

let chunkSeq = 0;
const hit = (nodeId: string, score: number, docId = 'manual'): ChunkHit => ({ docId, nodeId, chunkId: chunkSeq++, text: `${nodeId} chunk`, score });

type Payload<K extends PromptPayload['task']> = Extract<PromptPayload, { task: K }>;
interface ScriptParts {
  select?: (p: Payload<'select-nodes'>, attempt: number) => string | object;
  choose?: (p: Payload<'choose-children'>, attempt: number) => string | object;
  sufficiency?: (p: Payload<'sufficiency'>, attempt: number) => string | object;
  answer?: (p: Payload<'answer'>) => string | object;
}

/** A scripted model by task; `attempt` is 1 on a retry (the prompt carries the failed reply). */
function model(parts: ScriptParts): Script {
  return (payload, messages) => {
    const attempt = messages.filter((m) => m.role === 'assistant').length;
    switch (payload?.task) {
      case 'select-nodes':
        return parts.select?.(payload, attempt) ?? { thinking: 'none', node_list: [] };
      case 'choose-children':
        return parts.choose?.(payload, attempt) ?? { thinking: 'first', choices: [payload.children[0].node_id] };
      case 'sufficiency':
        return parts.sufficiency?.(payload, attempt) ?? { sufficient: false, missingAspects: [], suggestedBranches: [] };
      case 'answer':
        return parts.answer?.(payload) ?? { answer: 'scripted answer', choice: null };
      default:
        return 'unexpected task';
    }
  };
}

function params(over: Partial<HybridBeamParams> = {}): HybridBeamParams {
  return hybridBeamStrategy.params.parse(over);
}

async function run(opts: { script: Script; hits?: ChunkHit[]; docs?: DocTree[]; budget?: Budget; params?: Partial<HybridBeamParams>; question?: string; docIds?: string[]; now?: () => number }) {
  const ctx = scriptedContext({ corpus: corpusOf(...(opts.docs ?? [manual])), script: opts.script, hits: opts.hits ?? [], budget: opts.budget, ...(opts.now ? { now: opts.now } : {}) });
  const result = await hybridBeamStrategy.run(
    { id: 'q1', question: opts.question ?? 'How do I dispose of the battery?', ...(opts.docIds ? { docIds: opts.docIds } : {}) },
    ctx,
    params(opts.params),
  );
  return { ctx, result };
}

/** Nodes expanded or opened in each round, read from the trace ("round N: ..." reasons). */
function roundsOf(trace: TraceStep[]): Map<number, Set<string>> {
  const rounds = new Map<number, Set<string>>();
  for (const s of trace) {
    if (s.action !== 'expand' && s.action !== 'open') continue;
    const m = /^round (\d+):/.exec(s.reason ?? '');
    if (!m) continue;
    const r = Number(m[1]);
    if (!rounds.has(r)) rounds.set(r, new Set());
    rounds.get(r)!.add(`${s.docId}/${s.nodeId}`);
  }
  return rounds;
}

const opened = (r: StrategyResult) => r.trace.filter((s) => s.action === 'open').map((s) => s.nodeId);
const tasks = (ctx: ScriptedContext) => ctx.chats.map((c) => c.payload?.task);
const payloadsOf = <K extends PromptPayload['task']>(ctx: ScriptedContext, task: K) =>
  ctx.chats.map((c) => c.payload).filter((p): p is Payload<K> => p?.task === task);

// ---------------------------------------------------------------------------------------------

describe('hybrid-beam: the two channels', () => {
  it('finds a branch value search gave no score: hits only in A, the model picks B, B’s leaf is opened', async () => {
    const { ctx, result } = await run({
      hits: [hit('a1', 0.9), hit('a2', 0.4)],
      script: model({
        select: () => ({ thinking: 'disposal rules live under Safety', node_list: ['B'] }),
        choose: (p) => ({ thinking: 'disposal', choices: p.parent?.node_id === 'B' ? ['b2'] : [p.children[0].node_id] }),
        sufficiency: (p) => ({ sufficient: p.evidence.some((e) => e.node_id === 'b2'), missingAspects: [], suggestedBranches: [] }),
      }),
    });
    expect(opened(result)).toContain('b2');
    expect(result.evidence.map((e) => e.nodeId)).toContain('b2');
    expect(result.stopReason).toBe('sufficient');
    // Value search never scored anything under B; the model chose a child shown with value 0.
    const choose = payloadsOf(ctx, 'choose-children').find((p) => p.parent?.node_id === 'B')!;
    expect(choose.children.map((c) => [c.node_id, c.value_score])).toEqual([
      ['b1', 0],
      ['b2', 0],
    ]);
    const openB2 = result.trace.find((s) => s.action === 'open' && s.nodeId === 'b2')!;
    expect(openB2.source).toBe('llm');
    expect(openB2.depth).toBe(1);
    expect(openB2.reason).toMatch(/^round 2:/);
    // The value seeds are traced as scores.
    expect(result.trace.filter((s) => s.action === 'score').map((s) => s.nodeId)).toEqual(['a1', 'a2']);
  });

  it('deduplicates: a node from both channels is queued once and opened once', async () => {
    const { ctx, result } = await run({
      hits: [hit('b2', 0.9), hit('a1', 0.3)],
      script: model({
        select: () => ({ thinking: 'battery', node_list: ['b2', 'B'] }),
        choose: () => ({ thinking: 'battery again', choices: ['b2'] }),
        sufficiency: () => ({ sufficient: false, missingAspects: [], suggestedBranches: [] }),
      }),
      params: { maxRounds: 3 },
    });
    expect(opened(result).filter((id) => id === 'b2')).toHaveLength(1);
    expect(result.evidence.filter((e) => e.nodeId === 'b2')).toHaveLength(1);
    expect(ctx.budget.used.nodesOpened).toBe(result.evidence.length);
    expect(new Set(result.evidence.map((e) => e.nodeId)).size).toBe(result.evidence.length);
    // The model's pick merged into the value seed's entry, and B's later choice of b2 is skipped.
    const b2Select = result.trace.find((s) => s.action === 'select' && s.nodeId === 'b2')!;
    expect(b2Select.score).toBeCloseTo(2); // value 1 + llmBonus 1 (the default)
    expect(result.trace.some((s) => s.action === 'skip' && s.nodeId === 'b2' && /already taken/.test(s.reason ?? ''))).toBe(true);
    // Both channels' node was opened first: it has the best priority.
    expect(result.evidence[0].nodeId).toBe('b2');
  });

  it('gives each channel a slot: many strong value hits do not starve the model’s pick', async () => {
    const wide: DocTree = {
      docId: 'manual',
      title: 'Manual',
      nodes: [
        ...Array.from({ length: 8 }, (_, i) => node(`v${i}`, `Value topic ${'abcdefgh'[i]}`)),
        node('S', 'Structural section', [node('s1', 'Answer here'), node('s2', 'Other')]),
      ],
    };
    const { result } = await run({
      docs: [wide],
      hits: Array.from({ length: 8 }, (_, i) => hit(`v${i}`, 0.9 - i * 0.01)),
      script: model({ select: () => ({ node_list: ['S'] }), choose: () => ({ choices: ['s1'] }) }),
      params: { beamWidth: 2, maxRounds: 2 },
    });
    const rounds = roundsOf(result.trace);
    expect([...rounds.get(1)!]).toEqual(['manual/v0', 'manual/S']);
    expect([...rounds.get(2)!]).toContain('manual/s1');
  });
});

describe('hybrid-beam: the beam', () => {
  const big: DocTree = {
    docId: 'big',
    title: 'Big manual',
    nodes: ['P', 'Q', 'R', 'S'].map((s) => node(s, `Section ${s}`, [1, 2, 3].map((i) => node(`${s}${i}`, `Topic ${s}${i}`)))),
  };
  const bigHits = ['P1', 'P2', 'Q1', 'Q3', 'R2', 'S1', 'S3', 'R3'].map((id, i) => hit(id, 0.9 - i * 0.05, 'big'));

  for (const beamWidth of [1, 2, 3]) {
    it(`never takes more than beamWidth=${beamWidth} nodes per round`, async () => {
      const { ctx, result } = await run({
        docs: [big],
        hits: bigHits,
        script: model({ select: () => ({ node_list: ['P', 'Q', 'S'] }), choose: (p) => ({ choices: p.children.slice(0, 2).map((c) => c.node_id) }) }),
        params: { beamWidth, maxRounds: 4, maxOpened: 50, maxVisited: 50, maxCalls: 50 },
      });
      const rounds = roundsOf(result.trace);
      expect(rounds.size).toBe(4);
      for (const nodes of rounds.values()) expect(nodes.size).toBeLessThanOrEqual(beamWidth);
      expect([...rounds.values()].some((n) => n.size === beamWidth)).toBe(true);
      // One choose-children call per expanded node.
      expect(tasks(ctx).filter((t) => t === 'choose-children')).toHaveLength(result.trace.filter((s) => s.action === 'expand').length);
      expect(result.stopReason).toBe('max-rounds');
    });
  }

  it('lets the model answer "__self__" (open the section itself) and "NONE" (drop the branch)', async () => {
    const { result } = await run({
      hits: [hit('A', 0.9), hit('C', 0.8)],
      script: model({ choose: (p) => ({ choices: p.parent?.node_id === 'A' ? ['__self__'] : ['NONE'] }) }),
      params: { maxRounds: 2 },
    });
    expect(opened(result)).toEqual(['A']);
    expect(result.trace.some((s) => s.action === 'skip' && s.nodeId === 'C' && /no child/.test(s.reason ?? ''))).toBe(true);
  });

  it('shows at most maxOutlineFanout children per prompt: the best by value, in document order', async () => {
    const wide: DocTree = {
      docId: 'manual',
      title: 'Manual',
      nodes: [node('R', 'Reference', ['k0', 'k1', 'k2', 'k3', 'k4'].map((id, i) => node(id, `Reference topic ${'abcde'[i]}`)))],
    };
    const { ctx, result } = await run({
      docs: [wide],
      hits: [hit('k4', 0.9), hit('k1', 0.5)],
      script: model({ select: () => ({ node_list: ['R'] }) }),
      params: { maxOutlineFanout: 3, maxRounds: 2, beamWidth: 1 },
    });
    const shown = payloadsOf(ctx, 'choose-children')[0].children.map((c) => c.node_id);
    expect(shown).toEqual(['k0', 'k1', 'k4']); // k4 and k1 by value, then k0 first in document order
    expect(result.trace.some((s) => s.action === 'skip' && s.nodeId === 'R' && /2 of 5 children not shown/.test(s.reason ?? ''))).toBe(true);
  });

  it('descends through a wrapper (one child, no text) without a model call', async () => {
    const wrapped: DocTree = {
      docId: 'manual',
      title: 'Manual',
      nodes: [{ id: 'W', title: 'Appendix', children: [node('W1', 'Battery disposal table')] }, node('X', 'Other')],
    };
    const { ctx, result } = await run({
      docs: [wrapped],
      script: model({ select: () => ({ node_list: ['W'] }) }),
      params: { outlineGate: 'off' },
    });
    expect(opened(result)).toContain('W1');
    expect(tasks(ctx)).not.toContain('choose-children');
    expect(result.trace.find((s) => s.action === 'skip' && s.nodeId === 'W')?.reason).toMatch(/only child W1/);
  });
});

describe('hybrid-beam: sufficiency loop and stop reasons', () => {
  it('stops as soon as the evidence is sufficient (round 1)', async () => {
    const { ctx, result } = await run({
      hits: [hit('b2', 0.9)],
      script: model({ sufficiency: () => ({ sufficient: true, missingAspects: [], suggestedBranches: [] }) }),
    });
    expect(result.stopReason).toBe('sufficient');
    expect(tasks(ctx)).toEqual(['select-nodes', 'sufficiency', 'answer']);
    expect(result.trace.at(-2)).toMatchObject({ action: 'skip', source: 'rule', reason: 'stop: sufficient' });
    expect(result.trace.at(-1)).toMatchObject({ action: 'answer' });
    expect(result.answer).toBe('scripted answer');
  });

  it('never sufficient: runs maxRounds and says so; no sufficiency check after the last round', async () => {
    const { ctx, result } = await run({
      hits: [hit('a1', 0.9), hit('b1', 0.8), hit('c1', 0.7), hit('c2', 0.6)],
      script: model({}),
      params: { beamWidth: 1, maxRounds: 3 },
    });
    expect(result.stopReason).toBe('max-rounds');
    expect(roundsOf(result.trace).size).toBe(3);
    expect(tasks(ctx).filter((t) => t === 'sufficiency')).toHaveLength(2);
  });

  it('stops with queue-empty when nothing is left to explore', async () => {
    const tiny: DocTree = { docId: 'manual', title: 'Tiny', nodes: [node('only', 'Only section')] };
    const { result } = await run({ docs: [tiny], hits: [hit('only', 0.5)], script: model({}) });
    expect(result.stopReason).toBe('queue-empty');
    expect(opened(result)).toEqual(['only']);
  });

  it('stops on its own call limit and still answers', async () => {
    const { ctx, result } = await run({
      hits: [hit('a1', 0.9)],
      script: model({ select: () => ({ node_list: ['B', 'C'] }) }),
      params: { maxCalls: 3 },
    });
    expect(result.stopReason).toBe('budget:maxCalls');
    expect(ctx.chats).toHaveLength(3);
    expect(tasks(ctx).at(-1)).toBe('answer');
    expect(ctx.budget.exhausted).toBeNull(); // a strategy limit, not the run's budget
  });

  it('stops when the run’s budget refuses, and names it', async () => {
    const { ctx, result } = await run({
      hits: [hit('a1', 0.9), hit('a2', 0.8), hit('b1', 0.7)],
      script: model({}),
      budget: { nodesOpened: 2 },
    });
    expect(result.stopReason).toBe('budget:nodesOpened');
    expect(ctx.budget.exhausted).toBe('nodesOpened');
    expect(ctx.budget.used.nodesOpened).toBe(2);
    expect(result.evidence).toHaveLength(2);
    expect(tasks(ctx).at(-1)).toBe('answer');
  });

  it('keeps the last run call for the answer', async () => {
    const { ctx, result } = await run({ hits: [hit('a1', 0.9)], script: model({ select: () => ({ node_list: ['B'] }) }), budget: { calls: 2 } });
    expect(result.stopReason).toBe('budget:calls');
    expect(tasks(ctx)).toEqual(['select-nodes', 'answer']);
    // Nothing was opened when the search stopped: the best queued node is read instead.
    expect(opened(result)).toEqual(['a1']);
    expect(result.answer).toBe('scripted answer');
  });

  it('stops on maxTimeMs and still answers', async () => {
    // A fake clock: only the structural call takes time (5 ms), so the test cannot flake on a busy machine.
    let clock = 0;
    const { ctx, result } = await run({
      hits: [hit('a1', 0.9)],
      now: () => clock,
      script: model({
        select: () => {
          clock += 5;
          return { node_list: ['B'] };
        },
      }),
      params: { maxTimeMs: 1 },
    });
    expect(result.stopReason).toBe('budget:maxTimeMs');
    expect(tasks(ctx)).toEqual(['select-nodes', 'answer']);
  });

  it('missing aspects reach the next choose-children payload and re-query value search; suggested branches are queued', async () => {
    const { ctx, result } = await run({
      hits: [hit('a1', 0.9)],
      script: model({
        sufficiency: (p) =>
          p.evidence.some((e) => e.node_id === 'b2')
            ? { sufficient: true, missingAspects: [], suggestedBranches: [] }
            : { sufficient: false, missingAspects: ['battery disposal rules'], suggestedBranches: ['B'] },
        choose: (p) => ({ choices: p.parent?.node_id === 'B' ? ['b2'] : [p.children[0].node_id] }),
      }),
    });
    const first = payloadsOf(ctx, 'sufficiency')[0];
    expect(first.unexplored?.map((u) => u.node_id)).toEqual(['A', 'B', 'C']); // A is not done: only a1 was opened
    const chooseB = payloadsOf(ctx, 'choose-children').find((p) => p.parent?.node_id === 'B')!;
    expect(chooseB.missing_aspects).toEqual(['battery disposal rules']);
    expect(ctx.searches.map((s) => s.query)).toEqual(['How do I dispose of the battery?', 'battery disposal rules']);
    const suggested = result.trace.find((s) => s.action === 'select' && s.nodeId === 'B')!;
    expect(suggested.reason).toMatch(/suggested by the sufficiency check/);
    expect(suggested.score).toBeCloseTo(0.75);
    expect(result.stopReason).toBe('sufficient');
    expect(opened(result)).toEqual(['a1', 'b2']);
  });
});

describe('hybrid-beam: robustness', () => {
  it('unparseable replies degrade to value ranking, every failure counted, no crash', async () => {
    const prose = 'I believe the answer is somewhere in the safety section.';
    const { ctx, result } = await run({
      hits: [hit('A', 0.5), hit('a2', 0.9)],
      script: model({ select: () => prose, choose: () => prose, sufficiency: () => '{"sufficient": maybe}' }),
    });
    const bad = ctx.chats.filter((c) => c.payload?.task !== 'answer');
    expect(bad.length).toBeGreaterThanOrEqual(6); // select x2, choose x2, sufficiency x2 at least
    expect(result.parseFailures).toBe(bad.length);
    expect(result.answer).toBe('scripted answer');
    const fallbacks = result.trace.filter((s) => s.action === 'fallback');
    expect(fallbacks.some((s) => /structural search unusable/.test(s.reason ?? ''))).toBe(true);
    expect(fallbacks.some((s) => s.nodeId === 'A' && s.source === 'value')).toBe(true);
    expect(fallbacks.some((s) => /sufficiency check unusable/.test(s.reason ?? ''))).toBe(true);
    // The value fallback under A queued a1 (a2 was already opened) and it was read next round.
    expect(opened(result)).toEqual(['a2', 'a1']);
  });

  it('an unknown node id is retried once with the error spelled out', async () => {
    const { ctx, result } = await run({
      hits: [hit('a1', 0.9)],
      script: model({
        select: (_p, attempt) => (attempt === 0 ? { node_list: ['Z9'] } : { node_list: ['B'] }),
        sufficiency: () => ({ sufficient: true, missingAspects: [], suggestedBranches: [] }),
      }),
    });
    expect(result.parseFailures).toBe(1);
    const retry = ctx.chats[1];
    expect(retry.payload?.task).toBe('select-nodes');
    expect(retry.messages.at(-1)?.content).toMatch(/unknown node ids: Z9/);
    expect(result.trace.some((s) => s.action === 'select' && s.nodeId === 'B' && s.source === 'llm')).toBe(true);
  });

  it('a sufficiency suggestion outside `unexplored` is an invalid answer', async () => {
    const { result } = await run({
      hits: [hit('a1', 0.9)],
      script: model({ sufficiency: () => ({ sufficient: false, missingAspects: [], suggestedBranches: ['a1'] }) }),
      params: { maxRounds: 2 },
    });
    expect(result.parseFailures).toBe(2);
    expect(result.trace.some((s) => s.action === 'fallback' && /unknown: a1/.test(s.reason ?? ''))).toBe(true);
  });
});

describe('hybrid-beam: outline gate and documents', () => {
  const poor: DocTree = {
    docId: 'manual',
    title: 'Scanned manual',
    nodes: [
      node('1', '1', [node('1a', 'a', [node('x', 'Mounting the unit'), node('y', 'Wiring')])]),
      node('2', '2', [node('w', 'Battery disposal'), node('v', 'Warranty')]),
    ],
  };

  it('flattens poor levels: the model never sees them and the search opens their content', async () => {
    const { ctx, result } = await run({
      docs: [poor],
      script: model({
        select: (p) => ({ node_list: p.outline.map((o) => o.node_id).includes('w') ? ['w'] : [] }),
        sufficiency: () => ({ sufficient: true, missingAspects: [], suggestedBranches: [] }),
      }),
    });
    const outline = payloadsOf(ctx, 'select-nodes')[0].outline;
    expect(outline.map((o) => o.node_id)).toEqual(['x', 'y', 'w', 'v']);
    const gate = result.trace.find((s) => s.action === 'skip' && /outline gate/.test(s.reason ?? ''))!;
    expect(gate.reason).toMatch(/made transparent/);
    expect(opened(result)).toEqual(['w']);
  });

  it('with the gate off the outline is shown as it is', async () => {
    const { ctx } = await run({ docs: [poor], script: model({}), params: { outlineGate: 'off' } });
    expect(payloadsOf(ctx, 'select-nodes')[0].outline.map((o) => o.node_id)).toEqual(['1', '2']);
  });

  const other: DocTree = { docId: 'other', title: 'Oven manual', nodes: [node('A', 'Oven installation'), node('B', 'Oven safety', [node('o1', 'Hot surfaces'), node('o2', 'Child lock')])] };
  const third: DocTree = { docId: 'third', title: 'Fridge manual', nodes: [node('F', 'Fridge')] };

  it('multi-document: searches only the selected documents', async () => {
    const { ctx, result } = await run({
      docs: [manual, other, third],
      hits: [hit('o1', 0.9, 'other'), hit('A', 0.4, 'other')],
      script: model({}),
      params: { maxDocs: 1 },
    });
    expect(result.trace.find((s) => s.action === 'doc-select')).toMatchObject({ docId: 'other', source: 'value' });
    expect(ctx.searches.slice(1).every((s) => JSON.stringify(s.opts.docIds) === '["other"]')).toBe(true);
    expect(payloadsOf(ctx, 'select-nodes')[0].doc_id).toBe('other');
    expect(result.evidence.every((e) => e.docId === 'other')).toBe(true);
  });

  it('multi-document: qualified ids keep same-named nodes of different documents apart', async () => {
    const { ctx, result } = await run({
      docs: [manual, other, third],
      docIds: ['manual', 'other'],
      script: model({ select: () => ({ node_list: ['other::B'] }), choose: () => ({ choices: ['o2'] }) }),
      params: { maxRounds: 2 },
    });
    const outline = payloadsOf(ctx, 'select-nodes')[0].outline;
    expect(outline.map((o) => o.node_id)).toEqual(['doc::manual', 'doc::other']);
    const expanded = result.trace.filter((s) => s.action === 'expand');
    expect(expanded.map((s) => `${s.docId}/${s.nodeId}`)).toEqual(['other/B']);
    expect(opened(result)).toEqual(['o2']);
  });
});

// ---------------------------------------------------------------------------------------------
// Property: across randomly drawn budgets nothing is exceeded and run() never throws.

describe('hybrid-beam: random budgets', () => {
  const words = 'battery safety filter door rack spray arm detergent rinse salt drain pump heater sensor panel error code warranty service'.split(' ');

  function randomDoc(rand: () => number, docId: string): DocTree {
    let n = 0;
    const grow = (depth: number): TreeNode[] =>
      Array.from({ length: 1 + Math.floor(rand() * 4) }, () => {
        const id = `${docId}-${n++}`;
        const title = rand() < 0.15 ? String(n % 10) : `${words[Math.floor(rand() * words.length)]} ${words[Math.floor(rand() * words.length)]}`;
        const text = Array.from({ length: 3 + Math.floor(rand() * 40) }, () => words[Math.floor(rand() * words.length)]).join(' ');
        const children = depth < 3 && rand() < 0.5 ? grow(depth + 1) : [];
        return rand() < 0.2 && children.length ? { id, title, children } : node(id, title, children, { text });
      });
    return { docId, title: `Doc ${docId}`, description: `About ${words[Math.floor(rand() * words.length)]}`, nodes: grow(0) };
  }

  const ids = (nodes: TreeNode[]): string[] => nodes.flatMap((x) => [x.id, ...ids(x.children)]);
  const outlineIds = (o: Payload<'select-nodes'>['outline']): string[] => o.flatMap((x) => [x.node_id, ...outlineIds(x.nodes ?? [])]);
  const tokens = (ms: ChatMessage[]) => ms.reduce((k, m) => k + (m.content.match(/\S+/g) ?? []).length, 0);

  it('never exceeds a run budget or a strategy limit, and never throws', async () => {
    const rand = seededRandom(2024);
    const pickN = <T>(xs: T[], k: number): T[] => [...xs].sort(() => rand() - 0.5).slice(0, k);
    const maybe = (p: number, lo: number, hi: number) => (rand() < p ? lo + Math.floor(rand() * (hi - lo + 1)) : undefined);

    for (let trial = 0; trial < 150; trial++) {
      const docs = Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, i) => randomDoc(rand, `d${i}`));
      const all = docs.flatMap((d) => ids(d.nodes).map((id) => ({ docId: d.docId, id })));
      const hits = pickN(all, Math.floor(rand() * 8)).map((x) => hit(x.id, 0.1 + rand() * 0.9, x.docId));
      const budget: Budget = {};
      const lim = {
        calls: maybe(0.5, 0, 12),
        tokens: maybe(0.4, 20, 4000),
        nodesVisited: maybe(0.4, 0, 12),
        nodesOpened: maybe(0.4, 0, 6),
        evidenceTokens: maybe(0.4, 0, 150),
      };
      for (const [k, v] of Object.entries(lim)) if (v !== undefined) budget[k as keyof Budget] = v;
      const over: Partial<HybridBeamParams> = {
        beamWidth: 1 + Math.floor(rand() * 4),
        maxRounds: 1 + Math.floor(rand() * 5),
        maxVisited: 1 + Math.floor(rand() * 20),
        maxOpened: 1 + Math.floor(rand() * 8),
        maxCalls: 1 + Math.floor(rand() * 15),
        maxEvidenceTokens: 5 + Math.floor(rand() * 300),
        structuralPicks: Math.floor(rand() * 4),
        maxPicks: 1 + Math.floor(rand() * 3),
        docSelect: (['value', 'llm', 'all'] as const)[Math.floor(rand() * 3)],
        maxDocs: 1 + Math.floor(rand() * 2),
        outlineGate: (['auto', 'always', 'off'] as const)[Math.floor(rand() * 3)],
      };
      const p = params(over);

      let ctxRef: ScriptedContext | null = null;
      const reply = (payload: PromptPayload | null): string | object => {
        const r = rand();
        if (r < 0.12) return 'no idea, sorry';
        if (r < 0.18) return { node_list: ['nope'], choices: ['nope'], sufficient: 'perhaps', doc_ids: ['nope'] };
        switch (payload?.task) {
          case 'select-documents':
            return { doc_ids: pickN(payload.documents.map((d) => d.doc_id), 1 + Math.floor(rand() * 2)) };
          case 'select-nodes':
            return { thinking: 'outline', node_list: pickN(outlineIds(payload.outline), Math.floor(rand() * 4)) };
          case 'choose-children': {
            const options = [...payload.children.map((c) => c.node_id), 'NONE', ...(payload.allow_self ? ['__self__'] : [])];
            return { thinking: 'children', choices: pickN(options, 1 + Math.floor(rand() * 3)) };
          }
          case 'sufficiency':
            return {
              sufficient: rand() < 0.25,
              missingAspects: rand() < 0.5 ? [words[Math.floor(rand() * words.length)]] : [],
              suggestedBranches: pickN((payload.unexplored ?? []).map((u) => u.node_id), Math.floor(rand() * 3)),
            };
          case 'answer':
            return { answer: 'an answer', choice: null };
          default:
            return 'unexpected';
        }
      };
      // Like a real provider under max_tokens: the reply is cut to the tokens the budget has left.
      const script: Script = (payload, messages) => {
        const out = reply(payload);
        const text = typeof out === 'string' ? out : JSON.stringify(out);
        const left = ctxRef!.budget.remaining('tokens') - tokens(messages);
        return Number.isFinite(left) ? (text.match(/\S+/g) ?? []).slice(0, Math.max(1, left)).join(' ') : text;
      };
      const ctx = scriptedContext({ corpus: corpusOf(...docs), script, hits, budget });
      ctxRef = ctx;
      const label = JSON.stringify({ trial, budget, over });

      let result: StrategyResult;
      try {
        result = await hybridBeamStrategy.run({ id: `q${trial}`, question: 'how do I replace the battery safely?' }, ctx, p);
      } catch (err) {
        throw new Error(`run() threw on ${label}: ${(err as Error).stack}`);
      }
      const used = ctx.budget.used;
      for (const name of ['calls', 'tokens', 'nodesVisited', 'nodesOpened', 'evidenceTokens'] as const) {
        const limit = budget[name];
        if (limit !== undefined) expect(used[name], `${name} on ${label}`).toBeLessThanOrEqual(limit);
      }
      expect(used.calls, label).toBeLessThanOrEqual(p.maxCalls);
      expect(used.nodesVisited, label).toBeLessThanOrEqual(p.maxVisited);
      expect(used.nodesOpened, label).toBeLessThanOrEqual(p.maxOpened);
      expect(used.evidenceTokens, label).toBeLessThanOrEqual(p.maxEvidenceTokens);
      for (const nodes of roundsOf(result.trace).values()) expect(nodes.size, label).toBeLessThanOrEqual(p.beamWidth);
      expect(result.evidence.length, label).toBe(used.nodesOpened);
      expect(new Set(result.evidence.map((e) => `${e.docId}/${e.nodeId}`)).size).toBe(result.evidence.length);
      expect(result.evidence.map((e) => e.rank)).toEqual(result.evidence.map((_, i) => i + 1));
      expect(result.stopReason, label).toMatch(/^(sufficient|queue-empty|max-rounds|budget:\w+)$/);
      expect(result.parseFailures, label).toBeLessThanOrEqual(ctx.chats.length);
      // The trace's steps are numbered 1..n.
      expect(result.trace.map((s) => s.step)).toEqual(result.trace.map((_, i) => i + 1));
    }
  });
});
