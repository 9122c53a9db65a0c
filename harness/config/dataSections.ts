// The data sections of a run config (zod): `dataset:` and `corpus:`, with the question mapping,
// the passage mapping and the record filter they hold. Schemas only: the loaders that read them
// are datasets/'s (datasets/registry.ts); they live here, in the config room, so the run config
// (runConfig.ts) validates every section without importing a loader. Paths resolve relative to the config file's folder.
//
//   dataset:                       # questions (and for some formats, the corpus too)
//     format: sample | emanual-s10 | financebench | jsonl | csv
//     path: ../datasets/sample     # file or folder (sample: defaults to the bundled one)
//     mapping: { ... }             # jsonl/csv field mapping (datasets/mapping.ts); default: treebench Question JSON
//     missingDocs: skip | fail | keep  # questions naming a document the corpus lacks: dropped with a warning
//                                  # (default), stop the load, or kept (they cannot find their gold)
//     filter: { field: x, equals: y }  # keep only records that pass (datasets/recordFilter.ts)
//     onInvalid: fail | skip       # a record that cannot be mapped stops the load (default) or is skipped and counted
//     pdfs: folder                 # financebench: the PDFs, when not in <path>/pdfs or beside its data/ folder
//     setting: closed | open       # financebench: questions name their filing (closed, default) or all filings are one corpus (open)
//     name: optional display name
//   corpus:                        # optional when the dataset brings its own corpus (sample, emanual-s10, financebench)
//     format: native | pageindex | markdown | pdf
//     path: file, folder, or a list of them (no globs)
//     docIdFrom: filename | field  # pageindex: file name or doc_name; markdown and pdf: file name only
//     pdfText: auto | off          # pageindex: attach page texts from <name>.pdf beside <name>_structure.json (default auto)
//     pdf: file or folder          # pageindex: where the PDFs are, when not beside the trees
//     tree: auto | outline | toc | layout | pages | model   # PDFs: which structure to build (default auto;
//                                  # model: built by the configured model, docs/trees.md)
//     ignoreOutline: false         # PDFs: build as if there were no bookmarks
//     extractor: pdfjs | poppler   # PDFs: what reads them: pdf.js (default) or poppler's pdftohtml (faster; needs poppler-utils)
//     summaries: auto | none | extractive | model  # node summaries where a tree has none
//     summaryTokens: 60            # bound on a generated summary
//     cache: true                  # PDFs and Markdown: the on-disk ingestion cache (.treebench/ingest)
//   A corpus section without `format` only sets these build options for a dataset that brings
//   its own documents (financebench).
//     include: [glob], exclude: [glob]  # folders: which files count, by path relative to the folder
//     only: all | referenced       # referenced: load only documents the (selected) questions name in docIds
//     mapping: { ... }             # passages: fields of a passage (datasets/passages.ts)
//
// `format` is checked against the loader registry (datasets/registry.ts), not a fixed enum, so a
// registered loader is usable from configs without touching this file.
import { z } from 'zod';
import { PDF_EXTRACTORS } from '../types.ts';

// --- record filter (datasets/recordFilter.ts applies it)
export type FilterCondition =
  | { field: string; equals: unknown }
  | { field: string; in: unknown[] }
  | { field: string; contains: string | number | boolean }
  | { field: string; exists: boolean }
  | { not: FilterCondition }
  | { all: FilterCondition[] }
  | { any: FilterCondition[] };

const OPS = ['equals', 'in', 'contains', 'exists'] as const;
const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first problem with a condition, as a message and the path to it; null when it is fine. */
function conditionProblem(c: unknown, at: Array<string | number>): { message: string; path: Array<string | number> } | null {
  const shape = 'a condition is { field, equals | in | contains | exists } or { not: cond } / { all: [cond] } / { any: [cond] }';
  if (!isObj(c)) return { message: `${shape}; got ${JSON.stringify(c)}`, path: at };
  const keys = Object.keys(c);
  if (keys.length === 1 && (keys[0] === 'not' || keys[0] === 'all' || keys[0] === 'any')) {
    const k = keys[0];
    if (k === 'not') return conditionProblem(c.not, [...at, 'not']);
    const list = c[k];
    if (!Array.isArray(list) || list.length === 0) return { message: `${k} takes a non-empty list of conditions`, path: [...at, k] };
    for (let i = 0; i < list.length; i++) {
      const p = conditionProblem(list[i], [...at, k, i]);
      if (p) return p;
    }
    return null;
  }
  if (typeof c.field !== 'string' || c.field === '') return { message: `${shape}; "field" (a field name or dotted path) is missing`, path: [...at, 'field'] };
  const ops = keys.filter((k) => k !== 'field');
  if (ops.length !== 1 || !(OPS as readonly string[]).includes(ops[0])) {
    return { message: `${shape}; got ${ops.length ? ops.map((k) => `"${k}"`).join(', ') : 'no test'} beside "field"`, path: at };
  }
  const op = ops[0];
  const v = c[op];
  if (op === 'equals' && !(isScalar(v) || (Array.isArray(v) && v.every(isScalar)))) return { message: 'equals takes a value or a list of values', path: [...at, op] };
  if (op === 'in' && !(Array.isArray(v) && v.length > 0 && v.every(isScalar))) return { message: 'in takes a non-empty list of values', path: [...at, op] };
  if (op === 'contains' && !(isScalar(v) && v !== null)) return { message: 'contains takes one value', path: [...at, op] };
  if (op === 'exists' && typeof v !== 'boolean') return { message: 'exists takes true or false', path: [...at, op] };
  return null;
}

