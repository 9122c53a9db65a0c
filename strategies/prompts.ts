// Prompt templates. Written for real models first: a clear instruction, the JSON shape of the
// answer, then the inputs as one JSON payload in a ```json fence. The payload names its task, and
// the offline reasoner (harness/models/providers/offline.ts) reads only that payload — never gold data.
// The payload shapes and the fence are harness/protocol/tasks.ts's (the offline reasoner reads them too).
import type { ChatMessage } from '../harness/types.ts';
import type { PromptInfo } from '../harness/strategy/strategy.ts';
import { taskMessage, type TaskName, type PromptPayload } from '../harness/protocol/tasks.ts';

export type { ChildView, OutlineNode, Passage, PromptPayload, TaskAnswers, TaskName } from '../harness/protocol/tasks.ts';
export { extractPayload } from '../harness/protocol/tasks.ts';

/** The strategies' tasks; `summarize` is ingestion's (harness/run/modelSummaries.ts writes its wording). */
export type StrategyTask = Exclude<TaskName, 'summarize'>;
export type StrategyPayload = Exclude<PromptPayload, { task: 'summarize' }>;

const INSTRUCTIONS: Record<StrategyTask, string> = {
  'select-documents': [
    'You route a question to the documents most likely to answer it.',
    'Read each document title and description. Choose at most `max_docs` documents, best first.',
    'Reply with JSON only: {"thinking": "<one or two sentences>", "doc_ids": ["<doc_id>", ...]}',
  ].join('\n'),
  'select-nodes': [
    'You are given a question and the table of contents of one document (node ids, titles, summaries, pages; no body text).',
    'Find the nodes whose text is most likely to contain the answer. Reason about where such information is normally written,',
    'not only about shared words: a question about "refunds" may be answered under "Returns and exchanges".',
    'Return at most `max_nodes` node ids, most likely first. Prefer the most specific node. Return an empty list if nothing fits.',
    'Reply with JSON only: {"thinking": "<your reasoning>", "node_list": ["<node_id>", ...]}',
  ].join('\n'),
  'choose-children': [
    'You navigate a document outline one level at a time to find where a question is answered.',
    'You see the children of the current node (title, summary, pages, whether they have sub-sections, and a value_score',
    'from keyword search, which is only a weak hint: a relevant section can score 0).',
    'Choose at most `max_picks` children worth reading or descending into, best first.',
    'Reply ["NONE"] if no child can contain the answer. If `allow_self` is true and the current node itself is the answer,',
    'reply ["__self__"]. When `missing_aspects` is given, prefer children that cover those aspects.',
    'Reply with JSON only: {"thinking": "<your reasoning>", "choices": ["<node_id>" | "NONE" | "__self__", ...]}',
  ].join('\n'),
  sufficiency: [
    'Decide whether the evidence gathered so far is enough to answer the question completely and correctly.',
    'List the aspects of the question the evidence does not cover yet, and node ids from `unexplored` worth reading next.',
    'Reply with JSON only: {"sufficient": true|false, "missingAspects": ["..."], "suggestedBranches": ["<node_id>", ...]}',
  ].join('\n'),
  'estimate-values': [
    'Estimate, for each child section, the probability (0 to 1) that its text or its sub-sections answer the question.',
    'Reply with JSON only: {"thinking": "<short>", "values": {"<node_id>": <0..1>, ...}}',
  ].join('\n'),
  reward: [
    'Rate how well this passage answers the question: 1 = answers it fully, 0 = irrelevant.',
    'Reply with JSON only: {"reward": <0..1>, "reason": "<short>"}',
  ].join('\n'),
  answer: [
    'Answer the question using only the context passages. Be concise: give the fact, number or short phrase asked for,',
    'with its unit. If the context does not contain the answer, say "Not found in the provided context."',
    'If `choices` are given, also return the 0-based index of the right choice.',
    'Reply with JSON only: {"answer": "<answer>", "choice": <index or null>}',
  ].join('\n'),
};

/**
 * The `{{variables}}` a template of each task's prompt may use: the payload's fields, plus
 * `{{default}}`, the built-in instruction itself (so a template can add to it rather than
 * replace it).
 */
export const PROMPT_VARIABLES: Record<StrategyTask, readonly string[]> = {
  'select-documents': ['question', 'documents', 'max_docs'],
  'select-nodes': ['question', 'doc_id', 'doc_title', 'outline', 'max_nodes', 'page'],
  'choose-children': ['question', 'doc_id', 'doc_title', 'parent', 'children', 'max_picks', 'allow_self', 'missing_aspects'],
  sufficiency: ['question', 'evidence', 'unexplored'],
  'estimate-values': ['question', 'doc_id', 'doc_title', 'parent', 'children'],
  reward: ['question', 'passage'],
  answer: ['question', 'choices', 'context'],
};

const PROMPT_DESCRIPTIONS: Record<StrategyTask, string> = {
  'select-documents': 'choose the documents to search (docSelect: description)',
  'select-nodes': 'choose nodes from a whole outline',
  'choose-children': 'choose which children of a node to descend into',
  sufficiency: 'decide whether the evidence so far answers the question',
  'estimate-values': 'estimate how likely each child holds the answer',
  reward: 'score how well one passage answers the question',
  answer: 'answer from the evidence',
};

/** The prompts a strategy sends, for its `prompts` list (configs may replace them: `prompts: { <task>: ./file.md }`). */
export function promptInfo(tasks: readonly StrategyTask[]): PromptInfo[] {
  return tasks.map((name) => ({ name, description: PROMPT_DESCRIPTIONS[name], variables: [...PROMPT_VARIABLES[name], 'default'] }));
}

/**
 * A template with its `{{variables}}` filled from `fields`: text as is, numbers and flags as
 * written, lists and objects as JSON; `{{default}}` is the built-in text the template replaces.
 */
export function fillTemplate(template: string, fields: Readonly<Record<string, unknown>>, defaultText: string): string {
  return template.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_m, name: string) => {
    if (name === 'default') return defaultText;
    const v = fields[name];
    if (v === undefined || v === null) return '';
    return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v, null, 1);
  });
}

/** A task template filled from its payload; `{{default}}` is the task's built-in instruction. */
export function renderTemplate(template: string, payload: StrategyPayload): string {
  return fillTemplate(template, payload as unknown as Record<string, unknown>, INSTRUCTIONS[payload.task]);
}

/**
 * Builds the two messages of a task prompt: the instruction (or the config's template for this
 * task, filled in) as the system message, then the task and its inputs as one JSON payload —
 * the part the offline reasoner reads, which a template never replaces.
 */
export function buildPrompt(payload: StrategyPayload, templates?: Readonly<Record<string, string>>): ChatMessage[] {
  const template = templates?.[payload.task];
  return [{ role: 'system', content: template ? renderTemplate(template, payload) : INSTRUCTIONS[payload.task] }, taskMessage(payload)];
}
