// Loader registry: tables of factories keyed by a `test(format)` predicate, so a new format is one
// `registerDatasetLoader(...)` away and configs name it without edits elsewhere.
// loadBenchmarkData() turns the `dataset` (+ optional `corpus`) config sections into a corpus and
// questions, lists every file it read (the runner hashes them for the manifest), and reports
// questions whose gold references point nowhere as warnings with counts, never as crashes.
//
// Order of a load: questions (filter, invalid rows) -> which documents exist -> questions naming
// a missing document (dataset.missingDocs) -> the questions that will run (--limit, --shard) ->
// the documents to read (corpus.only: referenced reads only those the running questions name)
// -> gold title paths resolved against the corpus -> reference checks.
import { corpusHash as contentHash } from '../harness/trees/corpusHash.ts';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type Picomatch from 'picomatch';
import { fileURLToPath } from 'node:url';
import type { BenchmarkData, Corpus, DocTree, DuplicateDocuments, Question } from '../harness/types.ts';
import { dataPath, escapeWarning } from '../harness/files/containment.ts';
import { sha256 } from '../harness/files/fileHash.ts';

export type { BenchmarkData };
import { corpusConfigSchema, parseDataConfig, type BenchmarkDataConfig, type BenchmarkDataConfigInput, type CorpusConfig, type DatasetConfig } from './config.ts';
import { loadEmanualS10 } from './emanual.ts';
import { DataError } from './errors.ts';
import { byCodeUnit, drainTextWarnings, exists, isDirectory, listFiles, MAX_JSON_DEPTH, posixRelative, stem } from './files.ts';
import { loadQuestionSet, NATIVE_MAPPING, pendingTitlePaths, questionSetNotes, type LoadQuestionsOptions, type QuestionMappingInput } from './mapping.ts';
import { loadPassagesFile, passageMappingSchema } from './passages.ts';
import { resolveTitlePaths } from './titlePath.ts';
import { loadNativeCorpus } from './native.ts';
import { loadPageIndexFile, pageIndexDocIdFromFile } from './pageindex.ts';
import { referencedDocs } from './references.ts';
import type { IngestOptions, IngestStats } from './ingest.ts';
import { addExtractiveSummaries } from './summaries.ts';
import { ingestionModelFor, type IngestionModel, type IngestionModelConfig } from '../harness/run/ingestionModel.ts';
import { parseModelConfig } from '../harness/models/providers/registry.ts';
import { walkNodes } from './tree-utils.ts';

// The PDF stack (pdfStack.ts: pdf.js or poppler, the tree builder, FinanceBench's loader) is
// imported by the loaders that read PDFs, when they run, and picomatch is required by the first
// corpus with include/exclude globs: loading JSON documents and questions loads neither.
const requireCjs = createRequire(import.meta.url);
const picomatch = (): typeof Picomatch => requireCjs('picomatch') as typeof Picomatch;

export interface LoadedDataset {
  name: string;
  questions: Question[];
  /** Present when the format brings its own documents (sample, emanual-s10). */
  corpus?: Corpus;
  warnings: string[];
  /** Load summary lines (records read, filtered, skipped). */
  notes?: string[];
  files: string[];
  /**
   * Ids of every document the dataset has, when its corpus holds only some of them (financebench
   * reads only the filings the running questions need). Default: the corpus's own ids.
   */
  available?: DocSource[];
  /** PDF ingestion figures, when the dataset read PDFs. */
  ingest?: IngestStats;
}

/** A document that exists, and the file it comes from. */
export interface DocSource {
  docId: string;
  file: string;
}

/** What a dataset loader may use to read less: the questions that will actually run. */
export interface DatasetLoadContext {
  /** The questions of this run (--limit, --shard) out of all loaded ones, in order. */
  select?: (questions: Question[]) => Question[];
  /** How PDFs become trees (corpus.tree, summaries, cache), for datasets that bring PDFs. */
  ingest?: IngestOptions;
}

export interface LoadedCorpus {
  docs: DocTree[];
  warnings: string[];
  files: string[];
  /** PDF ingestion figures (extracted vs cached), when PDFs were read. */
  ingest?: IngestStats;
}

export interface DatasetLoaderFactory {
  name: string;
  description: string;
  test(format: string): boolean;
  load(cfg: DatasetConfig, baseDir: string, ctx?: DatasetLoadContext): Promise<LoadedDataset>;
}

export interface CorpusLoadOptions {
  /** Load only these documents (corpus.only: referenced). */
  only?: Set<string>;
  /** How PDFs become trees (corpus.tree, summaries, cache). */
  ingest?: IngestOptions;
}

