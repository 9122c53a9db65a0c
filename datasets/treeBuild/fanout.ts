// Capping a level's fanout: no node of a built tree keeps more than MAX_HEADING_FANOUT children.
//
// A tree strategy reads one level at a time; a level of 121 siblings (the subheadings of a 10-K's
// last Item and the exhibits after it, flattened) is a flat list again. Two passes:
//
// 1. Promotion (on the headings, before the tree is assembled). The headings are nested as their
//    levels say; for every node with too many children, each child gets a style class: its font
//    size (0.5 pt buckets), numbering kind and depth ("PART II" > "Item 7" > "2" > "2.1" >
//    "Note 3" > none), bold, capitals: the order layout.ts ranks headings by, read from the line
//    the heading stands on. For each class, the children of that class or better become parents
//    and the worse ones that follow each nest under it (those before the first stay siblings).
//    The threshold giving the smallest widest level wins, when it makes the widest level at most
//    half the original count (or within the cap) and at least two children are promoted — and
//    never when it would nest a heading under one numbered alike ("Item 9" under "Item 8", "2.4"
//    under "2.3"): numbering says they are peers, whatever their fonts. This is what a reader
//    does with a long run of headings: "PART I", "Item 1", ... or "Statements" and "Notes" are
//    the larger or bolder lines, and the rest falls under them. Promotion is applied again
//    inside the new parents, so a level split once may be split again.
// 2. Groups (on the assembled tree, the last resort). A level still wider than the cap is cut into
//    runs of consecutive siblings: by their shared section number when they are numbered "2.1",
//    "2.2", …, "3.1" and the parent numbers ("2", "3") were not printed as headings — a group
//    titled "Sections 2.1–2.51" —, else into about √n runs of equal length titled by the pages
//    they cover and their first and last titles ("Pages 139–150: 2.1 Account … 2.24 DCP"). A
//    group has no text of its own; its page range is its children's, so the invariants hold.
import type { TreeNode } from '../../harness/types.ts';
import type { Heading } from './assemble.ts';
import { numberNodes } from './assemble.ts';
import type { PdfContent } from './types.ts';
import { findTitle } from './locate.ts';
import { compareRanks, normText, numbering, pageLines, styleRank } from './text.ts';

/**
 * The widest level a built tree keeps. The outline gate flattens levels above 50 and page groups
 * stop at 20; 30 keeps whole the lists a reader scans in one go (a 10-K's 20-odd Items, 24 notes).
 */
export const MAX_HEADING_FANOUT = 30;
/** A promotion must at least halve the widest level it acts on. */
const MIN_GAIN = 2;
const MAX_GROUP_TITLE_CHARS = 40;

/** What the cap did: levels split under their larger headings, grouped by section number, cut into page runs. */
export interface FanoutStats {
  promoted: number;
  sectionGroups: number;
  pageRuns: number;
}

export const emptyFanoutStats = (): FanoutStats => ({ promoted: 0, sectionGroups: 0, pageRuns: 0 });

/** "levels wider than 30: 2 split under their larger headings, 1 cut into page runs", or "" when nothing was done. */
export function describeFanout(s: FanoutStats): string {
  const parts: string[] = [];
  if (s.promoted) parts.push(`${s.promoted} split under their larger headings`);
  if (s.sectionGroups) parts.push(`${s.sectionGroups} grouped by section number`);
  if (s.pageRuns) parts.push(`${s.pageRuns} cut into page runs`);
  return parts.length ? `levels wider than ${MAX_HEADING_FANOUT}: ${parts.join(', ')}` : '';
}

interface HNode {
  h: Heading;
  order: number;
  kids: HNode[];
}

const cmp = compareRanks;

/**
 * A heading's style class (lower is more important): font size, numbering, bold, capitals. The
 * line is the heading's own line when its text starts the title, else where the title is printed
 * on its page; unknown style (text without layout) ranks by numbering alone.
 */
