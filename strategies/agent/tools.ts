// The agent's four tools over the corpus. Each returns a result envelope: `{ ok: true, data }`
// shown to the model as JSON, or `{ ok: false, error }` shown as `Error executing <tool>:
// <reason>`. Errors are data: an unknown tool, arguments that are not JSON or do not fit the
// schema, an unknown document or node id all come back to the model, which may try something
// else. Only a spent budget (BudgetExhaustedError) escapes: the search is over then.
import { z } from 'zod';
import type { DocTree, EvidenceItem, ToolSpec, TreeNode } from '../../harness/types.ts';
import { truncateToTokens } from '../../harness/models/tokenizer.ts';
import { isBudgetExhausted } from '../../harness/run/budget.ts';
import type { StrategyContext } from '../types.ts';
import type { OutlineNode } from '../prompts.ts';
import { assessOutline } from '../../harness/trees/outlineQuality.ts';
import { nodeScores } from '../shared/scores.ts';
import { clip, indexDoc, nodeText, toOutline } from '../shared/tree.ts';

export interface ToolLimits {
  /** Size of a structure (or document list) shown at once; larger ones are cut with a note. */
  maxStructureTokens: number;
  /** Size of one section's text; longer text is cut with a note. */
  maxSectionTokens: number;
  /** Chunk hits searched per search_sections call. */
  searchTopK: number;
  /** Sections a search returns. */
  maxSearchResults: number;
  /** Summary length in structures and lists. */
  summaryChars: number;
}

export type ToolEnvelope = { ok: true; data: unknown } | { ok: false; error: string };

/** What one executed tool call produced. */
export interface ToolOutcome {
  envelope: ToolEnvelope;
  /** The content the model sees. */
  content: string;
  /** Arguments as parsed (for the trace), when they parsed. */
  args?: Record<string, unknown>;
  reason?: string;
  /** The section read, for get_section_content. */
  opened?: EvidenceItem;
  docId?: string;
  nodeId?: string;
}

const reason = z.string().optional().describe('Why you call this tool, in one sentence.');
const docId = z.string().min(1).describe('A doc_id from list_documents.');

interface ToolDef<A extends Record<string, unknown>> {
  name: string;
  description: string;
  args: z.ZodType<A>;
  run(args: A, env: ToolEnv): Promise<ToolEnvelope & { opened?: EvidenceItem; docId?: string; nodeId?: string }>;
}

interface ToolEnv {
  ctx: StrategyContext;
  limits: ToolLimits;
}

class ToolError extends Error {}

function docOf(env: ToolEnv, id: string): DocTree {
  if (!env.ctx.corpus.docs.some((d) => d.docId === id)) {
    throw new ToolError(`unknown doc_id "${id}" (doc ids come from list_documents)`);
  }
  return env.ctx.doc(id);
}

function nodeOf(doc: DocTree, id: string): TreeNode {
  const info = indexDoc(doc).byId.get(id);
  if (!info) throw new ToolError(`unknown node_id "${id}" in document "${doc.docId}" (node ids come from get_document_structure or search_sections)`);
  return info.node;
}

/** A real outline: more than one node, and titles that are not page numbers or numbering. */
// A document's outline does not change during a run: assessed once per document, not per call.
const outlineOf = new WeakMap<DocTree, boolean>();
const hasOutline = (doc: DocTree): boolean => {
  let has = outlineOf.get(doc);
  if (has === undefined) outlineOf.set(doc, (has = indexDoc(doc).order.length > 1 && !assessOutline(doc).poor));
  return has;
};

const json = (x: unknown) => JSON.stringify(x);

/**
 * The outline cut to `maxTokens`: the deepest level that fits is kept, and nodes whose children
 * were cut say how many sections are below them. Returns the shown outline and a note when cut.
 */