/** A condition, or a list of them (all must hold). Errors name the condition's path and what is wrong. */
export const recordFilterSchema = z.unknown().superRefine((v, ctx) => {
  const list = Array.isArray(v) ? v : [v];
  if (Array.isArray(v) && v.length === 0) ctx.addIssue({ code: 'custom', message: 'an empty list of conditions' });
  for (let i = 0; i < list.length; i++) {
    const p = conditionProblem(list[i], Array.isArray(v) ? [i] : []);
    if (p) {
      ctx.addIssue({ code: 'custom', message: p.message, path: p.path });
      return;
    }
  }
}) as unknown as z.ZodType<RecordFilter>;
export type RecordFilter = FilterCondition | FilterCondition[];

// --- question mapping (datasets/mapping.ts applies it)
const fieldRef = z.string().min(1, 'expected a field name or dotted path');

export const evidenceItemsSchema = z
  .object({
    /** Path of the array of evidence objects in each record. */
    path: fieldRef,
    /** Paths inside one evidence object. */
    docId: fieldRef.optional(),
    nodeIds: fieldRef.optional(),
    pages: fieldRef.optional(),
  })
  .strict();

export const questionMappingSchema = z
  .object({
    id: fieldRef.optional(),
    question: fieldRef.default('question'),
    answers: z.union([fieldRef, z.array(fieldRef).min(1)]).optional(),
    /** Answer values that mean "no answer here" (`None`, `N/A`): compared trimmed, ignoring case. */
    ignoreAnswers: z.array(z.string()).default([]),
    answersSeparator: z.string().min(1).optional(),
    choices: fieldRef.optional(),
    /** Index into choices (0-based) or a letter A, B, C, ... */
    label: fieldRef.optional(),
    docIds: fieldRef.optional(),
    evidenceDocId: fieldRef.optional(),
    nodeIds: fieldRef.optional(),
    pages: fieldRef.optional(),
    pageBase: z.union([z.literal(0), z.literal(1)]).default(1),
    evidenceItems: evidenceItemsSchema.optional(),
    tags: z.union([fieldRef, z.array(fieldRef)]).optional(),
    /** `value` (default) uses the field's value as the tag, `field=value` prefixes the field path. */
    tagFormat: z.enum(['value', 'field=value']).default('value'),
    /** Splits string values of choices, docIds, nodeIds and tags (pages split on , ; | and spaces by default). */
    listSeparator: z.string().min(1).optional(),
    /** Strip a file extension from document ids (`guide/File.md` -> `guide/File`). */
    docIdStripExtension: z.boolean().default(false),
    /** Document for gold nodeIds/pages when the record names none (single-document datasets). */
    defaultDocId: z.string().min(1).optional(),
    /** Gold as a title path (`Settings>Display`), matched to node ids once the corpus is loaded. */
    nodeTitlePath: fieldRef.optional(),
    titlePathSeparator: z.string().min(1).default('>'),
    /** JSON files: dotted path to the records (an array, or a dict whose values are records). */
    records: fieldRef.optional(),
    /** CSV field delimiter (default "," and tab for .tsv files). */
    delimiter: z.string().min(1).optional(),
  })
  .strict();

export type QuestionMapping = z.output<typeof questionMappingSchema>;
export type QuestionMappingInput = z.input<typeof questionMappingSchema>;

// --- passage mapping (datasets/passages.ts applies it)
export const passageMappingSchema = z
  .object({
    records: fieldRef.optional(),
    id: fieldRef.default('id'),
    title: fieldRef.default('title'),
    text: fieldRef.default('text'),
    parent: fieldRef.optional(),
    path: fieldRef.optional(),
    pathSeparator: z.string().min(1).default('>'),
    page: fieldRef.optional(),
    pageBase: z.union([z.literal(0), z.literal(1)]).default(1),
    docId: fieldRef.optional(),
  })
  .strict();

export type PassageMapping = z.output<typeof passageMappingSchema>;

// --- the sections
const globs = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

