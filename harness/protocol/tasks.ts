// The task protocol between strategies and models: every task prompt (strategies/prompts.ts
// writes the wording) carries its inputs as one JSON payload that names its task, in a ```json
// fence of the user message. The offline reasoner (harness/models/providers/offline.ts) reads only that
// payload, never gold data. The payload shapes, the reply each task asks for, and the fence's
// writing and reading live here, below both the strategies that write prompts and the providers
// that read them.
import type { ChatMessage } from '../types.ts';

/** Outline node as shown to a model: no text, only what a table of contents carries. */
export interface OutlineNode {
  node_id: string;
  title: string;
  summary?: string;
  pages?: [number, number];
  nodes?: OutlineNode[];
}

export interface ChildView {
  node_id: string;
  title: string;
  summary?: string;
  pages?: [number, number];
  has_children: boolean;
  /** Value-search score in [0, 1], a weak prior the model may ignore. */
  value_score?: number;
}

export interface Passage {
  doc_id: string;
  node_id: string;
  title: string;
  pages?: [number, number];
  text: string;
}

/** Every task's payload. `task` is the discriminator the offline reasoner dispatches on. */
export type PromptPayload =
  | { task: 'select-documents'; question: string; documents: Array<{ doc_id: string; title: string; description?: string }>; max_docs: number }
  | { task: 'select-nodes'; question: string; doc_id: string; doc_title: string; outline: OutlineNode[]; max_nodes: number; page?: { index: number; count: number } }
  | { task: 'choose-children'; question: string; doc_id: string; doc_title: string; parent: { node_id: string; title: string } | null; children: ChildView[]; max_picks: number; allow_self: boolean; missing_aspects?: string[] }
  | { task: 'sufficiency'; question: string; evidence: Passage[]; unexplored?: Array<{ doc_id: string; node_id: string; title: string }> }
  | { task: 'estimate-values'; question: string; doc_id: string; doc_title: string; parent: { node_id: string; title: string } | null; children: ChildView[] }
  | { task: 'reward'; question: string; passage: Passage }
  | { task: 'answer'; question: string; choices?: string[]; context: Passage[] }
  | { task: 'summarize'; doc_title: string; section: { node_id: string; title: string; pages?: [number, number] }; text: string; max_tokens: number };

export type TaskName = PromptPayload['task'];

/** The JSON each task asks the model to return. */
export interface TaskAnswers {
  'select-documents': { thinking?: string; doc_ids: string[] };
  'select-nodes': { thinking?: string; node_list: string[] };
  'choose-children': { thinking?: string; choices: string[] };
  sufficiency: { sufficient: boolean; missingAspects: string[]; suggestedBranches: string[] };
  'estimate-values': { thinking?: string; values: Record<string, number> };
  reward: { reward: number; reason?: string };
  answer: { answer: string; choice?: number | null };
  summarize: { summary: string };
}

/** The user message of a task prompt (the agent's question too): the task's name and its payload in a ```json fence. */
export function taskMessage(payload: { task: string }): ChatMessage {
  return { role: 'user', content: `Task: ${payload.task}\n\nInput:\n\`\`\`json\n${JSON.stringify(payload, null, 1)}\n\`\`\`` };
}

/**
 * Reads the payload back out of a prompt (the offline reasoner's only input): the last ```json
 * fence of the latest user message that has one (a retry's follow-up message carries none).
 * Returns null when the messages carry no treebench payload.
 */
export function extractPayload(messages: ChatMessage[]): PromptPayload | null {
  for (const msg of [...messages].reverse()) {
    if (msg.role !== 'user') continue;
    const fences = [...msg.content.matchAll(/```json\s*\n([\s\S]*?)\n```/g)];
    if (!fences.length) continue;
    try {
      const parsed = JSON.parse(fences[fences.length - 1][1]) as PromptPayload;
      return parsed && typeof parsed === 'object' && typeof parsed.task === 'string' ? parsed : null;
    } catch {
      return null;
    }
  }
  return null;
}
