// How close a built tree is to a reference tree (a PDF's bookmarks, PageIndex's tree).
//
// Titles are compared after normalisation: case, typographic quotes, punctuation and blanks are
// ignored, a numbering prefix is dropped when a title follows it ("Item 7. MD&A" -> "md a",
// "1.2 Scope" -> "scope"; "PART II" alone stays), and so are a trailing page number and footnote digits glued to a word ("Earnings1"). Two titles
// match when their normalised words are equal (or their letters, blanks aside: text layers split
// words, "Typ es"), or when most of the shorter title's words (80%)
// are in the longer one and they make at least half of it ("Financial Outlook" ~ "2023 Financial
// Outlook"; "Notes" does not match "Notes to Financial Statements").
//
// Pairs are one-to-one: every (reference, built) pair of matching titles is ranked by how far
// their start pages are apart, and taken greedily. Per reference level (1, 2, ..., "top2" = the
// top two levels together, "all"): recall = matched / reference nodes, and among the matched
// the start page agreeing exactly or within one page. Precision = built nodes matched / built
// nodes. The headline is the recall of the top two reference levels counting a node only when
// its title matched AND its start page is exact, with the precision beside it.
//
// Those are the strict figures. The fair ones judge what a builder reading the pages can do:
// recall over the top-two-level reference entries whose title is printed on their start page
// (a bookmark named "Press Release Footnotes" that no page prints cannot be found from the
// text), and precision over the built tree's top two levels only (subheadings below them help
// navigation and count against no one; groups the builder made — page runs, "Sections 2.1–2.9",
// "Front matter" — are looked through, their children taking their level). `&` reads as "and".
import type { TreeNode } from '../../harness/types.ts';
import { normText, numbering } from './text.ts';

export interface LevelAgreement {
  level: number | 'top2' | 'all';
  /** Reference nodes at this level. */
  reference: number;
  /** Of those, matched by title. */
  matched: number;
  /** Matched with the same start page / within one page. */
  startExact: number;
  startWithin1: number;
  /** matched / reference (0 when there are none). */
  titleRecall: number;
  /** startExact / reference: title matched and start page exact. */
  exactRecall: number;
  within1Recall: number;
}

export interface TreeComparison {
  levels: LevelAgreement[];
  builtNodes: number;
  referenceNodes: number;
  /** Built nodes whose title matched a reference node / built nodes. */
  precision: number;
  /** The headline: top-two-level recall with title matched and start page exact. */
  top2ExactRecall: number;
  top2Within1Recall: number;
  /** The fair figures (see the module comment); present when the page texts were given. */
  fair?: FairAgreement;
}

export interface FairAgreement {
  /** Top-two-level reference entries whose title is printed on their start page. */
  printed: number;
  /** Of those, matched with the start page exact / within one page, over `printed`. */
  exactRecall: number;
  within1Recall: number;
  /** Built nodes in the top two levels (groups looked through). */
  builtTop2: number;
  /** Of those, matched to a reference node, over `builtTop2`. */
  precisionTop2: number;
  /** The unmatched ones, "title @page" (what lowers the precision). */
  unmatchedTop2: string[];
}

/** A title reduced for comparison (see the module comment). */
export function normalizeTitle(title: string): string {
  let t = title.trim().replace(/\s*&\s*/g, ' and ').replace(/(\s*[.·…_]{2,}\s*|\s+)(\d{1,4})$/, '');
  // parenthetical qualifiers and footnote marks: "(unaudited)", "(in millions)", "(4)"
  const bare = t.replace(/\s*\([^()]*\)/g, ' ').trim();
  if (/\p{L}/u.test(bare)) t = bare;
  const n = numbering(t);
  if (n && normText(n.rest)) t = n.rest;
  // footnote markers glued to a word: "Earnings1" -> "Earnings"
  return normText(t).replace(/(\p{L}{3,})\d{1,2}\b/gu, '$1');
}

/** Words an initialism leaves out ("Missiles and Fire Control" is MFC). */
const INITIALISM_SKIP = new Set(['and', 'of', 'the', 'for', 'in', 'on', 'to', 'a', 'an']);

/**
 * `short` is an initialism of the normalized title `long`: three to six capitals, one word, spelling
 * the initials of its words (small words left out). A bookmark may abbreviate the heading it points
 * at ("MFC" for "Missiles and Fire Control"), as a reader sees at once; two letters ("IT") say too
 * little to be matched this way.
 */
function isInitialism(short: string, long: string): boolean {
  const s = short.trim();
  if (!/^[A-Z]{3,6}$/.test(s)) return false;
  const words = long.split(' ').filter((w) => w && !INITIALISM_SKIP.has(w));
  return words.length === s.length && words.map((w) => w[0]).join('') === s.toLowerCase();
}

export function titlesMatch(a: string, b: string): boolean {
  const x = normalizeTitle(a);
  const y = normalizeTitle(b);
  if (!x || !y) return false;
  if (x === y) return true;
  // text layers that split words ("Typ es and Values", "R EFERENCES")
  if (x.replace(/ /g, '') === y.replace(/ /g, '')) return true;
  if (isInitialism(a, y) || isInitialism(b, x)) return true;
  const A = new Set(x.split(' '));
  const B = new Set(y.split(' '));
  let inter = 0;
  for (const w of A) if (B.has(w)) inter++;
  return inter >= 0.8 * Math.min(A.size, B.size) && inter >= 0.5 * Math.max(A.size, B.size);
}

