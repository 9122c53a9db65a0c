import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../harness/types.ts';
import { cleanHeadingTitle, loadMarkdownFile, parseMarkdown } from '../../datasets/markdown.ts';
import { walkNodes } from '../../datasets/tree-utils.ts';
import { SHARED, tmpFiles } from './helpers.ts';

const parse = (text: string, extra: { intro?: 'node' | 'description'; title?: string; warnings?: string[] } = {}) => parseMarkdown(text, { docId: 'doc', ...extra });
const flat = (nodes: TreeNode[]) => [...walkNodes(nodes)].map(({ node, depth }) => ({ id: node.id, title: node.title, depth, line: node.line }));

describe('parseMarkdown', () => {
  it('ignores headings inside fenced code blocks (backticks, tildes, longer fences, info strings)', () => {
    const md = [
      '# Guide', // 1
      '```python', // 2
      '# not a heading', // 3
      '```', // 4
      '## Real', // 5
      '~~~~', // 6
      '```', // 7
      '## fake inside tildes', // 8
      '~~~', // 9: too short to close the ~~~~ fence
      '# still code', // 10
      '~~~~~', // 11: closes
      '````md', // 12
      '```', // 13: too short to close ````
      '### fake', // 14
      '````', // 15
      '   ```ts', // 16: indented fence (e.g. inside a list item)
      '   # code comment', // 17
      '   ```', // 18
      '## After', // 19
      'Inline ```code``` is not a fence', // 20
      '## Last', // 21
    ].join('\n');
    const doc = parse(md);
    expect(flat(doc.nodes)).toEqual([
      { id: '0001', title: 'Guide', depth: 1, line: 1 },
      { id: '0002', title: 'Real', depth: 2, line: 5 },
      { id: '0003', title: 'After', depth: 2, line: 19 },
      { id: '0004', title: 'Last', depth: 2, line: 21 },
    ]);
    const real = doc.nodes[0].children[0];
    expect(real.text).toContain('## fake inside tildes');
    expect(real.text).toContain('### fake');
    expect(doc.nodes[0].children[1].text).toBe('Inline ```code``` is not a fence');
  });

  it('warns about an unclosed fence, which hides the headings after it', () => {
    const warnings: string[] = [];
    const doc = parse('# A\n```\n## hidden\n', { warnings });
    expect(flat(doc.nodes).map((n) => n.title)).toEqual(['A']);
    expect(warnings).toEqual(['doc:2: code fence is never closed; no headings after it were read']);
  });

  it('strips HTML anchors and tags, escapes, closing hashes and link markup from titles', () => {
    const md = [
      '# Stopping an instance<a name="USER_StopInstance"></a>',
      '## Benefits<a name="USER_StopInstance.Benefits"></a>',
      '## Node\\.js and C\\# ##',
      '### <span class="x">Tagged</span> &amp; escaped \\*not emphasis\\* ###   ',
      '### [Linked title](https://example.com) with **bold**',
      '### Hash at end C#',
    ].join('\n');
    const titles = flat(parse(md).nodes).map((n) => n.title);
    expect(titles).toEqual(['Stopping an instance', 'Benefits', 'Node.js and C#', 'Tagged & escaped *not emphasis*', 'Linked title with bold', 'Hash at end C#']);
    expect(cleanHeadingTitle('Benefits<a name="USER_StopInstance.Benefits"></a>')).toBe('Benefits');
  });

  it('only reads ATX headings: up to 3 leading spaces, a space after the hashes, at most 6', () => {
    const md = ['   # Three spaces', '    # four spaces is code', '#hashtag', '####### seven', '###### Six', '#', 'tail'].join('\n');
    const nodes = flat(parse(md).nodes);
    expect(nodes.map((n) => n.title)).toEqual(['Three spaces', 'Six', '(untitled)']);
    // A bare `#` is an empty level-1 heading.
    expect(nodes.map((n) => n.depth)).toEqual([1, 2, 1]);
  });

  it('nests level jumps under the nearest shallower heading', () => {
    const md = ['# Top', '### Deep', '#### Deeper', '## Middle', '### Child', '# Second', '###### Six'].join('\n');
    const doc = parse(md);
    expect(flat(doc.nodes).map((n) => `${n.depth}:${n.title}`)).toEqual(['1:Top', '2:Deep', '3:Deeper', '2:Middle', '3:Child', '1:Second', '2:Six']);
    expect(doc.nodes[0].children.map((c) => c.title)).toEqual(['Deep', 'Middle']);
  });

  it('a document that starts below level 1 keeps its headings at the top level', () => {
    const doc = parse('## A\n### A.1\n# B\n## B.1');
    expect(doc.nodes.map((n) => n.title)).toEqual(['A', 'B']);
    expect(doc.title).toBe('B');
  });

  it('keeps each node text to its own lines, excluding its children', () => {
    const md = ['# Parent', '', 'Parent intro line.', '', '## Child', 'Child body.', '', '### Grandchild', 'Grand body.', '## Sibling', '', ''].join('\n');
    const doc = parse(md);
    const [parent] = doc.nodes;
    expect(parent.text).toBe('Parent intro line.');
    expect(parent.children[0].text).toBe('Child body.');
    expect(parent.children[0].children[0].text).toBe('Grand body.');
    expect(parent.children[1].text).toBeUndefined();
  });

  it('turns text before the first heading into an intro node or the description', () => {
    const md = '\nSome preface.\nMore preface.\n\n# Title\nBody';
    const doc = parse(md);
    expect(doc.nodes[0]).toEqual({ id: '0000', title: 'Introduction', text: 'Some preface.\nMore preface.', line: 2, children: [] });
    expect(doc.nodes[1].id).toBe('0001');
    expect(doc.title).toBe('Title');
    const d2 = parse(md, { intro: 'description' });
    expect(d2.description).toBe('Some preface.\nMore preface.');
    expect(d2.nodes.map((n) => n.id)).toEqual(['0001']);
  });

  it('a file without headings is one node; front matter is not content', () => {
    const doc = parse('---\ntitle: x\n---\nJust text.\n', { title: 'Plain' });
    expect(doc.title).toBe('Plain');
    expect(doc.nodes).toEqual([{ id: '0000', title: 'Plain', text: 'Just text.', line: 4, children: [] }]);
    expect(parse('').nodes).toEqual([]);
  });

  it('ignores headings inside HTML comments and handles CRLF line endings', () => {
    const doc = parse('# A\r\n<!--\r\n# commented\r\n-->\r\n## B\r\ntext\r\n');
    expect(flat(doc.nodes).map((n) => [n.title, n.line])).toEqual([
      ['A', 1],
      ['B', 5],
    ]);
    expect(doc.nodes[0].children[0].text).toBe('text');
  });

  it('gives the same ids for the same file', () => {
    const md = '# A\n## B\n### C\n## D\n# E';
    const a = parse(md);
    const b = parse(md);
    expect(a).toEqual(b);
    expect(flat(a.nodes).map((n) => n.id)).toEqual(['0001', '0002', '0003', '0004', '0005']);
  });

  it('loads an aws-docs page: title from the h1, anchors stripped, code comments not headings', () => {
    const file = path.join(SHARED, 'aws-docs/documents/aws-lambda-developer-guide/doc_source/ruby-tracing.md');
    const doc = loadMarkdownFile(file);
    expect(doc.docId).toBe('ruby-tracing');
    expect(doc.title).toBe('Instrumenting Ruby code in AWS Lambda');
    expect(doc.source).toBe(file);
    const titles = flat(doc.nodes).map((n) => n.title);
    expect(titles).toEqual([
      'Instrumenting Ruby code in AWS Lambda',
      'Enabling active tracing with the Lambda API',
      'Enabling active tracing with AWS CloudFormation',
      'Storing runtime dependencies in a layer',
    ]);
    // "# Gemfile" at line 37 is a comment inside a code fence.
    expect(doc.nodes[0].text).toContain('# Gemfile');
  });

  it('loadMarkdownFile drops a byte order mark and names the doc after the file', () => {
    const dir = tmpFiles({ 'My Notes.md': '\ufeff# Heading\nbody' });
    const doc = loadMarkdownFile(path.join(dir, 'My Notes.md'));
    expect(doc.docId).toBe('My Notes');
    expect(doc.nodes[0]).toMatchObject({ id: '0001', title: 'Heading', text: 'body', line: 1 });
  });
});
