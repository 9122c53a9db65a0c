// The strategy protocol `treebench.strategy/1` (DESIGN.md, "Bring your own strategy"): one
// request per question and one response, the same JSON for every door — an in-process module
// (`module:`), a worker speaking JSON lines (`command:`) and an HTTP service (`url:`).
//
// Request:  { protocol, questionId, question, choices?, docIds?, params, corpusPath,
//             model: { baseURL, apiKey, model, embeddingModel }, budget, repeat, seed }
// Response: { answer, evidence?: [ {docId, nodeId} | {docId, page} | {docId} ] (best first),
//             choice?, trace?: [ {action, nodeId?, docId?, reason?, score?, ...} ], error? }
//
// A response that breaks the protocol (not an object, a field of the wrong type) is that
// question's error record, naming the field. Evidence naming a document or node the corpus does
// not have is data, not a breach: it is dropped and counted as a parse failure, like a built-in's
// reply naming an unknown node.
import type { Budget, Corpus, DocTree, EvidenceItem, StrategyResult, TraceAction, TraceStep, TreeNode } from '../types.ts';
import { indexDoc, ownText } from '../trees/tree.ts';

export const PROTOCOL = 'treebench.strategy/1';

/** What a strategy is asked, for one question (and one repeat). */
export interface StrategyRequest {
  protocol: typeof PROTOCOL;
  questionId: string;
  question: string;
  /** Multiple-choice options, when the question has them (answer with `choice`, 0-based). */
  choices?: string[];
  /** Documents the question names, when the dataset says so. */
  docIds?: string[];
  /** The strategy entry's `params`, as written in the config. */
  params: Record<string, unknown>;
  /** The run's corpus as one JSON file: `{ documents: [ { docId, title, structure: [PageIndex nodes] } ] }`. */
  corpusPath: string;
  /**
   * The run's model gateway (OpenAI-compatible, on 127.0.0.1): every call made with this key is
   * metered and budgeted as this question's. The key is valid while the question is being answered.
   */
  model: { baseURL: string; apiKey: string; model: string; embeddingModel: string };
  /** The question's budget (calls, tokens, dollars, timeMs, ...); the gateway enforces it. */
  budget: Budget;
  /** Repeat index (0 unless `--repeats`), and a seed stable per (run seed, strategy, question, repeat). */
  repeat: number;
  seed: number;
}

/** One evidence item of a response: a node, a page (1-based) or a whole document. */
export type EvidenceRef = { docId: string; nodeId: string } | { docId: string; page: number } | { docId: string };

/** A trace step as a strategy reports it; `step` is numbered by treebench when absent. */
export interface TraceStepInput {
  action: string;
  docId?: string;
  nodeId?: string;
  reason?: string;
  score?: number;
  source?: 'llm' | 'value' | 'prior' | 'rule' | 'metadata' | 'fused';
  depth?: number;
  tool?: string;
  result?: string;
}

/** What a strategy answers. */
export interface StrategyResponse {
  answer: string;
  evidence?: EvidenceRef[];
  /** Index into `choices` (0-based) of a multiple-choice answer. */
  choice?: number | null;
  trace?: TraceStepInput[];
  /** Set when the strategy could not answer: the record becomes an error record with this message. */
  error?: string | null;
}

/** A response that broke the protocol; `field` is the path of the offending field. */
export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(field ? `${field}: ${message}` : message);
    this.name = 'ProtocolError';
  }
}

/** The strategy's own `error` field: the record is an error record with this message. */
export class StrategyReportedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StrategyError';
  }
}

const TRACE_ACTIONS = new Set<string>(['select', 'expand', 'skip', 'open', 'score', 'sufficiency', 'answer', 'doc-select', 'fallback', 'tool']);
const SOURCES = new Set(['llm', 'value', 'prior', 'rule', 'metadata', 'fused']);
const MAX_EVIDENCE = 1000;
const MAX_TRACE = 5000;
const MAX_TEXT = 4000;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/**
 * Checks a response against the protocol and turns it into the result a built-in returns:
 * evidence resolved against the corpus (text, title, pages), ranked in order, trace numbered.
 * Throws ProtocolError naming the field, or StrategyReportedError when the response says `error`.
 */
