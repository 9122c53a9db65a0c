import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DocTree, TreeNode } from '../../harness/types.ts';
import { DataError } from '../../datasets/errors.ts';
import { loadPageIndexFile, parsePageIndexTree } from '../../datasets/pageindex.ts';
import { walkNodes } from '../../datasets/tree-utils.ts';
import { FIXTURES, SHARED, thrown } from './helpers.ts';

const EXAMPLES = path.join(SHARED, 'pageindex-examples');
// Page counts of the PDFs next to each tree (README: q1-fy25-earnings 22, 2023-annual-report 222;
// the other two read from their /Count entries).
const PDF_PAGES: Record<string, number> = { '2023-annual-report': 222, earthmover: 12, 'four-lectures': 53, 'q1-fy25-earnings': 22 };
const NODE_COUNTS: Record<string, number> = { '2023-annual-report': 76, earthmover: 21, 'four-lectures': 53, 'q1-fy25-earnings': 41 };

const all = (doc: DocTree): TreeNode[] => [...walkNodes(doc.nodes)].map((v) => v.node);

/** Counts raw PageIndex nodes straight from the JSON, independently of the parser. */
function rawCount(nodes: Array<{ nodes?: unknown[] }>): number {
  return nodes.reduce((n, x) => n + 1 + rawCount((x.nodes ?? []) as Array<{ nodes?: unknown[] }>), 0);
}

describe('PageIndex PDF trees (pageindex-examples)', () => {
  for (const name of Object.keys(PDF_PAGES)) {
    it(`imports ${name}_structure.json as is`, () => {
      const file = path.join(EXAMPLES, `${name}_structure.json`);
      const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
      const warnings: string[] = [];
      const doc = loadPageIndexFile(file, undefined, { pageCount: PDF_PAGES[name], warnings });
      expect(doc.docId).toBe(name);
      expect(doc.title).toBe(name);
      expect(doc.source).toBe(file);
      expect(doc.pages).toBeUndefined();
      const nodes = all(doc);
      expect(nodes.length).toBe(NODE_COUNTS[name]);
      expect(nodes.length).toBe(rawCount(raw.structure));
      expect(new Set(nodes.map((n) => n.id)).size).toBe(nodes.length);
      for (const n of nodes) {
        expect(n.pages, n.id).toBeDefined();
        const [start, end] = n.pages!;
        expect(start).toBeGreaterThanOrEqual(1);
        expect(end).toBeGreaterThanOrEqual(start);
        expect(end).toBeLessThanOrEqual(PDF_PAGES[name]);
        expect(n.title.length).toBeGreaterThan(0);
      }
      expect(warnings).toEqual([]);
    });
  }

  it('keeps PageIndex node ids, pages and summaries (q1-fy25-earnings)', () => {
    const doc = loadPageIndexFile(path.join(EXAMPLES, 'q1-fy25-earnings_structure.json'));
    expect(doc.description).toMatch(/^A comprehensive financial report detailing The Walt Disney Company/);
    expect(doc.nodes.map((n) => n.id)).toEqual(['0000', '0008', '0010', '0021', '0031', '0032', '0033', '0034', '0035', '0039', '0040']);
    const nodes = all(doc);
    expect(nodes.every((n) => typeof n.summary === 'string' && n.summary.length > 0)).toBe(true);
    const dtc = nodes.find((n) => n.id === '0014')!;
    expect(dtc.title).toBe('Direct-to-Consumer');
    expect(dtc.pages).toEqual([5, 7]);
    expect(nodes.find((n) => n.id === '0040')!.pages).toEqual([22, 22]);
    // Pre-order: the first node's first child is 0001, its child 0002.
    expect(doc.nodes[0].children[0].id).toBe('0001');
    expect(doc.nodes[0].children[0].children[0].id).toBe('0002');
  });

  it('generates stable ids for nodes without node_id that never collide with existing ids', () => {
    const raw = JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'q1-fy25-earnings_structure.json'), 'utf8'));
    // Drop the ids of the top-level nodes and plant an id a naive generator would reuse.
    for (const n of raw.structure) delete n.node_id;
    raw.structure[1].nodes[0].node_id = 'auto-0000';
    const warnings: string[] = [];
    const a = parsePageIndexTree(structuredClone(raw), { docId: 'q1', source: 'q1.json', warnings });
    const b = parsePageIndexTree(structuredClone(raw), { docId: 'q1', source: 'q1.json' });
    const ids = all(a).map((n) => n.id);
    expect(ids).toEqual(all(b).map((n) => n.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(a.nodes[0].id).toBe('auto-0000-2');
    expect(a.nodes[1].id).toBe('auto-0008');
    expect(a.nodes[1].children[0].id).toBe('auto-0000');
    expect(a.nodes[0].children[0].id).toBe('0001');
    expect(warnings.some((w) => w.includes('11 node(s) had no node_id'))).toBe(true);
  });

  it('rejects duplicate node ids with a DataError naming the file and the id', () => {
    const raw = { doc_name: 'x.pdf', structure: [{ title: 'A', node_id: '0001', start_index: 1, end_index: 1, nodes: [{ title: 'B', node_id: '0001', start_index: 1, end_index: 1 }] }] };
    const err = thrown(() => parsePageIndexTree(raw, { docId: 'x', source: 'trees/x_structure.json' }));
    expect(err).toBeInstanceOf(DataError);
    expect(err.file).toBe('trees/x_structure.json');
    expect(err.message).toContain('trees/x_structure.json');
    expect(err.message).toContain('duplicate node id "0001"');
    expect(err.field).toBe('structure[0].nodes[0].node_id');
  });

  it('accepts a bare array and a top-level nodes array', () => {
    const nodes = [{ title: 'Only', node_id: '7', start_index: 2, end_index: 3 }];
    const a = parsePageIndexTree(nodes, { docId: 'a' });
    const b = parsePageIndexTree({ doc_name: 'b.pdf', nodes }, { docId: 'b' });
    expect(a.nodes[0]).toEqual({ id: '7', title: 'Only', pages: [2, 3], children: [] });
    expect(a.title).toBe('a');
    expect(b.title).toBe('b');
    expect(b.nodes[0].pages).toEqual([2, 3]);
  });

  it('names the JSON path of a bad field and keeps pages 1-based', () => {
    const noTitle = { structure: [{ node_id: '1', nodes: [{ node_id: '2' }] }] };
    const e1 = thrown(() => parsePageIndexTree(noTitle, { docId: 'd', source: 'd.json' }));
    expect(e1.message).toBe('d.json: field "structure[0].title": missing node title');
    const zeroPage = { structure: [{ title: 'A', start_index: 0, end_index: 1 }] };
    const e2 = thrown(() => parsePageIndexTree(zeroPage, { docId: 'd', source: 'd.json' }));
    expect(e2.field).toBe('structure[0].start_index');
    const reversed = { structure: [{ title: 'A', node_id: '1', start_index: 5, end_index: 3 }] };
    const warnings: string[] = [];
    const doc = parsePageIndexTree(reversed, { docId: 'd', warnings, pageCount: 4 });
    expect(doc.nodes[0].pages).toEqual([3, 5]);
    expect(warnings).toEqual([
      'd: structure[0]: end_index 3 is before start_index 5; using pages 3-5',
      "d: structure[0]: page 5 is past the document's 4 pages",
    ]);
    expect(thrown(() => parsePageIndexTree({ foo: 1 }, { docId: 'd' }))).toBeInstanceOf(DataError);
  });
});

