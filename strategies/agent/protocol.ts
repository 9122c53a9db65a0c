// The agent's conversation with the model: the wording of its system prompt and of the request
// for a final answer, and the rewrite of a native conversation as text. The format itself (the
// two tool encodings, the question payload, the markers and the readers the offline reasoner
// shares) is harness/protocol/agent.ts, re-exported here for the agent strategy.
import type { ChatMessage, ToolCall, ToolSpec } from '../../harness/types.ts';
import { fillTemplate } from '../prompts.ts';
import {
  FINAL_ANSWER_MARKER,
  questionMessage,
  readTextToolResult,
  textToolRequest,
  textToolResult,
  textToolsBlock,
  toolResultPrefix,
  type AgentPayload,
} from '../../harness/protocol/agent.ts';

export * from '../../harness/protocol/agent.ts';

export type ToolMode = 'native' | 'text';

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

/** The agent's exploration guidance, the part a config's `prompts: { agent: ./file.md }` replaces. */
export const AGENT_GUIDANCE = COMMON.join('\n');

/** The `{{variables}}` an agent template may use. */
export const AGENT_TEMPLATE_VARIABLES = ['question', 'choices', 'doc_ids', 'max_tool_calls', 'default'] as const;

/** An agent template filled in from the question payload: `{{default}}` is the built-in guidance. */
export function renderAgentTemplate(template: string, payload: AgentPayload): string {
  return fillTemplate(template, payload as unknown as Record<string, unknown>, AGENT_GUIDANCE);
}

/**
 * The system prompt of a mode: the guidance (the built-in one, or a config's template already
 * filled in), then the protocol lines — the tool limit, how to call tools and how to answer —
 * which a template never replaces: the reply readers and the offline reasoner depend on them.
 */
export function systemPrompt(mode: ToolMode, tools: ToolSpec[], maxToolCalls: number, guidance: string = AGENT_GUIDANCE): string {
  const lines = [guidance.trim(), `You may call at most ${maxToolCalls} tools.`];
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
    ...textToolsBlock(tools),
  );
  return lines.join('\n');
}

export function buildAgentMessages(mode: ToolMode, payload: AgentPayload, tools: ToolSpec[], guidance?: string): ChatMessage[] {
  return [{ role: 'system', content: systemPrompt(mode, tools, payload.max_tool_calls, guidance) }, questionMessage(payload)];
}

export function finalAnswerRequest(why: string): ChatMessage {
  return { role: 'user', content: `${FINAL_ANSWER_MARKER} ${why}. Call no more tools. Answer now from what you have read, with JSON only: ${ANSWER_SHAPE}` };
}

/**
 * Rewrites a native conversation as the text protocol (after a fallback mid-question): tool
 * calls become JSON requests, tool messages become `[Tool Result: name]` user messages.
 */
export function nativeToText(messages: ChatMessage[], tools: ToolSpec[], maxToolCalls: number, guidance?: string): ChatMessage[] {
  const names = new Map<string, ToolCall>();
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system') out.push({ role: 'system', content: systemPrompt('text', tools, maxToolCalls, guidance) });
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
