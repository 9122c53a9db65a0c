// The agent strategy against a scripted model: a function of the conversation that returns the
// next turn (text, tool calls, or a thrown error), through a context with a real BudgetTracker.
import { describe, expect, it } from 'vitest';
import { agentStrategy, type AgentParams } from '../../strategies/agent.ts';
import { FINAL_ANSWER_MARKER, readTextToolResult } from '../../strategies/agent/protocol.ts';
import { fitOutline, toolSpecs } from '../../strategies/agent/tools.ts';
import { ToolsUnsupportedError } from '../../harness/models/tools.ts';
import type { Budget, ChatMessage, ChatOptions, ChatResult, DocTree, ToolCall } from '../../harness/types.ts';
import type { ChunkHit } from '../../strategies/types.ts';
import { corpusOf, node, scriptedContext } from '../helpers/scriptedContext.ts';
import { hit, manual } from './treeFixtures.ts';

const Q = { id: 'q1', question: 'How do I turn on location?' };
const defaults = (over: Partial<AgentParams> = {}): AgentParams => agentStrategy.params.parse(over);

type Turn = { text?: string; calls?: Array<[string, Record<string, unknown> | string]> } | Error;
/** The model: given the conversation so far, its next turn. */
type Model = (messages: ChatMessage[], opts: ChatOptions, index: number) => Turn;

const handbook = (): DocTree => ({
  docId: 'handbook',
  title: 'Employee handbook',
  description: 'Policies for staff.',
  nodes: [node('h1', 'Gifts', [], { text: 'Gifts over 50 pounds must be declared.' }), node('h2', 'Leave', [], { text: 'Annual leave is 25 days.' })],
});

