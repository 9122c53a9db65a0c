import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../datasets/errors.ts';
import { loadNativeCorpus, parseNativeDocs } from '../../datasets/native.ts';
import { FIXTURES, thrown, tmpFiles } from './helpers.ts';

const CORPUS = path.join(FIXTURES, 'sample-mini/corpus');

describe('native DocTree JSON', () => {
  it('loads a folder of documents in a stable order', () => {
    const { docs, files } = loadNativeCorpus(CORPUS);
    expect(docs.map((d) => d.docId)).toEqual(['handbook', 'report']);
    expect(files).toEqual([path.join(CORPUS, 'handbook.json'), path.join(CORPUS, 'report.json')]);
    const [handbook, report] = docs;
    expect(handbook.description).toBe('A tiny handbook written for the native loader tests.');
    expect(handbook.nodes[0].children.map((c) => c.id)).toEqual(['h1.1', 'h1.2']);
    expect(handbook.source).toBe(path.join(CORPUS, 'handbook.json'));
    expect(report.nodes[0].pages).toEqual([1, 2]);
    expect(report.pages).toHaveLength(3);
  });

  it('loads a single file, an array of documents and a { docs } corpus', () => {
    expect(loadNativeCorpus(path.join(CORPUS, 'report.json')).docs.map((d) => d.docId)).toEqual(['report']);
    const doc = { docId: 'a', title: 'A', nodes: [{ id: '1', title: 'One' }] };
    expect(parseNativeDocs([doc, { ...doc, docId: 'b' }]).map((d) => d.docId)).toEqual(['a', 'b']);
    const [a] = parseNativeDocs({ name: 'c', docs: [doc] });
    expect(a.nodes[0]).toEqual({ id: '1', title: 'One', children: [] });
  });

  it('names the file and the JSON path of a missing or bad field', () => {
    const bad = {
      docId: 'x',
      title: 'X',
      nodes: [
        { id: 'a', title: 'A', children: [] },
        { id: 'b', title: 'B', children: [] },
        { id: 'c', title: 'C', children: [{ id: 'c1' }] },
      ],
    };
    const dir = tmpFiles({ 'x.json': JSON.stringify(bad) });
    const file = path.join(dir, 'x.json');
    const err = thrown(() => loadNativeCorpus(dir));
    expect(err).toBeInstanceOf(DataError);
    expect(err.file).toBe(file);
    expect(err.field).toBe('nodes[2].children[0].title');
    expect(err.message).toMatch(/x\.json: field "nodes\[2\]\.children\[0\]\.title": missing required field$/);

    expect(thrown(() => parseNativeDocs({ title: 'T', nodes: [] }, 'f.json')).message).toBe('f.json: field "docId": missing required field');
    expect(thrown(() => parseNativeDocs({ docId: 'd', title: 'T', nodes: [{ id: 'a', title: 'A', pages: [0, 1] }] }, 'f.json')).field).toBe('nodes[0].pages[0]');
    expect(thrown(() => parseNativeDocs({ docId: 'd', title: 'T', nodes: [{ id: 'a', title: 'A', pages: [3, 2] }] }, 'f.json')).message).toContain('end page 2 is before start page 3');
    expect(thrown(() => parseNativeDocs({ docId: 'd', title: 'T', nodes: [{ id: 'a', title: 7 }] }, 'f.json')).message).toBe('f.json: field "nodes[0].title": expected a string, got 7');
    expect(thrown(() => parseNativeDocs([{ docId: 'd', title: 'T', nodes: {} }], 'f.json')).field).toBe('[0].nodes');
  });

  it('rejects duplicate node ids and duplicate doc ids across files', () => {
    const dupNode = { docId: 'd', title: 'T', nodes: [{ id: 'a', title: 'A', children: [{ id: 'a', title: 'again' }] }] };
    const e1 = thrown(() => parseNativeDocs(dupNode, 'f.json'));
    expect(e1.message).toBe('f.json: field "nodes[0].children[0].id": duplicate node id "a" (also at nodes[0])');
    const doc = { docId: 'same', title: 'T', nodes: [] };
    const dir = tmpFiles({ 'a.json': JSON.stringify(doc), 'b.json': JSON.stringify(doc) });
    const e2 = thrown(() => loadNativeCorpus(dir));
    expect(e2.file).toBe(path.join(dir, 'b.json'));
    expect(e2.message).toContain('duplicate docId "same"');
  });

  it('reports invalid JSON with the line, and an empty folder', () => {
    const dir = tmpFiles({ 'x.json': '{\n  "docId": "x",\n  "title": oops\n}' });
    const err = thrown(() => loadNativeCorpus(dir));
    expect(err.line).toBe(3);
    expect(err.message).toContain('invalid JSON');
    expect(thrown(() => loadNativeCorpus(tmpFiles({ 'readme.txt': 'hi' }))).message).toContain('no .json documents');
  });
});

describe('jsonErrorOffset', () => {
  it('finds where text stops being JSON', async () => {
    const { jsonErrorOffset } = await import('../../datasets/files.ts');
    expect(jsonErrorOffset('{"a": 1,}')).toBe(8);
    expect(jsonErrorOffset('[1, 2')).toBe(5);
    expect(jsonErrorOffset('{"a": tru}')).toBe(9);
    expect(jsonErrorOffset('{"a": "x\\q"}')).toBe(9);
    expect(jsonErrorOffset('{} x')).toBe(3);
  });
});
