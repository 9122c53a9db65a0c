import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDataConfig } from '../../datasets/config.ts';
import { DataError } from '../../datasets/errors.ts';
import {
  checkReferences,
  datasetLoaders,
  findDatasetLoader,
  loadBenchmarkData,
  markdownDocId,
  registerDatasetLoader,
  BUNDLED_SAMPLE_DIR,
} from '../../datasets/registry.ts';
import { FIXTURES, SHARED, rejected, thrown, tmpFiles } from './helpers.ts';

const AWS = path.join(SHARED, 'aws-docs');

function countMarkdown(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) n += countMarkdown(path.join(dir, e.name));
    else if (e.name.endsWith('.md')) n++;
  }
  return n;
}

describe('loadBenchmarkData', () => {
  it('loads the sample format (corpus/*.json + questions.jsonl), paths relative to the config folder', async () => {
    const data = await loadBenchmarkData({ dataset: { format: 'sample', path: 'sample-mini' } }, FIXTURES);
    expect(data.name).toBe('sample-mini');
    expect(data.corpus.docs.map((d) => d.docId)).toEqual(['handbook', 'report']);
    expect(data.questions.map((q) => q.id)).toEqual(['q1', 'q2', 'q3']);
    expect(data.warnings).toEqual([]);
    expect(data.files).toEqual([
      path.join(FIXTURES, 'sample-mini/corpus/handbook.json'),
      path.join(FIXTURES, 'sample-mini/corpus/report.json'),
      path.join(FIXTURES, 'sample-mini/questions.jsonl'),
    ]);
  });

  it('defaults the sample format to the bundled datasets/sample, wherever the config lives', async () => {
    const data = await loadBenchmarkData({ dataset: { format: 'sample' } }, tmpFiles({}));
    expect(data.name).toBe('sample');
    expect(data.corpus.docs.length).toBeGreaterThan(0);
    expect(data.questions.length).toBeGreaterThan(0);
    expect(data.files.every((f) => f.startsWith(BUNDLED_SAMPLE_DIR))).toBe(true);
    // The bundled questions must only point at nodes the bundled corpus has.
    expect(data.warnings).toEqual([]);
  });

  it('warns, with counts, about gold references missing from the corpus', async () => {
    const dir = tmpFiles({
      'corpus/doc.json': JSON.stringify({ docId: 'doc', title: 'Doc', nodes: [{ id: 'n1', title: 'N1' }], pages: ['p1', 'p2'] }),
      'questions.jsonl': [
        { id: 'a', question: 'ok', answers: ['x'], evidence: [{ docId: 'doc', nodeIds: ['n1'] }] },
        { id: 'b', question: 'bad node', answers: ['x'], evidence: [{ docId: 'doc', nodeIds: ['n1', 'n9', 'n8'] }] },
        { id: 'c', question: 'bad doc', answers: ['x'], docIds: ['ghost'], evidence: [{ docId: 'ghost' }] },
        { id: 'd', question: 'bad page', answers: ['x'], evidence: [{ docId: 'doc', pages: [3] }] },
      ]
        .map((q) => JSON.stringify(q))
        .join('\n'),
    });
    const data = await loadBenchmarkData({ dataset: { format: 'sample', path: dir, missingDocs: 'keep' } }, '/');
    expect(data.questions).toHaveLength(4);
    expect(data.warnings).toEqual([
      '1 of 4 questions have gold evidence in documents missing from the corpus: ghost',
      '1 of 4 questions have gold node ids not found in their document (2 ids): doc#n9, doc#n8',
      '1 of 4 questions have gold pages past the end of their document: d (doc has 2 pages)',
      '1 of 4 questions name docIds missing from the corpus: ghost',
    ]);
    const { counts } = checkReferences(data.corpus, data.questions);
    expect(counts).toEqual({ questions: 4, unknownEvidenceDocs: 1, unknownNodes: 1, unknownNodeRefs: 2, pagesOutOfRange: 1, unknownDocIds: 1 });
  });

  it('loads the emanual-s10 dataset with its own corpus', async () => {
    const data = await loadBenchmarkData({ dataset: { format: 'emanual-s10', path: path.join(SHARED, 'emanual-s10') } }, '/');
    expect(data.name).toBe('emanual-s10');
    expect(data.corpus.docs.map((d) => d.docId)).toEqual(['s10']);
    expect(data.questions).toHaveLength(50);
    expect(data.files).toHaveLength(2);
    expect(data.warnings.some((w) => w.includes('49 exactly'))).toBe(true);
  });

  it('loads the aws-docs markdown folder and maps QA_true to existing doc ids', async () => {
    const data = await loadBenchmarkData(
      {
        dataset: {
          format: 'csv',
          path: 'QA_true.subset.csv',
          mapping: { question: 'Question', answers: 'Answer_True', evidenceDocId: 'Document_True', docIdStripExtension: true, tags: 'Yes_No_True' },
        },
        corpus: { format: 'markdown', path: 'documents' },
      },
      AWS,
    );
    // The shared README says 592 files; the folder holds 590 .md files, all loaded.
    const onDisk = countMarkdown(path.join(AWS, 'documents'));
    expect(onDisk).toBe(590);
    expect(data.corpus.docs).toHaveLength(onDisk);
    expect(data.files).toHaveLength(onDisk + 1);
    const ids = new Set(data.corpus.docs.map((d) => d.docId));
    expect(ids.size).toBe(onDisk);
    expect(ids.has('aws-lambda-developer-guide/ruby-tracing')).toBe(true);
    expect(data.questions).toHaveLength(30);
    for (const q of data.questions) expect(ids.has(q.evidence![0].docId), q.evidence![0].docId).toBe(true);
    expect(data.warnings).toEqual([]);
    const doc = data.corpus.docs.find((d) => d.docId === 'amazon-forecast-developer-guide/data-protection')!;
    expect(doc.title).not.toContain('<a name');
  }, 180_000);

  it('loads a PageIndex folder as a corpus with doc ids from the file names', async () => {
    const dir = tmpFiles({
      'q.jsonl': JSON.stringify({ id: 'q', question: 'Revenue?', answers: ['$24.7 billion'], evidence: [{ docId: 'q1-fy25-earnings', nodeIds: ['0002'], pages: [1] }] }),
    });
    const data = await loadBenchmarkData(
      { dataset: { format: 'jsonl', path: path.join(dir, 'q.jsonl') }, corpus: { format: 'pageindex', path: path.join(SHARED, 'pageindex-examples'), pdfText: 'off' } },
      '/',
    );
    expect(data.corpus.docs.map((d) => d.docId)).toEqual(['2023-annual-report', 'earthmover', 'four-lectures', 'q1-fy25-earnings']);
    expect(data.warnings).toEqual([]);
    expect(data.files.filter((f) => f.endsWith('_structure.json'))).toHaveLength(4);
  });

  it('accepts a list of corpus paths and prefers a configured corpus over the dataset one', async () => {
    const data = await loadBenchmarkData(
      {
        dataset: { format: 'sample', path: path.join(FIXTURES, 'sample-mini') },
        corpus: { format: 'native', path: [path.join(FIXTURES, 'sample-mini/corpus/handbook.json'), path.join(FIXTURES, 'sample-mini/corpus/report.json')] },
      },
      '/',
    );
    expect(data.corpus.docs).toHaveLength(2);
    expect(data.warnings[0]).toContain('brings its own corpus');
  });

  it('fails clearly: unknown format, missing corpus section, missing path, bad config keys', async () => {
    const e1 = await rejected(loadBenchmarkData({ dataset: { format: 'parquet', path: 'x' } }, '/'));
    expect(e1).toBeInstanceOf(DataError);
    expect(e1.message).toMatch(/^field "dataset\.format": unknown dataset format "parquet" \(known: .*sample.*emanual-s10.*jsonl.*csv/);
    const q = path.join(FIXTURES, 'sample-mini/questions.jsonl');
    const e2 = await rejected(loadBenchmarkData({ dataset: { format: 'jsonl', path: q } }, '/'));
    expect(e2.field).toBe('corpus');
    const e3 = await rejected(loadBenchmarkData({ dataset: { format: 'jsonl', path: 'nope.jsonl' } }, '/tmp'));
    expect(e3.message).toBe('/tmp/nope.jsonl: field "dataset.path": path not found');
    const e4 = thrown(() => parseDataConfig({ dataset: { format: 'csv', pathh: 'x' } }));
    expect(e4.field).toBe('dataset');
    expect(e4.message).toContain('pathh');
    const e5 = thrown(() => parseDataConfig({ dataset: { format: 'csv', mapping: { pageBase: 3 } } }));
    expect(e5.field).toBe('dataset.mapping.pageBase');
    const e6 = await rejected(
      loadBenchmarkData({ dataset: { format: 'jsonl', path: q }, corpus: { format: 'markdown', path: FIXTURES, docIdFrom: 'field' } }, '/'),
    );
    expect(e6.field).toBe('corpus.docIdFrom');
  });

  it('is a table of loaders: a registered format is usable from a config', async () => {
    const before = datasetLoaders.length;
    registerDatasetLoader({
      name: 'inline-test',
      description: 'one question, one document',
      test: (f) => f === 'inline-test',
      async load() {
        return {
          name: 'inline',
          questions: [{ id: '1', question: 'q', answers: ['a'] }],
          corpus: { name: 'inline', docs: [{ docId: 'd', title: 'D', nodes: [] }] },
          warnings: [],
          files: [],
        };
      },
    });
    try {
      expect(findDatasetLoader('inline-test').name).toBe('inline-test');
      const data = await loadBenchmarkData({ dataset: { format: 'inline-test' } }, '/');
      expect(data.questions).toHaveLength(1);
    } finally {
      datasetLoaders.splice(0, datasetLoaders.length - before);
    }
    expect(datasetLoaders).toHaveLength(before);
  });
});

describe('markdownDocId', () => {
  it('uses the path relative to the corpus folder without .md and doc_source/', () => {
    const root = '/data/documents';
    expect(markdownDocId('/data/documents/guide/doc_source/File.md', root)).toBe('guide/File');
    expect(markdownDocId('/data/documents/notes.markdown', root)).toBe('notes');
    expect(markdownDocId('/elsewhere/Single File.md', null)).toBe('Single File');
  });
});
