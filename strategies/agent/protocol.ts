// The agent's conversation with the model, in its two encodings.
//
// Native: the chat-completions `tools` field offers the tools; the model answers with
// `tool_calls`; each result goes back as a `tool` message answering its call id.
// Text (servers without native tools): the tool schemas are written in the system prompt; the
// model asks for one tool per reply as JSON `{"tool", "arguments", "reason"}`; the result goes
// back as a user message that starts with the fixed line `[Tool Result: <name>]`.
//
// Either way the first user message carries the question as a JSON payload naming its task
// (`agent`), like every treebench prompt, and the final answer is JSON
// `{"answer", "choice", "citations"}`. When tool calls or budgets run out, one user message
// starting with `[Final Answer Required]` asks for that answer.
//
// The offline reasoner (harness/providers/offline-agent.ts) reads these messages back with the
// functions below; real models read the prose.
import type { ChatMessage, ToolCall, ToolSpec } from '../../harness/types.ts';
import { parseJsonObject } from '../shared/parse.ts';

export type ToolMode = 'native' | 'text';

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

const ANSWER_SHAPE = '{"answer": "<answer>", "choice": <0-based index of the right choice, or null>, "citations": [{"doc_id": "<doc_id>", "node_id": "<node_id>"}, ...]}';

const COMMON = [
  'You answer a question about a collection of documents by exploring them with tools.',
  'Each document is a tree of sections with node ids. A good path: list_documents, then get_document_structure of a promising',
  'document (titles and summaries, no text), then get_section_content of the sections most likely to hold the answer.',
  'search_sections finds sections by their text when the outline does not show where the answer is.',
  'A tool that fails returns a line starting with "Error executing": read it and try something else.',
  'Answer only from section text you have read. Be concise: give the fact, number or short phrase asked for, with its unit.',
  'If what you read does not contain the answer, answer "Not found in the provided context."',
  'If `choices` are given, also give the 0-based index of the right choice.',
  'Cite the sections your answer comes from, most important first.',
];

/** The system prompt of a mode. */
export function systemPrompt(mode: ToolMode, tools: ToolSpec[], maxToolCalls: number): string {
  const lines = [...COMMON, `You may call at most ${maxToolCalls} tools.`];
  if (mode === 'native') {
    lines.push(`When you have enough, stop calling tools and reply with JSON only: ${ANSWER_SHAPE}`);
    return lines.join('\n');
  }
  lines.push(
    'You call a tool by replying with JSON only, one tool per reply:',
    '{"tool": "<tool name>", "arguments": {<arguments as in its schema>}, "reason": "<why, one sentence>"}',
    `Its result comes back in a user message whose first line is ${toolResultPrefix('<tool name>')}.`,
    `When you have enough, reply with JSON only: ${ANSWER_SHAPE}`,
    'The tools, with their arguments as JSON Schema:',
    '```json',
    JSON.stringify(tools, null, 1),
    '```',
  );
  return lines.join('\n');
}

export function questionMessage(payload: AgentPayload): ChatMessage {
  return { role: 'user', content: `Task: ${AGENT_TASK}\n\nInput:\n\`\`\`json\n${JSON.stringify(payload, null, 1)}\n\`\`\`` };
}

export function buildAgentMessages(mode: ToolMode, payload: AgentPayload, tools: ToolSpec[]): ChatMessage[] {
  return [{ role: 'system', content: systemPrompt(mode, tools, payload.max_tool_calls) }, questionMessage(payload)];
}

/** A tool result as the text protocol sends it. */
export const textToolResult = (name: string, content: string): ChatMessage => ({ role: 'user', content: `${toolResultPrefix(name)}\n${content}` });

/** A tool request as the text protocol writes it (also used to replay native turns as text). */
export function textToolRequest(name: string, args: unknown, reason?: string): string {
  return JSON.stringify({ tool: name, arguments: args ?? {}, ...(reason ? { reason } : {}) });
}

export function finalAnswerRequest(why: string): ChatMessage {
  return { role: 'user', content: `${FINAL_ANSWER_MARKER} ${why}. Call no more tools. Answer now from what you have read, with JSON only: ${ANSWER_SHAPE}` };
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

/**
 * Rewrites a native conversation as the text protocol (after a fallback mid-question): tool
 * calls become JSON requests, tool messages become `[Tool Result: name]` user messages.
 */
export function nativeToText(messages: ChatMessage[], tools: ToolSpec[], maxToolCalls: number): ChatMessage[] {
  const names = new Map<string, ToolCall>();
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system') out.push({ role: 'system', content: systemPrompt('text', tools, maxToolCalls) });
    else if (m.role === 'assistant' && m.toolCalls?.length) {
      for (const c of m.toolCalls) {
        names.set(c.id, c);
        let args: unknown = c.arguments;
        try {
          args = JSON.parse(c.arguments);
        } catch {
          // keep the raw text
        }
        out.push({ role: 'assistant', content: textToolRequest(c.name, args) });
      }
    } else if (m.role === 'tool') out.push(textToolResult(names.get(m.toolCallId ?? '')?.name ?? 'unknown', m.content));
    else out.push({ role: m.role, content: m.content });
  }
  // Consecutive assistant requests (one native turn with several calls) would break the
  // one-request-per-reply rhythm; interleave their results instead.
  return interleave(out);
}

function interleave(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === 'assistant') {
      // Collect a run of requests and the run of results that follows it.
      const requests: ChatMessage[] = [];
      let j = i;
      while (j < messages.length && messages[j].role === 'assistant') requests.push(messages[j++]);
      const results: ChatMessage[] = [];
      while (j < messages.length && readTextToolResult(messages[j])) results.push(messages[j++]);
      if (requests.length > 1 && results.length === requests.length) {
        requests.forEach((r, k) => out.push(r, results[k]));
      } else out.push(...requests, ...results);
      i = j - 1;
    } else out.push(m);
  }
  return out;
}
