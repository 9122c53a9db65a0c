// Markdown -> document tree, parsed by a CommonMark parser (mdast-util-from-markdown, i.e.
// micromark), so the document reads as any CommonMark renderer would show it:
// - One node per heading, ATX (`## Title`) or setext (`Title` underlined by `===` or `---`), at
//   the top level of the document, nested by level. Headings in fenced or indented code, HTML
//   blocks and comments, block quotes and list items are not sections.
// - Titles are the heading's plain text: HTML tags/anchors dropped (`## Benefits<a name="x"></a>`
//   -> "Benefits"), backslash escapes and entities resolved, link and emphasis markup removed.
// - A node's text is the source between its heading and the next heading of any level, so it
//   never includes its children's text. It keeps its Markdown as written except that backslash
//   escapes and character references in text are resolved (`TLS 1\.2` -> `TLS 1.2`), since those
//   are how the text reads; code keeps every character.
// - An unclosed code fence runs to the end of the document, as CommonMark says; a warning names
//   it, since it hides the headings after it.
// - Level jumps (h1 -> h3) nest under the nearest shallower heading; the tree never invents nodes.
// - Ids are pre-order positions, zero-padded: "0001", "0002", ... (as PageIndex numbers nodes), so
//   the same file always yields the same ids. Text before the first heading becomes node "0000"
//   ("Introduction"), or the document description when `intro: 'description'`.
//   YAML front matter (`---` ... `---` on the first line) is not content.
import type { Code, Heading, Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';
import type { DocTree, TreeNode } from '../harness/types.ts';
import { readText, stem } from './files.ts';

export interface MarkdownOptions {
  docId: string;
  /** Document title; defaults to the first level-1 heading, else the first heading, else docId. */
  title?: string;
  source?: string;
  /** Where text before the first heading goes (default: an intro node). */
  intro?: 'node' | 'description';
  /** Non-fatal problems (an unclosed code fence) are appended here. */
  warnings?: string[];
}

export interface MarkdownHeading {
  level: number;
  title: string;
  /** 1-based line of the heading. */
  line: number;
}

interface Section extends MarkdownHeading {
  /** Source offsets of the body, end exclusive. */
  bodyStart: number;
  bodyEnd: number;
}

export const INTRO_NODE_ID = '0000';

/**
 * Version of what parseMarkdown returns, part of the Markdown ingestion cache key
 * (datasets/markdownIngest.ts). BUMP IT whenever this file's output changes (tree shape, ids,
 * titles, texts, warnings) or mdast-util-from-markdown is upgraded, or second runs will serve
 * trees parsed by the old code.
 */
export const MARKDOWN_PARSER_VERSION = 'md1';

/** Splits a Markdown text into lines (any line ending), without a byte order mark. */
export function splitLines(text: string): string[] {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return t.split(/\r\n|\r|\n/);
}

/** Lines taken by a leading YAML front matter block (`---` ... `---`), 0 when there is none. */
function frontMatterEnd(lines: string[]): number {
  if (lines[0]?.trim() !== '---') return 0;
  for (let i = 1; i < lines.length; i++) {
    const t = lines[i].trim();
    if (t === '---' || t === '...') return i + 1;
  }
  return 0;
}

/** Plain text of inline Markdown: no HTML, escapes and entities resolved, whitespace collapsed. */
function plain(node: Nodes): string {
  return toString(node, { includeHtml: false }).replace(/\s+/g, ' ').trim();
}

/** Plain-text title from heading Markdown (what follows the `#`s). */
export function cleanHeadingTitle(raw: string): string {
  const h = fromMarkdown(`# ${raw.replace(/[\r\n]+/g, ' ')}`).children[0];
  return h ? plain(h) : raw.trim();
}

interface Parsed {
  /** The text parsed: front matter blanked (so lines and offsets stay those of the file). */
  src: string;
  lines: string[];
  tree: Root;
  /** Line after the front matter (0-based). */
  bodyLine: number;
}

function parse(text: string): Parsed {
  const lines = splitLines(text);
  const fm = frontMatterEnd(lines);
  const src = (fm ? lines.map((l, i) => (i < fm ? '' : l)) : lines).join('\n');
  return { src, lines, tree: fromMarkdown(src), bodyLine: fm };
}

/** Fenced code that never closes: CommonMark runs it to the end of its container. */
function isUnclosedFence(code: Code, src: string): boolean {
  const raw = src.slice(code.position!.start.offset!, code.position!.end.offset!);
  const open = /^[ \t]*(`{3,}|~{3,})/.exec(raw);
  if (!open) return false; // indented code has no fence
  const rawLines = raw.split('\n');
  if (rawLines.length < 2) return true;
  const last = rawLines[rawLines.length - 1].trim();
  const ch = open[1][0];
  return !(last.length >= open[1].length && [...last].every((c) => c === ch));
}

/** The top-level headings of a parsed document, and the line of an unclosed fence at the top level. */
function headingsOf(p: Parsed): { headings: Array<MarkdownHeading & { node: Heading }>; unclosedFenceLine?: number } {
  const headings: Array<MarkdownHeading & { node: Heading }> = [];
  let unclosedFenceLine: number | undefined;
  for (const child of p.tree.children) {
    if (child.type === 'heading') headings.push({ level: child.depth, title: plain(child), line: child.position!.start.line, node: child });
    else if (child.type === 'code' && unclosedFenceLine === undefined && isUnclosedFence(child, p.src)) unclosedFenceLine = child.position!.start.line;
  }
  return unclosedFenceLine === undefined ? { headings } : { headings, unclosedFenceLine };
}

/** The headings of a Markdown text (as lines), skipping code, HTML, and YAML front matter. */
export function scanHeadings(lines: string[]): { headings: MarkdownHeading[]; bodyStart: number; unclosedFenceLine?: number } {
  const p = parse(lines.join('\n'));
  const { headings, unclosedFenceLine } = headingsOf(p);
  const out = { headings: headings.map(({ level, title, line }) => ({ level, title, line })), bodyStart: p.bodyLine };
  return unclosedFenceLine === undefined ? out : { ...out, unclosedFenceLine };
}

/**
 * Spans of text whose source differs from what it reads as because of backslash escapes or
 * character references (`1\.2`, `&amp;`): [start, end, value], in document order.
 */
function escapeSpans(tree: Root, src: string): Array<[number, number, string]> {
  const out: Array<[number, number, string]> = [];
  const visit = (n: Nodes) => {
    if (n.type === 'text' && n.position) {
      const a = n.position.start.offset!;
      const b = n.position.end.offset!;
      const raw = src.slice(a, b);
      if ((raw.includes('\\') || raw.includes('&')) && raw !== n.value) out.push([a, b, n.value]);
      return;
    }
    if ('children' in n) for (const c of n.children) visit(c as Nodes);
  };
  visit(tree);
  return out;
}

/** Source from `a` to `b` with escapes resolved, blank lines at both ends dropped; undefined when blank. */
function bodyText(src: string, a: number, b: number, spans: Array<[number, number, string]>): string | undefined {
  let out = '';
  let at = a;
  for (const [s, e, v] of spans) {
    if (e <= a || s >= b) continue;
    if (s < at) continue;
    out += src.slice(at, s) + v;
    at = e;
  }
  out += src.slice(at, b);
  const lines = out.split('\n');
  let i = 0;
  let j = lines.length;
  while (i < j && lines[i].trim() === '') i++;
  while (j > i && lines[j - 1].trim() === '') j--;
  if (i >= j) return undefined;
  return lines
    .slice(i, j)
    .map((l) => l.replace(/[ \t]+$/, ''))
    .join('\n');
}

export function parseMarkdown(text: string, opts: MarkdownOptions): DocTree {
  const p = parse(text);
  const { headings, unclosedFenceLine } = headingsOf(p);
  if (unclosedFenceLine !== undefined) {
    opts.warnings?.push(`${opts.source ?? opts.docId}:${unclosedFenceLine}: code fence is never closed; no headings after it were read`);
  }
  const spans = escapeSpans(p.tree, p.src);
  const sections: Section[] = headings.map((h, i) => ({
    level: h.level,
    title: h.title,
    line: h.line,
    bodyStart: h.node.position!.end.offset!,
    bodyEnd: i + 1 < headings.length ? headings[i + 1].node.position!.start.offset! : p.src.length,
  }));

  const roots: TreeNode[] = [];
  // Stack of open headings: a new heading closes every open one of the same or deeper level.
  const stack: Array<{ level: number; node: TreeNode }> = [];
  sections.forEach((s, i) => {
    const node: TreeNode = { id: String(i + 1).padStart(4, '0'), title: s.title || '(untitled)', line: s.line, children: [] };
    const body = bodyText(p.src, s.bodyStart, s.bodyEnd, spans);
    if (body !== undefined) node.text = body;
    while (stack.length && stack[stack.length - 1].level >= s.level) stack.pop();
    (stack.length ? stack[stack.length - 1].node.children : roots).push(node);
    stack.push({ level: s.level, node });
  });

  const firstH1 = headings.find((h) => h.level === 1 && h.title);
  const title = opts.title ?? firstH1?.title ?? headings.find((h) => h.title)?.title ?? opts.docId;
  const doc: DocTree = { docId: opts.docId, title, nodes: roots };

  const introEnd = headings.length ? headings[0].node.position!.start.offset! : p.src.length;
  const intro = bodyText(p.src, 0, introEnd, spans);
  if (intro !== undefined) {
    if (opts.intro === 'description') doc.description = intro;
    else {
      const node: TreeNode = { id: INTRO_NODE_ID, title: headings.length ? 'Introduction' : title, text: intro, children: [] };
      // Line of the first non-blank intro line, so `line` still points at where the node starts.
      let first = p.bodyLine;
      while (p.lines[first].trim() === '') first++;
      node.line = first + 1;
      roots.unshift(node);
    }
  }
  if (opts.source) doc.source = opts.source;
  return doc;
}

export function loadMarkdownFile(file: string, docId?: string, opts: Omit<MarkdownOptions, 'docId' | 'source'> = {}): DocTree {
  return parseMarkdown(readText(file), { ...opts, docId: docId ?? stem(file), source: file });
}
