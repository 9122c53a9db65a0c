// Native tool calling at the model door: what a provider throws when its server refuses the
// chat-completions `tools` field, how such a refusal is recognised, and how tool calls are
// counted as tokens. The agent strategy (strategies/agent.ts) catches the refusal in
// `toolMode: auto` and continues with its text protocol.
import type { ChatMessage, ToolCall, ToolSpec } from '../types.ts';
import { redactSecrets } from './secrets.ts';

/** The server (or provider) does not do native tool calling. The call was made and failed. */
export class ToolsUnsupportedError extends Error {
  constructor(
    message: string,
    /** Extra attempts the failed call needed. */
    readonly retries = 0,
  ) {
    super(redactSecrets(message));
    this.name = 'ToolsUnsupportedError';
  }
}

export function isToolsUnsupported(err: unknown): err is ToolsUnsupportedError {
  return err instanceof ToolsUnsupportedError;
}

/**
 * Whether a failed request that carried `tools` failed because of them. Servers say so in many
 * ways: vLLM without --enable-auto-tool-choice ("auto" tool choice requires ...), Ollama for
 * models without tools ("... does not support tools"), llama.cpp without --jinja ("tools param
 * requires --jinja"), others with a 400/422 naming `tools`, `tool_choice` or `functions`. A
 * 401, 429 or a network error is never a refusal of tools.
 */
export function isToolsRefusal(status: number | undefined, message: string): boolean {
  if (status === undefined || ![400, 404, 422, 500, 501].includes(status)) return false;
  return /\btools?\b|tool_choice|tool[ _-]call|\bfunctions?\b|function[ _]call/i.test(message);
}

/** The text a model wrote for its tool calls, for counting output tokens when usage is missing. */
export function toolCallsText(calls: ToolCall[] | undefined): string {
  return calls?.length ? calls.map((c) => `${c.name}(${c.arguments})`).join('\n') : '';
}

/** The messages as a tokenizer should count them: tool calls and tool schemas are input too. */
export function meteredMessages(messages: ChatMessage[], tools?: ToolSpec[]): ChatMessage[] {
  const out: ChatMessage[] = messages.map((m) => (m.toolCalls?.length ? { role: m.role, content: `${m.content}\n${toolCallsText(m.toolCalls)}` } : m));
  if (tools?.length) out.unshift({ role: 'system', content: JSON.stringify(tools) });
  return out;
}
