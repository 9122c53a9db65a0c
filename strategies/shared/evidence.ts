// Opening nodes into evidence, and the trace that records each step.
import type { DocTree, EvidenceItem, TreeNode, TraceStep } from '../../harness/types.ts';
import type { StrategyContext } from '../types.ts';
import { indexDoc, nodeText } from './tree.ts';

/** Accumulates trace steps with consecutive step numbers. */
export class Trace {
  readonly steps: TraceStep[] = [];
  add(step: Omit<TraceStep, 'step'>): TraceStep {
    const full = { step: this.steps.length + 1, ...step };
    this.steps.push(full);
    return full;
  }
}

/** Key for deduplicating (document, node) pairs. */
export const nodeKey = (docId: string, nodeId: string): string => `${docId}\u0000${nodeId}`;

/**
 * Reads a node into evidence. Charges the nodesOpened and evidenceTokens budgets (throws
 * BudgetExhaustedError when either is spent) and records an `open` step.
 */
export function openNode(
  ctx: StrategyContext,
  trace: Trace,
  docId: string,
  nodeId: string,
  info: { source: TraceStep['source']; reason?: string; score?: number; text?: string; pages?: [number, number] },
): EvidenceItem {
  const doc = ctx.doc(docId);
  const { node, depth } = indexDoc(doc).byId.get(nodeId) ?? { node: ctx.node(docId, nodeId), depth: undefined };
  const text = info.text ?? nodeText(doc, node);
  ctx.budget.open(docId, nodeId, ctx.countTokens(text));
  trace.add({ action: 'open', docId, nodeId, source: info.source, reason: info.reason, score: info.score, pages: info.pages ?? node.pages, depth });
  const item: EvidenceItem = { docId, nodeId, title: node.title, text, rank: 0 };
  // A reader that read only part of a node (vector: its chunks) names the pages of that part.
  const pages = info.pages ?? node.pages;
  if (pages) item.pages = pages;
  if (info.score !== undefined) item.score = info.score;
  return item;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const squashedPages = new WeakMap<DocTree, string[]>();

/**
 * The pages within a node's range that hold the given passages (chunks of the node's text):
 * each passage's opening and closing words are looked up on those pages. Null when the node is
 * not paged or a passage is on no single page (then the node's own range stands).
 */
export function pagesOfPassages(doc: DocTree, node: TreeNode, passages: string[]): [number, number] | null {
  if (!node.pages || !doc.pages || node.pages[0] === node.pages[1]) return null;
  let pages = squashedPages.get(doc);
  if (!pages) squashedPages.set(doc, (pages = doc.pages.map(squash)));
  const [start, end] = node.pages;
  const find = (probe: string) => {
    for (let p = start; p <= end; p++) if (pages![p - 1]?.includes(probe)) return p;
    return null;
  };
  let lo = Infinity;
  let hi = -Infinity;
  for (const passage of passages) {
    const text = squash(passage);
    if (text.length < 20) return null;
    const first = find(text.slice(0, 40));
    const last = find(text.slice(-40));
    if (first === null || last === null) return null;
    lo = Math.min(lo, first, last);
    hi = Math.max(hi, first, last);
  }
  return Number.isFinite(lo) ? [lo, hi] : null;
}

/** Assigns ranks 1..n in the given order, dropping duplicate (doc, node) pairs. */
export function rankEvidence(items: EvidenceItem[]): EvidenceItem[] {
  const seen = new Set<string>();
  const out: EvidenceItem[] = [];
  for (const item of items) {
    const key = nodeKey(item.docId, item.nodeId);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...item, rank: out.length + 1 });
  }
  return out;
}
