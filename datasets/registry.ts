// Loader registry: tables of factories keyed by a `test(format)` predicate, so a new format is one
// `registerDatasetLoader(...)` away and configs name it without edits elsewhere.
// loadBenchmarkData() turns the `dataset` (+ optional `corpus`) config sections into a corpus and
// questions, lists every file it read (the runner hashes them for the manifest), and reports
// questions whose gold references point nowhere as warnings with counts, never as crashes.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Corpus, DocTree, Question } from '../harness/types.ts';
import { parseDataConfig, type BenchmarkDataConfigInput, type CorpusConfig, type DatasetConfig } from './config.ts';
import { loadEmanualS10 } from './emanual.ts';
import { DataError } from './errors.ts';
import { drainTextWarnings, exists, isDirectory, listFiles, posixRelative, stem } from './files.ts';
import { loadQuestions, NATIVE_MAPPING } from './mapping.ts';
import { loadMarkdownFile } from './markdown.ts';
import { loadNativeCorpus } from './native.ts';
import { loadPageIndexFile, pageIndexDocIdFromFile } from './pageindex.ts';
import { loadFinanceBench } from './financebench.ts';
import { pageTextWarnings, pdfDocTree, readPdfs } from './pdf.ts';
import { walkNodes } from './tree-utils.ts';

export interface LoadedDataset {
  name: string;
  questions: Question[];
  /** Present when the format brings its own documents (sample, emanual-s10). */
  corpus?: Corpus;
  warnings: string[];
  files: string[];
}

export interface LoadedCorpus {
  docs: DocTree[];
  warnings: string[];
  files: string[];
}

export interface DatasetLoaderFactory {
  name: string;
  description: string;
  test(format: string): boolean;
  load(cfg: DatasetConfig, baseDir: string): Promise<LoadedDataset>;
}

export interface CorpusLoaderFactory {
  name: string;
  description: string;
  test(format: string): boolean;
  load(cfg: CorpusConfig, baseDir: string): Promise<LoadedCorpus>;
}

export interface BenchmarkData {
  name: string;
  corpus: Corpus;
  questions: Question[];
  warnings: string[];
  files: string[];
}

/** The bundled sample dataset, resolved from this module so it works from any working directory. */
export const BUNDLED_SAMPLE_DIR = fileURLToPath(new URL('./sample', import.meta.url));

const is = (name: string) => (format: string) => format.trim().toLowerCase() === name;

function resolveExisting(baseDir: string, p: string, field: string): string {
  const abs = path.resolve(baseDir, p);
  if (!exists(abs)) throw new DataError('path not found', { file: abs, field });
  return abs;
}

function requirePath(cfg: { path?: string; format: string }, baseDir: string, field: string, what: string): string {
  if (!cfg.path) throw new DataError(`format "${cfg.format}" needs a path (${what})`, { field });
  return resolveExisting(baseDir, cfg.path, field);
}

// ---------------------------------------------------------------------------------------------
// Datasets

