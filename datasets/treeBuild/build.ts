// buildPdfTree: a document tree for a PDF, its source chosen per document.
//
// `auto` tries, in order: the outline (bookmarks) when present and plausible; the printed table
// of contents when one is found and at least half of its entries (and at least 3) are located
// on the pages (its long sections get the layout headings found inside them); headings from the layout when there are at least 3 of them (2 for a document of
// up to 3 pages) on more than one page; else page groups. A forced source that yields nothing
// falls back to page groups, and the report says why. No level of a toc or layout tree has more
// than MAX_HEADING_FANOUT children (fanout.ts); the reason says when the cap regrouped one.
// Every tree keeps the invariants checked by treeInvariantErrors. Trees built by the model
// (corpus.tree: model, or `auto` when this tree is poor) are withModel.ts's: this module is offline.
import type { DocTree, TreeNode } from '../../harness/types.ts';
import type { PdfContent } from './types.ts';
import { assembleTree, type Heading } from './assemble.ts';
import { countNodes, treeDepth } from '../../harness/trees/tree.ts';
import { titlesMatch } from './compare.ts';
import { describeFanout, emptyFanoutStats, groupWideLevels, promoteWideLevels } from './fanout.ts';
import { layoutHeadings } from './layout.ts';
import { outlineTree } from './outline.ts';
import { pagesTree } from './pages.ts';
import { findToc, locateToc, tocLikeSpans } from './toc.ts';

/** Bump whenever the trees built for the same content change (caches key on it). */
export const TREE_BUILDER_VERSION = '7';

/** The offline builders. */
export type OfflineSource = 'outline' | 'toc' | 'layout' | 'pages';
/** `model`: built by the configured model (model.ts, through withModel.ts). */
export type TreeSource = OfflineSource | 'model';
export type TreeChoice = 'auto' | TreeSource;
export const TREE_CHOICES: readonly TreeChoice[] = ['auto', 'outline', 'toc', 'layout', 'pages', 'model'];

export interface TreeBuildOptions {
  docId: string;
  title?: string;
  description?: string;
  /** The PDF's path, for messages and `DocTree.source`. */
  source?: string;
  /** Which builder to use; `auto` (default) chooses per document. `model` builds offline as `auto` here (withModel.ts asks the model). */
  tree?: TreeChoice;
  /** Do not use the bookmarks (to measure the other builders against them). */
  ignoreOutline?: boolean;
  /** Non-fatal problems are appended here. */
  warnings?: string[];
}

export interface TreeBuildReport {
  source: TreeSource;
  /** Why this source: what was tried and what it gave. */
  reason: string;
  /** Entries of the printed table of contents, when one was found. */
  tocEntries?: number;
  /** Of those, entries located on the pages. */
  located?: number;
  /** Titles of the entries that could not be located (left out of the tree). */
  unlocated?: string[];
  /** Headings found in the layout: all of them (layout), or those nested inside long TOC sections (toc). */
  headings?: number;
  nodes: number;
  depth: number;
}

interface Attempt {
  nodes: TreeNode[] | null;
  note: string;
  extra?: Partial<TreeBuildReport>;
}

type Builder = (content: PdfContent, opts: TreeBuildOptions) => Attempt;

const MIN_TOC_LOCATED = 3;

const BUILDERS: Record<OfflineSource, Builder> = {
  outline: (content, opts) => {
    if (opts.ignoreOutline) return { nodes: null, note: 'outline ignored' };
    const r = outlineTree(content);
    if (!r) return { nodes: null, note: 'no outline' };
    if (r.dropped) opts.warnings?.push(`${opts.source ?? opts.docId}: ${r.dropped} bookmark(s) point to no page of the document and were left out`);
    return { nodes: r.plausible ? r.nodes : null, note: r.plausible ? `outline: ${r.reason}` : `outline not plausible (${r.reason})` };
  },
  toc: (content) => {
    const toc = findToc(content);
    if (!toc) return { nodes: null, note: 'no printed table of contents found' };
    const r = locateToc(content, toc);
    const inner = innerHeadings(r.headings, layoutHeadings(content, { skipPages: new Set(r.tocPages), skipSpans: tocLikeSpans(content) }), content.pageCount);
    const located = r.entries.length - r.unlocated.length;
    const extra = { tocEntries: r.entries.length, located, unlocated: r.unlocated, headings: inner.length };
    const where = `printed table of contents on page(s) ${r.tocPages.join(', ')}: ${located} of ${r.entries.length} entries located`;
    const enough = located >= MIN_TOC_LOCATED && located >= r.entries.length / 2;
    const tree = enough ? cappedTree([...r.headings, ...inner], content) : null;
    const note = enough ? `${where}${inner.length ? `; ${inner.length} layout heading(s) inside its long sections` : ''}${tree!.note}` : `${where} (too few)`;
    return { nodes: tree?.nodes ?? null, note, extra };
  },
  layout: (content) => {
    const toc = findToc(content);
    const heads = layoutHeadings(content, { skipPages: new Set(toc?.tocPages ?? []), skipSpans: tocLikeSpans(content) });
    const pagesHit = new Set(heads.map((h) => h.page)).size;
    const min = content.pageCount <= 3 ? 2 : 3;
    const enough = heads.length >= min && (pagesHit >= 2 || content.pageCount === 1);
    const tree = enough ? cappedTree(heads, content) : null;
    const note = `${heads.length} layout heading(s) on ${pagesHit} page(s)${enough ? tree!.note : ' (too few)'}`;
    return { nodes: tree?.nodes ?? null, note, extra: { headings: heads.length } };
  },
  pages: (content) => ({ nodes: pagesTree(content), note: `${content.pageCount} page(s) grouped` }),
};