export function fitOutline(full: OutlineNode[], maxTokens: number, count: (s: string) => number): { outline: OutlineNode[]; note?: string } {
  if (count(json(full)) <= maxTokens) return { outline: full };
  const total = (ns: OutlineNode[] | undefined): number => (ns ?? []).reduce((n, x) => n + 1 + total(x.nodes), 0);
  const cut = (ns: OutlineNode[], depth: number): OutlineNode[] =>
    ns.map((n) => {
      const { nodes, ...head } = n;
      if (!nodes?.length) return head;
      if (depth <= 1) return { ...head, hidden_sections: total(nodes) };
      return { ...head, nodes: cut(nodes, depth - 1) };
    });
  const depthOf = (ns: OutlineNode[] | undefined): number => (ns ?? []).reduce((m, x) => Math.max(m, 1 + depthOf(x.nodes)), 0);
  const note = (shown: number) =>
    `Truncated to fit ${maxTokens} tokens: ${shown} of ${total(full)} sections shown. Call get_document_structure with a node_id to see the sections under it.`;
  for (let depth = depthOf(full) - 1; depth >= 1; depth--) {
    const outline = cut(full, depth);
    if (count(json(outline)) <= maxTokens) return { outline, note: note(total(outline)) };
  }
  // Even the top level is too big: as many top-level entries as fit.
  const top = cut(full, 1);
  const out: OutlineNode[] = [];
  for (const n of top) {
    if (out.length > 0 && count(json([...out, n])) > maxTokens) break;
    out.push(n);
  }
  return { outline: out, note: `${note(out.length)} ${top.length - out.length} top-level sections are not shown; search_sections finds sections anywhere.` };
}

const TOOLS: ToolDef<any>[] = [
  {
    name: 'list_documents',
    description: 'List the documents: doc_id, title, description, number of sections, and whether the document has a real outline (has_outline false: its sections are pages or numbered parts, so search_sections works better than the structure).',
    args: z.strictObject({ reason }),
    async run(_a, env) {
      const docs = env.ctx.corpus.docs.map((d) => ({
        doc_id: d.docId,
        title: d.title,
        ...(d.description ? { description: clip(d.description, env.limits.summaryChars) } : {}),
        sections: indexDoc(d).order.length,
        ...(d.pages ? { pages: d.pages.length } : {}),
        has_outline: hasOutline(d),
      }));
      const shown: typeof docs = [];
      for (const d of docs) {
        if (shown.length > 0 && env.ctx.countTokens(json([...shown, d])) > env.limits.maxStructureTokens) break;
        shown.push(d);
      }
      const data: Record<string, unknown> = { documents: shown };
      if (shown.length < docs.length) data.note = `${docs.length - shown.length} of ${docs.length} documents not shown (too many to list); search_sections without doc_id searches them all.`;
      return { ok: true, data };
    },
  },
  {
    name: 'get_document_structure',
    description: "A document's outline: node ids, titles, summaries and pages of its sections, no text. With node_id, only the sections under that node. Large outlines are cut with a note saying how to see more.",
    args: z.strictObject({ doc_id: docId, node_id: z.string().min(1).optional().describe('A node_id to see only the sections under it.'), reason }),
    async run(a: { doc_id: string; node_id?: string }, env) {
      const doc = docOf(env, a.doc_id);
      const opts = { summaryChars: env.limits.summaryChars };
      let full: OutlineNode[];
      const data: Record<string, unknown> = { doc_id: doc.docId, title: doc.title };
      if (a.node_id) {
        const node = nodeOf(doc, a.node_id);
        env.ctx.budget.visit(doc.docId, node.id);
        data.node_id = node.id;
        data.node_title = node.title;
        full = toOutline(node.children, opts);
        if (!full.length) data.note = 'This section has no sub-sections: read it with get_section_content.';
      } else full = toOutline(doc.nodes, opts);
      const fit = fitOutline(full, env.limits.maxStructureTokens, (s) => env.ctx.countTokens(s));
      data.structure = fit.outline;
      if (fit.note) data.note = fit.note;
      return { ok: true, data, docId: doc.docId, ...(a.node_id ? { nodeId: a.node_id } : {}) };
    },
  },
  {
    name: 'get_section_content',
    description: "The text of one section (its own text, not its sub-sections', which are listed), cut to a maximum length with a note. What you read here is your evidence.",
    args: z.strictObject({ doc_id: docId, node_id: z.string().min(1).describe('A node_id from get_document_structure or search_sections.'), reason }),
    async run(a: { doc_id: string; node_id: string }, env) {
      const doc = docOf(env, a.doc_id);
      const node = nodeOf(doc, a.node_id);
      const full = nodeText(doc, node);
      const fullTokens = env.ctx.countTokens(full);
      const text = fullTokens > env.limits.maxSectionTokens ? truncateToTokens(full, env.limits.maxSectionTokens) : full;
      env.ctx.budget.visit(doc.docId, node.id);
      env.ctx.budget.open(doc.docId, node.id, env.ctx.countTokens(text));
      const data: Record<string, unknown> = { doc_id: doc.docId, node_id: node.id, title: node.title, ...(node.pages ? { pages: node.pages } : {}), text };
      if (text.length < full.length) data.note = `Text cut to ${env.limits.maxSectionTokens} of ${fullTokens} tokens.`;
      if (node.children.length) data.sub_sections = node.children.map((c) => ({ node_id: c.id, title: c.title }));
      const opened: EvidenceItem = { docId: doc.docId, nodeId: node.id, title: node.title, text, rank: 0, ...(node.pages ? { pages: node.pages } : {}) };
      return { ok: true, data, opened, docId: doc.docId, nodeId: node.id };
    },
  },
  {
    name: 'search_sections',
    description: 'Search the text of all sections (or of one document) for a query; returns the best-matching sections with scores (higher is better), not their text.',
    args: z.strictObject({ query: z.string().trim().min(1).describe('What to look for, in a few words.'), doc_id: docId.optional().describe('Search only this document.'), reason }),
    async run(a: { query: string; doc_id?: string }, env) {
      const doc = a.doc_id ? docOf(env, a.doc_id) : null;
      const hits = await env.ctx.valueSearch(a.query, { topK: env.limits.searchTopK, ...(doc ? { docIds: [doc.docId] } : {}) });
      const results = [];
      for (const s of nodeScores(hits)) {
        const d = env.ctx.corpus.docs.find((x) => x.docId === s.docId);
        const info = d && s.nodeId ? indexDoc(d).byId.get(s.nodeId) : undefined;
        if (!d || !info) continue; // a stale index entry: not shown
        results.push({
          doc_id: s.docId,
          node_id: info.node.id,
          title: info.node.title,
          path: info.path.join(' > '),
          ...(info.node.pages ? { pages: info.node.pages } : {}),
          score: Math.round(s.score * 1000) / 1000,
        });
        if (results.length >= env.limits.maxSearchResults) break;
      }
      return { ok: true, data: { query: a.query, results }, ...(doc ? { docId: doc.docId } : {}) };
    },
  },
];

