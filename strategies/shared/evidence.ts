// Opening nodes into evidence, and the trace that records each step.
import type { EvidenceItem, TraceStep } from '../../harness/types.ts';
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
  info: { source: TraceStep['source']; reason?: string; score?: number; text?: string },
): EvidenceItem {
  const doc = ctx.doc(docId);
  const { node, depth } = indexDoc(doc).byId.get(nodeId) ?? { node: ctx.node(docId, nodeId), depth: undefined };
  const text = info.text ?? nodeText(doc, node);
  ctx.budget.open(docId, nodeId, ctx.countTokens(text));
  trace.add({ action: 'open', docId, nodeId, source: info.source, reason: info.reason, score: info.score, pages: node.pages, depth });
  const item: EvidenceItem = { docId, nodeId, title: node.title, text, rank: 0 };
  if (node.pages) item.pages = node.pages;
  if (info.score !== undefined) item.score = info.score;
  return item;
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
