// What strategies and models exchange (harness/protocol/): what one side writes, the other reads
// back the same, and a model's untidy JSON is still read.
import { describe, expect, it } from 'vitest';
import { extractPayload, taskMessage, type PromptPayload } from '../../../harness/protocol/tasks.ts';
import { parseTextReply, questionMessage, readAgentPayload, readTextToolResult, readTextTools, textToolRequest, textToolResult } from '../../../harness/protocol/agent.ts';
import { asStringList, parseJsonObject } from '../../../harness/protocol/jsonReply.ts';
import { buildPrompt } from '../../../strategies/prompts.ts';
import { buildAgentMessages } from '../../../strategies/agent/protocol.ts';
import type { ToolSpec } from '../../../harness/types.ts';

const payload: PromptPayload = { task: 'reward', question: 'What is the fee?', passage: { doc_id: 'd', node_id: '3', title: 'Fees ```json', text: 'The fee is $5.\n```\n' } };

describe('task payloads', () => {
  it('reads back the payload a strategy prompt carries, even with fences inside its strings', () => {
    expect(extractPayload(buildPrompt(payload))).toEqual(payload);
    expect(extractPayload([{ role: 'system', content: 's' }, taskMessage(payload), { role: 'assistant', content: 'x' }, { role: 'user', content: 'Reply again.' }])).toEqual(payload);
    expect(extractPayload([{ role: 'user', content: 'no payload here' }])).toBeNull();
  });
});

describe('the agent conversation', () => {
  const tools: ToolSpec[] = [{ name: 'list_documents', description: 'List them.', parameters: { type: 'object', properties: {} } }];

  it('reads back the question and, in text mode, the tool schemas the system prompt carries', () => {
    const q = { task: 'agent' as const, question: 'Who signed?', max_tool_calls: 5 };
    expect(readAgentPayload(buildAgentMessages('text', q, tools))).toEqual(q);
    expect(readTextTools(buildAgentMessages('text', q, tools))).toEqual(tools);
    expect(readTextTools(buildAgentMessages('native', q, tools))).toEqual([]);
    expect(readAgentPayload([questionMessage(q)])).toEqual(q);
  });

  it('reads a tool request, a tool result and a final answer, and says why a reply is neither', () => {
    expect(parseTextReply(textToolRequest('list_documents', {}, 'start'))).toEqual({ kind: 'tool', name: 'list_documents', arguments: '{}', reason: 'start' });
    expect(readTextToolResult(textToolResult('search_sections', '[]'))).toEqual({ name: 'search_sections', content: '[]' });
    expect(parseTextReply('Here: {"answer": "Ann", "choice": null, "citations": [{"doc_id": "d", "node_id": "1"}, {"doc_id": 3}]}')).toEqual({
      kind: 'answer',
      answer: { answer: 'Ann', choice: null, citations: [{ doc_id: 'd', node_id: '1' }] },
    });
    expect(parseTextReply('{"thoughts": 1}').kind).toBe('invalid');
  });
});

describe('JSON in model replies', () => {
  it('takes an object bare, fenced, in prose or with trailing commas; an envelope otherwise', () => {
    expect(parseJsonObject('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonObject('Sure!\n```json\n{"a": [1, 2,],}\n```')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(parseJsonObject('I think {"a": "}"} is it')).toEqual({ ok: true, value: { a: '}' } });
    expect(parseJsonObject('[1, 2]')).toEqual({ ok: false, error: 'no JSON object found in the reply' });
    expect(parseJsonObject('{"a": }').ok).toBe(false);
    expect(asStringList(['1', 2, null])).toEqual(['1', '2']);
    expect(asStringList('a, b,')).toEqual(['a', 'b']);
    expect(asStringList({})).toBeNull();
  });
});
