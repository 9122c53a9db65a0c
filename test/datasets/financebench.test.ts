import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../harness/config/runConfig.ts';
import { DataError } from '../../datasets/errors.ts';
import { docDescription, docTitle, docTypeLabel, FINANCEBENCH_MAPPING, loadFinanceBench } from '../../datasets/financebench.ts';
import { loadQuestions } from '../../datasets/mapping.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { treeInvariantErrors } from '../../datasets/treeBuild/index.ts';
import { rejected, SHARED, tmpFiles } from './helpers.ts';

const FB = path.join(SHARED, 'financebench');
const QUESTIONS = path.join(FB, 'financebench_open_source.subset.jsonl');
const DOC_INFO = path.join(FB, 'financebench_document_information.subset.jsonl');
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

interface RawQuestion {
  financebench_id: string;
  doc_name: string;
  question: string;
  answer: string;
  question_type: string | null;
  question_reasoning: string | null;
  evidence: Array<{ doc_name: string; evidence_page_num: number; evidence_text: string }>;
}
const raw: RawQuestion[] = fs
  .readFileSync(QUESTIONS, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));

// The two smallest filings (9 and 15 pages) and the two that have no PDF in the shared copy.
const SMALL = ['ULTABEAUTY_2023Q4_EARNINGS', 'MGMRESORTS_2022Q4_EARNINGS'];
const MISSING = ['AMD_2022_10K', 'ULTABEAUTY_2023_10K'];

/** A FinanceBench folder with the questions of `docs` only (real lines) and the PDFs of the small filings. */
function subsetFolder(docs: string[]): string {
  const lines = fs
    .readFileSync(QUESTIONS, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && docs.includes(JSON.parse(l).doc_name));
  const dir = tmpFiles({
    'financebench_open_source.subset.jsonl': lines.join('\n') + '\n',
    'financebench_document_information.subset.jsonl': fs.readFileSync(DOC_INFO, 'utf8'),
  });
  fs.mkdirSync(path.join(dir, 'pdfs'));
  // Symlinks: readPdf caches by real path, so every test folder shares one extraction.
  for (const d of docs.filter((x) => SMALL.includes(x))) fs.symlinkSync(path.join(FB, 'pdfs', `${d}.pdf`), path.join(dir, 'pdfs', `${d}.pdf`));
  return dir;
}

const words = (s: string) => new Set((s.toLowerCase().match(/[a-z0-9][a-z0-9.,$%()-]*[a-z0-9%)]/g) ?? []).filter((w) => w.length >= 4));
/** Share of the evidence text's words found on a page. */
function coverage(evidence: string, page: string | undefined): number {
  const ev = [...words(evidence)];
  const onPage = words(page ?? '');
  return ev.filter((w) => onPage.has(w)).length / ev.length;
}

describe('FinanceBench questions', () => {
  it('maps every line: id, question, answer, docIds, tags, evidence pages zero-based -> 1-based', () => {
    const qs = loadQuestions(QUESTIONS, FINANCEBENCH_MAPPING, { format: 'jsonl' });
    expect(qs).toHaveLength(46);
    qs.forEach((q, i) => {
      const r = raw[i];
      expect(q.id).toBe(r.financebench_id);
      expect(q.question).toBe(r.question.trim());
      expect(q.answers).toEqual([r.answer.trim()]);
      expect(q.docIds).toEqual([r.doc_name]);
      expect(q.tags).toEqual([r.question_type, r.question_reasoning].filter((t) => t !== null));
      expect(q.evidence).toEqual([{ docId: r.doc_name, pages: [...new Set(r.evidence.map((e) => e.evidence_page_num + 1))] }]);
    });
    // An evidence page of 0 (ULTABEAUTY_2023_10K's cover) becomes page 1.
    expect(qs.find((q) => q.id === 'financebench_id_00746')!.evidence).toEqual([{ docId: 'ULTABEAUTY_2023_10K', pages: [1] }]);
  });

  it('titles and describes filings from the document information', () => {
    expect(docTypeLabel('10k')).toBe('10-K');
    expect(docTypeLabel('10q')).toBe('10-Q');
    expect(docTypeLabel('8k')).toBe('8-K');
    expect(docTypeLabel('Earnings')).toBe('earnings release');
    const info = { docName: '3M_2018_10K', company: '3M', sector: 'Industrials', docType: '10k', period: '2018' };
    expect(docTitle(info)).toBe('3M 10-K 2018');
    expect(docDescription(info)).toBe('3M annual report (Form 10-K), fiscal 2018; sector: Industrials');
    expect(docTitle({ docName: 'X_2020_10K' })).toBe('X_2020_10K');
  });
});

