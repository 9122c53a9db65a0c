// The agent's conversation with a model, as data (strategies/agent/protocol.ts writes the
// wording). Two encodings:
//
// Native: the chat-completions `tools` field offers the tools; the model answers with
// `tool_calls`; each result goes back as a `tool` message answering its call id.
// Text (servers without native tools): the tool schemas are written in the system prompt (its
// last ```json fence); the model asks for one tool per reply as JSON `{"tool", "arguments",
// "reason"}`; the result goes back as a user message that starts with the fixed line
// `[Tool Result: <name>]`.
//
// Either way the first user message carries the question as a JSON payload naming its task
// (`agent`), like every treebench prompt, and the final answer is JSON
// `{"answer", "choice", "citations"}`. When tool calls or budgets run out, one user message
// starting with `[Final Answer Required]` asks for that answer.
//
// The agent strategy writes these messages and reads a real model's replies with the functions
// below; the offline reasoner (harness/models/providers/offline-agent.ts) reads the messages back with
// the same functions. Both sides use this module, so it lives below both.
import type { ChatMessage, ToolSpec } from '../types.ts';
import { parseJsonObject } from './jsonReply.ts';
import { taskMessage } from './tasks.ts';

export const AGENT_TASK = 'agent';
export const FINAL_ANSWER_MARKER = '[Final Answer Required]';
export const toolResultPrefix = (name: string): string => `[Tool Result: ${name}]`;
const TOOL_RESULT_LINE = /^\[Tool Result: ([^\]\n]+)\]\n?/;

/** What the model is told about the question. Never gold answers or gold evidence. */
export interface AgentPayload {
  task: typeof AGENT_TASK;
  question: string;
  choices?: string[];
  /** Documents the question names, when the dataset says so. */
  doc_ids?: string[];
  max_tool_calls: number;
}

export interface Citation {
  doc_id: string;
  node_id: string;
}

export interface FinalAnswer {
  answer: string;
  choice: number | null;
  citations: Citation[];
}

/** The question, as the first user message: its payload in the same fence as every task prompt. */
export function questionMessage(payload: AgentPayload): ChatMessage {
  return taskMessage(payload);
}

/** A tool result as the text protocol sends it. */
export const textToolResult = (name: string, content: string): ChatMessage => ({ role: 'user', content: `${toolResultPrefix(name)}\n${content}` });

/** A tool request as the text protocol writes it (also used to replay native turns as text). */
export function textToolRequest(name: string, args: unknown, reason?: string): string {
  return JSON.stringify({ tool: name, arguments: args ?? {}, ...(reason ? { reason } : {}) });
}

/** The tool schemas as the text protocol writes them in the system prompt: a ```json fence. */
export function textToolsBlock(tools: ToolSpec[]): string[] {
  return ['```json', JSON.stringify(tools, null, 1), '```'];
}

// ---------------------------------------------------------------------------------------------
// Reading replies

export type TextReply =
  | { kind: 'tool'; name: string; arguments: string; reason?: string }
  | { kind: 'answer'; answer: FinalAnswer }
  | { kind: 'invalid'; error: string };

/** A final answer object, or null when `obj` is not one. */
export function readFinalAnswer(obj: Record<string, unknown>): FinalAnswer | null {
  if (typeof obj.answer !== 'string' && typeof obj.answer !== 'number') return null;
  const choice = typeof obj.choice === 'number' && Number.isInteger(obj.choice) ? obj.choice : null;
  const citations: Citation[] = [];
  for (const c of Array.isArray(obj.citations) ? obj.citations : []) {
    if (c && typeof c === 'object' && typeof (c as Citation).doc_id === 'string' && typeof (c as Citation).node_id === 'string') {
      citations.push({ doc_id: (c as Citation).doc_id, node_id: (c as Citation).node_id });
    }
  }
  return { answer: String(obj.answer), choice, citations };
}

/** A text-protocol reply: a tool request, a final answer, or why it is neither. */
export function parseTextReply(text: string): TextReply {
  const parsed = parseJsonObject(text);
  if (!parsed.ok) return { kind: 'invalid', error: parsed.error };
  const obj = parsed.value;
  const name = typeof obj.tool === 'string' ? obj.tool : typeof obj.name === 'string' && 'arguments' in obj ? obj.name : null;
  if (name) {
    const args = obj.arguments ?? obj.args ?? {};
    return { kind: 'tool', name, arguments: typeof args === 'string' ? args : JSON.stringify(args), ...(typeof obj.reason === 'string' ? { reason: obj.reason } : {}) };
  }
  const answer = readFinalAnswer(obj);
  if (answer) return { kind: 'answer', answer };
  return { kind: 'invalid', error: 'the reply is neither a tool request {"tool", "arguments", "reason"} nor a final answer {"answer", "choice", "citations"}' };
}

/** The tool result a text-protocol user message carries, or null when it carries none. */
export function readTextToolResult(message: ChatMessage): { name: string; content: string } | null {
  if (message.role !== 'user') return null;
  const m = TOOL_RESULT_LINE.exec(message.content);
  return m ? { name: m[1], content: message.content.slice(m[0].length) } : null;
}

/** The agent payload of a conversation (its first user message that carries one), or null. */
export function readAgentPayload(messages: ChatMessage[]): AgentPayload | null {
  for (const m of messages) {
    if (m.role !== 'user' || !m.content.startsWith(`Task: ${AGENT_TASK}\n`)) continue;
    const fence = /```json\s*\n([\s\S]*?)\n```/.exec(m.content);
    if (!fence) continue;
    try {
      const p = JSON.parse(fence[1]) as AgentPayload;
      if (p && p.task === AGENT_TASK && typeof p.question === 'string') return p;
    } catch {
      // not a payload
    }
  }
  return null;
}

/** Tool schemas written in a text-protocol system prompt (the last ```json fence). */
export function readTextTools(messages: ChatMessage[]): ToolSpec[] {
  const system = messages.find((m) => m.role === 'system');
  if (!system) return [];
  const fences = [...system.content.matchAll(/```json\s*\n([\s\S]*?)\n```/g)];
  if (!fences.length) return [];
  try {
    const tools = JSON.parse(fences[fences.length - 1][1]) as unknown;
    return Array.isArray(tools) ? (tools.filter((t) => t && typeof t.name === 'string') as ToolSpec[]) : [];
  } catch {
    return [];
  }
}