async function run(
  model: Model,
  opts: { params?: Partial<AgentParams>; budget?: Budget; hits?: ChunkHit[]; toolsSupported?: boolean; docs?: DocTree[]; tokensOf?: (o: ChatOptions) => number } = {},
) {
  const ctx = scriptedContext({ corpus: corpusOf(...(opts.docs ?? [manual(), handbook()])), script: () => '', hits: opts.hits ?? [hit('manual', 'b2y', 0.9), hit('manual', 'b2', 0.5)], budget: opts.budget });
  const seen: Array<{ messages: ChatMessage[]; opts: ChatOptions }> = [];
  let ids = 0;
  // A chat door that books calls on the real budget tracker, like the metered context does.
  ctx.chat = async (messages: ChatMessage[], chatOpts: ChatOptions = {}): Promise<ChatResult> => {
    const tokens = opts.tokensOf?.(chatOpts) ?? 1;
    ctx.budget.beforeCall({ tokens, dollars: 0 });
    const snapshot = messages.map((m) => ({ ...m }));
    seen.push({ messages: snapshot, opts: chatOpts });
    const turn = model(snapshot, chatOpts, seen.length - 1);
    ctx.budget.afterCall({ tokens, dollars: 0 });
    if (turn instanceof Error) throw turn;
    const toolCalls: ToolCall[] | undefined = turn.calls?.map(([name, args]) => ({ id: `id${++ids}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }));
    return { text: turn.text ?? '', model: 'scripted', ...(toolCalls ? { toolCalls } : {}) };
  };
  if (opts.toolsSupported !== undefined) ctx.toolsSupported = () => opts.toolsSupported!;
  const res = await agentStrategy.run(Q, ctx, defaults(opts.params));
  return { res, seen, ctx };
}

const answer = (a: string, citations: Array<[string, string]> = []) => JSON.stringify({ answer: a, choice: null, citations: citations.map(([d, n]) => ({ doc_id: d, node_id: n })) });

/** Plays a fixed list of native turns in order. */
const nativeScript =
  (turns: Turn[]): Model =>
  (_m, _o, i) =>
    turns[Math.min(i, turns.length - 1)];

/** Plays the same turns in the text protocol: one JSON request per reply. */
const textScript =
  (turns: Array<[string, Record<string, unknown>, string?] | string>): Model =>
  (_m, _o, i) => {
    const t = turns[Math.min(i, turns.length - 1)];
    return { text: typeof t === 'string' ? t : JSON.stringify({ tool: t[0], arguments: t[1], ...(t[2] ? { reason: t[2] } : {}) }) };
  };

const toolMessages = (messages: ChatMessage[]) => messages.filter((m) => m.role === 'tool');
const textResults = (messages: ChatMessage[]) => messages.map(readTextToolResult).filter((r): r is { name: string; content: string } => r !== null);

describe('agent params', () => {
  it('has the documented defaults and rejects unknown keys', () => {
    expect(defaults()).toMatchObject({ toolMode: 'auto', maxToolCalls: 8, maxStructureTokens: 3000, maxSectionTokens: 1500 });
    expect(() => agentStrategy.params.parse({ maxToolCall: 3 })).toThrow();
    expect(() => agentStrategy.params.parse({ toolMode: 'json' })).toThrow();
  });

  it('offers four tools with JSON Schema parameters, ids required where the tool needs them', () => {
    const specs = toolSpecs();
    expect(specs.map((t) => t.name)).toEqual(['list_documents', 'get_document_structure', 'get_section_content', 'search_sections']);
    const byName = Object.fromEntries(specs.map((t) => [t.name, t.parameters as { required?: string[]; properties: Record<string, unknown>; type: string }]));
    expect(byName.get_section_content.required).toEqual(['doc_id', 'node_id']);
    expect(byName.get_document_structure.required).toEqual(['doc_id']);
    expect(byName.search_sections.required).toEqual(['query']);
    expect(Object.values(byName).every((p) => p.type === 'object' && 'reason' in p.properties && !('$schema' in p))).toBe(true);
  });
});

describe('agent, native tool calls', () => {
  const turns: Turn[] = [
    { calls: [['list_documents', {}]] },
    { text: 'The manual should cover location.', calls: [['get_document_structure', { doc_id: 'manual', reason: 'phone settings live here' }]] },
    { calls: [['get_section_content', { doc_id: 'manual', node_id: 'b2y', reason: 'Location is under Security' }]] },
    { text: answer('Settings > Security > Location', [['manual', 'b2y']]) },
  ];

  it('offers the tools, feeds each result back under its call id, and answers from what it read', async () => {
    const { res, seen } = await run(nativeScript(turns), { params: { toolMode: 'native' } });
    expect(seen).toHaveLength(4);
    expect(seen.every((s) => s.opts.tools?.length === 4 && s.opts.toolChoice === 'auto')).toBe(true);
    const last = seen[3].messages;
    // Each assistant turn with calls is followed by one tool message per call, same id.
    const assistants = last.filter((m) => m.role === 'assistant');
    expect(assistants.map((m) => m.toolCalls?.[0].name)).toEqual(['list_documents', 'get_document_structure', 'get_section_content']);
    expect(toolMessages(last).map((m) => m.toolCallId)).toEqual(assistants.map((m) => m.toolCalls![0].id));
    const [list, structure, section] = toolMessages(last).map((m) => JSON.parse(m.content));
    expect(list.documents.map((d: { doc_id: string }) => d.doc_id)).toEqual(['manual', 'handbook']);
    expect(list.documents[0]).toMatchObject({ title: 'Phone manual', has_outline: true, sections: 18 });
    // The structure carries titles and summaries, never section text.
    expect(JSON.stringify(structure)).toContain('"node_id":"b2y"');
    expect(JSON.stringify(structure)).not.toContain('Location text.');
    expect(section).toMatchObject({ doc_id: 'manual', node_id: 'b2y', title: 'Location', text: 'Location text.' });
    expect(res.answer).toBe('Settings > Security > Location');
    expect(res.evidence.map((e) => [e.nodeId, e.rank])).toEqual([['b2y', 1]]);
    expect(res.stopReason).toBe('answered');
  });

  it('traces every call with its tool, arguments, result preview and stated reason', async () => {
    const { res } = await run(nativeScript(turns), { params: { toolMode: 'native' } });
    const tools = res.trace.filter((s) => s.action === 'tool');
    expect(tools.map((s) => s.tool)).toEqual(['list_documents', 'get_document_structure', 'get_section_content']);
    expect(tools[1]).toMatchObject({ args: { doc_id: 'manual' }, reason: 'phone settings live here', docId: 'manual' });
    expect(tools[2]).toMatchObject({ nodeId: 'b2y', reason: 'Location is under Security', depth: 2 });
    expect(tools[2].result).toMatch(/^\{"doc_id":"manual","node_id":"b2y"/);
    expect(res.trace.at(-1)).toMatchObject({ action: 'answer', source: 'llm' });
  });

  it('runs several calls of one turn, and answers the ones past the limit with an error', async () => {
    const model = nativeScript([
      { calls: [['get_section_content', { doc_id: 'manual', node_id: 'a1' }], ['get_section_content', { doc_id: 'manual', node_id: 'a2' }], ['get_section_content', { doc_id: 'manual', node_id: 'b3' }]] },
      { text: answer('x') },
    ]);
    const { res, seen } = await run(model, { params: { toolMode: 'native', maxToolCalls: 2 } });
    const results = toolMessages(seen[1].messages);
    expect(results).toHaveLength(3);
    expect(results[2].content).toBe('Error executing get_section_content: not run: the limit of 2 tool calls is reached');
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['a1', 'a2']);
    // The limit is spent: the second call is the forced final answer, with tools switched off.
    expect(seen[1].opts.toolChoice).toBe('none');
    expect(seen[1].messages.at(-1)!.content.startsWith(FINAL_ANSWER_MARKER)).toBe(true);
    expect(res.stopReason).toBe('max-tool-calls');
  });

  it('ranks evidence by the final citation, then by reading order; cited sections never read are not evidence', async () => {
    const reads: Turn[] = [
      { calls: [['get_section_content', { doc_id: 'manual', node_id: 'a1' }]] },
      { calls: [['get_section_content', { doc_id: 'manual', node_id: 'b3' }]] },
      { calls: [['get_section_content', { doc_id: 'handbook', node_id: 'h1' }]] },
    ];
    const cited = await run(nativeScript([...reads, { text: answer('x', [['handbook', 'h1'], ['manual', 'c1'], ['manual', 'a1']]) }]), { params: { toolMode: 'native' } });
    expect(cited.res.evidence.map((e) => `${e.nodeId}@${e.rank}`)).toEqual(['h1@1', 'a1@2', 'b3@3']);
    const uncited = await run(nativeScript([...reads, { text: answer('x') }]), { params: { toolMode: 'native' } });
    expect(uncited.res.evidence.map((e) => e.nodeId)).toEqual(['a1', 'b3', 'h1']);
  });

  it('honours a tool request written as text by a model that was offered native tools', async () => {
    const model = nativeScript([{ text: '{"tool": "get_section_content", "arguments": {"doc_id": "manual", "node_id": "b2y"}, "reason": "text habit"}' }, { text: answer('Location') }]);
    const { res, seen } = await run(model, { params: { toolMode: 'native' } });
    expect(textResults(seen[1].messages).map((r) => r.name)).toEqual(['get_section_content']);
    expect(res.trace.find((s) => s.action === 'tool')).toMatchObject({ tool: 'get_section_content', reason: 'text habit' });
    expect(res).toMatchObject({ answer: 'Location', parseFailures: 0 });
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['b2y']);
  });

  it('takes a prose reply as the answer and counts a parse failure', async () => {
    const { res } = await run(nativeScript([{ text: 'It is under Settings.' }]), { params: { toolMode: 'native' } });
    expect(res.answer).toBe('It is under Settings.');
    expect(res.parseFailures).toBe(1);
  });
});

describe('agent, text protocol', () => {
  it('writes the tool schemas into the prompt, sends results as [Tool Result: name] messages, and offers no native tools', async () => {
    const model = textScript([['list_documents', {}], ['search_sections', { query: 'location' }, 'find it'], ['get_section_content', { doc_id: 'manual', node_id: 'b2y' }], answer('Security > Location', [['manual', 'b2y']])]);
    const { res, seen } = await run(model, { params: { toolMode: 'text' } });
    expect(seen.every((s) => s.opts.tools === undefined)).toBe(true);
    const system = seen[0].messages[0].content;
    expect(system).toContain('"name": "get_section_content"');
    expect(system).toContain('[Tool Result: <tool name>]');
    const results = textResults(seen[3].messages);
    expect(results.map((r) => r.name)).toEqual(['list_documents', 'search_sections', 'get_section_content']);
    // Search returns nodes with scores, aggregated from chunk hits, not chunks.
    expect(JSON.parse(results[1].content).results).toEqual([
      { doc_id: 'manual', node_id: 'b2y', title: 'Location', path: 'Settings > Security > Location', score: 0.636 },
      { doc_id: 'manual', node_id: 'b2', title: 'Security', path: 'Settings > Security', score: 0.354 },
    ]);
    expect(res.trace.filter((s) => s.action === 'tool')[1]).toMatchObject({ tool: 'search_sections', reason: 'find it', args: { query: 'location' } });
    expect(res.answer).toBe('Security > Location');
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['b2y']);
  });

  it('tells the model when a reply is neither a request nor an answer, and takes a second miss as the answer', async () => {
    const { res, seen } = await run(textScript(['I think I should look around.', 'Still thinking.']), { params: { toolMode: 'text' } });
    expect(seen).toHaveLength(2);
    expect(seen[1].messages.at(-1)!.content).toMatch(/^Your reply could not be used: /);
    expect(res.parseFailures).toBe(2);
    expect(res.answer).toBe('Still thinking.');
  });
});

describe('agent, toolMode auto', () => {
  it('falls back to the text protocol when the server refuses tools, and records it', async () => {
    let refused = 0;
    const text = textScript([['get_section_content', { doc_id: 'manual', node_id: 'b2y' }], answer('Location', [['manual', 'b2y']])]);
    const model: Model = (m, o, i) => {
      if (o.tools) {
        refused++;
        return new ToolsUnsupportedError('openai chat "m": 400 "auto" tool choice requires --enable-auto-tool-choice');
      }
      return text(m, o, i - 1);
    };
    const { res, seen } = await run(model);
    expect(refused).toBe(1);
    expect(seen).toHaveLength(3);
    expect(seen[1].messages[0].content).toContain('[Tool Result: <tool name>]');
    const fallback = res.trace.find((s) => s.action === 'fallback');
    expect(fallback?.reason).toMatch(/toolMode auto: the server refused native tools .*enable-auto-tool-choice.*text protocol/);
    expect(res.answer).toBe('Location');
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['b2y']);
  });

  it('keeps what happened so far when tools are refused mid-question', async () => {
    let i = 0;
    const model: Model = (m, o) => {
      i++;
      if (i === 1) return { calls: [['get_section_content', { doc_id: 'manual', node_id: 'a1' }]] };
      if (o.tools) return new ToolsUnsupportedError('tools are not supported');
      return { text: answer('done') };
    };
    const { res, seen } = await run(model);
    const rewritten = seen.at(-1)!.messages;
    expect(rewritten.some((m) => m.role === 'tool' || m.toolCalls)).toBe(false);
    expect(textResults(rewritten).map((r) => r.name)).toEqual(['get_section_content']);
    expect(JSON.parse(rewritten.find((m) => m.role === 'assistant')!.content)).toEqual({ tool: 'get_section_content', arguments: { doc_id: 'manual', node_id: 'a1' } });
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['a1']);
  });

  it('starts in text when the provider already knows tools are refused (no failed call)', async () => {
    const { res, seen } = await run(textScript([answer('x')]), { toolsSupported: false });
    expect(seen).toHaveLength(1);
    expect(seen[0].opts.tools).toBeUndefined();
    expect(res.trace[0]).toMatchObject({ action: 'fallback' });
  });

  it('does not fall back when toolMode is native: the refusal is the record error', async () => {
    await expect(run(() => new ToolsUnsupportedError('tools are not supported'), { params: { toolMode: 'native' } })).rejects.toThrow(/tools are not supported/);
  });
});

describe('agent, failing tools are data', () => {
  it('returns unknown tools, bad arguments and unknown ids to the model as "Error executing" results', async () => {
    const model = nativeScript([
      { calls: [['read_page', { page: 3 }]] },
      { calls: [['get_section_content', { doc_id: 'manual' }]] },
      { calls: [['get_section_content', '{"doc_id": "manual", node_id: b2y}']] },
      { calls: [['get_document_structure', { doc_id: 'nope' }]] },
      { calls: [['get_section_content', { doc_id: 'manual', node_id: 'zz9' }]] },
      { calls: [['search_sections', { query: '   ' }]] },
      { calls: [['get_section_content', { doc_id: 'manual', node_id: 'b2y' }]] },
      { text: answer('Location') },
    ]);
    const { res, seen } = await run(model, { params: { toolMode: 'native' } });
    const results = toolMessages(seen.at(-1)!.messages).map((m) => m.content);
    expect(results.slice(0, 6)).toEqual([
      'Error executing read_page: unknown tool "read_page"; the tools are list_documents, get_document_structure, get_section_content, search_sections',
      expect.stringMatching(/^Error executing get_section_content: bad arguments: node_id: /),
      expect.stringMatching(/^Error executing get_section_content: the arguments are not valid JSON/),
      'Error executing get_document_structure: unknown doc_id "nope" (doc ids come from list_documents)',
      'Error executing get_section_content: unknown node_id "zz9" in document "manual" (node ids come from get_document_structure or search_sections)',
      expect.stringMatching(/^Error executing search_sections: bad arguments: query: /),
    ]);
    expect(JSON.parse(results[6]).node_id).toBe('b2y');
    expect(res.answer).toBe('Location');
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['b2y']);
    // Failed calls still count as tool calls and are traced with their error.
    expect(res.trace.filter((s) => s.action === 'tool' && s.result?.startsWith('Error executing'))).toHaveLength(6);
  });

  it('turns a tool that throws (e.g. the embedder is down) into an error result', async () => {
    const model = nativeScript([{ calls: [['search_sections', { query: 'location' }]] }, { text: answer('x') }]);
    const { seen, res } = await runWithFailingSearch(model);
    expect(toolMessages(seen.at(-1)!.messages)[0].content).toBe('Error executing search_sections: embedder unreachable');
    expect(res.answer).toBe('x');
  });
});

async function runWithFailingSearch(model: Model) {
  const ctx = scriptedContext({ corpus: corpusOf(manual()), script: () => '' });
  const seen: Array<{ messages: ChatMessage[] }> = [];
  let n = 0;
  ctx.valueSearch = async () => {
    throw new Error('embedder unreachable');
  };
  ctx.chat = async (messages) => {
    seen.push({ messages: messages.map((m) => ({ ...m })) });
    const t = model(messages, {}, n++) as Exclude<Turn, Error>;
    return { text: t.text ?? '', model: 's', ...(t.calls ? { toolCalls: t.calls.map(([name, a], i) => ({ id: `c${n}-${i}`, name, arguments: JSON.stringify(a) })) } : {}) };
  };
  const res = await agentStrategy.run(Q, ctx, defaults({ toolMode: 'native' }));
  return { seen, res };
}

describe('agent, limits', () => {
  const greedy: Model = (_m, o, i) => (o.toolChoice === 'none' ? { text: answer('from what I read') } : { calls: [['get_section_content', { doc_id: 'manual', node_id: ['a1', 'a2', 'b3', 'c1', 'c2', 'd1'][i % 6] }]] });

  it('asks once for a final answer when maxToolCalls is spent', async () => {
    const { res, seen } = await run(greedy, { params: { toolMode: 'native', maxToolCalls: 3 } });
    expect(seen).toHaveLength(4);
    expect(seen[3].opts).toMatchObject({ toolChoice: 'none', task: 'agent.answer' });
    expect(seen[3].messages.at(-1)!.content).toMatch(/^\[Final Answer Required\] You have used all 3 tool calls\./);
    expect(res).toMatchObject({ answer: 'from what I read', stopReason: 'max-tool-calls' });
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['a1', 'a2', 'b3']);
  });

  it('keeps one call of the calls budget for the final answer', async () => {
    const { res, seen, ctx } = await run(greedy, { params: { toolMode: 'native' }, budget: { calls: 3 } });
    expect(seen).toHaveLength(3);
    expect(ctx.budget.used.calls).toBe(3);
    expect(ctx.budget.exhausted).toBe('calls');
    expect(res.stopReason).toBe('budget:calls');
    expect(res.answer).toBe('from what I read');
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['a1', 'a2']);
  });

  it('stops at a node budget hit by a tool, answers every pending call, then asks for the answer', async () => {
    const model: Model = (_m, o) =>
      o.toolChoice === 'none' ? { text: answer('partial') } : { calls: [['get_section_content', { doc_id: 'manual', node_id: 'a1' }], ['get_section_content', { doc_id: 'manual', node_id: 'a2' }], ['list_documents', {}]] };
    const { res, seen, ctx } = await run(model, { params: { toolMode: 'native' }, budget: { nodesOpened: 1 } });
    expect(seen).toHaveLength(2);
    const results = toolMessages(seen[1].messages).map((m) => m.content);
    expect(results).toHaveLength(3);
    expect(results[1]).toMatch(/^Error executing get_section_content: not run: budget "nodesOpened" exhausted/);
    expect(results[2]).toMatch(/^Error executing list_documents: not run: budget "nodesOpened"/);
    expect(seen[1].messages.at(-1)!.content).toMatch(/^\[Final Answer Required\] The nodesOpened budget is spent/);
    expect(ctx.budget.exhausted).toBe('nodesOpened');
    expect(res).toMatchObject({ answer: 'partial', stopReason: 'budget:nodesOpened' });
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['a1']);
  });

  it('when even the final turn does not fit a budget, makes a compact answer call over what was read', async () => {
    const model: Model = (_m, o, i) => (i === 0 ? { calls: [['get_section_content', { doc_id: 'manual', node_id: 'b2y' }]] } : { text: '{"answer": "compact", "choice": null}' });
    // The final turn (the whole conversation) would cost 5000 tokens; the compact answer call 1.
    const { res, seen, ctx } = await run(model, { params: { toolMode: 'native', maxToolCalls: 1 }, budget: { tokens: 1000 }, tokensOf: (o) => (o.task === 'agent.answer' ? 5000 : 1) });
    expect(seen).toHaveLength(2);
    expect(seen[1].opts.task).toBe('answer');
    expect(seen[1].messages[1].content).toContain('Location text.');
    expect(ctx.budget.exhausted).toBe('tokens');
    expect(res.answer).toBe('compact');
    expect(res.evidence.map((e) => e.nodeId)).toEqual(['b2y']);
  });
});


describe('fitOutline', () => {
  const count = (s: string) => s.length;
  const outline = [
    { node_id: 'a', title: 'A', nodes: [{ node_id: 'a1', title: 'A1', nodes: [{ node_id: 'a1x', title: 'A1x' }] }] },
    { node_id: 'b', title: 'B' },
  ];

  it('keeps an outline that fits as it is', () => {
    expect(fitOutline(outline, 10_000, count)).toEqual({ outline });
  });

  it('cuts the deepest levels first and says how many sections are hidden and how to see them', () => {
    const size = JSON.stringify(outline).length;
    const fit = fitOutline(outline, size - 1, count);
    expect(fit.outline).toEqual([{ node_id: 'a', title: 'A', nodes: [{ node_id: 'a1', title: 'A1', hidden_sections: 1 }] }, { node_id: 'b', title: 'B' }]);
    expect(fit.note).toMatch(/3 of 4 sections shown\. Call get_document_structure with a node_id/);
    const depth1 = [{ node_id: 'a', title: 'A', hidden_sections: 2 }, { node_id: 'b', title: 'B' }];
    expect(fitOutline(outline, JSON.stringify(depth1).length, count).outline).toEqual(depth1);
    // Not even the top level fits: as many top-level entries as do, and a note pointing to search.
    const part = fitOutline(outline, JSON.stringify(depth1).length - 1, count);
    expect(part.outline).toEqual([depth1[0]]);
    expect(part.note).toMatch(/1 top-level sections are not shown; search_sections finds sections anywhere/);
  });
});
