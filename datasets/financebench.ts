// FinanceBench (github.com/patronus-ai/financebench, arXiv 2311.11944): questions over public
// company filings, read from one folder:
//
//   financebench_open_source.jsonl            (or .subset.jsonl) one question per line:
//     financebench_id, company, doc_name, question_type, question_reasoning, question, answer,
//     justification, evidence: [{ evidence_text, doc_name, evidence_page_num, evidence_text_full_page }]
//   financebench_document_information.jsonl  (or .subset.jsonl) doc_name, company, gics_sector, doc_type, doc_period, doc_link
//   pdfs/<doc_name>.pdf
//
// Questions: id = financebench_id, answers = [answer], docIds = [doc_name] (FinanceBench names the
// filing in the question's setting, so strategies may see it), gold evidence = the evidence pages
// (evidence_page_num is zero-based; stored 1-based), tags = question_type, question_reasoning.
// The corpus is one tree per filing that a question references, built by the `pdf` corpus loader
// (outline when the PDF has one, else one node per page). Filings without a PDF are skipped with
// their questions (missingDocs: skip, the default, with a warning) or stop the load (fail).
import fs from 'node:fs';
import path from 'node:path';
import type { DocTree, Question } from '../harness/types.ts';
import { DataError, preview } from './errors.ts';
import { byCodeUnit, exists, isDirectory, parseJson, readText } from './files.ts';
import { loadQuestions, type QuestionMappingInput } from './mapping.ts';
import { ingestPdfs, type IngestOptions, type IngestStats } from './ingest.ts';

export const FINANCEBENCH_QUESTION_FILES = ['financebench_open_source.jsonl', 'financebench_open_source.subset.jsonl'];
export const FINANCEBENCH_DOC_INFO_FILES = ['financebench_document_information.jsonl', 'financebench_document_information.subset.jsonl'];

/** The FinanceBench question file through the generic field mapping (located errors for free). */
export const FINANCEBENCH_MAPPING: QuestionMappingInput = {
  id: 'financebench_id',
  question: 'question',
  answers: 'answer',
  docIds: 'doc_name',
  evidenceItems: { path: 'evidence', docId: 'doc_name', pages: 'evidence_page_num' },
  pageBase: 0,
  tags: ['question_type', 'question_reasoning'],
};

export interface FinanceBenchDocInfo {
  docName: string;
  company?: string;
  sector?: string;
  docType?: string;
  period?: string;
  link?: string;
}

export interface FinanceBenchOptions {
  /** Questions whose filing has no PDF: dropped with a warning (`skip`, default) or a DataError (`fail`). */
  missingDocs?: 'skip' | 'fail';
  /** How filings become trees (tree source, summaries, cache); see datasets/ingest.ts. */
  ingest?: IngestOptions;
}

export interface FinanceBenchData {
  questions: Question[];
  docs: DocTree[];
  docInfo: Map<string, FinanceBenchDocInfo>;
  /** Documents questions name that have no PDF, with the number of questions naming each. */
  missing: Array<{ docId: string; questions: number }>;
  warnings: string[];
  files: string[];
  ingest: IngestStats;
}

function firstExisting(dir: string, names: string[], what: string): string {
  for (const n of names) {
    const p = path.join(dir, n);
    if (exists(p)) return p;
  }
  throw new DataError(`no ${what} here (looked for ${names.join(', ')})`, { file: dir, field: 'dataset.path' });
}

/** Document ids a question refers to: the filing it names and every gold evidence document. */
export function referencedDocs(q: Question): string[] {
  return [...new Set([...(q.docIds ?? []), ...(q.evidence ?? []).map((e) => e.docId)])];
}

