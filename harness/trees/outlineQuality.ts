// Outline quality gate (issue 3, hybrid-beam). Outlines produced by PDF parsers or heading
// detectors are often poor: one-character or numbering-only titles ("1", "a", "2.3"), the same
// title over and over ("Page 4", "Continued"), wrapper chains of one child each, absurd depth or
// fanout. A model descending through such levels spends a call per level on titles that carry
// nothing. This module measures an outline (`assessOutline`) and builds a navigation *view* in
// which the useless levels are transparent (`flattenPoorLevels`): their children are presented
// in their place. Both are pure functions; the view reuses the real node ids, so a search over
// the view opens real nodes.
import type { DocTree, TreeNode } from '../types.ts';
import { countNodes, treeDepth } from './tree.ts';

export interface OutlineQualityOptions {
  /** A title this short (after trimming) carries no meaning: "1", "a", "-". */
  shortTitleChars: number;
  /**
   * A title whose normalised form (lower case, digit runs folded to "#") occurs this many times
   * in one document is a duplicate: "Page 3", "Page 4", "Page 5" or "Continued". Two siblings
   * with the same normalised title are always duplicates.
   */
  duplicateTitleMin: number;
  /** Share of poor titles at or above which the whole outline is poor. */
  poorTitleRatio: number;
  /** Share of poor titles at or above which one level (a sibling group of 2+) is meaningless. */
  poorLevelRatio: number;
  /** An outline deeper than this is extreme. */
  maxDepth: number;
  /** A level wider than this is extreme; flattening never builds a level wider than this. */
  maxFanout: number;
}

export const DEFAULT_OUTLINE_QUALITY: Readonly<OutlineQualityOptions> = Object.freeze({
  shortTitleChars: 1,
  duplicateTitleMin: 3,
  poorTitleRatio: 0.3,
  poorLevelRatio: 0.5,
  maxDepth: 8,
  maxFanout: 50,
});

export type PoorTitleKind = 'short' | 'numbering' | 'duplicate';

/** Lower case, digit runs folded to "#", punctuation to spaces: "Page 12." -> "page #". */
export function normalizeTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/\d+/g, '#')
    .replace(/[^\p{L}#]+/gu, ' ')
    .trim();
}

/** How often each normalised title occurs in a forest. */
export function titleCounts(nodes: TreeNode[]): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (list: TreeNode[]) => {
    for (const n of list) {
      const key = normalizeTitle(n.title);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      visit(n.children);
    }
  };
  visit(nodes);
  return counts;
}

/**
 * Why a title is poor, or null when it is fine. `docCounts` comes from titleCounts over the
 * whole document; `siblingCounts` over the node's sibling group.
 */
export function poorTitleKind(
  title: string,
  docCounts: Map<string, number>,
  siblingCounts: Map<string, number> | null,
  opts: OutlineQualityOptions = DEFAULT_OUTLINE_QUALITY,
): PoorTitleKind | null {
  const trimmed = title.trim();
  if (trimmed.length <= opts.shortTitleChars) return 'short';
  // No letter at all: "1.2.3", "(4)", "—", "2023".
  if (!/\p{L}/u.test(trimmed)) return 'numbering';
  const key = normalizeTitle(trimmed);
  if ((docCounts.get(key) ?? 0) >= opts.duplicateTitleMin) return 'duplicate';
  if (siblingCounts && (siblingCounts.get(key) ?? 0) >= 2) return 'duplicate';
  return null;
}

