// A PDF's tree with the configured model in reach: `corpus.tree: model` asks the model
// (model.ts) for every document; `auto` builds offline first (build.ts) and asks the model only
// when that tree is poor by `tree inspect`'s measures (harness/trees/quality.ts):
//
//   - it is page groups: no outline, printed contents or layout headings were found;
//   - the outline gate would flatten it (too many one-character, numbering-only or duplicated
//     titles: the same thresholds as the hybrid-beam strategy's gate and `tree inspect`'s POOR);
//   - it is sparse: on a document of at least SPARSE_MIN_PAGES pages, fewer than one node per
//     MAX_PAGES_PER_NODE pages (a 12-page earnings release read as a title and two bold lines).
//
// Bookmarks are the author's own table of contents: an outline tree is never replaced. Without
// a model (offline runs) this is build.ts's tree unchanged. A model that fails (a reply that is
// not the JSON asked for, a server that does not answer) leaves the offline tree, with a warning.
import type { DocTree } from '../../harness/types.ts';
import { treeQuality } from '../../harness/trees/quality.ts';
import { ProviderError } from '../../harness/models/providers/openai-client.ts';
import { countNodes, treeDepth } from '../../harness/trees/tree.ts';
import type { PdfContent } from './types.ts';
import { buildPdfTree, type TreeBuildOptions, type TreeBuildReport } from './build.ts';
import { modelTree, ModelTreeError, type ModelAsker } from './model.ts';

/** `auto` asks the model about documents of at least this many pages with fewer than one node per MAX_PAGES_PER_NODE pages. */
export const SPARSE_MIN_PAGES = 4;
export const MAX_PAGES_PER_NODE = 3;

/** Why an offline tree is poor enough for `auto` to ask the model, or null when it is not. */
export function poorTreeReason(doc: DocTree): string | null {
  const q = treeQuality(doc);
  if (q.source === 'outline') return null;
  if (q.source === 'pages') return 'the offline tree is page groups';
  if (q.poor) return `the offline tree's titles are poor (${q.reasons.join('; ')})`;
  if (q.pages >= SPARSE_MIN_PAGES && q.nodes * MAX_PAGES_PER_NODE < q.pages) return `the offline tree is sparse (${q.nodes} node(s) for ${q.pages} pages)`;
  return null;
}

export interface ModelBuild {
  doc: DocTree;
  report: TreeBuildReport;
  /** Set when the model was asked: whether its tree was kept, and why not. */
  model: { built: boolean; error?: string } | null;
}

/** buildPdfTree, then the model's tree where the choice (and a poor offline tree, under auto) asks for it. */
export async function buildPdfTreeWithModel(content: PdfContent, opts: TreeBuildOptions, asker: ModelAsker | null): Promise<ModelBuild> {
  const choice = opts.tree ?? 'auto';
  const offline = buildPdfTree(content, opts);
  if (!asker || (choice !== 'model' && choice !== 'auto')) return { ...offline, model: null };
  const why = choice === 'model' ? 'corpus.tree: model' : poorTreeReason(offline.doc);
  if (!why) return { ...offline, model: null };
  try {
    const r = await modelTree(content, asker);
    if (!r.nodes.length) throw new ModelTreeError(`no section of the ${r.entries} the model gave was found on the pages`);
    const doc: DocTree = { ...offline.doc, nodes: r.nodes, treeSource: 'model' };
    const report: TreeBuildReport = {
      source: 'model',
      reason: `${why}; ${r.note}`,
      headings: r.headings,
      ...(r.unlocated.length ? { unlocated: r.unlocated } : {}),
      nodes: countNodes(r.nodes),
      depth: treeDepth(r.nodes),
    };
    return { doc, report, model: { built: true } };
  } catch (err) {
    if (!(err instanceof ModelTreeError || err instanceof ProviderError)) throw err;
    const message = err.message;
    opts.warnings?.push(`${opts.source ?? opts.docId}: the model could not build the tree (${message}); kept the offline tree (${offline.report.source})`);
    return { doc: offline.doc, report: { ...offline.report, reason: `${offline.report.reason}; model tree failed (${message})` }, model: { built: false, error: message } };
  }
}
