// The offline reasoner playing the `agent` strategy (strategies/agent.ts). Like the rest of the
// offline reasoner it reads nothing but the conversation: the question payload, the tool schemas
// (the request's `tools` in native mode, the system prompt's JSON in text mode) and the tool
// results in the messages — never the corpus, never gold data. Same conversation, same reply,
// in both tool modes.
//
// Its policy, one tool per turn, each tool only if the schemas offer it, never the same call twice:
//  1. list_documents (skipped when the question names its documents);
//  2. search_sections for the question (in the named document, if exactly one is named);
//  3. get_document_structure of the most promising document with a real outline (the one the
//     question names, else the best search hit's, else the best title/description match);
//  4. get_section_content of the best unread candidates: outline matches (the same lexical
//     choice as its `select-nodes` task) and search hits fused by reciprocal rank, expanding a
//     truncated section's structure first when it is the best candidate; stop when what was read
//     covers the question (its `sufficiency` rule) or candidates run out;
//  5. answer with its `answer` task over what was read, citing the sections read, best match
//     first — at once when the tool calls are spent or a final answer is required.
import type { ChatMessage, ToolCall, ToolSpec } from '../../types.ts';
import type { OutlineNode, Passage, PromptPayload } from '../../protocol/tasks.ts';
import {
  FINAL_ANSWER_MARKER,
  parseTextReply,
  readAgentPayload,
  readTextToolResult,
  readTextTools,
  textToolRequest,
  type AgentPayload,
  type Citation,
} from '../../protocol/agent.ts';

/** The offline reasoner's task solver (harness/models/providers/offline.ts), passed in to avoid an import cycle. */
export type TaskSolver = (payload: PromptPayload) => object | null;

export interface AgentReply {
  text: string;
  toolCalls?: ToolCall[];
}

/** Sections read at most before answering, even when tool calls are left (as many as node-list opens by default). */
const MAX_READS = 4;
/** Reciprocal-rank-fusion constant: rank r contributes 1 / (RRF_K + r). */
const RRF_K = 1;
/** Candidates below this share of the best fused score are not worth a read. */
const CANDIDATE_KEEP = 0.3;

