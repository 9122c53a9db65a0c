// The offline reasoner playing the agent: it decides from the question payload, the tool schemas
// and the tool results in its messages — nothing else — the same way in both tool modes.
import { describe, expect, it } from 'vitest';
import { genericReply, respondChat } from '../../../../harness/models/providers/offline.ts';
import { buildAgentMessages, finalAnswerRequest, textToolResult, textToolRequest, type AgentPayload } from '../../../../strategies/agent/protocol.ts';
import { toolSpecs } from '../../../../strategies/agent/tools.ts';
import type { ChatMessage, ToolSpec } from '../../../../harness/types.ts';

const payload: AgentPayload = { task: 'agent', question: 'What is the refund window for a Zorblat order?', max_tool_calls: 8 };
const tools = toolSpecs();

// A corpus that exists nowhere but in these tool results: the reasoner can only know it from them.
const RESULTS: Record<string, unknown> = {
  list_documents: { documents: [{ doc_id: 'zorblat-terms', title: 'Zorblat shop terms', description: 'Orders, refunds and delivery.', sections: 3, has_outline: true }, { doc_id: 'garden', title: 'Garden guide', sections: 2, has_outline: true }] },
  search_sections: { query: payload.question, results: [{ doc_id: 'zorblat-terms', node_id: 'zt-2', title: 'Refunds', path: 'Refunds', score: 0.8 }] },
  get_document_structure: { doc_id: 'zorblat-terms', title: 'Zorblat shop terms', structure: [{ node_id: 'zt-1', title: 'Orders' }, { node_id: 'zt-2', title: 'Refunds', summary: 'Refund window and how to ask.' }, { node_id: 'zt-3', title: 'Delivery' }] },
  get_section_content: { doc_id: 'zorblat-terms', node_id: 'zt-2', title: 'Refunds', text: 'The refund window for a Zorblat order is 30 days from delivery.' },
};

/** Plays the reasoner against the fake results for up to `turns` turns, in one encoding. */
function play(mode: 'native' | 'text', opts: { offered?: ToolSpec[]; payload?: AgentPayload; results?: Record<string, unknown>; turns?: number } = {}) {
  const offered = opts.offered ?? tools;
  const messages: ChatMessage[] = buildAgentMessages(mode, opts.payload ?? payload, offered);
  const calls: Array<{ name: string; args: Record<string, unknown> }> = [];
  for (let turn = 0; turn < (opts.turns ?? 10); turn++) {
    const reply = respondChat(messages, mode === 'native' ? { tools: offered, toolChoice: 'auto' } : {});
    const call = reply.toolCalls?.[0] ?? (() => {
      const obj = JSON.parse(reply.text);
      return obj.tool ? { id: '', name: obj.tool, arguments: JSON.stringify({ ...obj.arguments, reason: obj.reason }) } : null;
    })();
    if (!call) return { calls, final: JSON.parse(reply.text), messages };
    const args = JSON.parse(call.arguments);
    calls.push({ name: call.name, args });
    const result = (opts.results ?? RESULTS)[call.name];
    const content = typeof result === 'string' ? result : JSON.stringify(result ?? { error: 'none' });
    if (mode === 'native') {
      messages.push({ role: 'assistant', content: reply.text, toolCalls: reply.toolCalls }, { role: 'tool', toolCallId: call.id, content });
    } else {
      messages.push({ role: 'assistant', content: reply.text }, textToolResult(call.name, content));
    }
  }
  return { calls, final: null, messages };
}

const names = (calls: Array<{ name: string }>) => calls.map((c) => c.name);

describe('offline reasoner as the agent', () => {
  it('explores from the tool results alone and answers with citations of what it read', () => {
    const { calls, final } = play('native');
    expect(names(calls)).toEqual(['list_documents', 'search_sections', 'get_document_structure', 'get_section_content']);
    expect(calls[2].args).toMatchObject({ doc_id: 'zorblat-terms' });
    expect(calls[3].args).toMatchObject({ doc_id: 'zorblat-terms', node_id: 'zt-2' });
    expect(typeof calls[3].args.reason).toBe('string');
    expect(final).toEqual({ answer: expect.stringContaining('30 days'), choice: null, citations: [{ doc_id: 'zorblat-terms', node_id: 'zt-2' }] });
  });

  it('makes the same decisions in the text protocol', () => {
    const native = play('native');
    const text = play('text');
    expect(text.calls.map((c) => [c.name, c.args])).toEqual(native.calls.map((c) => [c.name, c.args]));
    expect(text.final).toEqual(native.final);
  });

  it('is a pure function of the conversation', () => {
    const { messages } = play('text', { turns: 2 });
    expect(respondChat(messages)).toEqual(respondChat(messages));
    // Different tool results, different decisions: it follows what the tools said.
    const other = play('native', { results: { ...RESULTS, search_sections: { results: [{ doc_id: 'garden', node_id: 'g-9', title: 'Refund window for seeds', score: 0.9 }] }, get_document_structure: 'Error executing get_document_structure: unknown doc_id' } });
    expect(other.calls.find((c) => c.name === 'get_section_content')?.args).toMatchObject({ doc_id: 'garden', node_id: 'g-9' });
  });

  it('calls only the tools its schemas offer, and skips listing when the question names its document', () => {
    const onlyRead = tools.filter((t) => t.name === 'search_sections' || t.name === 'get_section_content');
    const { calls } = play('native', { offered: onlyRead });
    expect(names(calls)).toEqual(['search_sections', 'get_section_content']);
    const named = play('text', { payload: { ...payload, doc_ids: ['zorblat-terms'] } });
    expect(names(named.calls)[0]).toBe('search_sections');
    expect(named.calls[0].args).toMatchObject({ doc_id: 'zorblat-terms' });
  });

  it('never repeats a call that failed, and answers when nothing is left to try', () => {
    const failing = Object.fromEntries(Object.keys(RESULTS).map((k) => [k, `Error executing ${k}: down`]));
    const { calls, final } = play('native', { results: failing });
    expect(new Set(calls.map((c) => JSON.stringify(c))).size).toBe(calls.length);
    expect(final).toMatchObject({ answer: 'Not found in the provided context.', citations: [] });
  });

  it('answers at once when a final answer is required, in either mode', () => {
    const { messages } = play('native', { turns: 4 });
    const forced = respondChat([...messages, finalAnswerRequest('You have used all 4 tool calls')], { tools, toolChoice: 'none' });
    expect(forced.toolCalls).toBeUndefined();
    expect(JSON.parse(forced.text).answer).toContain('30 days');
    const text = play('text', { turns: 1 });
    const forcedText = JSON.parse(respondChat([...text.messages, finalAnswerRequest('The calls budget is spent')]).text);
    expect(forcedText).toEqual({ answer: 'Not found in the provided context.', choice: null, citations: [] });
  });

  it('leaves conversations that are not an agent to the other tasks', () => {
    const reply = respondChat([{ role: 'user', content: textToolRequest('list_documents', {}) }]);
    expect(reply.toolCalls).toBeUndefined();
    // No agent payload: the generic reply to a prompt without a task, not a tool call.
    expect(reply.text).toBe(genericReply([{ role: 'user', content: textToolRequest('list_documents', {}) }]));
  });
});