export const datasetLoaders: DatasetLoaderFactory[] = [
  {
    name: 'sample',
    description: 'a folder with corpus/*.json (native DocTree JSON) and questions.jsonl (treebench Question JSON)',
    test: is('sample'),
    async load(cfg, baseDir) {
      const dir = cfg.path ? resolveExisting(baseDir, cfg.path, 'dataset.path') : BUNDLED_SAMPLE_DIR;
      if (!isDirectory(dir)) throw new DataError('the sample format expects a folder with corpus/ and questions.jsonl', { file: dir, field: 'dataset.path' });
      const corpusDir = path.join(dir, 'corpus');
      const questionsFile = path.join(dir, 'questions.jsonl');
      if (!isDirectory(corpusDir)) throw new DataError('missing corpus/ folder', { file: corpusDir, field: 'dataset.path' });
      const { docs, files } = loadNativeCorpus(corpusDir);
      const questions = loadQuestions(questionsFile, cfg.mapping ?? NATIVE_MAPPING, { format: 'jsonl', mappingField: 'dataset.mapping' });
      const name = cfg.name ?? (cfg.path ? path.basename(dir) : 'sample');
      return { name, questions, corpus: { name, docs }, warnings: [], files: [...files, questionsFile] };
    },
  },
  {
    name: 'emanual-s10',
    description: 'E-Manual QA over the Samsung Galaxy S10 manual (folder with s10_manual_corpus.json and s10_50_questions.csv)',
    test: (f) => is('emanual-s10')(f) || is('emanual')(f),
    async load(cfg, baseDir) {
      const dir = requirePath(cfg, baseDir, 'dataset.path', 'the emanual-s10 folder');
      const data = loadEmanualS10(dir);
      const name = cfg.name ?? 'emanual-s10';
      return { name, questions: data.questions, corpus: { name, docs: [data.doc] }, warnings: data.warnings, files: data.files };
    },
  },
  {
    name: 'financebench',
    description: 'FinanceBench (folder with financebench_open_source*.jsonl, financebench_document_information*.jsonl and pdfs/); missingDocs: skip | fail',
    test: is('financebench'),
    async load(cfg, baseDir) {
      const dir = requirePath(cfg, baseDir, 'dataset.path', 'the FinanceBench folder');
      const data = await loadFinanceBench(dir, { missingDocs: cfg.missingDocs ?? 'skip' });
      const name = cfg.name ?? 'financebench';
      return { name, questions: data.questions, corpus: { name, docs: data.docs }, warnings: data.warnings, files: data.files };
    },
  },
  {
    name: 'jsonl',
    description: 'questions from a JSONL (or .json array) file through `mapping`; needs a corpus section',
    test: (f) => is('jsonl')(f) || is('json')(f),
    async load(cfg, baseDir) {
      const file = requirePath(cfg, baseDir, 'dataset.path', 'the questions file');
      const format = path.extname(file).toLowerCase() === '.json' ? 'json' : 'jsonl';
      const questions = loadQuestions(file, cfg.mapping ?? NATIVE_MAPPING, { format, mappingField: 'dataset.mapping' });
      return { name: cfg.name ?? stem(file), questions, warnings: [], files: [file] };
    },
  },
  {
    name: 'csv',
    description: 'questions from a CSV/TSV file (header row) through `mapping`; needs a corpus section',
    test: (f) => is('csv')(f) || is('tsv')(f),
    async load(cfg, baseDir) {
      const file = requirePath(cfg, baseDir, 'dataset.path', 'the questions file');
      const questions = loadQuestions(file, cfg.mapping ?? NATIVE_MAPPING, { format: 'csv', mappingField: 'dataset.mapping' });
      return { name: cfg.name ?? stem(file), questions, warnings: [], files: [file] };
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Corpora

/** Resolves `corpus.path` (one or many) to existing absolute paths. */
function corpusTargets(cfg: CorpusConfig, baseDir: string): string[] {
  const list = Array.isArray(cfg.path) ? cfg.path : [cfg.path];
  return list.map((p, i) => resolveExisting(baseDir, p, Array.isArray(cfg.path) ? `corpus.path.${i}` : 'corpus.path'));
}

/** Files of each target, paired with the folder they were found in (null for files named directly). */
function corpusFiles(targets: string[], exts: string[], format: string): Array<{ file: string; root: string | null }> {
  const out: Array<{ file: string; root: string | null }> = [];
  for (const t of targets) {
    if (isDirectory(t)) {
      const found = listFiles(t, exts);
      if (!found.length) throw new DataError(`no ${exts.join('/')} files for the ${format} corpus in this folder`, { file: t, field: 'corpus.path' });
      out.push(...found.map((file) => ({ file, root: t })));
    } else out.push({ file: t, root: null });
  }
  return out;
}

/**
 * Markdown doc ids: the path relative to the corpus folder, without the extension and without
 * `doc_source/` segments (aws-docs keeps `documents/<guide>/doc_source/<File>.md`, and its QA file
 * names `guide/File.md`). A file named directly keeps its bare name.
 */
export function markdownDocId(file: string, root: string | null): string {
  if (!root) return stem(file);
  const rel = posixRelative(root, file).replace(/\.(md|markdown)$/i, '');
  return rel
    .split('/')
    .filter((seg) => seg !== 'doc_source')
    .join('/');
}

function pageIndexDocId(file: string, root: string | null): string {
  if (!root) return pageIndexDocIdFromFile(file);
  const rel = posixRelative(root, file).replace(/\.json$/i, '');
  return rel.replace(/_structure$/, '');
}

/** PDF doc ids: the path relative to the corpus folder without `.pdf`; a file named directly keeps its bare name. */
export function pdfDocId(file: string, root: string | null): string {
  if (!root) return stem(file);
  return posixRelative(root, file).replace(/\.pdf$/i, '');
}

/**
 * The PDF whose pages a PageIndex tree indexes: `corpus.pdf` (a file for a one-tree corpus, or a
 * folder of `<docId>.pdf`), else `<name>.pdf` beside `<name>_structure.json`. Null when there is
 * none (or `pdfText: off`); a configured folder without the file is a warning, not an error.
 */
function pageIndexPdf(cfg: CorpusConfig, baseDir: string, file: string, docId: string, trees: number, warnings: string[]): string | null {
  if (cfg.pdfText === 'off') return null;
  if (cfg.pdf) {
    const target = resolveExisting(baseDir, cfg.pdf, 'corpus.pdf');
    if (!isDirectory(target)) {
      if (trees > 1) throw new DataError(`names one PDF but the corpus has ${trees} PageIndex trees; give a folder of <docId>.pdf files`, { file: target, field: 'corpus.pdf' });
      return target;
    }
    const pdf = path.join(target, `${docId}.pdf`);
    // A docId comes from data: it may not lead the path out of the configured folder.
    const rel = path.relative(target, pdf);
    if (rel.startsWith('..') || path.isAbsolute(rel) || rel.includes(path.sep)) {
      warnings.push(`${file}: docId "${docId}" is not a plain file name; not looking for its PDF outside ${target}`);
      return null;
    }
    if (exists(pdf)) return pdf;
    warnings.push(`${file}: no ${docId}.pdf in ${target} (corpus.pdf); the tree has no page text`);
    return null;
  }
  const sibling = path.join(path.dirname(file), `${stem(file).replace(/_structure$/, '')}.pdf`);
  return exists(sibling) ? sibling : null;
}

export const corpusLoaders: CorpusLoaderFactory[] = [
  {
    name: 'native',
    description: 'treebench DocTree JSON files (one document, an array, or { docs: [...] } per file)',
    test: is('native'),
    async load(cfg, baseDir) {
      const docs: DocTree[] = [];
      const files: string[] = [];
      for (const t of corpusTargets(cfg, baseDir)) {
        const r = loadNativeCorpus(t);
        docs.push(...r.docs);
        files.push(...r.files);
      }
      return { docs, files, warnings: [] };
    },
  },
  {
    name: 'pageindex',
    description: 'PageIndex tree JSON (*_structure.json from PDFs or Markdown); doc id from the file name or doc_name',
    test: is('pageindex'),
    async load(cfg, baseDir) {
      const warnings: string[] = [];
      const entries = corpusFiles(corpusTargets(cfg, baseDir), ['.json'], 'pageindex');
      const docs = entries.map(({ file, root }) =>
        loadPageIndexFile(file, cfg.docIdFrom === 'field' ? undefined : pageIndexDocId(file, root), { docIdFrom: cfg.docIdFrom, warnings }),
      );
      const pdfs = entries.map(({ file }, i) => pageIndexPdf(cfg, baseDir, file, docs[i].docId, entries.length, warnings));
      const contents = await readPdfs(pdfs.filter((p): p is string => p !== null));
      const files: string[] = [];
      let k = 0;
      docs.forEach((doc, i) => {
        const file = entries[i].file;
        const pdf = pdfs[i];
        files.push(file);
        if (!pdf) return;
        const content = contents[k++];
        doc.pages = content.pages;
        warnings.push(...pageTextWarnings(content, pdf));
        const past = [...walkNodes(doc.nodes)].filter((v) => v.node.pages && v.node.pages[1] > content.pageCount).map((v) => v.node);
        if (past.length) {
          const eg = past[0];
          warnings.push(`${file}: ${past.length} node(s) reach past the ${content.pageCount} pages of ${pdf} (e.g. node ${eg.id} pages ${eg.pages![0]}-${eg.pages![1]}); is it the PDF this tree was made from?`);
        }
        files.push(pdf);
      });
      return { docs, files, warnings };
    },
  },
  {
    name: 'markdown',
    description: 'Markdown files (*.md), one document per file, a tree from the ATX headings',
    test: (f) => is('markdown')(f) || is('md')(f),
    async load(cfg, baseDir) {
      if (cfg.docIdFrom === 'field') throw new DataError('markdown documents take their id from the file name; use docIdFrom: filename', { field: 'corpus.docIdFrom' });
      const warnings: string[] = [];
      const entries = corpusFiles(corpusTargets(cfg, baseDir), ['.md', '.markdown'], 'markdown');
      const docs = entries.map(({ file, root }) => loadMarkdownFile(file, markdownDocId(file, root), { intro: cfg.intro, warnings }));
      return { docs, files: entries.map((e) => e.file), warnings };
    },
  },
  {
    name: 'pdf',
    description: 'PDF files (*.pdf), one document per file: a tree from the outline (bookmarks), else one node per page',
    test: is('pdf'),
    async load(cfg, baseDir) {
      if (cfg.docIdFrom === 'field') throw new DataError('PDF documents take their id from the file name; use docIdFrom: filename', { field: 'corpus.docIdFrom' });
      const warnings: string[] = [];
      const entries = corpusFiles(corpusTargets(cfg, baseDir), ['.pdf'], 'pdf');
      const contents = await readPdfs(entries.map((e) => e.file));
      const docs = entries.map(({ file, root }, i) => pdfDocTree(contents[i], { docId: pdfDocId(file, root), source: file, warnings }));
      return { docs, files: entries.map((e) => e.file), warnings };
    },
  },
];

/** Later registrations win, so a project can override a built-in format. */
export function registerDatasetLoader(loader: DatasetLoaderFactory): void {
  datasetLoaders.unshift(loader);
}

export function registerCorpusLoader(loader: CorpusLoaderFactory): void {
  corpusLoaders.unshift(loader);
}

export function findDatasetLoader(format: string): DatasetLoaderFactory {
  const l = datasetLoaders.find((x) => x.test(format));
  if (!l) throw new DataError(`unknown dataset format "${format}" (known: ${datasetLoaders.map((x) => x.name).join(', ')})`, { field: 'dataset.format' });
  return l;
}

export function findCorpusLoader(format: string): CorpusLoaderFactory {
  const l = corpusLoaders.find((x) => x.test(format));
  if (!l) throw new DataError(`unknown corpus format "${format}" (known: ${corpusLoaders.map((x) => x.name).join(', ')})`, { field: 'corpus.format' });
  return l;
}

// ---------------------------------------------------------------------------------------------
// Cross-references

export interface ReferenceCounts {
  questions: number;
  /** Questions whose gold evidence names a document missing from the corpus. */
  unknownEvidenceDocs: number;
  /** Questions with at least one gold node id not found in its document. */
  unknownNodes: number;
  unknownNodeRefs: number;
  /** Questions with gold pages past the end of a paged document. */
  pagesOutOfRange: number;
  /** Questions whose (strategy-visible) docIds name a document missing from the corpus. */
  unknownDocIds: number;
}

const examples = (xs: Iterable<string>, n = 5) => {
  const all = [...new Set(xs)];
  return all.slice(0, n).join(', ') + (all.length > n ? `, … (${all.length} distinct)` : '');
};

/** Checks gold evidence and docIds against the corpus; problems become warnings with counts. */
export function checkReferences(corpus: Corpus, questions: Question[]): { counts: ReferenceCounts; warnings: string[] } {
  const docs = new Map(corpus.docs.map((d) => [d.docId, d]));
  const nodeIds = new Map<string, Set<string>>();
  const idsOf = (doc: DocTree) => {
    let s = nodeIds.get(doc.docId);
    if (!s) {
      s = new Set([...walkNodes(doc.nodes)].map((v) => v.node.id));
      nodeIds.set(doc.docId, s);
    }
    return s;
  };
  const counts: ReferenceCounts = { questions: questions.length, unknownEvidenceDocs: 0, unknownNodes: 0, unknownNodeRefs: 0, pagesOutOfRange: 0, unknownDocIds: 0 };
  const missingDocs: string[] = [];
  const missingNodes: string[] = [];
  const badPages: string[] = [];
  const missingVisible: string[] = [];
  for (const q of questions) {
    let docMiss = false;
    let nodeMiss = false;
    let pageMiss = false;
    for (const ev of q.evidence ?? []) {
      const doc = docs.get(ev.docId);
      if (!doc) {
        docMiss = true;
        missingDocs.push(ev.docId);
        continue;
      }
      const ids = idsOf(doc);
      for (const n of ev.nodeIds ?? []) {
        if (!ids.has(n)) {
          nodeMiss = true;
          counts.unknownNodeRefs++;
          missingNodes.push(`${ev.docId}#${n}`);
        }
      }
      if (doc.pages && ev.pages?.some((p) => p > doc.pages!.length)) {
        pageMiss = true;
        badPages.push(`${q.id} (${ev.docId} has ${doc.pages.length} pages)`);
      }
    }
    const visibleMiss = (q.docIds ?? []).filter((d) => !docs.has(d));
    missingVisible.push(...visibleMiss);
    counts.unknownEvidenceDocs += docMiss ? 1 : 0;
    counts.unknownNodes += nodeMiss ? 1 : 0;
    counts.pagesOutOfRange += pageMiss ? 1 : 0;
    counts.unknownDocIds += visibleMiss.length ? 1 : 0;
  }
  const n = questions.length;
  const warnings: string[] = [];
  if (counts.unknownEvidenceDocs) warnings.push(`${counts.unknownEvidenceDocs} of ${n} questions have gold evidence in documents missing from the corpus: ${examples(missingDocs)}`);
  if (counts.unknownNodes) warnings.push(`${counts.unknownNodes} of ${n} questions have gold node ids not found in their document (${counts.unknownNodeRefs} ids): ${examples(missingNodes)}`);
  if (counts.pagesOutOfRange) warnings.push(`${counts.pagesOutOfRange} of ${n} questions have gold pages past the end of their document: ${examples(badPages)}`);
  if (counts.unknownDocIds) warnings.push(`${counts.unknownDocIds} of ${n} questions name docIds missing from the corpus: ${examples(missingVisible)}`);
  return { counts, warnings };
}

// ---------------------------------------------------------------------------------------------

/**
 * Loads the `dataset` and optional `corpus` config sections. `baseDir` is the config file's folder.
 * A configured corpus replaces a dataset's own corpus (with a warning).
 */
export async function loadBenchmarkData(cfgInput: BenchmarkDataConfigInput, baseDir: string): Promise<BenchmarkData> {
  const cfg = parseDataConfig(cfgInput);
  drainTextWarnings(); // only this load's warnings are reported
  const dsLoader = findDatasetLoader(cfg.dataset.format);
  const ds = await dsLoader.load(cfg.dataset, baseDir);
  const warnings = [...ds.warnings];
  const files = [...ds.files];
  let corpus: Corpus;
  if (cfg.corpus) {
    const cl = findCorpusLoader(cfg.corpus.format);
    const loaded = await cl.load(cfg.corpus, baseDir);
    if (ds.corpus) warnings.push(`dataset format "${cfg.dataset.format}" brings its own corpus; using the configured ${cl.name} corpus instead`);
    corpus = { name: cfg.corpus.name ?? ds.name, docs: loaded.docs };
    warnings.push(...loaded.warnings);
    files.push(...loaded.files);
  } else if (ds.corpus) {
    corpus = ds.corpus;
  } else {
    throw new DataError(`dataset format "${cfg.dataset.format}" has no documents of its own; add a corpus section (format: native | pageindex | markdown | pdf)`, {
      field: 'corpus',
    });
  }
  assertUniqueDocIds(corpus);
  for (const d of corpus.docs) {
    if (d.nodes.length === 0) warnings.push(`${d.source ?? d.docId}: document "${d.docId}" has no nodes (no outline and no text): no strategy can find anything in it`);
  }
  warnings.push(...drainTextWarnings());
  if (corpus.docs.length === 0) throw new DataError('the corpus has no documents', { field: cfg.corpus ? 'corpus.path' : 'dataset.path' });
  if (ds.questions.length === 0) throw new DataError('the dataset has no questions', { field: 'dataset.path', file: ds.files[ds.files.length - 1] });
  warnings.push(...checkReferences(corpus, ds.questions).warnings);
  return { name: cfg.dataset.name ?? ds.name, corpus, questions: ds.questions, warnings, files: [...new Set(files)] };
}

function assertUniqueDocIds(corpus: Corpus): void {
  const seen = new Map<string, string | undefined>();
  for (const d of corpus.docs) {
    if (seen.has(d.docId)) {
      const other = seen.get(d.docId);
      throw new DataError(`duplicate docId "${d.docId}"${other ? ` (also from ${other})` : ''}`, { file: d.source, field: 'docId' });
    }
    seen.set(d.docId, d.source);
  }
}