export const datasetConfigSchema = z
  .object({
    format: z.string().min(1),
    path: z.string().min(1).optional(),
    mapping: questionMappingSchema.optional(),
    /** Questions naming a document the corpus lacks: drop them (default), stop, or keep them. */
    missingDocs: z.enum(['skip', 'fail', 'keep']).optional(),
    /**
     * financebench: `closed` (default) — each question names its filing and the corpus is the
     * filings the running questions name; `open` — every filing with a PDF is one corpus and the
     * questions do not name theirs (FinanceBench's shared vector store).
     */
    setting: z.enum(['closed', 'open']).optional(),
    /** Keep only the records that pass these field conditions. */
    filter: recordFilterSchema.optional(),
    /** A record that cannot be mapped: stop the load (default) or skip it and count it. */
    onInvalid: z.enum(['fail', 'skip']).default('fail'),
    /** financebench: folder of the PDFs, when not `pdfs/` in (or beside the `data/` folder of) `path`. */
    pdfs: z.string().min(1).optional(),
    name: z.string().min(1).optional(),
  })
  .strict();

export const corpusConfigSchema = z
  .object({
    /** Absent: the section only sets build options (tree, summaries, cache) for the dataset's own documents. */
    format: z.string().min(1).optional(),
    path: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    docIdFrom: z.enum(['filename', 'field']).default('filename'),
    name: z.string().min(1).optional(),
    /** Markdown: text before the first heading becomes an intro node (default) or the description. */
    intro: z.enum(['node', 'description']).default('node'),
    /** PageIndex: read page texts from the PDF beside each tree (`auto`) or not at all (`off`). */
    pdfText: z.enum(['auto', 'off']).default('auto'),
    /** PageIndex: the PDF (one tree) or a folder of `<docId>.pdf`, instead of the tree's own folder. */
    pdf: z.string().min(1).optional(),
    /**
     * PDFs: `auto` (outline if plausible, else printed table of contents, else layout headings,
     * else page groups; then, with a real model configured, the model's tree when that offline
     * tree is poor) or one source. `model` needs a model that is not offline (datasets/treeBuild/model.ts).
     */
    tree: z.enum(['auto', 'outline', 'toc', 'layout', 'pages', 'model']).default('auto'),
    /** PDFs: build as if the file had no bookmarks (to measure the builder against them). */
    ignoreOutline: z.boolean().default(false),
    /**
     * PDFs: what extracts text, layout and outline: `pdfjs` (the default: pdf.js in worker
     * threads, nothing to install) or `poppler` (poppler's `pdftohtml -xml`, about three times
     * faster; needs poppler-utils; knows nothing of what pages draw, so text inside figures can
     * pass for headings: datasets/pdfPoppler.ts). Optional so configs without it hash as before.
     */
    extractor: z.enum(PDF_EXTRACTORS).optional(),
    /**
     * Node summaries where a tree has none: `auto` = extractive for trees treebench builds from
     * PDFs, none elsewhere; `extractive` for every document; `model` = written by the configured
     * model at ingestion (metered, cached, reported as ingestion cost); `none`.
     */
    summaries: z.enum(['auto', 'none', 'extractive', 'model']).default('auto'),
    summaryTokens: z.number().int().min(8).max(1000).default(60),
    /** PDFs and Markdown: keep extracted text, parsed and built trees in `.treebench/ingest` (keyed by file hash, parser/builder version and options). */
    cache: z.boolean().default(true),
    cacheDir: z.string().min(1).default('.treebench/ingest'),
    /** PDFs: an unreadable or empty document (truncated, no pages, no text) is an error (true), or skipped with a warning and counted (false, the default; optional so configs without it hash as before). */
    strict: z.boolean().optional(),
    /** PDFs: byte-identical files are kept as separate documents (`keep`, the default, with a warning) or merged into the first (`merge`: questions naming a copy are pointed at it). */
    duplicates: z.enum(['keep', 'merge']).optional(),
    /** Folders: only files whose path relative to the folder matches one of these globs. */
    include: globs.optional(),
    /** Folders: leave out files whose path relative to the folder matches one of these globs. */
    exclude: globs.optional(),
    /** `referenced`: load only the documents the questions (after --limit/--shard) name in docIds. */
    only: z.enum(['all', 'referenced']).default('all'),
    /** passages: where id, title, text (and optional parent/path/page) are in each passage. */
    mapping: passageMappingSchema.optional(),
  })
  .strict();

export const benchmarkDataConfigSchema = z.object({
  dataset: datasetConfigSchema,
  corpus: corpusConfigSchema.optional(),
});

export type DatasetConfig = z.output<typeof datasetConfigSchema>;
export type CorpusConfig = z.output<typeof corpusConfigSchema>;
export type BenchmarkDataConfig = z.output<typeof benchmarkDataConfigSchema>;
export type BenchmarkDataConfigInput = z.input<typeof benchmarkDataConfigSchema>;