function siblingCounts(group: TreeNode[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const n of group) {
    const key = normalizeTitle(n.title);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function resolve(opts: Partial<OutlineQualityOptions> | undefined): OutlineQualityOptions {
  return { ...DEFAULT_OUTLINE_QUALITY, ...(opts ?? {}) };
}

export interface OutlineAssessment {
  nodes: number;
  depth: number;
  /** Largest sibling group, the top level included. */
  maxFanout: number;
  shortTitles: number;
  numberingTitles: number;
  duplicateTitles: number;
  poorTitles: number;
  /** poorTitles / nodes (0 for an empty outline). */
  poorTitleRatio: number;
  /** True when any threshold is crossed: the search should flatten the outline. */
  poor: boolean;
  /** One line per crossed threshold, for the trace. */
  reasons: string[];
}

/** Measures an outline against the thresholds (see OutlineQualityOptions). */
export function assessOutline(doc: DocTree | TreeNode[], options?: Partial<OutlineQualityOptions>): OutlineAssessment {
  const opts = resolve(options);
  const roots = Array.isArray(doc) ? doc : doc.nodes;
  const docCounts = titleCounts(roots);
  const kinds: Record<PoorTitleKind, number> = { short: 0, numbering: 0, duplicate: 0 };
  let maxFanout = roots.length;
  const visit = (group: TreeNode[]) => {
    const sib = siblingCounts(group);
    maxFanout = Math.max(maxFanout, group.length);
    for (const n of group) {
      const kind = poorTitleKind(n.title, docCounts, sib, opts);
      if (kind) kinds[kind]++;
      visit(n.children);
    }
  };
  visit(roots);
  const nodes = countNodes(roots);
  const depth = treeDepth(roots);
  const poorTitles = kinds.short + kinds.numbering + kinds.duplicate;
  const poorTitleRatio = nodes ? poorTitles / nodes : 0;
  const reasons: string[] = [];
  if (nodes >= 2 && poorTitleRatio >= opts.poorTitleRatio) {
    reasons.push(
      `${Math.round(poorTitleRatio * 100)}% of titles are poor (${kinds.short} short, ${kinds.numbering} numbering-only, ${kinds.duplicate} duplicated; threshold ${Math.round(opts.poorTitleRatio * 100)}%)`,
    );
  }
  if (depth > opts.maxDepth) reasons.push(`depth ${depth} exceeds ${opts.maxDepth}`);
  if (maxFanout > opts.maxFanout) reasons.push(`a level of ${maxFanout} nodes exceeds ${opts.maxFanout}`);
  return {
    nodes,
    depth,
    maxFanout,
    shortTitles: kinds.short,
    numberingTitles: kinds.numbering,
    duplicateTitles: kinds.duplicate,
    poorTitles,
    poorTitleRatio,
    poor: reasons.length > 0,
    reasons,
  };
}

export interface FlattenResult {
  /** The navigation view: copies of the real nodes (same ids), transparent levels removed. */
  nodes: TreeNode[];
  /** Ids of the nodes made transparent, in the order they were removed. */
  transparent: string[];
}

/**
 * Builds a navigation view with the useless levels made transparent. Two rules:
 *
 * 1. Chains: a node with exactly one child is transparent when its title is poor or it has no
 *    text of its own (a pure wrapper): its child takes its place. A wrapper's good title is not
 *    lost: it is prefixed to the child's title ("Safety › Battery"), so the view still says
 *    where the child sits.
 * 2. Meaningless levels: in a sibling group of two or more whose share of poor titles is at
 *    least `poorLevelRatio`, every poor-titled node that has children is replaced by its
 *    children (in document order), as long as the group stays within `maxFanout`. The rule is
 *    applied again to the lifted group, so "1" > "a" > "Real section" flattens all the way.
 *
 * Poor-titled *leaves* always stay: they hold text, and only levels are flattened. A transparent
 * node's own text (if any) is still reachable through value search. Every leaf of the input is
 * in the view. The input is not modified.
 */
export function flattenPoorLevels(nodes: TreeNode[], options?: Partial<OutlineQualityOptions>): FlattenResult {
  const opts = resolve(options);
  const docCounts = titleCounts(nodes);
  const transparent: string[] = [];
  const isPoor = (n: TreeNode, sib: Map<string, number> | null) => poorTitleKind(n.title, docCounts, sib, opts) !== null;
  const hasOwnText = (n: TreeNode) => Boolean(n.text && n.text.trim());

  /** A node with its single-child chain collapsed: the node that takes its place, and the titles to prefix. */
  const collapse = (start: TreeNode): { node: TreeNode; prefix: string[] } => {
    let node = start;
    const prefix: string[] = [];
    while (node.children.length === 1 && (isPoor(node, null) || !hasOwnText(node))) {
      if (!isPoor(node, null)) prefix.push(node.title.trim());
      transparent.push(node.id);
      node = node.children[0];
    }
    return { node, prefix };
  };

  const buildLevel = (group: TreeNode[]): TreeNode[] => {
    let level = group.map(collapse);
    for (;;) {
      if (level.length < 2) break;
      const sib = siblingCounts(level.map((e) => e.node));
      const poor = level.map((e) => isPoor(e.node, sib));
      if (poor.filter(Boolean).length / level.length < opts.poorLevelRatio) break;
      let size = level.length;
      let changed = false;
      const next: typeof level = [];
      for (const [i, entry] of level.entries()) {
        const kids = entry.node.children;
        if (poor[i] && kids.length > 0 && size - 1 + kids.length <= opts.maxFanout) {
          transparent.push(entry.node.id);
          size += kids.length - 1;
          changed = true;
          // The lifted children keep any good titles collected above the poor node.
          for (const kid of kids) {
            const c = collapse(kid);
            next.push({ node: c.node, prefix: [...entry.prefix, ...c.prefix] });
          }
        } else {
          next.push(entry);
        }
      }
      level = next;
      if (!changed) break;
    }
    return level.map(({ node, prefix }) => ({
      ...node,
      title: prefix.length ? [...prefix, node.title.trim()].join(' › ') : node.title,
      children: buildLevel(node.children),
    }));
  };

  return { nodes: buildLevel(nodes), transparent };
}