/** The tree of these headings, no level wider than MAX_HEADING_FANOUT (fanout.ts), and what the cap did ("" if nothing). */
export function cappedTree(headings: Heading[], content: PdfContent): { nodes: TreeNode[]; note: string } {
  const stats = emptyFanoutStats();
  const nodes = groupWideLevels(assembleTree(promoteWideLevels(headings, content, stats), content.pages), stats);
  const note = describeFanout(stats);
  return { nodes, note: note ? `; ${note}` : '' };
}

/** A table-of-contents section this long (pages) gets the layout headings found inside it. */
const MIN_SPAN_FOR_INNER = 5;
/** Inner headings go at most this many levels below their TOC entry (deeper ones are flattened). */
const MAX_INNER_DEPTH = 2;

/**
 * Layout headings inside the long sections of a printed table of contents (a 10-K's TOC lists
 * Items; Item 8 runs for 40 pages of statements and notes): for each TOC heading whose span (to
 * the next TOC heading) covers MIN_SPAN_FOR_INNER pages or more, the layout headings strictly
 * inside it become its descendants, their levels shifted below it (the best of them one level
 * down). A layout heading repeating the TOC title is the TOC heading itself and is skipped.
 */
function innerHeadings(toc: Heading[], layout: Heading[], pageCount: number): Heading[] {
  const order = (h: Heading) => h.page * 1e6 + h.line;
  const sorted = [...toc].sort((a, b) => order(a) - order(b));
  const out: Heading[] = [];
  sorted.forEach((h, i) => {
    const next = sorted[i + 1];
    const endPage = next ? next.page : pageCount;
    if (endPage - h.page + 1 < MIN_SPAN_FOR_INNER) return;
    const inside = layout.filter((l) => order(l) > order(h) && (!next || order(l) < order(next)) && !titlesMatch(l.title, h.title));
    if (!inside.length) return;
    const top = Math.min(...inside.map((l) => l.level));
    for (const l of inside) out.push({ ...l, level: h.level + Math.min(l.level - top + 1, MAX_INNER_DEPTH) });
  });
  return out;
}

const AUTO_ORDER: OfflineSource[] = ['outline', 'toc', 'layout', 'pages'];

export function buildPdfTree(content: PdfContent, opts: TreeBuildOptions): { doc: DocTree; report: TreeBuildReport } {
  const choice = opts.tree ?? 'auto';
  const order: OfflineSource[] = choice === 'auto' || choice === 'model' ? AUTO_ORDER : choice === 'pages' ? ['pages'] : [choice, 'pages'];
  const notes: string[] = [];
  let extra: Partial<TreeBuildReport> = {};
  let source: OfflineSource = 'pages';
  let nodes: TreeNode[] = [];
  for (const s of order) {
    const a = BUILDERS[s](content, opts);
    notes.push(a.note);
    extra = { ...extra, ...a.extra };
    if (a.nodes && a.nodes.length) {
      source = s;
      nodes = a.nodes;
      break;
    }
  }
  const report: TreeBuildReport = { source, reason: notes.join('; '), ...extra, nodes: countNodes(nodes), depth: treeDepth(nodes) };
  const doc: DocTree = { docId: opts.docId, title: opts.title ?? opts.docId, nodes, pages: [...content.pages], treeSource: source };
  if (opts.description) doc.description = opts.description;
  if (opts.source) doc.source = opts.source;
  return { doc, report };
}
