// FinanceBench (github.com/patronus-ai/financebench, arXiv 2311.11944): questions over public
// company filings, read from one folder:
//
//   financebench_open_source.jsonl            (or .subset.jsonl) one question per line:
//     financebench_id, company, doc_name, question_type, question_reasoning, question, answer,
//     justification, evidence: [{ evidence_text, doc_name, evidence_page_num, evidence_text_full_page }]
//   financebench_document_information.jsonl  (or .subset.jsonl) doc_name, company, gics_sector, doc_type, doc_period, doc_link
//   pdfs/<doc_name>.pdf
//
// The upstream repository's layout works too: the two JSONL files under `data/` with `pdfs/`
// beside `data/` (point `path` at the repository or at `data/`), or `path` naming the question
// file and `pdfs` the PDF folder. A duplicate doc_name in the document information is a
// warning when no question uses it (upstream has one); when a question does and the two records
// differ, it is an error.
//
// Questions: id = financebench_id, answers = [answer], docIds = [doc_name] (FinanceBench names the
// filing in the question's setting, so strategies may see it), gold evidence = the evidence pages
// (evidence_page_num is zero-based; stored 1-based), tags = question_type, question_reasoning.
// The corpus is one tree per filing that a question references, built by the `pdf` corpus loader
// (outline when the PDF has one, else one node per page). Filings without a PDF are skipped with
// their questions (missingDocs: skip, the default, with a warning) or stop the load (fail).
import fs from 'node:fs';
import path from 'node:path';
import type { DocMetadata, DocTree, Question } from '../harness/types.ts';
import { dataPath, escapeWarning } from '../harness/files/containment.ts';
import { DataError, preview } from './errors.ts';
import { byCodeUnit, exists, isDirectory, parseJsonLine, readText } from './files.ts';
import { loadQuestionSet, questionSetNotes, type LoadQuestionsOptions, type QuestionMappingInput } from './mapping.ts';
import { ingestPdfs, type IngestOptions, type IngestStats } from './ingest.ts';
import { referencedDocs } from './references.ts';

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
  /** Questions whose filing has no PDF: dropped with a warning (`skip`, default), a DataError (`fail`) or kept (`keep`). */
  missingDocs?: 'skip' | 'fail' | 'keep';
  /** Folder of the PDFs when not `pdfs/` beside the question files (or beside their `data/` folder). */
  pdfs?: string;
  /**
   * `closed` (default): questions name their filing (docIds) and only the filings the running
   * questions name are read. `open`: every PDF in the folder is one corpus, whatever runs, and
   * questions do not name their filing: a strategy must find it (gold evidence still names it).
   */
  setting?: 'closed' | 'open';
  /** The questions that will run (--limit, --shard): only their filings are extracted. */
  select?: (questions: Question[]) => Question[];
  /** Question rows: filter and invalid-row handling, as for any mapped dataset. */
  questionOptions?: Pick<LoadQuestionsOptions, 'filter' | 'onInvalid'>;
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
  /** Load summary lines (rows read, filtered, skipped). */
  notes: string[];
  /** Every referenced filing that has a PDF (docs holds only those the running questions need). */
  available: Array<{ docId: string; file: string }>;
  files: string[];
  ingest: IngestStats;
}

function firstExisting(dir: string, names: string[], what: string, also = ''): string {
  for (const n of names) {
    const p = path.join(dir, n);
    if (exists(p)) return p;
  }
  throw new DataError(`no ${what} here (looked for ${names.join(', ')}${also})`, { file: dir, field: 'dataset.path' });
}

/**
 * Where the question file, the document information and the PDFs are: `target` is the folder
 * holding the JSONL files, a repository with them under `data/`, or the question file itself.
 */