export function resultFromResponse(reply: unknown, corpus: Corpus, request: Pick<StrategyRequest, 'choices'>): StrategyResult {
  if (!isObj(reply)) throw new ProtocolError(`a response is a JSON object, got ${typeName(reply)}`);
  if (reply.error !== undefined && reply.error !== null) {
    if (typeof reply.error !== 'string') throw new ProtocolError(`expected a string, got ${typeName(reply.error)}`, 'error');
    if (reply.error.trim()) throw new StrategyReportedError(reply.error.slice(0, MAX_TEXT));
  }
  if (reply.answer === undefined) throw new ProtocolError('missing: a response needs `answer`, a string (with `error` to report a failure)', 'answer');
  if (typeof reply.answer !== 'string') throw new ProtocolError(`expected a string, got ${typeName(reply.answer)}`, 'answer');
  const result: StrategyResult = { answer: reply.answer, evidence: [], trace: [] };

  if (reply.choice !== undefined && reply.choice !== null) {
    const n = request.choices?.length ?? 0;
    if (typeof reply.choice !== 'number' || !Number.isInteger(reply.choice)) throw new ProtocolError(`expected an integer index into choices, got ${JSON.stringify(reply.choice)}`, 'choice');
    if (reply.choice < 0 || reply.choice >= n) throw new ProtocolError(n ? `${reply.choice} is not an index into the ${n} choices (0-based)` : 'the question has no choices', 'choice');
    result.choice = reply.choice;
  }

  let dropped = 0;
  if (reply.evidence !== undefined && reply.evidence !== null) {
    if (!Array.isArray(reply.evidence)) throw new ProtocolError(`expected a list of {docId, nodeId} | {docId, page} | {docId}, got ${typeName(reply.evidence)}`, 'evidence');
    if (reply.evidence.length > MAX_EVIDENCE) throw new ProtocolError(`${reply.evidence.length} items; at most ${MAX_EVIDENCE}`, 'evidence');
    const docs = new Map(corpus.docs.map((d) => [d.docId, d]));
    reply.evidence.forEach((item, i) => {
      const at = `evidence[${i}]`;
      const resolved = resolveEvidence(item, at, docs);
      if (!resolved) {
        dropped++;
        const it = item as Record<string, unknown>;
        const kind = 'nodeId' in it ? 'node' : 'page' in it ? 'page' : 'document';
        const named = `${String(it.docId)}${kind === 'node' ? `/${String(it.nodeId)}` : kind === 'page' ? ` page ${String(it.page)}` : ''}`.slice(0, 160);
        const why = docs.has(String(it.docId)) ? '' : `; no document ${JSON.stringify(String(it.docId).slice(0, 80))}`;
        result.trace.push({ step: 0, action: 'skip', source: 'rule', docId: String(it.docId), reason: `${at} names no ${kind} of the corpus (${named}${why}): dropped` });
        return;
      }
      result.evidence.push({ ...resolved, rank: result.evidence.length + 1 });
    });
  }

  if (reply.trace !== undefined && reply.trace !== null) {
    if (!Array.isArray(reply.trace)) throw new ProtocolError(`expected a list of steps, got ${typeName(reply.trace)}`, 'trace');
    if (reply.trace.length > MAX_TRACE) throw new ProtocolError(`${reply.trace.length} steps; at most ${MAX_TRACE}`, 'trace');
    reply.trace.forEach((s, i) => result.trace.push(traceStep(s, `trace[${i}]`)));
  }
  result.trace.forEach((s, i) => (s.step = i + 1));
  if (dropped) result.parseFailures = dropped;
  return result;
}

function resolveEvidence(item: unknown, at: string, docs: Map<string, DocTree>): Omit<EvidenceItem, 'rank'> | null {
  if (!isObj(item)) throw new ProtocolError(`expected {docId, nodeId} | {docId, page} | {docId}, got ${typeName(item)}`, at);
  if (typeof item.docId !== 'string' || !item.docId) throw new ProtocolError(`expected a document id (string), got ${typeName(item.docId)}`, `${at}.docId`);
  const doc = docs.get(item.docId);
  if (item.nodeId !== undefined) {
    if (typeof item.nodeId !== 'string' || !item.nodeId) throw new ProtocolError(`expected a node id (string), got ${typeName(item.nodeId)}`, `${at}.nodeId`);
    const node = doc ? indexDoc(doc).byId.get(item.nodeId)?.node : undefined;
    if (!doc || !node) return null;
    return { docId: doc.docId, nodeId: node.id, title: node.title, ...(node.pages ? { pages: node.pages } : {}), text: ownText(doc, node) };
  }
  if (item.page !== undefined) {
    if (typeof item.page !== 'number' || !Number.isInteger(item.page) || item.page < 1) throw new ProtocolError(`expected a 1-based page number, got ${JSON.stringify(item.page)}`, `${at}.page`);
    if (!doc || !doc.pages || item.page > doc.pages.length) return null;
    // A page is not a node: node-level metrics count it as a miss, page and document levels score it.
    return { docId: doc.docId, nodeId: '', pages: [item.page, item.page], text: doc.pages[item.page - 1] ?? '' };
  }
  if (!doc) return null;
  return { docId: doc.docId, nodeId: '', title: doc.title, text: '' };
}

