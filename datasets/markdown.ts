// Markdown -> document tree. One node per ATX heading (`#` .. `######`), nested by level.
// - Headings inside fenced code blocks (``` or ~~~, any fence length, info strings) and HTML
//   comments are not headings: code samples full of `# comment` lines are common in docs.
// - Titles lose HTML tags/anchors (`## Benefits<a name="x"></a>` -> "Benefits"), backslash
//   escapes (`Node\.js` -> "Node.js"), link syntax and emphasis markers.
// - A node's text is the lines between its heading and the next heading of any level, so it
//   never includes its children's text. The text keeps its Markdown as written.
// - Level jumps (h1 -> h3) nest under the nearest shallower heading; the tree never invents nodes.
// - Ids are pre-order positions, zero-padded: "0001", "0002", ... (as PageIndex numbers nodes), so
//   the same file always yields the same ids. Text before the first heading becomes node "0000"
//   ("Introduction"), or the document description when `intro: 'description'`.
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
  /** 0-based line range of the body, end exclusive. */
  bodyStart: number;
  bodyEnd: number;
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const CLOSING_HASHES = /(?:^|[ \t]+)#+[ \t]*$/;
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;

export const INTRO_NODE_ID = '0000';

/** Splits a Markdown text into lines (any line ending), without a byte order mark. */
export function splitLines(text: string): string[] {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return t.split(/\r\n|\r|\n/);
}

/** The headings of a Markdown text, skipping fenced code, HTML comments and YAML front matter. */
export function scanHeadings(lines: string[]): { headings: MarkdownHeading[]; bodyStart: number; unclosedFenceLine?: number } {
  const headings: MarkdownHeading[] = [];
  let i = frontMatterEnd(lines);
  const bodyStart = i;
  let fence: { char: string; len: number; line: number } | null = null;
  let inComment = false;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (fence) {
      const close = FENCE_CLOSE.exec(line);
      if (close && close[1][0] === fence.char && close[1].length >= fence.len) fence = null;
      continue;
    }
    if (inComment) {
      if (line.includes('-->')) inComment = false;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    // A backtick fence's info string cannot contain backticks (CommonMark); ```x``` is inline code.
    if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
      fence = { char: open[1][0], len: open[1].length, line: i + 1 };
      continue;
    }
    const commentAt = line.indexOf('<!--');
    if (commentAt >= 0 && !line.includes('-->', commentAt + 4)) {
      inComment = true;
      continue;
    }
    const h = HEADING.exec(line);
    if (!h) continue;
    const content = (h[2] ?? '').replace(CLOSING_HASHES, '');
    headings.push({ level: h[1].length, title: cleanHeadingTitle(content), line: i + 1 });
  }
  // CommonMark runs an unclosed fence to the end of the document; say so, since it hides headings.
  return fence ? { headings, bodyStart, unclosedFenceLine: fence.line } : { headings, bodyStart };
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

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Plain-text title from heading Markdown. */
export function cleanHeadingTitle(raw: string): string {
  // Park escaped characters in private-use code points so the markup passes below ignore them.
  const parked: string[] = [];
  let s = raw.replace(/\\([!-\/:-@\[-`{-~])/g, (_m, ch: string) => {
    parked.push(ch);
    return String.fromCharCode(0xe000 + parked.length - 1);
  });
  s = s
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?[A-Za-z][^>]*>/g, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/\*(?=\S)([^*]+?)(?<=\S)\*/g, '$1')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
      }
      return ENTITIES[name.toLowerCase()] ?? m;
    });
  s = s.replace(/[\ue000-\uf8ff]/g, (c) => parked[c.charCodeAt(0) - 0xe000] ?? c);
  return s.replace(/\s+/g, ' ').trim();
}

function sliceText(lines: string[], start: number, end: number): string | undefined {
  let a = start;
  let b = end;
  while (a < b && lines[a].trim() === '') a++;
  while (b > a && lines[b - 1].trim() === '') b--;
  if (a >= b) return undefined;
  return lines.slice(a, b).join('\n');
}

export function parseMarkdown(text: string, opts: MarkdownOptions): DocTree {
  const lines = splitLines(text);
  const { headings, bodyStart, unclosedFenceLine } = scanHeadings(lines);
  if (unclosedFenceLine !== undefined) {
    opts.warnings?.push(`${opts.source ?? opts.docId}:${unclosedFenceLine}: code fence is never closed; no headings after it were read`);
  }
  const sections: Section[] = headings.map((h, i) => ({
    ...h,
    bodyStart: h.line,
    bodyEnd: i + 1 < headings.length ? headings[i + 1].line - 1 : lines.length,
  }));

  const roots: TreeNode[] = [];
  // Stack of open headings: a new heading closes every open one of the same or deeper level.
  const stack: Array<{ level: number; node: TreeNode }> = [];
  sections.forEach((s, i) => {
    const node: TreeNode = { id: String(i + 1).padStart(4, '0'), title: s.title || '(untitled)', line: s.line, children: [] };
    const body = sliceText(lines, s.bodyStart, s.bodyEnd);
    if (body !== undefined) node.text = body;
    while (stack.length && stack[stack.length - 1].level >= s.level) stack.pop();
    (stack.length ? stack[stack.length - 1].node.children : roots).push(node);
    stack.push({ level: s.level, node });
  });

  const firstH1 = headings.find((h) => h.level === 1 && h.title);
  const title = opts.title ?? firstH1?.title ?? headings.find((h) => h.title)?.title ?? opts.docId;
  const doc: DocTree = { docId: opts.docId, title, nodes: roots };

  const introEnd = headings.length ? headings[0].line - 1 : lines.length;
  const intro = sliceText(lines, bodyStart, introEnd);
  if (intro !== undefined) {
    if (opts.intro === 'description') doc.description = intro;
    else {
      const node: TreeNode = { id: INTRO_NODE_ID, title: headings.length ? 'Introduction' : title, text: intro, children: [] };
      // Line of the first non-blank intro line, so `line` still points at where the node starts.
      let first = bodyStart;
      while (lines[first].trim() === '') first++;
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