describe('FinanceBench loader', () => {
  it('loads the referenced filings from their PDFs; gold pages hold the evidence text (the off-by-one is right)', async () => {
    const dir = subsetFolder(SMALL);
    const data = await loadFinanceBench(dir);
    expect(data.warnings).toEqual([]);
    expect(data.missing).toEqual([]);
    const expected = raw.filter((r) => SMALL.includes(r.doc_name));
    expect(data.questions.map((q) => q.id)).toEqual(expected.map((r) => r.financebench_id));
    // Only the PDFs questions reference, sorted; page-per-page trees (neither PDF has a usable outline).
    expect(data.docs.map((d) => d.docId)).toEqual(['MGMRESORTS_2022Q4_EARNINGS', 'ULTABEAUTY_2023Q4_EARNINGS']);
    expect(data.files.map((f) => path.basename(f))).toEqual([
      'financebench_open_source.subset.jsonl',
      'financebench_document_information.subset.jsonl',
      'MGMRESORTS_2022Q4_EARNINGS.pdf',
      'ULTABEAUTY_2023Q4_EARNINGS.pdf',
    ]);
    const [mgm, ulta] = data.docs;
    expect(mgm.pages).toHaveLength(15);
    expect(ulta.pages).toHaveLength(9);
    expect(ulta.title).toBe('Ulta Beauty earnings release 2023');
    // Ulta's PDF has a single bookmark (its headline), no structure: the tree comes from the
    // headings of the release (datasets/treeBuild), in page order, covering every page.
    expect(ulta.treeSource).toBe('layout');
    expect(treeInvariantErrors(ulta.nodes, 9)).toEqual([]);
    const ultaTop = ulta.nodes.map((n) => n.title);
    for (const t of ['Balance Sheet', 'Share Repurchase Program', 'Fiscal 2023 Outlook', 'Conference Call Information']) expect(ultaTop).toContain(t);
    expect(ultaTop.indexOf('Balance Sheet')).toBeLessThan(ultaTop.indexOf('Fiscal 2023 Outlook'));
    expect(mgm.treeSource).toBe('layout');
    expect(treeInvariantErrors(mgm.nodes, 15)).toEqual([]);
    expect(mgm.nodes.map((n) => n.title)).toEqual(expect.arrayContaining(['Consolidated Results', 'Las Vegas Strip Resorts', 'MGM China']));
    expect(mgm.description).toBe('MGM Resorts earnings release, fiscal 2022; sector: Consumer Discretionary');

    const docs = new Map(data.docs.map((d) => [d.docId, d]));
    let checked = 0;
    for (const q of data.questions) {
      const r = raw.find((x) => x.financebench_id === q.id)!;
      for (const e of r.evidence) {
        const doc = docs.get(e.doc_name)!;
        const page = e.evidence_page_num + 1;
        expect(q.evidence![0].pages).toContain(page);
        // The stored 1-based page holds the evidence text, word for word.
        expect(coverage(e.evidence_text, doc.pages![page - 1]), `${q.id} page ${page}`).toBeGreaterThanOrEqual(0.95);
        checked++;
      }
    }
    expect(checked).toBe(9);
    // Taking evidence_page_num as 1-based would point at the wrong page.
    const q00601 = raw.find((r) => r.financebench_id === 'financebench_id_00601')!.evidence[0];
    expect(q00601.evidence_page_num).toBe(1);
    expect(coverage(q00601.evidence_text, ulta.pages![1])).toBe(1);
    expect(coverage(q00601.evidence_text, ulta.pages![0])).toBeLessThan(0.5);
  });

  it('missingDocs: skip drops the questions of filings without a PDF, with a warning naming them', async () => {
    const dir = subsetFolder([...SMALL, ...MISSING]);
    const data = await loadBenchmarkData({ dataset: { format: 'financebench', path: dir } }, '/');
    const dropped = raw.filter((r) => MISSING.includes(r.doc_name)).length;
    expect(dropped).toBe(9);
    expect(data.name).toBe('financebench');
    expect(data.questions).toHaveLength(7);
    expect(data.questions.some((q) => MISSING.includes(q.docIds![0]))).toBe(false);
    expect(data.corpus.docs.map((d) => d.docId)).toEqual(['MGMRESORTS_2022Q4_EARNINGS', 'ULTABEAUTY_2023Q4_EARNINGS']);
    expect(data.warnings).toEqual([
      `financebench: 2 document(s) have no PDF in ${path.join(dir, 'pdfs')}: AMD_2022_10K (7 questions), ULTABEAUTY_2023_10K (2 questions); dropped 9 of 16 questions (missingDocs: skip)`,
    ]);
  });

  it('setting: open reads every PDF in the folder, whatever runs, and the questions no longer name their filing', async () => {
    // Questions of one filing only, PDFs of two: closed reads one, open reads both.
    const dir = subsetFolder([SMALL[0]!]);
    fs.symlinkSync(path.join(FB, 'pdfs', `${SMALL[1]}.pdf`), path.join(dir, 'pdfs', `${SMALL[1]}.pdf`));
    const closed = await loadBenchmarkData({ dataset: { format: 'financebench', path: dir } }, '/');
    expect(closed.corpus.docs.map((d) => d.docId)).toEqual([SMALL[0]]);
    expect(closed.questions.every((q) => q.docIds?.[0] === SMALL[0])).toBe(true);
    const open = await loadBenchmarkData({ dataset: { format: 'financebench', path: dir, setting: 'open' } }, '/', { select: (qs) => qs.slice(0, 1) });
    expect(open.corpus.docs.map((d) => d.docId).sort()).toEqual([...SMALL].sort());
    expect(open.questions.length).toBe(closed.questions.length);
    expect(open.questions.every((q) => q.docIds === undefined && q.evidence?.every((e) => e.docId === SMALL[0]))).toBe(true);
    expect(open.notes).toContain('financebench: open setting: 2 filings as one corpus; questions do not name their filing');
    // The document table travels with each filing, for docSelect: metadata.
    expect(open.corpus.docs.find((d) => d.docId === 'MGMRESORTS_2022Q4_EARNINGS')!.metadata).toEqual({ company: 'MGM Resorts', period: '2022', type: 'Earnings', sector: 'Consumer Discretionary' });
    // Another format has no such setting.
    await expect(loadBenchmarkData({ dataset: { format: 'sample', setting: 'open' } }, '/')).rejects.toThrow(/the sample format does not use dataset.setting/);
  });

  it('a truncated filing is skipped (named, its questions dropped); corpus.strict makes it an error', async () => {
    const dir = subsetFolder(SMALL);
    const docs = [...SMALL, 'AMD_2022_10K'];
    const lines = fs.readFileSync(QUESTIONS, 'utf8').split('\n').filter((l) => l.trim() && docs.includes(JSON.parse(l).doc_name));
    fs.writeFileSync(path.join(dir, 'financebench_open_source.subset.jsonl'), lines.join('\n') + '\n');
    // The first 2 KB of a real filing: a PDF cut off in the download.
    const cut = path.join(dir, 'pdfs', 'AMD_2022_10K.pdf');
    fs.writeFileSync(cut, fs.readFileSync(path.join(FB, 'pdfs', `${SMALL[0]}.pdf`)).subarray(0, 2048));
    const corpus = { cacheDir: path.join(dir, 'ingest') };
    const data = await loadBenchmarkData({ dataset: { format: 'financebench', path: dir }, corpus }, '/');
    expect(data.corpus.docs.map((d) => d.docId)).toEqual(['MGMRESORTS_2022Q4_EARNINGS', 'ULTABEAUTY_2023Q4_EARNINGS']);
    expect(data.ingest?.skipped?.map((s) => s.file)).toEqual([cut]);
    expect(data.questions.some((q) => q.docIds?.includes('AMD_2022_10K'))).toBe(false);
    expect(data.warnings.some((w) => w.startsWith(`${cut}: skipped, `))).toBe(true);
    expect(data.warnings.some((w) => /dropped 7 of 14 questions that name a skipped document \(AMD_2022_10K\)/.test(w))).toBe(true);
    const e = await rejected(loadBenchmarkData({ dataset: { format: 'financebench', path: dir }, corpus: { ...corpus, strict: true } }, '/'));
    expect(e.field).toBe('corpus.strict');
    expect(e.message).toContain('AMD_2022_10K.pdf');
  });

  it('missingDocs: fail stops with a DataError listing the missing filings', async () => {
    const dir = subsetFolder([...SMALL, ...MISSING]);
    const e = await rejected(loadBenchmarkData({ dataset: { format: 'financebench', path: dir, missingDocs: 'fail' } }, '/'));
    expect(e).toBeInstanceOf(DataError);
    expect(e.field).toBe('dataset.missingDocs');
    expect(e.file).toBe(path.join(dir, 'pdfs'));
    expect(e.message).toContain('2 document(s) named by questions have no PDF here: AMD_2022_10K (7 questions), ULTABEAUTY_2023_10K (2 questions)');
  });

  it('names missing files and bad lines', async () => {
    const empty = tmpFiles({});
    const e1 = await rejected(loadFinanceBench(empty));
    expect(e1.message).toContain('no FinanceBench question file here');
    const dir = subsetFolder(SMALL.slice(0, 1));
    fs.appendFileSync(path.join(dir, 'financebench_open_source.subset.jsonl'), '{"financebench_id":"x","doc_name":"D","question":"q?","answer":"a","evidence":[{"evidence_page_num":-1}]}\n');
    const e2 = await rejected(loadFinanceBench(dir));
    expect(e2).toBeInstanceOf(DataError);
    expect(e2.line).toBe(5);
    expect(e2.field).toBe('evidence.0.evidence_page_num');
    fs.rmSync(path.join(dir, 'pdfs'), { recursive: true });
    const e3 = await rejected(loadFinanceBench(dir));
    expect(e3.message).toContain('missing pdfs/ folder');
  });

  it('ships a valid config for the shared copy', () => {
    const loaded = loadConfig(path.join(REPO, 'configs/financebench.yaml'));
    expect(loaded.config.dataset).toMatchObject({ format: 'financebench', path: '../../shared/datasets/financebench', missingDocs: 'skip' });
    expect(path.resolve(loaded.baseDir, loaded.config.dataset.path!)).toBe(FB);
    expect(loaded.strategies.map((s) => s.id)).toEqual(['vector', 'node-list', 'layerwise', 'hybrid-beam', 'mcts', 'agent']);
    expect(loaded.config.scoring.numericRelTol).toBe(0.01);
    // Filings become built trees (outline, printed TOC, layout headings or page groups), with summaries.
    expect(loaded.config.corpus).toMatchObject({ tree: 'auto', summaries: 'auto', cache: true });
  });
});
