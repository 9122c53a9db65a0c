// Native tool calling through the openai provider, against the loopback server: what goes on
// the wire (tools, tool_choice, assistant tool_calls, tool messages), what comes back, and how
// a server that refuses tools is recognised and remembered.
import { describe, expect, it } from 'vitest';
import { OpenAIChatProvider, ProviderError } from '../../../../harness/models/providers/openai.ts';
import { isToolsRefusal, ToolsUnsupportedError } from '../../../../harness/models/tools.ts';
import { apiError, chatCompletion, useFakeOpenAIServer } from '../../../helpers/fake-openai-server.ts';
import type { ChatMessage, ToolSpec } from '../../../../harness/types.ts';

const CHAT = '/v1/chat/completions';
const tools: ToolSpec[] = [{ name: 'list_documents', description: 'List the documents.', parameters: { type: 'object', properties: {}, additionalProperties: false } }];
const conversation: ChatMessage[] = [
  { role: 'system', content: 'Explore with tools.' },
  { role: 'user', content: 'Which document covers billing?' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'list_documents', arguments: '{}' }] },
  { role: 'tool', toolCallId: 'call_1', content: '{"documents":[]}' },
];

const server = useFakeOpenAIServer();

const provider = () => new OpenAIChatProvider({ model: 'gpt-4o-mini', baseURL: server.baseURL, apiKey: 'loopback-placeholder', maxRetries: 0 });

describe('openai provider, native tools', () => {
  it('sends tools, tool_choice, assistant tool_calls and tool messages in the chat-completions shape', async () => {
    server.chatReplies.push(chatCompletion('{"answer": "none"}'));
    await provider().chat(conversation, { tools, toolChoice: 'auto' });
    const body = server.requestsTo(CHAT)[0].body;
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'list_documents', description: 'List the documents.', parameters: tools[0].parameters } }]);
    expect(body.tool_choice).toBe('auto');
    expect(body.messages[2]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'list_documents', arguments: '{}' } }] });
    expect(body.messages[3]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"documents":[]}' });
  });

  it('sends neither tools nor tool_choice when a call offers none (other strategies are unchanged)', async () => {
    server.chatReplies.push(chatCompletion('{"answer": "x"}'));
    await provider().chat(conversation.slice(0, 2), { json: true });
    const body = server.requestsTo(CHAT)[0].body;
    expect('tools' in body || 'tool_choice' in body).toBe(false);
    expect(body.messages).toEqual([
      { role: 'system', content: 'Explore with tools.' },
      { role: 'user', content: 'Which document covers billing?' },
    ]);
  });

  it('returns the tool calls the model made', async () => {
    server.chatReplies.push(chatCompletion('', { prompt: 50, completion: 12 }, { toolCalls: [{ id: 'call_9', name: 'list_documents', arguments: '{"reason":"look"}' }] }));
    const res = await provider().chat(conversation.slice(0, 2), { tools });
    expect(res.toolCalls).toEqual([{ id: 'call_9', name: 'list_documents', arguments: '{"reason":"look"}' }]);
    expect(res.text).toBe('');
    expect(res.finishReason).toBe('tool_calls');
    expect(res.usage).toEqual({ inputTokens: 50, outputTokens: 12 });
  });

  it('turns a server refusal of tools into ToolsUnsupportedError, and stops offering them to that server', async () => {
    server.chatReplies.push(apiError(400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'));
    const p = provider();
    expect(p.supportsTools).toBe(true);
    await expect(p.chat(conversation.slice(0, 2), { tools, toolChoice: 'auto' })).rejects.toBeInstanceOf(ToolsUnsupportedError);
    expect(p.supportsTools).toBe(false);
    // Known now: a second call with tools fails at once, without a request.
    await expect(p.chat(conversation.slice(0, 2), { tools })).rejects.toThrow(/refused native tools earlier/);
    expect(server.requestsTo(CHAT)).toHaveLength(1);
    // Calls without tools still go through.
    server.chatReplies.push(chatCompletion('{"answer": "x"}'));
    await expect(p.chat(conversation.slice(0, 2), {})).resolves.toMatchObject({ text: '{"answer": "x"}' });
  });

  it('keeps other errors as they are, also on calls with tools', async () => {
    server.chatReplies.push(apiError(401, 'Incorrect API key provided'));
    const p = provider();
    const err = await p.chat(conversation.slice(0, 2), { tools }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).not.toBeInstanceOf(ToolsUnsupportedError);
    expect(p.supportsTools).toBe(true);
  });
});

describe('isToolsRefusal', () => {
  it('recognises what local servers say when they cannot do tools', () => {
    expect(isToolsRefusal(400, 'registry.ollama.ai/library/gemma:2b does not support tools')).toBe(true);
    expect(isToolsRefusal(500, 'tools param requires --jinja flag')).toBe(true);
    expect(isToolsRefusal(400, '"auto" tool choice requires --enable-auto-tool-choice')).toBe(true);
    expect(isToolsRefusal(422, "Unrecognized request argument supplied: functions")).toBe(true);
  });

  it('is not fooled by errors that have nothing to do with tools', () => {
    expect(isToolsRefusal(400, 'max_tokens is too large')).toBe(false);
    expect(isToolsRefusal(429, 'Rate limit reached for tools')).toBe(false);
    expect(isToolsRefusal(401, 'invalid key')).toBe(false);
    expect(isToolsRefusal(undefined, 'tools connection error')).toBe(false);
  });
});