export interface CorpusLoaderFactory {
  name: string;
  description: string;
  test(format: string): boolean;
  load(cfg: CorpusConfig, baseDir: string, opts?: CorpusLoadOptions): Promise<LoadedCorpus>;
  /**
   * The ids of the documents `load` would return, found cheaply (from file names), so questions
   * can be matched against the corpus before anything is extracted. Null (or absent) when the
   * ids are inside the files and need parsing.
   */
  listDocs?(cfg: CorpusConfig, baseDir: string): DocSource[] | null;
}


export interface LoadDataOptions {
  /** The questions that will run (--limit, --shard); the corpus need only serve these. */
  select?: (questions: Question[]) => Question[];
  /** Override `corpus.cache` (the ingestion cache: PDFs and Markdown). */
  ingestCache?: boolean;
  /** No progress lines on stderr (also: TREEBENCH_QUIET=1). */
  quiet?: boolean;
  /**
   * The model trees may be built with (corpus.tree: model, or auto on a poor offline tree);
   * null: none. Default: the `model:` section of the config given, when it is not offline.
   */
  model?: IngestionModel | null;
}

/** PDF ingestion options from the corpus section (its defaults when there is none). */
export function ingestOptions(corpus: CorpusConfig | undefined, opts: LoadDataOptions = {}): IngestOptions {
  const c = corpus ?? corpusConfigSchema.parse({});
  const cache = opts.ingestCache ?? c.cache;
  return {
    tree: c.tree,
    ignoreOutline: c.ignoreOutline,
    // only when not the default: the build options are part of the corpus hash
    ...(c.extractor === 'poppler' ? { extractor: 'poppler' as const } : {}),
    summaries: c.summaries,
    summaryTokens: c.summaryTokens,
    cacheDir: cache ? path.resolve(c.cacheDir) : null,
    strict: c.strict ?? false,
    strictField: 'corpus.strict',
    ...(opts.quiet ? { quiet: true } : {}),
    // (ingest.ts asks it only under tree auto or model)
    ...(opts.model ? { model: opts.model } : {}),
  };
}

/**
 * The ingestion model of a full run config (its `model:`, `prices:` and `run.concurrency`), its
 * replies cached in `tree-model/` of the ingestion cache; null when the config has no model
 * section, an offline one, or a tree choice that never asks a model.
 */