function traceStep(s: unknown, at: string): TraceStep {
  if (!isObj(s)) throw new ProtocolError(`expected a step object, got ${typeName(s)}`, at);
  if (typeof s.action !== 'string' || !s.action) throw new ProtocolError(`expected a string, got ${typeName(s.action)}`, `${at}.action`);
  const str = (k: string) => {
    const v = s[k];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw new ProtocolError(`expected a string, got ${typeName(v)}`, `${at}.${k}`);
    return v.slice(0, MAX_TEXT);
  };
  const num = (k: string) => {
    const v = s[k];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new ProtocolError(`expected a number, got ${JSON.stringify(v)}`, `${at}.${k}`);
    return v;
  };
  const source = str('source');
  if (source !== undefined && !SOURCES.has(source)) throw new ProtocolError(`expected one of ${[...SOURCES].join(', ')}, got "${source}"`, `${at}.source`);
  const step: TraceStep = {
    step: 0,
    // Actions outside treebench's own set are kept as written (a plugin's own vocabulary).
    action: (TRACE_ACTIONS.has(s.action) ? s.action : s.action.slice(0, 40)) as TraceAction,
    source: (source as TraceStep['source'] | undefined) ?? 'llm',
  };
  const docId = str('docId');
  const nodeId = str('nodeId');
  const reason = str('reason');
  const tool = str('tool');
  const resultText = str('result');
  const score = num('score');
  const depth = num('depth');
  if (docId !== undefined) step.docId = docId;
  if (nodeId !== undefined) step.nodeId = nodeId;
  if (reason !== undefined) step.reason = reason;
  if (score !== undefined) step.score = score;
  if (depth !== undefined) step.depth = Math.max(0, Math.floor(depth));
  if (tool !== undefined) step.tool = tool;
  if (resultText !== undefined) step.result = resultText;
  return step;
}

// ---------------------------------------------------------------------------------------------
// The corpus file

/** A node in PageIndex's tree format, as the corpus file holds it. */
export interface PageIndexNode {
  node_id: string;
  title: string;
  summary?: string;
  /** 1-based, inclusive. */
  start_index?: number;
  end_index?: number;
  /** The node's own text (its children's text excluded). */
  text?: string;
  nodes?: PageIndexNode[];
}

/** The corpus file a run writes for out-of-process strategies (`corpusPath`). */
export interface CorpusFile {
  protocol: typeof PROTOCOL;
  documents: Array<{ docId: string; title: string; description?: string; structure: PageIndexNode[]; pages?: string[] }>;
}

/** The corpus in PageIndex's tree format, node ids as the run's gold uses them; page texts for paged documents. */
export function corpusFile(corpus: Corpus): CorpusFile {
  const node = (doc: DocTree, n: TreeNode): PageIndexNode => {
    const text = n.text?.trim() ? n.text : n.pages && doc.pages ? ownText(doc, n) : undefined;
    return {
      node_id: n.id,
      title: n.title,
      ...(n.summary ? { summary: n.summary } : {}),
      ...(n.pages ? { start_index: n.pages[0], end_index: n.pages[1] } : {}),
      ...(text ? { text } : {}),
      ...(n.children.length ? { nodes: n.children.map((c) => node(doc, c)) } : {}),
    };
  };
  return {
    protocol: PROTOCOL,
    documents: corpus.docs.map((d) => ({
      docId: d.docId,
      title: d.title,
      ...(d.description ? { description: d.description } : {}),
      structure: d.nodes.map((n) => node(d, n)),
      ...(d.pages ? { pages: d.pages } : {}),
    })),
  };
}
