// Paths that come from data stay inside the folder the config named: a FinanceBench doc_name or a
// PageIndex doc_name of `../../outside/secret` never makes a loader read a file outside it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataPath } from '../../harness/files/containment.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { makePdf } from '../datasets/pdf-writer.ts';
import { cli, recordLines, tmp, writeConfig } from '../resilience/helpers.ts';

const SECRET = 'Confidential payroll figure 918273 for the outside folder';

/** root/fb: a FinanceBench folder whose second question names a PDF outside pdfs/; root/outside/secret.pdf exists. */
function financeBenchWithEscape(): { root: string; fb: string } {
  const root = tmp();
  const fb = path.join(root, 'fb');
  fs.mkdirSync(path.join(fb, 'pdfs'), { recursive: true });
  fs.mkdirSync(path.join(root, 'outside'));
  fs.writeFileSync(path.join(root, 'outside', 'secret.pdf'), makePdf([[SECRET, 'Second line of the secret page.']]));
  fs.writeFileSync(path.join(fb, 'pdfs', 'ACME_2023_10K.pdf'), makePdf([['ACME annual report', 'Revenue was 42 million dollars in 2023.']]));
  const q = (id: string, doc: string, question: string, answer: string) =>
    JSON.stringify({ financebench_id: id, company: 'ACME', doc_name: doc, question_type: 'extraction', question_reasoning: null, question, answer, justification: '', evidence: [{ evidence_text: answer, doc_name: doc, evidence_page_num: 0, evidence_text_full_page: '' }] });
  fs.writeFileSync(
    path.join(fb, 'financebench_open_source.jsonl'),
    [q('fb-1', 'ACME_2023_10K', 'What was ACME revenue in 2023?', '42 million dollars'), q('fb-2', '../../outside/secret', 'What is the payroll figure?', '918273')].join('\n') + '\n',
  );
  fs.writeFileSync(
    path.join(fb, 'financebench_document_information.jsonl'),
    [JSON.stringify({ doc_name: 'ACME_2023_10K', company: 'ACME', doc_type: '10k', doc_period: 2023 }), JSON.stringify({ doc_name: '../../outside/secret', company: 'ACME' })].join('\n') + '\n',
  );
  return { root, fb };
}

describe('dataPath', () => {
  it('joins plain names, and refuses every name that leads out of the folder', () => {
    expect(dataPath('/data/pdfs', 'ACME_2023_10K', { suffix: '.pdf' })).toBe('/data/pdfs/ACME_2023_10K.pdf');
    expect(dataPath('/data/pdfs', '..hidden-but-inside', { suffix: '.pdf' })).toBe('/data/pdfs/..hidden-but-inside.pdf');
    for (const name of ['../../outside/secret', '..', '../x', '/etc/passwd', 'a/../../b', 'C:\\x', 'x\u0000y', '', 'sub/doc']) {
      expect(dataPath('/data/pdfs', name, { suffix: '.pdf' }), name).toBeNull();
    }
    expect(dataPath('/data/pdfs', 'sub/doc', { suffix: '.pdf', subfolders: true })).toBe('/data/pdfs/sub/doc.pdf');
    expect(dataPath('/data/pdfs', 'sub/../../doc', { subfolders: true })).toBeNull();
  });
});

describe('a FinanceBench doc_name of ../../outside/secret', () => {
  it('is not read: a warning names it, its question is dropped as having no PDF, and the secret reaches no answer', async () => {
    const { root, fb } = financeBenchWithEscape();
    const data = await loadBenchmarkData({ dataset: { format: 'financebench', path: fb } }, root, { quiet: true });
    expect(data.warnings.join('\n')).toMatch(/doc_name "\.\.\/\.\.\/outside\/secret" is not a plain name inside .*pdfs; not looking for a file outside that folder/);
    expect(data.questions.map((q) => q.id)).toEqual(['fb-1']);
    expect(JSON.stringify(data.corpus)).not.toContain('Confidential payroll');
    expect(data.files.some((f) => f.includes('outside'))).toBe(false);

    // missingDocs: keep runs the question, with no document to find: the secret still reaches nothing.
    const config = writeConfig(root, { dataset: { format: 'financebench', path: fb, missingDocs: 'keep' }, strategies: ['vector', 'node-list'], run: { outDir: path.join(root, 'runs') } });
    const r = await cli('run', config, '--run-id', 'r', '--quiet');
    expect(r.code, r.err).toBe(0);
    // (918273 is the question's gold answer, which records keep; the page text is what must not appear.)
    expect(fs.readFileSync(path.join(root, 'runs', 'r', 'records.jsonl'), 'utf8')).not.toContain('Confidential payroll');
    expect(recordLines(path.join(root, 'runs', 'r', 'records.jsonl')).map((x) => x.questionId).sort()).toEqual(['fb-1', 'fb-1', 'fb-2', 'fb-2']);
  }, 60_000);
});

describe('a PageIndex doc_name that leads out of corpus.pdf', () => {
  it('gets no page text from outside the folder, with a warning', async () => {
    const root = tmp();
    fs.mkdirSync(path.join(root, 'trees'));
    fs.mkdirSync(path.join(root, 'pdfs'));
    fs.writeFileSync(path.join(root, 'secret.pdf'), makePdf([[SECRET]]));
    fs.writeFileSync(path.join(root, 'trees', 'a_structure.json'), JSON.stringify({ doc_name: '../secret', structure: [{ title: 'Intro', node_id: '0001', start_index: 1, end_index: 1, nodes: [] }] }));
    fs.writeFileSync(path.join(root, 'q.jsonl'), JSON.stringify({ id: 'q1', question: 'payroll figure?', answers: ['918273'], docIds: ['../secret'] }) + '\n');
    const data = await loadBenchmarkData(
      { dataset: { format: 'jsonl', path: 'q.jsonl', missingDocs: 'keep' }, corpus: { format: 'pageindex', path: 'trees', docIdFrom: 'field', pdf: 'pdfs' } },
      root,
      { quiet: true },
    );
    expect(data.warnings.join('\n')).toMatch(/docId "\.\.\/secret" is not a plain name inside/);
    expect(data.corpus.docs[0]!.pages).toBeUndefined();
    expect(JSON.stringify(data.corpus)).not.toContain('Confidential payroll');
  });
});