/** The tools as offered to a model. */
export function toolSpecs(): ToolSpec[] {
  return TOOLS.map((t) => {
    const { $schema: _drop, ...parameters } = z.toJSONSchema(t.args) as Record<string, unknown>;
    return { name: t.name, description: t.description, parameters };
  });
}

export const TOOL_NAMES: readonly string[] = TOOLS.map((t) => t.name);

const errorContent = (tool: string, reason: string) => `Error executing ${tool}: ${reason}`;

/** An envelope as the model sees it. */
export function renderEnvelope(tool: string, envelope: ToolEnvelope): string {
  return envelope.ok ? json(envelope.data) : errorContent(tool, envelope.error);
}

/** A tool call that is not run (e.g. past the tool-call limit): an error the model sees. */
export function refusedCall(tool: string, why: string): ToolOutcome {
  const envelope: ToolEnvelope = { ok: false, error: why };
  return { envelope, content: renderEnvelope(tool, envelope) };
}

/**
 * Runs one tool call from its name and raw JSON arguments. Never throws, except
 * BudgetExhaustedError (a spent budget ends the search) — everything else is an error envelope.
 */
export async function executeTool(name: string, rawArgs: string, ctx: StrategyContext, limits: ToolLimits): Promise<ToolOutcome> {
  const fail = (error: string, extra: Partial<ToolOutcome> = {}): ToolOutcome => ({ envelope: { ok: false, error }, content: errorContent(name, error), ...extra });
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) return fail(`unknown tool "${name}"; the tools are ${TOOL_NAMES.join(', ')}`);
  let raw: unknown;
  try {
    raw = rawArgs.trim() ? JSON.parse(rawArgs) : {};
  } catch (err) {
    return fail(`the arguments are not valid JSON (${(err as Error).message})`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail('the arguments must be a JSON object');
  const args = raw as Record<string, unknown>;
  const reasonText = typeof args.reason === 'string' ? args.reason : undefined;
  const parsed = tool.args.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'arguments'}: ${i.message}`).join('; ');
    return fail(`bad arguments: ${issues}`, { args, reason: reasonText });
  }
  try {
    const res = await tool.run(parsed.data, { ctx, limits });
    const { opened, docId: d, nodeId: n, ...envelope } = res;
    return {
      envelope,
      content: renderEnvelope(name, envelope),
      args,
      ...(reasonText ? { reason: reasonText } : {}),
      ...(opened ? { opened } : {}),
      ...(d ? { docId: d } : {}),
      ...(n ? { nodeId: n } : {}),
    };
  } catch (err) {
    // A spent budget ends the search; any other failure (an unknown id, an embedder that is
    // down) is what the tool returns.
    if (isBudgetExhausted(err)) throw err;
    return fail(err instanceof ToolError ? err.message : `${(err as Error).message ?? String(err)}`, { args, reason: reasonText });
  }
}