interface Step {
  name: string;
  args: Record<string, unknown>;
  /** Parsed JSON result, or null for an error or an unparsable result. */
  data: Record<string, unknown> | null;
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string => (typeof x === 'string' ? x : '');
const parseArgs = (s: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(s) as unknown;
    return isObj(v) ? v : {};
  } catch {
    return {};
  }
};
const parseResult = (content: string): Record<string, unknown> | null => {
  if (content.startsWith('Error executing')) return null;
  try {
    const v = JSON.parse(content) as unknown;
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
};

/** The tool calls made so far and their results, in order, from either encoding. */
function history(messages: ChatMessage[]): Step[] {
  const steps: Step[] = [];
  const byId = new Map<string, Step>();
  let pending: Step | null = null;
  for (const m of messages) {
    if (m.role === 'assistant' && m.toolCalls?.length) {
      for (const c of m.toolCalls) {
        const step: Step = { name: c.name, args: parseArgs(c.arguments), data: null };
        byId.set(c.id, step);
        steps.push(step);
      }
    } else if (m.role === 'tool') {
      const step = byId.get(m.toolCallId ?? '');
      if (step) step.data = parseResult(m.content);
    } else if (m.role === 'assistant') {
      const r = parseTextReply(m.content);
      pending = r.kind === 'tool' ? { name: r.name, args: parseArgs(r.arguments), data: null } : null;
      if (pending) steps.push(pending);
    } else if (m.role === 'user' && pending) {
      const res = readTextToolResult(m);
      if (res && res.name === pending.name) pending.data = parseResult(res.content);
      pending = null;
    }
  }
  return steps;
}

const callKey = (name: string, args: Record<string, unknown>) => `${name}\u0000${JSON.stringify(Object.entries(args).filter(([k]) => k !== 'reason').sort())}`;

interface Candidate {
  docId: string;
  nodeId: string;
  title: string;
  score: number;
  hidden: boolean;
}

/** The agent's next move for a conversation, or null when the conversation is not an agent's. */
export function playAgent(messages: ChatMessage[], nativeTools: ToolSpec[] | undefined, toolChoice: string | undefined, solve: TaskSolver): AgentReply | null {
  const payload = readAgentPayload(messages);
  if (!payload) return null;
  const native = Boolean(nativeTools?.length);
  const offered = new Set((native ? nativeTools! : readTextTools(messages)).map((t) => t.name));
  const steps = history(messages);
  const made = new Set(steps.map((s) => callKey(s.name, s.args)));
  const last = [...messages].reverse().find((m) => m.role === 'user');
  const mustAnswer = toolChoice === 'none' || Boolean(last?.content.startsWith(FINAL_ANSWER_MARKER)) || steps.length >= payload.max_tool_calls;

  const call = (name: string, args: Record<string, unknown>, reason: string): AgentReply => {
    if (native) return { text: '', toolCalls: [{ id: `call_${steps.length + 1}`, name, arguments: JSON.stringify({ ...args, reason }) }] };
    return { text: textToolRequest(name, args, reason) };
  };
  const can = (name: string, args: Record<string, unknown>) => offered.has(name) && !made.has(callKey(name, args));

  const read = readSections(steps);
  if (mustAnswer) return finalAnswer(payload, read, solve);
  if (read.length > 0 && covers(payload, read, solve)) return finalAnswer(payload, read, solve);

  // 1. What documents are there?
  const named = payload.doc_ids ?? [];
  const listed = steps.find((s) => s.name === 'list_documents' && s.data)?.data;
  if (!named.length && !listed && can('list_documents', {})) return call('list_documents', {}, 'See which documents there are before searching.');
  const docs = Array.isArray(listed?.documents) ? (listed.documents as unknown[]).filter(isObj) : [];
  const hasOutline = (docId: string) => docs.find((d) => d.doc_id === docId)?.has_outline !== false;

  // 2. Search the sections for the question.
  const searchArgs: Record<string, unknown> = { query: payload.question, ...(named.length === 1 ? { doc_id: named[0] } : {}) };
  const search = steps.find((s) => s.name === 'search_sections' && s.data)?.data;
  if (!search && can('search_sections', searchArgs)) return call('search_sections', searchArgs, 'Find the sections whose text matches the question.');
  const hits = (Array.isArray(search?.results) ? (search.results as unknown[]) : []).filter(isObj);

  // 3. The outline of the most promising document.
  const docId = named[0] ?? bestDocument(payload, docs, hits, solve);
  if (docId && hasOutline(docId) && can('get_document_structure', { doc_id: docId })) {
    return call('get_document_structure', { doc_id: docId }, named.length ? 'The question names this document: read its outline.' : 'Read the outline of the document that matches best.');
  }

  // 4. Read the best candidates.
  if (read.length < MAX_READS) {
    const ranked = candidates(payload, steps, hits, solve);
    const floor = (ranked[0]?.score ?? 0) * CANDIDATE_KEEP;
    for (const c of ranked.filter((x) => x.score >= floor)) {
      if (c.hidden && can('get_document_structure', { doc_id: c.docId, node_id: c.nodeId })) {
        return call('get_document_structure', { doc_id: c.docId, node_id: c.nodeId }, `"${c.title}" matches the question; see the sections under it.`);
      }
      if (can('get_section_content', { doc_id: c.docId, node_id: c.nodeId })) {
        return call('get_section_content', { doc_id: c.docId, node_id: c.nodeId }, `"${c.title}" is the best unread match for the question.`);
      }
    }
  }
  // 5. Nothing more worth reading.
  return finalAnswer(payload, read, solve);
}

function readSections(steps: Step[]): Passage[] {
  const out: Passage[] = [];
  const seen = new Set<string>();
  for (const s of steps) {
    if (s.name !== 'get_section_content' || !s.data) continue;
    const key = `${str(s.data.doc_id)}\u0000${str(s.data.node_id)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ doc_id: str(s.data.doc_id), node_id: str(s.data.node_id), title: str(s.data.title), text: str(s.data.text) });
  }
  return out;
}

function covers(payload: AgentPayload, read: Passage[], solve: TaskSolver): boolean {
  const res = solve({ task: 'sufficiency', question: payload.question, evidence: read }) as { sufficient?: boolean } | null;
  return res?.sufficient === true;
}

/** The document to read the outline of: title/description matches and search hits' documents, fused by reciprocal rank. */
function bestDocument(payload: AgentPayload, docs: Array<Record<string, unknown>>, hits: Array<Record<string, unknown>>, solve: TaskSolver): string {
  const score = new Map<string, number>();
  const add = (id: string, rank: number) => score.set(id, (score.get(id) ?? 0) + 1 / (RRF_K + rank));
  const documents = docs.filter((d) => typeof d.doc_id === 'string').map((d) => ({ doc_id: d.doc_id as string, title: str(d.title), ...(d.description ? { description: str(d.description) } : {}) }));
  if (documents.length) {
    const res = solve({ task: 'select-documents', question: payload.question, documents, max_docs: documents.length }) as { doc_ids?: string[] } | null;
    (res?.doc_ids ?? []).forEach((id, i) => add(id, i + 1));
  }
  [...new Set(hits.map((h) => str(h.doc_id)).filter(Boolean))].forEach((id, i) => add(id, i + 1));
  // Ties: the document of the best search hit, then list order (Map insertion order).
  let best = '';
  for (const [id, s] of score) if (!best || s > score.get(best)!) best = id;
  return best;
}

/** Outline matches and search hits, fused by reciprocal rank, best first. */
function candidates(payload: AgentPayload, steps: Step[], hits: Array<Record<string, unknown>>, solve: TaskSolver): Candidate[] {
  const score = new Map<string, Candidate>();
  const add = (docId: string, nodeId: string, title: string, rank: number, hidden: boolean) => {
    const key = `${docId}\u0000${nodeId}`;
    const cur = score.get(key) ?? { docId, nodeId, title, score: 0, hidden: false };
    cur.score += 1 / (RRF_K + rank);
    cur.hidden ||= hidden;
    score.set(key, cur);
  };
  hits.forEach((h, i) => {
    if (typeof h.doc_id === 'string' && typeof h.node_id === 'string') add(h.doc_id, h.node_id, str(h.title), i + 1, false);
  });
  // Each structure seen (a document's, or a section's sub-structure) ranks its own nodes.
  for (const s of steps) {
    if (s.name !== 'get_document_structure' || !s.data || !Array.isArray(s.data.structure)) continue;
    const docId = str(s.data.doc_id);
    const outline = s.data.structure as OutlineNode[];
    const hidden = new Map<string, { title: string; hidden: boolean }>();
    const walk = (ns: unknown[]) => {
      for (const n of ns.filter(isObj)) {
        hidden.set(str(n.node_id), { title: str(n.title), hidden: typeof n.hidden_sections === 'number' && n.hidden_sections > 0 });
        if (Array.isArray(n.nodes)) walk(n.nodes);
      }
    };
    walk(outline);
    const res = solve({ task: 'select-nodes', question: payload.question, doc_id: docId, doc_title: str(s.data.title), outline, max_nodes: 50 }) as { node_list?: string[] } | null;
    (res?.node_list ?? []).forEach((id, i) => {
      const info = hidden.get(id);
      if (info) add(docId, id, info.title, i + 1, info.hidden);
    });
  }
  return [...score.values()].sort((a, b) => b.score - a.score);
}

function finalAnswer(payload: AgentPayload, read: Passage[], solve: TaskSolver): AgentReply {
  const res = (solve({ task: 'answer', question: payload.question, context: read, ...(payload.choices ? { choices: payload.choices } : {}) }) ?? {}) as { answer?: string; choice?: number | null };
  // Cite what was read, the passages that cover the question best first (reading order on ties).
  const rewards = read.map((p) => (solve({ task: 'reward', question: payload.question, passage: p }) as { reward?: number } | null)?.reward ?? 0);
  const order = read.map((_, i) => i).sort((a, b) => rewards[b] - rewards[a] || a - b);
  const citations: Citation[] = order.filter((i) => rewards[i] > 0).map((i) => ({ doc_id: read[i].doc_id, node_id: read[i].node_id }));
  return { text: JSON.stringify({ answer: res.answer ?? 'Not found in the provided context.', choice: res.choice ?? null, citations }) };
}