export function financeBenchLayout(target: string, pdfs?: string): { questionsFile: string; infoFile: string; pdfDir: string } {
  let dataDir: string;
  let questionsFile: string;
  if (isDirectory(target)) {
    const here = FINANCEBENCH_QUESTION_FILES.some((n) => exists(path.join(target, n)));
    const upstream = !here && FINANCEBENCH_QUESTION_FILES.some((n) => exists(path.join(target, 'data', n)));
    dataDir = upstream ? path.join(target, 'data') : target;
    questionsFile = firstExisting(dataDir, FINANCEBENCH_QUESTION_FILES, 'FinanceBench question file', ' (nor under data/)');
  } else if (exists(target)) {
    questionsFile = target;
    dataDir = path.dirname(target);
  } else throw new DataError('path not found', { file: target, field: 'dataset.path' });
  const infoFile = firstExisting(dataDir, FINANCEBENCH_DOC_INFO_FILES, 'FinanceBench document information file');
  const candidates = pdfs ? [pdfs] : [path.join(dataDir, 'pdfs'), path.join(path.dirname(dataDir), 'pdfs')];
  const pdfDir = candidates.find(isDirectory);
  if (!pdfDir) {
    throw new DataError(
      pdfs ? 'the PDF folder does not exist' : `missing pdfs/ folder (the filings, as <doc_name>.pdf), looked in ${candidates.join(' and ')}; set dataset.pdfs`,
      { file: candidates[0], field: pdfs ? 'dataset.pdfs' : 'dataset.path' },
    );
  }
  return { questionsFile, infoFile, pdfDir };
}

export async function loadFinanceBench(dir: string, opts: FinanceBenchOptions = {}): Promise<FinanceBenchData> {
  if (!exists(dir)) throw new DataError('the financebench format expects a folder with the question and document JSONL files and pdfs/', { file: dir, field: 'dataset.path' });
  const missingDocs = opts.missingDocs ?? 'skip';
  const { questionsFile, infoFile, pdfDir } = financeBenchLayout(dir, opts.pdfs);

  const warnings: string[] = [];
  const set = loadQuestionSet(questionsFile, FINANCEBENCH_MAPPING, { format: 'jsonl', mappingField: 'dataset.mapping', ...opts.questionOptions });
  const all = set.questions;
  const notes = questionSetNotes(set, questionsFile, warnings);
  const { info: docInfo, duplicates } = readDocInfo(infoFile);
  const usedDocs = new Set(all.flatMap(referencedDocs));
  for (const d of duplicates) {
    const msg = `duplicate doc_name "${d.name}" (first at line ${d.firstLine})`;
    if (usedDocs.has(d.name) && !d.same) throw new DataError(`${msg}, and the two records differ; a question uses it, so which one is meant is unclear`, { file: infoFile, line: d.line, field: 'doc_name' });
    warnings.push(`${infoFile}:${d.line}: ${msg}; ${d.same ? 'the same record twice' : 'no question uses it'}, kept the first`);
  }

  // Which referenced filings have a PDF (exact name first, then ignoring case).
  const onDisk = new Map<string, string>();
  for (const name of fs.readdirSync(pdfDir)) if (/\.pdf$/i.test(name)) onDisk.set(name.toLowerCase(), name);
  // A doc_name is data: it names a file inside pdfDir and nowhere else (harness/files/containment.ts).
  const pdfOf = new Map<string, string | null>();
  for (const q of all) {
    for (const d of referencedDocs(q)) {
      if (pdfOf.has(d)) continue;
      const exact = dataPath(pdfDir, d, { suffix: '.pdf' });
      if (!exact) {
        warnings.push(escapeWarning(questionsFile, 'doc_name', d, pdfDir));
        pdfOf.set(d, null);
        continue;
      }
      const loose = onDisk.get(`${d}.pdf`.toLowerCase());
      pdfOf.set(d, exists(exact) ? exact : loose ? path.join(pdfDir, loose) : null);
    }
  }
  const missingIds = [...pdfOf].filter(([, p]) => p === null).map(([d]) => d);
  const missing = missingIds.map((docId) => ({ docId, questions: all.filter((q) => referencedDocs(q).includes(docId)).length }));
  let questions = all;
  if (missing.length) {
    const list = missing.map((m) => `${m.docId} (${m.questions} question${m.questions === 1 ? '' : 's'})`).join(', ');
    if (missingDocs === 'keep') {
      warnings.push(`financebench: ${missing.length} document(s) have no PDF in ${pdfDir}: ${list}; their questions are kept and cannot find their gold (missingDocs: keep)`);
    } else if (missingDocs === 'fail') {
      throw new DataError(`${missing.length} document(s) named by questions have no PDF here: ${list}; set dataset.missingDocs: skip to drop their questions`, {
        file: pdfDir,
        field: 'dataset.missingDocs',
      });
    } else {
      const gone = new Set(missingIds);
      questions = all.filter((q) => !referencedDocs(q).some((d) => gone.has(d)));
      warnings.push(
        `financebench: ${missing.length} document(s) have no PDF in ${pdfDir}: ${list}; dropped ${all.length - questions.length} of ${all.length} questions (missingDocs: skip)`,
      );
    }
  }

  // Closed: one tree per filing that a question to run references (after --limit/--shard). Open:
  // every filing with a PDF, whatever runs, and the questions no longer say which is theirs.
  // Either way in a stable order.
  const open = opts.setting === 'open';
  if (open) {
    for (const [lower, name] of onDisk) {
      const docId = name.replace(/\.pdf$/i, '');
      if (![...pdfOf.keys()].some((d) => `${d}.pdf`.toLowerCase() === lower)) pdfOf.set(docId, path.join(pdfDir, name));
    }
    for (const q of questions) delete q.docIds;
    notes.push(`financebench: open setting: ${[...pdfOf.values()].filter(Boolean).length} filings as one corpus; questions do not name their filing`);
  }
  const running = opts.select ? opts.select(questions) : questions;
  const wanted = (open ? [...pdfOf.keys()] : [...new Set(running.flatMap(referencedDocs))]).filter((d) => pdfOf.get(d)).sort(byCodeUnit);
  const noInfo = wanted.filter((d) => !docInfo.has(d));
  if (noInfo.length) warnings.push(`financebench: ${noInfo.length} document(s) have no line in ${path.basename(infoFile)}; titled by doc_name: ${noInfo.join(', ')}`);
  const pdfs = wanted.map((d) => pdfOf.get(d)!);
  const { docs, stats } = await ingestPdfs(
    wanted.map((docId, i) => {
      const info = docInfo.get(docId);
      return { file: pdfs[i], docId, ...(info ? { title: docTitle(info), description: docDescription(info), metadata: docMetadata(info) } : {}) };
    }),
    { ...opts.ingest, warnings, label: 'financebench: extracting filings' },
  );
  const files = [questionsFile, infoFile, ...pdfs];
  const available = [...pdfOf].filter((e): e is [string, string] => e[1] !== null).map(([docId, file]) => ({ docId, file }));
  return { questions, docs, docInfo, missing, warnings, notes, files, available, ingest: stats };
}

