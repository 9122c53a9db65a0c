// Config sections for data (zod). Paths resolve relative to the config file's folder.
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
//     name: optional display name
//   corpus:                        # optional when the dataset brings its own corpus (sample, emanual-s10, financebench)
//     format: native | pageindex | markdown | pdf
//     path: file, folder, or a list of them (no globs)
//     docIdFrom: filename | field  # pageindex: file name or doc_name; markdown and pdf: file name only
//     pdfText: auto | off          # pageindex: attach page texts from <name>.pdf beside <name>_structure.json (default auto)
//     pdf: file or folder          # pageindex: where the PDFs are, when not beside the trees
//     tree: auto | outline | toc | layout | pages   # PDFs: which structure to build (default auto)
//     ignoreOutline: false         # PDFs: build as if there were no bookmarks
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
import { DataError } from './errors.ts';
import { questionMappingSchema } from './mapping.ts';
import { passageMappingSchema } from './passages.ts';
import { recordFilterSchema } from './recordFilter.ts';

const globs = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

export const datasetConfigSchema = z
  .object({
    format: z.string().min(1),
    path: z.string().min(1).optional(),
    mapping: questionMappingSchema.optional(),
    /** Questions naming a document the corpus lacks: drop them (default), stop, or keep them. */
    missingDocs: z.enum(['skip', 'fail', 'keep']).optional(),
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
    /** PDFs: `auto` (outline if plausible, else printed table of contents, else layout headings, else page groups) or one source. */
    tree: z.enum(['auto', 'outline', 'toc', 'layout', 'pages']).default('auto'),
    /** PDFs: build as if the file had no bookmarks (to measure the builder against them). */
    ignoreOutline: z.boolean().default(false),
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

/** Validates the data sections; the first problem becomes a DataError naming its field path. */
export function parseDataConfig(input: unknown, file?: string): BenchmarkDataConfig {
  const r = benchmarkDataConfigSchema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue.path.map(String).join('.') || undefined;
  throw new DataError(issue.message, { file, field });
}