function headingClass(h: Heading, content: PdfContent): number[] {
  const lines = pageLines(content)[h.page - 1] ?? [];
  const t = normText(h.title);
  let line = lines.find((l) => l.line === h.line && normText(l.text) !== '' && t.startsWith(normText(l.text)));
  if (!line) line = findTitle(h.title, lines)?.line;
  return styleRank(line ? line.size : 0, numbering(h.title), line?.bold ?? false, h.title);
}

/** Nests headings by level (as assembleTree does) into explicit nodes. */
function nest(headings: Heading[]): HNode[] {
  const hs = headings.map((h, i) => ({ h, order: i, kids: [] as HNode[] })).sort((a, b) => a.h.page - b.h.page || a.h.line - b.h.line || a.order - b.order);
  const roots: HNode[] = [];
  const stack: HNode[] = [];
  for (const n of hs) {
    while (stack.length && stack[stack.length - 1].h.level >= n.h.level) stack.pop();
    (stack.length ? stack[stack.length - 1].kids : roots).push(n);
    stack.push(n);
  }
  return roots;
}

/** The best promotion of a wide list of siblings, or null when none halves it. */
function promote(kids: HNode[], cls: (n: HNode) => number[]): HNode[] | null {
  const classes = kids.map(cls);
  const distinct = [...new Map(classes.map((c) => [c.join(','), c])).values()].sort(cmp);
  let best: { width: number; out: HNode[] } | null = null;
  const nums = kids.map((k) => numbering(k.h.title));
  const peers = (a: number, b: number) => nums[a] !== null && nums[b] !== null && nums[a]!.kind === nums[b]!.kind && nums[a]!.depth === nums[b]!.depth;
  for (const t of distinct.slice(0, -1)) {
    const up = classes.map((c) => cmp(c, t) <= 0);
    const promoted = up.filter(Boolean).length;
    if (promoted < 2) continue;
    const leading = up.indexOf(true);
    // numbering says who are peers: "Item 9" never nests under "Item 8", however large it is printed
    let parent = -1;
    let mixesPeers = false;
    for (let i = leading; i < kids.length && !mixesPeers; i++) {
      if (up[i]) parent = i;
      else mixesPeers = peers(parent, i);
    }
    if (mixesPeers) continue;
    let widest = leading + promoted;
    let run = 0;
    for (let i = leading + 1; i <= kids.length; i++) {
      if (i === kids.length || up[i]) {
        widest = Math.max(widest, run + (kids[i - run - 1]?.kids.length ?? 0));
        run = 0;
      } else run++;
    }
    if (!best || widest < best.width) {
      const out: HNode[] = kids.slice(0, leading);
      let parent: HNode | null = null;
      kids.forEach((k, i) => {
        if (i < leading) return;
        if (up[i]) {
          parent = { ...k, kids: [...k.kids] };
          out.push(parent);
        } else parent!.kids.push(k);
      });
      best = { width: widest, out };
    }
  }
  return best && (best.width <= MAX_HEADING_FANOUT || best.width * MIN_GAIN <= kids.length) ? best.out : null;
}

function capNodes(list: HNode[], cls: (n: HNode) => number[], stats: FanoutStats): HNode[] {
  let out = list;
  if (out.length > MAX_HEADING_FANOUT) {
    const promoted = promote(out, cls);
    if (promoted) {
      out = promoted;
      stats.promoted++;
    }
  }
  for (const n of out) n.kids = capNodes(n.kids, cls, stats);
  return out;
}

/** Flattens nested nodes back to headings whose levels are their depths. */
function flatten(nodes: HNode[], depth = 1, out: Heading[] = []): Heading[] {
  for (const n of nodes) {
    out.push({ ...n.h, level: depth });
    flatten(n.kids, depth + 1, out);
  }
  return out;
}