export async function loadFinanceBench(dir: string, opts: FinanceBenchOptions = {}): Promise<FinanceBenchData> {
  if (!isDirectory(dir)) throw new DataError('the financebench format expects a folder with the question and document JSONL files and pdfs/', { file: dir, field: 'dataset.path' });
  const missingDocs = opts.missingDocs ?? 'skip';
  const questionsFile = firstExisting(dir, FINANCEBENCH_QUESTION_FILES, 'FinanceBench question file');
  const infoFile = firstExisting(dir, FINANCEBENCH_DOC_INFO_FILES, 'FinanceBench document information file');
  const pdfDir = path.join(dir, 'pdfs');
  if (!isDirectory(pdfDir)) throw new DataError('missing pdfs/ folder (the filings, as <doc_name>.pdf)', { file: pdfDir, field: 'dataset.path' });

  const warnings: string[] = [];
  const all = loadQuestions(questionsFile, FINANCEBENCH_MAPPING, { format: 'jsonl', mappingField: 'dataset.mapping' });
  const docInfo = readDocInfo(infoFile);

  // Which referenced filings have a PDF (exact name first, then ignoring case).
  const onDisk = new Map<string, string>();
  for (const name of fs.readdirSync(pdfDir)) if (/\.pdf$/i.test(name)) onDisk.set(name.toLowerCase(), name);
  const pdfOf = new Map<string, string | null>();
  for (const q of all) {
    for (const d of referencedDocs(q)) {
      if (pdfOf.has(d)) continue;
      const exact = path.join(pdfDir, `${d}.pdf`);
      const loose = onDisk.get(`${d}.pdf`.toLowerCase());
      pdfOf.set(d, exists(exact) ? exact : loose ? path.join(pdfDir, loose) : null);
    }
  }
  const missingIds = [...pdfOf].filter(([, p]) => p === null).map(([d]) => d);
  const missing = missingIds.map((docId) => ({ docId, questions: all.filter((q) => referencedDocs(q).includes(docId)).length }));
  let questions = all;
  if (missing.length) {
    const list = missing.map((m) => `${m.docId} (${m.questions} question${m.questions === 1 ? '' : 's'})`).join(', ');
    if (missingDocs === 'fail') {
      throw new DataError(`${missing.length} document(s) named by questions have no PDF here: ${list}; set dataset.missingDocs: skip to drop their questions`, {
        file: pdfDir,
        field: 'dataset.missingDocs',
      });
    }
    const gone = new Set(missingIds);
    questions = all.filter((q) => !referencedDocs(q).some((d) => gone.has(d)));
    warnings.push(
      `financebench: ${missing.length} document(s) have no PDF in ${pdfDir}: ${list}; dropped ${all.length - questions.length} of ${all.length} questions (missingDocs: skip)`,
    );
  }

  // One tree per filing that a kept question references, in a stable order.
  const wanted = [...new Set(questions.flatMap(referencedDocs))].sort(byCodeUnit);
  const noInfo = wanted.filter((d) => !docInfo.has(d));
  if (noInfo.length) warnings.push(`financebench: ${noInfo.length} document(s) have no line in ${path.basename(infoFile)}; titled by doc_name: ${noInfo.join(', ')}`);
  const pdfs = wanted.map((d) => pdfOf.get(d)!);
  const { docs, stats } = await ingestPdfs(
    wanted.map((docId, i) => {
      const info = docInfo.get(docId);
      return { file: pdfs[i], docId, ...(info ? { title: docTitle(info), description: docDescription(info) } : {}) };
    }),
    { ...opts.ingest, warnings },
  );
  const files = [questionsFile, infoFile, ...pdfs];
  return { questions, docs, docInfo, missing, warnings, files, ingest: stats };
}

function readDocInfo(file: string): Map<string, FinanceBenchDocInfo> {
  const out = new Map<string, FinanceBenchDocInfo>();
  const where = new Map<string, number>();
  readText(file)
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const line = i + 1;
      if (raw.trim() === '') return;
      const rec = parseJson(raw, file, i);
      if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) throw new DataError(`expected a JSON object per line, got ${preview(rec)}`, { file, line });
      const r = rec as Record<string, unknown>;
      const name = typeof r.doc_name === 'string' ? r.doc_name.trim() : '';
      if (!name) throw new DataError(r.doc_name === undefined ? 'missing required field' : `expected a string, got ${preview(r.doc_name)}`, { file, line, field: 'doc_name' });
      if (where.has(name)) throw new DataError(`duplicate doc_name "${name}" (first at line ${where.get(name)})`, { file, line, field: 'doc_name' });
      where.set(name, line);
      const str = (k: string): string | undefined => {
        const v = r[k];
        if (v === undefined || v === null || v === '') return undefined;
        if (typeof v === 'string' || typeof v === 'number') return String(v).trim() || undefined;
        throw new DataError(`expected a string, got ${preview(v)}`, { file, line, field: k });
      };
      const info: FinanceBenchDocInfo = { docName: name };
      const set = <K extends keyof FinanceBenchDocInfo>(k: K, v: FinanceBenchDocInfo[K] | undefined) => {
        if (v !== undefined) info[k] = v;
      };
      set('company', str('company'));
      set('sector', str('gics_sector'));
      set('docType', str('doc_type'));
      set('period', str('doc_period'));
      set('link', str('doc_link'));
      out.set(name, info);
    });
  return out;
}

/** `10k` -> `10-K`, `Earnings` -> `earnings release`; anything else as given. */
export function docTypeLabel(docType: string | undefined): string | undefined {
  if (!docType) return undefined;
  const m = /^(10|8)-?([kq])$/i.exec(docType.trim());
  if (m) return `${m[1]}-${m[2].toUpperCase()}`;
  if (/^earnings$/i.test(docType.trim())) return 'earnings release';
  return docType.trim();
}

/** "3M 10-K 2018": company, document type and period from the document information. */
export function docTitle(info: FinanceBenchDocInfo): string {
  const parts = [info.company, docTypeLabel(info.docType), info.period].filter((s): s is string => Boolean(s));
  return parts.length ? parts.join(' ') : info.docName;
}

/** What a document-selection prompt reads about a filing. */
export function docDescription(info: FinanceBenchDocInfo): string {
  const kind = docTypeLabel(info.docType);
  const long: Record<string, string> = { '10-K': 'annual report (Form 10-K)', '10-Q': 'quarterly report (Form 10-Q)', '8-K': 'current report (Form 8-K)' };
  const what = kind ? (long[kind] ?? kind) : 'filing';
  const parts = [`${info.company ?? info.docName} ${what}${info.period ? `, fiscal ${info.period}` : ''}`];
  if (info.sector) parts.push(`sector: ${info.sector}`);
  return parts.join('; ');
}