interface DuplicateDoc {
  name: string;
  line: number;
  firstLine: number;
  /** Both lines hold the same record. */
  same: boolean;
}

function readDocInfo(file: string): { info: Map<string, FinanceBenchDocInfo>; duplicates: DuplicateDoc[] } {
  const out = new Map<string, FinanceBenchDocInfo>();
  const where = new Map<string, number>();
  const rawOf = new Map<string, string>();
  const duplicates: DuplicateDoc[] = [];
  readText(file)
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const line = i + 1;
      if (raw.trim() === '') return;
      const rec = parseJsonLine(raw, file, i);
      if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) throw new DataError(`expected a JSON object per line, got ${preview(rec)}`, { file, line });
      const r = rec as Record<string, unknown>;
      const name = typeof r.doc_name === 'string' ? r.doc_name.trim() : '';
      if (!name) throw new DataError(r.doc_name === undefined ? 'missing required field' : `expected a string, got ${preview(r.doc_name)}`, { file, line, field: 'doc_name' });
      const canonical = JSON.stringify(Object.entries(r).sort(([a], [b]) => byCodeUnit(a, b)));
      if (where.has(name)) {
        duplicates.push({ name, line, firstLine: where.get(name)!, same: rawOf.get(name) === canonical });
        return;
      }
      where.set(name, line);
      rawOf.set(name, canonical);
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
  return { info: out, duplicates };
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

/** The catalogue fields `docSelect: metadata` matches (harness/types.ts DocMetadata). */
export function docMetadata(info: FinanceBenchDocInfo): DocMetadata {
  return {
    ...(info.company ? { company: info.company } : {}),
    ...(info.period ? { period: info.period } : {}),
    ...(info.docType ? { type: info.docType } : {}),
    ...(info.sector ? { sector: info.sector } : {}),
  };
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