/**
 * Pass 1: headings re-levelled so that wide levels are split under their larger or bolder
 * headings (see the module comment). Headings that need no change keep their nesting.
 */
export function promoteWideLevels(headings: Heading[], content: PdfContent, stats: FanoutStats = emptyFanoutStats()): Heading[] {
  const roots = nest(headings);
  const cache = new Map<HNode, number[]>();
  const cls = (n: HNode) => {
    let c = cache.get(n);
    if (!c) cache.set(n, (c = headingClass(n.h, content)));
    return c;
  };
  return flatten(capNodes(roots, cls, stats));
}

const SECTION = /^(\d{1,3}(?:\.\d{1,3})+)\.?\s/;
const shorten = (t: string) => (t.length <= MAX_GROUP_TITLE_CHARS ? t : `${t.slice(0, MAX_GROUP_TITLE_CHARS - 1).trimEnd()}…`);
const range = (s: number, e: number) => (s === e ? `Page ${s}` : `Pages ${s}–${e}`);

function group(kids: TreeNode[], title: string): TreeNode {
  return { id: '', title, pages: [kids[0].pages![0], kids[kids.length - 1].pages![1]], children: kids };
}

/**
 * Runs of consecutive siblings sharing a section number's parent ("2.1", "2.2", … → "Sections
 * 2.1–2.51"); unnumbered siblings stay where they are. Null unless it halves the level.
 */
function bySectionNumber(list: TreeNode[]): TreeNode[] | null {
  const nums = list.map((n) => n.title.match(SECTION)?.[1] ?? null);
  const parentOf = (x: string | null) => (x === null ? null : x.slice(0, x.lastIndexOf('.')));
  const out: TreeNode[] = [];
  let start = 0;
  for (let i = 1; i <= list.length; i++) {
    const key = parentOf(nums[start]);
    if (i < list.length && key !== null && parentOf(nums[i]) === key) continue;
    const run = list.slice(start, i);
    out.push(run.length === 1 ? run[0] : group(run, `Sections ${nums[start]}–${nums[i - 1]}`));
    start = i;
  }
  return out.length >= 2 && out.length * MIN_GAIN <= list.length ? out : null;
}

/** About √n runs of equal length, titled by their pages and their first and last titles. */
function byRuns(list: TreeNode[]): TreeNode[] {
  const groups = Math.min(MAX_HEADING_FANOUT, Math.ceil(Math.sqrt(list.length)));
  const size = Math.ceil(list.length / groups);
  const out: TreeNode[] = [];
  for (let i = 0; i < list.length; i += size) {
    const run = list.slice(i, i + size);
    const [first, last] = [run[0], run[run.length - 1]];
    const span = range(first.pages![0], last.pages![1]);
    out.push(run.length === 1 ? first : group(run, `${span}: ${shorten(first.title)} … ${shorten(last.title)}`));
  }
  return out;
}

/** Pass 2: levels still wider than the cap are cut into groups (see the module comment); ids renumbered. */
export function groupWideLevels(nodes: TreeNode[], stats: FanoutStats = emptyFanoutStats()): TreeNode[] {
  const runs = (list: TreeNode[]) => {
    stats.pageRuns++;
    return byRuns(list);
  };
  const cap = (list: TreeNode[]): TreeNode[] => {
    let out = list;
    if (out.length > MAX_HEADING_FANOUT) {
      const sections = bySectionNumber(out);
      if (sections) stats.sectionGroups++;
      out = sections ?? runs(out);
    }
    if (out.length > MAX_HEADING_FANOUT) out = runs(out);
    for (const n of out) n.children = cap(n.children);
    return out;
  };
  const out = cap(nodes);
  numberNodes(out);
  return out;
}

/** The widest level of a tree (the roots count as one level). */
export function maxFanout(nodes: TreeNode[]): number {
  return nodes.reduce((m, n) => Math.max(m, maxFanout(n.children)), nodes.length);
}