interface Flat {
  node: TreeNode;
  level: number;
  index: number;
}

function flatten(nodes: TreeNode[]): Flat[] {
  const out: Flat[] = [];
  const walk = (list: TreeNode[], level: number) => {
    for (const node of list) {
      out.push({ node, level, index: out.length });
      walk(node.children, level + 1);
    }
  };
  walk(nodes, 1);
  return out;
}

const start = (n: TreeNode) => n.pages?.[0] ?? null;

/** Letters and digits only, `&` as "and": a title's words found in a page's text whatever the line breaks and spacing. */
const squash = (s: string) => normText(s.replace(/&/g, ' and ')).replace(/ /g, '');

/** Whether a reference entry's title is printed on the page it points to. */
function printedOn(title: string, page: string | undefined, squashed: Map<string, string>): boolean {
  if (page === undefined) return false;
  let text = squashed.get(page);
  if (text === undefined) squashed.set(page, (text = squash(page)));
  const t = normalizeTitle(title).replace(/ /g, '');
  return t.length > 0 && text.includes(t);
}

/** The built nodes of the top two levels, groups (no text of their own, or "Front matter") looked through. */
function builtTop2(built: TreeNode[], flat: Flat[]): number[] {
  const hasText = flat.some((f) => f.node.text !== undefined);
  const index = new Map(flat.map((f) => [f.node, f.index]));
  const out: number[] = [];
  const walk = (list: TreeNode[], level: number) => {
    for (const n of list) {
      const isGroup = n.title === 'Front matter' || (hasText && n.text === undefined && n.children.length > 0);
      if (isGroup) {
        walk(n.children, level);
        continue;
      }
      if (level > 2) continue;
      out.push(index.get(n)!);
      walk(n.children, level + 1);
    }
  };
  walk(built, 1);
  return out;
}

/**
 * Agreement of a built tree with a reference tree. With `pages` (the document's page texts,
 * index 0 = page 1) the fair figures are added.
 */
export function compareTrees(built: TreeNode[], reference: TreeNode[], opts: { pages?: readonly string[] } = {}): TreeComparison {
  const B = flatten(built);
  const R = flatten(reference);
  const pairs: { r: number; b: number; gap: number }[] = [];
  for (const r of R) for (const b of B) {
    if (!titlesMatch(r.node.title, b.node.title)) continue;
    const rs = start(r.node);
    const bs = start(b.node);
    pairs.push({ r: r.index, b: b.index, gap: rs === null || bs === null ? Infinity : Math.abs(rs - bs) });
  }
  pairs.sort((p, q) => p.gap - q.gap || p.r - q.r || p.b - q.b);
  const refMatch = new Map<number, number>(); // reference index -> gap
  const usedBuilt = new Set<number>();
  for (const p of pairs) {
    if (refMatch.has(p.r) || usedBuilt.has(p.b)) continue;
    refMatch.set(p.r, p.gap);
    usedBuilt.add(p.b);
  }
  const agreement = (level: LevelAgreement['level'], members: Flat[]): LevelAgreement => {
    const matched = members.filter((m) => refMatch.has(m.index));
    const exact = matched.filter((m) => refMatch.get(m.index) === 0).length;
    const within1 = matched.filter((m) => refMatch.get(m.index)! <= 1).length;
    const n = members.length;
    return {
      level,
      reference: n,
      matched: matched.length,
      startExact: exact,
      startWithin1: within1,
      titleRecall: n ? matched.length / n : 0,
      exactRecall: n ? exact / n : 0,
      within1Recall: n ? within1 / n : 0,
    };
  };
  const maxLevel = R.reduce((m, r) => Math.max(m, r.level), 0);
  const levels: LevelAgreement[] = [];
  for (let l = 1; l <= maxLevel; l++) levels.push(agreement(l, R.filter((r) => r.level === l)));
  const top2 = agreement('top2', R.filter((r) => r.level <= 2));
  levels.push(top2, agreement('all', R));
  const out: TreeComparison = {
    levels,
    builtNodes: B.length,
    referenceNodes: R.length,
    precision: B.length ? usedBuilt.size / B.length : 0,
    top2ExactRecall: top2.exactRecall,
    top2Within1Recall: top2.within1Recall,
  };
  if (opts.pages) {
    const squashed = new Map<string, string>();
    const pages = opts.pages;
    const printed = R.filter((r) => r.level <= 2 && start(r.node) !== null && printedOn(r.node.title, pages[start(r.node)! - 1], squashed));
    const p = agreement('top2', printed);
    const top = builtTop2(built, B);
    const hit = top.filter((i) => usedBuilt.has(i)).length;
    out.fair = { printed: printed.length, exactRecall: p.exactRecall, within1Recall: p.within1Recall, builtTop2: top.length, precisionTop2: top.length ? hit / top.length : 0, unmatchedTop2: top.filter((i) => !usedBuilt.has(i)).map((i) => `${B[i].node.title} @${start(B[i].node)}`) };
  }
  return out;
}