function configuredModel(cfgInput: BenchmarkDataConfigInput, corpus: CorpusConfig | undefined, baseDir: string, opts: LoadDataOptions): IngestionModel | null {
  const full = cfgInput as BenchmarkDataConfigInput & Partial<Pick<IngestionModelConfig, 'prices' | 'run'>> & { model?: unknown };
  const c = corpus ?? corpusConfigSchema.parse({});
  if (full.model === undefined || (c.tree !== 'auto' && c.tree !== 'model')) return null;
  const cache = opts.ingestCache ?? c.cache;
  return ingestionModelFor({ ...full, model: parseModelConfig(full.model) }, baseDir, cache ? path.resolve(c.cacheDir, 'tree-model') : null);
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

/** A setting this format does not read is an error, not silently ignored. */
function rejectUnused(cfg: DatasetConfig, keys: Array<keyof DatasetConfig>, format: string): void {
  for (const k of keys) if (cfg[k] !== undefined) throw new DataError(`the ${format} format does not use dataset.${k}`, { field: `dataset.${k}` });
}

function questionOptions(cfg: DatasetConfig): Pick<LoadQuestionsOptions, 'filter' | 'onInvalid'> {
  return { ...(cfg.filter ? { filter: cfg.filter } : {}), onInvalid: cfg.onInvalid };
}

/** A mapped question file with the dataset's filter and invalid-row rule; skipped rows become a warning. */
function readQuestions(file: string, mapping: QuestionMappingInput, cfg: DatasetConfig, format: 'jsonl' | 'json' | 'csv') {
  const set = loadQuestionSet(file, mapping, { format, mappingField: 'dataset.mapping', ...questionOptions(cfg) });
  const warnings: string[] = [];
  const notes = questionSetNotes(set, file, warnings);
  return { questions: set.questions, warnings, notes };
}

export const datasetLoaders: DatasetLoaderFactory[] = [
  {
    name: 'sample',
    description: 'a folder with corpus/*.json (native DocTree JSON) and questions.jsonl (treebench Question JSON)',
    test: is('sample'),
    async load(cfg, baseDir) {
      rejectUnused(cfg, ['pdfs', 'setting'], 'sample');
      const dir = cfg.path ? resolveExisting(baseDir, cfg.path, 'dataset.path') : BUNDLED_SAMPLE_DIR;
      if (!isDirectory(dir)) throw new DataError('the sample format expects a folder with corpus/ and questions.jsonl', { file: dir, field: 'dataset.path' });
      const corpusDir = path.join(dir, 'corpus');
      const questionsFile = path.join(dir, 'questions.jsonl');
      if (!isDirectory(corpusDir)) throw new DataError('missing corpus/ folder', { file: corpusDir, field: 'dataset.path' });
      const { docs, files } = loadNativeCorpus(corpusDir);
      const q = readQuestions(questionsFile, cfg.mapping ?? NATIVE_MAPPING, cfg, 'jsonl');
      const name = cfg.name ?? (cfg.path ? path.basename(dir) : 'sample');
      return { name, questions: q.questions, corpus: { name, docs }, warnings: q.warnings, notes: q.notes, files: [...files, questionsFile] };
    },
  },
  {
    name: 'emanual-s10',
    description: 'E-Manual QA over the Samsung Galaxy S10 manual (folder with s10_manual_corpus.json and s10_50_questions.csv)',
    test: (f) => is('emanual-s10')(f) || is('emanual')(f),
    async load(cfg, baseDir) {
      rejectUnused(cfg, ['mapping', 'filter', 'pdfs', 'setting'], 'emanual-s10');
      if (cfg.onInvalid === 'skip') rejectUnused(cfg, ['onInvalid'], 'emanual-s10');
      const dir = requirePath(cfg, baseDir, 'dataset.path', 'the emanual-s10 folder');
      const data = loadEmanualS10(dir);
      const name = cfg.name ?? 'emanual-s10';
      return { name, questions: data.questions, corpus: { name, docs: [data.doc] }, warnings: data.warnings, files: data.files };
    },
  },
  {
    name: 'financebench',
    description:
      'FinanceBench (folder with financebench_open_source*.jsonl, financebench_document_information*.jsonl and pdfs/, or the upstream data/ + pdfs/ layout; pdfs: to name the PDF folder); missingDocs: skip | fail | keep',
    test: is('financebench'),
    async load(cfg, baseDir, ctx) {
      rejectUnused(cfg, ['mapping'], 'financebench');
      const dir = requirePath(cfg, baseDir, 'dataset.path', 'the FinanceBench folder');
      const { loadFinanceBench } = await import('./pdfStack.ts');
      const data = await loadFinanceBench(dir, {
        missingDocs: cfg.missingDocs ?? 'skip',
        ...(cfg.setting ? { setting: cfg.setting } : {}),
        ...(cfg.pdfs ? { pdfs: resolveExisting(baseDir, cfg.pdfs, 'dataset.pdfs') } : {}),
        ...(ctx?.select ? { select: ctx.select } : {}),
        ...(ctx?.ingest ? { ingest: ctx.ingest } : {}),
        questionOptions: questionOptions(cfg),
      });
      const name = cfg.name ?? 'financebench';
      return {
        name,
        questions: data.questions,
        corpus: { name, docs: data.docs },
        warnings: data.warnings,
        notes: data.notes,
        files: data.files,
        available: data.available,
        ...(data.ingest ? { ingest: data.ingest } : {}),
      };
    },
  },
  {
    name: 'jsonl',
    description: 'questions from a JSONL file or a JSON array/dict (mapping.records: dotted path into it) through `mapping`; needs a corpus section',
    test: (f) => is('jsonl')(f) || is('json')(f),
    async load(cfg, baseDir) {
      rejectUnused(cfg, ['pdfs', 'setting'], cfg.format);
      const file = requirePath(cfg, baseDir, 'dataset.path', 'the questions file');
      const format = path.extname(file).toLowerCase() === '.json' || is('json')(cfg.format) ? 'json' : 'jsonl';
      const q = readQuestions(file, cfg.mapping ?? NATIVE_MAPPING, cfg, format);
      return { name: cfg.name ?? stem(file), questions: q.questions, warnings: q.warnings, notes: q.notes, files: [file] };
    },
  },
  {
    name: 'csv',
    description: 'questions from a CSV/TSV file (header row) through `mapping`; needs a corpus section',
    test: (f) => is('csv')(f) || is('tsv')(f),
    async load(cfg, baseDir) {
      rejectUnused(cfg, ['pdfs', 'setting'], cfg.format);
      const file = requirePath(cfg, baseDir, 'dataset.path', 'the questions file');
      const q = readQuestions(file, cfg.mapping ?? NATIVE_MAPPING, cfg, 'csv');
      return { name: cfg.name ?? stem(file), questions: q.questions, warnings: q.warnings, notes: q.notes, files: [file] };
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Corpora

/** Resolves `corpus.path` (one or many) to existing absolute paths. */
function corpusTargets(cfg: CorpusConfig, baseDir: string): string[] {
  if (cfg.path === undefined) throw new DataError(`the ${cfg.format} corpus needs a path (a file, a folder, or a list of them)`, { field: 'corpus.path' });
  const list = Array.isArray(cfg.path) ? cfg.path : [cfg.path];
  return list.map((p, i) => resolveExisting(baseDir, p, Array.isArray(cfg.path) ? `corpus.path.${i}` : 'corpus.path'));
}

/**
 * Files of each target, paired with the folder they were found in (null for files named directly).
 * In folders, `include`/`exclude` globs (picomatch) pick files by their path relative to the folder.
 */
function corpusFiles(targets: string[], exts: string[], format: string, cfg?: Pick<CorpusConfig, 'include' | 'exclude'>): Array<{ file: string; root: string | null }> {
  const list = (g: string | string[] | undefined) => (g === undefined ? [] : Array.isArray(g) ? g : [g]);
  const include = list(cfg?.include);
  const exclude = list(cfg?.exclude);
  const isIncluded = include.length ? picomatch()(include, { dot: true }) : () => true;
  const isExcluded = exclude.length ? picomatch()(exclude, { dot: true }) : () => false;
  const out: Array<{ file: string; root: string | null }> = [];
  for (const t of targets) {
    if (isDirectory(t)) {
      const all = listFiles(t, exts);
      const found = all.filter((f) => {
        const rel = posixRelative(t, f);
        return isIncluded(rel) && !isExcluded(rel);
      });
      if (!found.length) {
        const why = all.length ? ` (${all.length} found, none left by corpus.include/exclude)` : '';
        throw new DataError(`no ${exts.join('/')} files for the ${format} corpus in this folder${why}`, { file: t, field: all.length ? 'corpus.include' : 'corpus.path' });
      }
      out.push(...found.map((file) => ({ file, root: t })));
    } else out.push({ file: t, root: null });
  }
  return out;
}

function idsFromFileNames(cfg: CorpusConfig, what: string): void {
  if (cfg.docIdFrom === 'field') throw new DataError(`${what} take their id from the file name; use docIdFrom: filename`, { field: 'corpus.docIdFrom' });
}

/** The entries whose doc id is wanted (all when `only` is not given). */
function onlyEntries<E>(entries: E[], idOf: (e: E) => string, only: Set<string> | undefined): E[] {
  return only ? entries.filter((e) => only.has(idOf(e))) : entries;
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
    // A docId comes from data (doc_name, or a file's path below the corpus folder): it may name
    // a PDF below the configured folder, never one outside it (harness/files/containment.ts).
    const pdf = dataPath(target, docId, { suffix: '.pdf', subfolders: true });
    if (!pdf) {
      warnings.push(escapeWarning(file, 'docId', docId, target));
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
    async load(cfg, baseDir, opts) {
      const docs: DocTree[] = [];
      const files: string[] = [];
      for (const t of corpusTargets(cfg, baseDir)) {
        // Folders go through include/exclude; each file is then read as native JSON.
        const targets = cfg.include || cfg.exclude ? corpusFiles([t], ['.json'], 'native', cfg).map((e) => e.file) : [t];
        for (const target of targets) {
          const r = loadNativeCorpus(target);
          docs.push(...r.docs);
          files.push(...r.files);
        }
      }
      return { docs: onlyEntries(docs, (d) => d.docId, opts?.only), files, warnings: [] };
    },
  },
  {
    name: 'pageindex',
    description: 'PageIndex tree JSON (*_structure.json from PDFs or Markdown); doc id from the file name or doc_name',
    test: is('pageindex'),
    listDocs(cfg, baseDir) {
      if (cfg.docIdFrom === 'field') return null;
      return corpusFiles(corpusTargets(cfg, baseDir), ['.json'], 'pageindex', cfg).map(({ file, root }) => ({ docId: pageIndexDocId(file, root), file }));
    },
    async load(cfg, baseDir, opts) {
      const warnings: string[] = [];
      const all = corpusFiles(corpusTargets(cfg, baseDir), ['.json'], 'pageindex', cfg);
      const loadedAll = all.map(({ file, root }) =>
        loadPageIndexFile(file, cfg.docIdFrom === 'field' ? undefined : pageIndexDocId(file, root), { docIdFrom: cfg.docIdFrom, warnings }),
      );
      const keep = all.map((_, i) => !opts?.only || opts.only.has(loadedAll[i].docId));
      const entries = all.filter((_, i) => keep[i]);
      const docs = loadedAll.filter((_, i) => keep[i]);
      const pdfs = entries.map(({ file }, i) => pageIndexPdf(cfg, baseDir, file, docs[i].docId, all.length, warnings));
      const { readPdfsWithProgress, pageTextWarnings } = await import('./pdfStack.ts');
      const contents = await readPdfsWithProgress(pdfs.filter((p): p is string => p !== null), 'pageindex: extracting page text', cfg.extractor);
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
    listDocs(cfg, baseDir) {
      idsFromFileNames(cfg, 'markdown documents');
      return corpusFiles(corpusTargets(cfg, baseDir), ['.md', '.markdown'], 'markdown', cfg).map(({ file, root }) => ({ docId: markdownDocId(file, root), file }));
    },
    async load(cfg, baseDir, opts) {
      idsFromFileNames(cfg, 'markdown documents');
      const warnings: string[] = [];
      const all = corpusFiles(corpusTargets(cfg, baseDir), ['.md', '.markdown'], 'markdown', cfg);
      const entries = onlyEntries(all, ({ file, root }) => markdownDocId(file, root), opts?.only);
      // Through the ingestion cache (corpus.cache, corpus.cacheDir), as PDFs: a second run parses nothing.
      // The Markdown parser (mdast, micromark: ~150 KB of modules) loads only for Markdown corpora.
      const { ingestMarkdown } = await import('./markdownIngest.ts');
      const { docs } = ingestMarkdown(
        entries.map(({ file, root }) => ({ file, docId: markdownDocId(file, root) })),
        { ...(cfg.intro ? { intro: cfg.intro } : {}), cacheDir: opts?.ingest?.cacheDir ?? null, ...(opts?.ingest?.quiet ? { quiet: true } : {}), warnings },
      );
      return { docs, files: entries.map((e) => e.file), warnings };
    },
  },
  {
    name: 'pdf',
    description: 'PDF files (*.pdf), one document per file: a tree from the outline, the printed table of contents, layout headings or page groups (corpus.tree)',
    test: is('pdf'),
    listDocs(cfg, baseDir) {
      idsFromFileNames(cfg, 'PDF documents');
      return corpusFiles(corpusTargets(cfg, baseDir), ['.pdf'], 'pdf', cfg).map(({ file, root }) => ({ docId: pdfDocId(file, root), file }));
    },
    async load(cfg, baseDir, opts) {
      idsFromFileNames(cfg, 'PDF documents');
      const warnings: string[] = [];
      const all = corpusFiles(corpusTargets(cfg, baseDir), ['.pdf'], 'pdf', cfg);
      // Only the PDFs asked for are ever extracted (corpus.only: referenced, --limit, --shard).
      const entries = onlyEntries(all, ({ file, root }) => pdfDocId(file, root), opts?.only);
      const { ingestPdfs } = await import('./pdfStack.ts');
      const { docs, stats } = await ingestPdfs(
        entries.map(({ file, root }) => ({ file, docId: pdfDocId(file, root) })),
        { ...opts?.ingest, warnings },
      );
      return { docs, files: entries.map((e) => e.file), warnings, ingest: stats };
    },
  },
  {
    name: 'passages',
    description: 'passages (JSON list or dict, or JSONL) with mapped id, title, text, optional parent/path/page/docId; a tree by parent or path, else flat',
    test: is('passages'),
    async load(cfg, baseDir, opts) {
      const warnings: string[] = [];
      const mapping = passageMappingSchema.safeParse(cfg.mapping ?? {});
      if (!mapping.success) throw new DataError(mapping.error.issues[0].message, { field: ['corpus.mapping', ...mapping.error.issues[0].path.map(String)].join('.') });
      const entries = corpusFiles(corpusTargets(cfg, baseDir), ['.json', '.jsonl', '.ndjson'], 'passages', cfg);
      const docs = entries.flatMap(({ file }) => loadPassagesFile(file, mapping.data, warnings));
      return { docs: onlyEntries(docs, (d) => d.docId, opts?.only), files: entries.map((e) => e.file), warnings };
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
 * dataset.missingDocs: questions naming a document that is not in the corpus are dropped with a
 * warning (`skip`, the default), stop the load (`fail`), or stay (`keep`; checkReferences warns).
 */
export function applyMissingDocs(questions: Question[], available: Set<string>, mode: 'skip' | 'fail' | 'keep', warnings: string[]): Question[] {
  if (mode === 'keep') return questions;
  const missing = new Map<string, number>();
  const kept = questions.filter((q) => {
    const gone = referencedDocs(q).filter((d) => !available.has(d));
    for (const d of gone) missing.set(d, (missing.get(d) ?? 0) + 1);
    return gone.length === 0;
  });
  if (!missing.size) return questions;
  const list = examples([...missing].map(([d, n]) => `${d} (${n} question${n === 1 ? '' : 's'})`));
  if (mode === 'fail') {
    throw new DataError(`${questions.length - kept.length} of ${questions.length} questions name documents missing from the corpus: ${list}; set dataset.missingDocs: skip to drop them, or keep`, {
      field: 'dataset.missingDocs',
    });
  }
  warnings.push(`${missing.size} document(s) named by questions are not in the corpus: ${list}; dropped ${questions.length - kept.length} of ${questions.length} questions (missingDocs: skip)`);
  return kept;
}

/**
 * corpus.only: referenced — the documents the running questions name in docIds. Gold evidence
 * never decides what is loaded: a corpus of exactly the gold documents would hand strategies the
 * answer. So every running question must name its documents.
 */
function referencedDocIds(questions: Question[]): Set<string> {
  const without = questions.filter((q) => !q.docIds?.length);
  if (without.length) {
    throw new DataError(
      `corpus.only: referenced loads the documents questions name in docIds, but ${without.length} of ${questions.length} questions name none (e.g. ${examples(without.map((q) => q.id), 3)}); map dataset.mapping.docIds or use only: all`,
      { field: 'corpus.only' },
    );
  }
  return new Set(questions.flatMap((q) => q.docIds!));
}

/**
 * Loads the `dataset` and optional `corpus` config sections. `baseDir` is the config file's folder.
 * A configured corpus replaces a dataset's own corpus (with a warning). `opts.select` names the
 * questions that will run, so only their documents need reading (corpus.only: referenced, and
 * financebench always); `questions` stays the whole list for the runner to slice the same way.
 */
export async function loadBenchmarkData(cfgInput: BenchmarkDataConfigInput, baseDir: string, opts: LoadDataOptions = {}): Promise<BenchmarkData> {
  const cfg = parseDataConfig(cfgInput);
  drainTextWarnings(); // only this load's warnings are reported
  const dsLoader = findDatasetLoader(cfg.dataset.format);
  // A corpus section without a format only holds build options for the dataset's own documents.
  if (cfg.corpus && cfg.corpus.format === undefined && cfg.corpus.path !== undefined) {
    throw new DataError('a corpus with a path needs a format (native | pageindex | markdown | pdf | passages)', { field: 'corpus.format' });
  }
  const configured = cfg.corpus?.format !== undefined ? (cfg.corpus as CorpusConfig & { format: string }) : undefined;
  const model = opts.model !== undefined ? opts.model : configuredModel(cfgInput, cfg.corpus, baseDir, opts);
  const ingest = ingestOptions(cfg.corpus, { ...opts, model });
  const ds = await dsLoader.load(cfg.dataset, baseDir, { ...(opts.select ? { select: opts.select } : {}), ingest });
  let ingestStats = ds.ingest;
  const warnings = [...ds.warnings];
  const notes = [...(ds.notes ?? [])];
  const files = [...ds.files];
  const missingMode = cfg.dataset.missingDocs ?? 'skip';
  const select = opts.select ?? ((qs: Question[]) => qs);
  let questions = ds.questions;
  // Before any document is read: a filter that keeps nothing is the user's news, not an empty corpus.
  if (questions.length === 0) throw noQuestions(cfg, ds.files, notes);
  let corpus: Corpus;
  /** How to hash a corpus loaded for a selection: its full trees, or its sources' bytes. */
  let identityOf: { corpus: string | null; sources: DocSource[] | null } | null = null;
  if (configured) {
    const cl = findCorpusLoader(configured.format);
    if (configured.mapping && cl.name !== 'passages') throw new DataError(`the ${cl.name} corpus does not use corpus.mapping (the passages format does)`, { field: 'corpus.mapping' });
    if (ds.corpus) warnings.push(`dataset format "${cfg.dataset.format}" brings its own corpus; using the configured ${cl.name} corpus instead`);
    // Which documents exist: from file names when the loader can tell, else by loading everything.
    let loaded: LoadedCorpus | null = null;
    const listed = cl.listDocs?.(configured, baseDir) ?? null;
    let ids = listed?.map((d) => d.docId) ?? null;
    if (!ids) {
      loaded = await cl.load(configured, baseDir, { ingest });
      ids = loaded.docs.map((d) => d.docId);
    }
    questions = applyMissingDocs(questions, new Set(ids), missingMode, warnings);
    if (questions.length === 0) throw noQuestions(cfg, ds.files, notes, ds.questions.length, warnings[warnings.length - 1]);
    if (configured.only === 'referenced') {
      const wanted = referencedDocIds(select(questions));
      if (loaded) {
        // Everything was read to learn the ids: the whole corpus's hash does not depend on the selection.
        if (opts.select) identityOf = { corpus: corpusHash(loaded.docs), sources: null };
        loaded = { ...loaded, docs: loaded.docs.filter((d) => wanted.has(d.docId)) };
      } else {
        loaded = await cl.load(configured, baseDir, { only: wanted, ingest });
        if (opts.select) identityOf = { corpus: null, sources: listed! };
      }
      notes.push(`corpus.only: referenced: ${loaded.docs.length} of ${ids.length} documents loaded`);
    } else loaded ??= await cl.load(configured, baseDir, { ingest });
    corpus = { name: configured.name ?? ds.name, docs: loaded.docs };
    if (loaded.ingest) ingestStats = loaded.ingest;
    warnings.push(...loaded.warnings);
    files.push(...loaded.files);
  } else if (ds.corpus) {
    corpus = ds.corpus;
    questions = applyMissingDocs(questions, new Set(ds.available?.map((d) => d.docId) ?? corpus.docs.map((d) => d.docId)), missingMode, warnings);
    if (opts.select && ds.available) identityOf = { corpus: null, sources: ds.available };
  } else {
    throw new DataError(`dataset format "${cfg.dataset.format}" has no documents of its own; add a corpus section (format: ${corpusLoaders.map((l) => l.name).join(' | ')})`, {
      field: 'corpus',
    });
  }
  // Questions on a document ingestion skipped (unreadable, no text) cannot be answered: dropped, and said.
  const skippedIds = new Set(ingestStats?.skipped?.map((s) => s.docId) ?? []);
  if (skippedIds.size) {
    const before = questions.length;
    questions = questions.filter((q) => !referencedDocs(q).some((d) => skippedIds.has(d)));
    if (questions.length < before) warnings.push(`dropped ${before - questions.length} of ${before} questions that name a skipped document (${[...skippedIds].join(', ')})`);
  }
  if (ingestStats?.duplicates?.length) corpus = handleDuplicates(corpus, questions, ingestStats.duplicates, cfg.corpus?.duplicates ?? 'keep', warnings);
  // Summaries for trees without them: PDFs got theirs at ingestion (`auto`, `extractive`);
  // `extractive` also covers every other format. `model` summaries are the runner's job.
  if (cfg.corpus?.summaries === 'extractive') for (const doc of corpus.docs) addExtractiveSummaries(doc, { maxTokens: cfg.corpus.summaryTokens });
  assertUniqueDocIds(corpus);
  for (const d of corpus.docs) {
    if (d.nodes.length === 0) warnings.push(`${d.source ?? d.docId}: document "${d.docId}" has no nodes (no outline and no text): no strategy can find anything in it`);
    assertTreeDepth(d);
  }
  warnings.push(...drainTextWarnings());
  if (corpus.docs.length === 0) throw new DataError('the corpus has no documents', { field: cfg.corpus ? 'corpus.path' : 'dataset.path' });
  if (questions.length === 0) throw noQuestions(cfg, ds.files, notes, ds.questions.length, warnings[warnings.length - 1]);
  const running = select(questions);
  let identity: BenchmarkData['identity'];
  if (identityOf) {
    // Hash the questions before title paths resolve: only the running ones' can, in a partial corpus.
    const questionsHash = sha256(JSON.stringify(questions.map((q) => [q, pendingTitlePaths.get(q) ?? null])));
    // Built trees depend on the builder too: its version is part of the corpus's identity.
    const { TREE_BUILDER_VERSION, MODEL_TREE_VERSION } = await import('./pdfStack.ts');
    // Where the files lie is not part of it (the same files elsewhere are the same corpus): the
    // section's paths are left out, each document's bytes are hashed under its docId.
    // (the extractor counts through `build`, where it is only when not the default pdf.js)
    const { path: _path, cacheDir: _cacheDir, strict: _strict, extractor: _extractor, ...sectionWithoutPath } = (configured ?? { format: cfg.dataset.format, path: cfg.dataset.path }) as { path?: unknown; cacheDir?: unknown } & Record<string, unknown>;
    const corpusSection = { ...sectionWithoutPath, build: { ...ingest, cacheDir: undefined, quiet: undefined, strict: undefined, strictField: undefined, builder: TREE_BUILDER_VERSION, model: ingest.model ? [MODEL_TREE_VERSION, ingest.model.modelKey] : undefined } };
    const sourcesHash = () =>
      sha256(JSON.stringify({ corpus: corpusSection, docs: [...identityOf!.sources!].sort((a, b) => byCodeUnit(a.docId, b.docId)).map((d) => [d.docId, sha256(fs.readFileSync(d.file))]) }));
    identity = { questionsHash, corpusHash: identityOf.corpus ?? sourcesHash(), basis: 'source files' };
  }
  warnings.push(...resolveTitlePaths(corpus, identity ? running : questions).warnings);
  warnings.push(...checkReferences(corpus, running).warnings);
  return {
    name: cfg.dataset.name ?? ds.name,
    corpus,
    questions,
    warnings,
    notes,
    files: [...new Set(files)],
    ...(identity ? { identity } : {}),
    ...(ingestStats ? { ingest: ingestStats } : {}),
  };
}

/**
 * No question left to run, said by its cause: `dataset.filter` kept none of the records, the file
 * holds none, or every question names a document the corpus does not have.
 */
function noQuestions(cfg: BenchmarkDataConfig, files: string[], notes: string[], beforeMissingDocs = 0, missing?: string): DataError {
  const file = files[files.length - 1];
  if (beforeMissingDocs) {
    return new DataError(`the dataset has no questions left: all ${beforeMissingDocs} name documents missing from the corpus${missing ? ` (${missing})` : ''}`, { field: 'dataset.path', ...(file ? { file } : {}) });
  }
  if (cfg.dataset.filter) {
    const read = notes.find((n) => n.includes('left out by dataset.filter'));
    return new DataError(`the filter matched no record${read ? ` (${read})` : ''}: nothing to run; check the field names and values in the filter`, { field: 'dataset.filter', ...(file ? { file } : {}) });
  }
  return new DataError('the dataset has no questions', { field: 'dataset.path', ...(file ? { file } : {}) });
}

const corpusHash = (docs: DocTree[]) => contentHash(docs);

/**
 * Byte-identical documents (corpus.duplicates): `keep` leaves every copy in the corpus and names
 * the groups in a warning (a strategy then finds the same text under two ids, and only the one a
 * question names counts as its document); `merge` keeps the first of each group and points the
 * questions (docIds and gold evidence) that name a copy at it. Questions are changed in place.
 */
function handleDuplicates(corpus: Corpus, questions: Question[], groups: DuplicateDocuments[], mode: 'keep' | 'merge', warnings: string[]): Corpus {
  const names = groups.map((g) => g.docIds.join(' = ')).join('; ');
  if (mode === 'keep') {
    warnings.push(`${groups.length} group(s) of byte-identical documents, each kept as its own document: ${names} (corpus.duplicates: merge keeps one of each)`);
    return corpus;
  }
  for (const g of groups) g.merged = true;
  const to = new Map(groups.flatMap((g) => g.docIds.slice(1).map((d) => [d, g.docIds[0]!] as const)));
  for (const q of questions) {
    if (q.docIds?.some((d) => to.has(d))) q.docIds = [...new Set(q.docIds.map((d) => to.get(d) ?? d))];
    for (const e of q.evidence ?? []) e.docId = to.get(e.docId) ?? e.docId;
  }
  warnings.push(`merged ${to.size} byte-identical document(s) into the first of their group: ${names} (corpus.duplicates: merge)`);
  return { ...corpus, docs: corpus.docs.filter((d) => !to.has(d.docId)) };
}

/**
 * Deepest tree a document may have: the tree-level twin of MAX_JSON_DEPTH (a tree level is two
 * JSON levels, a node and its children list), which JSON trees already meet when they are read;
 * parent links (passages) can nest deeper without any JSON nesting. No real outline is that deep,
 * and deeper trees overflow the recursive code that walks them: refused, with the depth found.
 */
export const MAX_TREE_DEPTH = MAX_JSON_DEPTH / 2;

function assertTreeDepth(doc: DocTree): void {
  let deepest = 0;
  for (const v of walkNodes(doc.nodes)) if (v.depth > deepest) deepest = v.depth;
  if (deepest > MAX_TREE_DEPTH) {
    throw new DataError(`document "${doc.docId}" is nested ${deepest} levels deep, more than the ${MAX_TREE_DEPTH} treebench reads; no real document outline is`, { file: doc.source, field: 'docId' });
  }
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