describe('PageIndex Markdown trees', () => {
  const file = path.join(FIXTURES, 'pageindex-md-tree.json');

  it('maps line_num, prefix_summary and text', () => {
    const warnings: string[] = [];
    const doc = loadPageIndexFile(file, 'notes', { warnings });
    expect(doc.docId).toBe('notes');
    expect(doc.title).toBe('release-notes');
    expect(doc.description).toBe('Release notes for the Widget service, written for this test.');
    const [root] = doc.nodes;
    expect(root.id).toBe('0001');
    expect(root.line).toBe(1);
    expect(root.pages).toBeUndefined();
    expect(root.summary).toBe('Overview of the Widget service releases.');
    const v2 = root.children[0];
    expect(v2.summary).toBe('The 2.0 release replaced the storage engine.');
    expect(v2.text).toBe('## Version 2.0\n\nVersion 2.0 replaced the storage engine.');
    expect(v2.children.map((c) => [c.id, c.title, c.line])).toEqual([
      ['0003', 'Breaking changes', 9],
      ['auto-0003', 'Upgrade steps', 14],
    ]);
    expect(v2.children[1].summary).toBe('Export data, upgrade, then import.');
    expect(root.children[1]).toMatchObject({ id: '0005', title: 'Version 1.0', line: 21, summary: 'The first public release.' });
    expect(warnings).toHaveLength(1);
  });

  it('takes the doc id from the file name, or from doc_name with docIdFrom: field', () => {
    expect(loadPageIndexFile(file).docId).toBe('pageindex-md-tree');
    expect(loadPageIndexFile(file, undefined, { docIdFrom: 'field' }).docId).toBe('release-notes');
  });
});
