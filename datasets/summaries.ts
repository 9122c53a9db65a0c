// Node summaries for trees that have none (built from PDFs, or any corpus on request).
//
// Extractive (offline, the default for trees treebench builds from PDFs): a node's summary is
// its own text's most central sentences (harness/text/extractive.ts), bounded in tokens. A node
// with no text of its own (a heading whose children hold everything) is summarised from its
// whole span, so a parent's summary speaks for its subtree, like PageIndex's `prefix_summary`.
//
// Model summaries (`corpus.summaries: model`) are written by the runner through the metered
// model door (harness/run/modelSummaries.ts); this module holds the extractive path and the text
// selection both share.
import type { DocTree, TreeNode } from '../harness/types.ts';
import { summarySourceText } from '../harness/trees/summarySource.ts';
import { DEFAULT_SUMMARY_TOKENS, extractiveSummary, type ExtractiveOptions } from '../harness/text/extractive.ts';

export { DEFAULT_SUMMARY_TOKENS, extractiveSummary, summarySourceText };

export type SummaryMode = 'auto' | 'none' | 'extractive' | 'model';

/** Bumped whenever extractive output changes (the ingestion cache keys on it). */
export const SUMMARIZER_VERSION = 'extractive-1';

/**
 * Gives every node without a summary an extractive one (nodes with a summary keep it). Returns
 * the number of summaries written. The tree is changed in place and labelled
 * `summaries: 'extractive'` when any was written.
 */
export function addExtractiveSummaries(doc: DocTree, opts: ExtractiveOptions = { maxTokens: DEFAULT_SUMMARY_TOKENS }): number {
  let written = 0;
  const visit = (nodes: TreeNode[]) => {
    for (const node of nodes) {
      if (!node.summary?.trim()) {
        const summary = extractiveSummary(summarySourceText(doc, node), opts);
        if (summary) {
          node.summary = summary;
          written++;
        }
      }
      visit(node.children);
    }
  };
  visit(doc.nodes);
  if (written) doc.summaries = doc.summaries === 'model' ? 'model' : 'extractive';
  return written;
}
