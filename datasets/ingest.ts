// PDF ingestion: extraction (pdf.js) -> tree building -> extractive summaries, with an on-disk
// cache so that the second run of a config extracts nothing.
//
//   ingestPdfs([{ file, docId, title?, description? }], { tree, ignoreOutline, summaries, cacheDir })
//     -> { docs, stats: { documents, pages, extracted, fromCache, ms } }
//
// Two cache levels under `cacheDir` (default `.treebench/ingest`), both keyed by the SHA-256 of
// the PDF's bytes (a renamed or copied file hits; a changed file misses):
//   content/<sha>-<EXTRACTION_VERSION>.json.gz   what pdf.js extracted (page texts, layout lines,
//                                                  outline): rebuilding a tree with other options
//                                                  extracts nothing; `…-poppler<version>.json.gz`
//                                                  what pdftohtml did (corpus.extractor: poppler),
//                                                  whose trees are keyed apart too
//   trees/<sha256(file sha, builder version, options)>.json.gz   the built tree with its summaries
//                                                  and the warnings building it gave (with a model
//                                                  in reach, its settings are options too; a tree
//                                                  the model built keeps what its calls cost)
//   tree-model/                                    the model's replies (a response cache), when a
//                                                  model was asked about a tree (corpus.tree: model,
//                                                  or auto on a poor offline tree: treeBuild/withModel.ts)
// Every cache file is written to a temporary name and renamed, so a killed run never leaves a
// torn entry (its temporary file is swept by the next load); an unreadable entry is a miss (and
// is overwritten). Document ids, titles and descriptions are not part of the cached tree: they
// come from the caller on every load.
// Markdown documents use the same folder and primitives (datasets/markdownIngest.ts: markdown/).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { DocMetadata, DocTree, DuplicateDocuments, IngestStats, SkippedDocument, TreeNode } from '../harness/types.ts';
import { startProgress } from '../harness/run/progress.ts';
import { sweepStaleTemps, writeViaTemp } from '../harness/files/tempFiles.ts';
import { inputFileProblem } from '../harness/files/inputFile.ts';
import { sha256 } from '../harness/files/fileHash.ts';
import { assertExtractorAvailable, pageTextWarnings, readPdf, type PdfContent, type PdfExtractor } from './pdf.ts';
import { TREE_BUILDER_VERSION, type TreeBuildReport, type TreeChoice } from './treeBuild/index.ts';
import { buildPdfTreeWithModel } from './treeBuild/withModel.ts';
import { MODEL_TREE_VERSION } from './treeBuild/model.ts';
import type { IngestionCalls, IngestionModel } from '../harness/run/ingestionModel.ts';
import type { ModelTreeStats } from '../harness/types.ts';
import { DataError, displayPath } from './errors.ts';
import { addExtractiveSummaries, DEFAULT_SUMMARY_TOKENS, SUMMARIZER_VERSION, type SummaryMode } from './summaries.ts';

export type { TreeChoice };

/** Bumped when what the PDF reader extracts changes shape or content (x5: drawn regions and line style runs; x6: kerns inside words are no spaces). */
export const EXTRACTION_VERSION = 'x6';
/** Bumped when what the poppler extractor (datasets/pdfPoppler.ts) makes of pdftohtml's output changes; its content files carry both. */
export const POPPLER_EXTRACTION_VERSION = 'p1';

export const DEFAULT_INGEST_DIR = '.treebench/ingest';

/** Documents ingested at once: enough to keep the pdf.js workers fed, few enough that their bytes and contents do not all sit in memory. */
const IN_FLIGHT = 16;

export interface IngestOptions {
  /** Which structure to build (default `auto`: outline, else printed TOC, else layout headings, else page groups). */
  tree?: TreeChoice;
  /** Build as if the PDF had no bookmarks (to measure the builder against them). */
  ignoreOutline?: boolean;
  /** What extracts the PDFs (corpus.extractor): pdf.js (default) or poppler's pdftohtml. */
  extractor?: PdfExtractor;
  /** `auto` and `extractive` write extractive summaries for nodes without one; `none` and `model` leave them (the runner writes model summaries). */
  summaries?: SummaryMode;
  summaryTokens?: number;
  /** Cache folder; null turns the cache off. */
  cacheDir?: string | null;
  /** No progress line. */
  quiet?: boolean;
  /** The progress line's label (default `reading PDFs`). */
  label?: string;
  /** Non-fatal problems are appended here. */
  warnings?: string[];
  /**
   * An unreadable or empty document (truncated PDF, no pages, no text on any page) is an error
   * naming every such file (true), or left out with a warning and counted (false, the default).
   */
  strict?: boolean;
  /** The setting that asked for `strict`, named by its error (e.g. corpus.strict). */
  strictField?: string;
  /**
   * The configured model, for `tree: model` and for `auto` on a poor offline tree
   * (treeBuild/withModel.ts); absent or null: offline trees only (`tree: model` is then an error).
   */
  model?: IngestionModel | null;
}

export interface PdfSource {
  file: string;
  docId: string;
  title?: string;
  description?: string;
  metadata?: DocMetadata;
}

export type { IngestStats };

interface CachedTree {
  nodes: TreeNode[];
  pages: string[];
  treeSource?: string;
  /** Why that source, and what the builder could not place (datasets/treeBuild). */
  report?: TreeBuildReport;
  summaries?: DocTree['summaries'];
  /** Warnings building it gave, with the PDF's path written as `{file}`. */
  warnings: string[];
  /** Set when the model was asked about this tree: what its calls cost, and whether its tree was kept. */
  model?: IngestionCalls & { built: boolean };
}

/** What one document's tree cost in model calls (null: the model was not asked). */
type DocModelCost = (IngestionCalls & { built: boolean; failed: boolean; ms: number }) | null;

/** Whether these options put the model in reach of the tree builder. */
const modelInReach = (opts: IngestOptions): opts is IngestOptions & { model: IngestionModel } => Boolean(opts.model) && (opts.tree === undefined || opts.tree === 'auto' || opts.tree === 'model');

/** A cache entry, or null when it is absent or unreadable (a miss). */
export function readGz<T>(file: string): T | null {
  try {
    return JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8')) as T;
  } catch {
    return null; // absent or torn: a miss
  }
}

/** Writes a cache entry atomically (temporary file, then rename). */
export function writeGz(file: string, value: unknown): void {
  writeViaTemp(file, zlib.gzipSync(JSON.stringify(value), { level: 6 }));
}

/**
 * Removes the temporary files that runs killed while writing this cache left (content/, trees/,
 * markdown/); called once per load before the cache is used.
 */
export function sweepIngestCache(dir: string | null | undefined): void {
  if (dir) sweepStaleTemps(dir, 1);
}

/** The options that change a built tree (and so its cache key). */
function treeOptionsKey(opts: IngestOptions): Record<string, unknown> {
  const summaries = opts.summaries ?? 'auto';
  const extractive = summaries === 'auto' || summaries === 'extractive';
  return {
    builder: TREE_BUILDER_VERSION,
    // A tree is built from the extracted content: a new extraction builds it again.
    extraction: EXTRACTION_VERSION,
    tree: opts.tree ?? 'auto',
    ignoreOutline: opts.ignoreOutline ?? false,
    // (only when not the default, so the keys of trees pdf.js extracted stay as they were)
    ...(opts.extractor === 'poppler' ? { extractor: 'poppler' } : {}),
    summaries: extractive ? `${SUMMARIZER_VERSION}:${opts.summaryTokens ?? DEFAULT_SUMMARY_TOKENS}` : 'none',
    // A model in reach changes what `auto` (and `model`) builds: its settings are part of the key.
    ...(modelInReach(opts) ? { model: [MODEL_TREE_VERSION, opts.model.modelKey] } : {}),
  };
}

async function ingestOne(src: PdfSource, opts: IngestOptions, onExtract: () => void): Promise<{ doc: DocTree; cached: boolean; fileSha: string; model: DocModelCost }> {
  // A FIFO or a device named as a PDF is refused before it is read (the read would never end).
  const problem = inputFileProblem(src.file);
  if (problem) throw new DataError(problem, { file: src.file });
  const bytes = fs.readFileSync(src.file);
  const fileSha = sha256(bytes);
  const dir = opts.cacheDir ?? null;
  const treeFile = dir ? path.join(dir, 'trees', `${sha256(JSON.stringify({ fileSha, ...treeOptionsKey(opts) }))}.json.gz`) : null;
  const finish = (t: CachedTree): DocTree => {
    opts.warnings?.push(...t.warnings.map((w) => w.replaceAll('{file}', src.file)));
    const doc: DocTree = { docId: src.docId, title: src.title ?? src.docId, nodes: t.nodes, pages: t.pages, source: src.file };
    if (src.description) doc.description = src.description;
    if (src.metadata && Object.keys(src.metadata).length) doc.metadata = src.metadata;
    if (t.treeSource) doc.treeSource = t.treeSource;
    if (t.report) doc.treeReport = t.report;
    if (t.summaries) doc.summaries = t.summaries;
    return doc;
  };
  const hit = treeFile ? readGz<CachedTree>(treeFile) : null;
  if (hit && Array.isArray(hit.nodes) && Array.isArray(hit.pages)) {
    // A tree the model built, read back: its calls count as cached (tokens as then, no dollars now).
    const m = hit.model;
    const model: DocModelCost = m ? { calls: m.calls, cached: m.calls, inputTokens: m.inputTokens, outputTokens: m.outputTokens, costUsd: 0, built: m.built, failed: false, ms: 0 } : null;
    return { doc: finish(hit), cached: true, fileSha, model };
  }

  const poppler = opts.extractor === 'poppler';
  const contentFile = dir ? path.join(dir, 'content', `${fileSha}-${EXTRACTION_VERSION}${poppler ? `-poppler${POPPLER_EXTRACTION_VERSION}` : ''}.json.gz`) : null;
  let content = contentFile ? readGz<PdfContent>(contentFile) : null;
  if (!content || !Array.isArray(content.pages)) {
    onExtract();
    content = await readPdf(src.file, poppler ? { extractor: 'poppler' } : {});
    if (contentFile) writeGz(contentFile, content);
  }
  const warnings: string[] = [];
  if (content.pageCount === 0) throw new DataError('the PDF has no pages', { file: src.file });
  // Nothing to retrieve: a scan without OCR, or a PDF of images only. (Cached text stays cached.)
  if (content.pages.every((p) => p.trim() === '')) throw new DataError(`none of its ${content.pageCount} pages has extractable text (a scanned PDF? treebench does not OCR)`, { file: src.file });
  warnings.push(...pageTextWarnings(content, '{file}'));
  const meter = modelInReach(opts) ? opts.model.meter() : null;
  const t0 = performance.now();
  const { doc: built, report, model: asked } = await buildPdfTreeWithModel(
    content,
    {
      docId: src.docId,
      source: '{file}',
      warnings,
      ...(opts.tree ? { tree: opts.tree } : {}),
      ...(opts.ignoreOutline ? { ignoreOutline: true } : {}),
    },
    meter,
  );
  const model: DocModelCost = meter && asked ? { ...meter.cost(), built: asked.built, failed: !asked.built, ms: performance.now() - t0 } : null;
  // A printed table of contents entry that could not be found on the pages is left out, and said.
  if (report.unlocated?.length) {
    const n = report.unlocated.length;
    const eg = `${report.unlocated.slice(0, 5).map((t) => `"${t}"`).join(', ')}${n > 5 ? ', …' : ''}`;
    warnings.push(
      report.source === 'model'
        ? `{file}: ${n} section title(s) the model gave were found on no page and were left out: ${eg}`
        : `{file}: ${n} of ${report.tocEntries} table-of-contents entries could not be located on the pages and were left out: ${eg}`,
    );
  }
  const summaries = opts.summaries ?? 'auto';
  if (summaries === 'auto' || summaries === 'extractive') addExtractiveSummaries(built, { maxTokens: opts.summaryTokens ?? DEFAULT_SUMMARY_TOKENS });
  const entry: CachedTree = { nodes: built.nodes, pages: built.pages ?? content.pages, warnings, report };
  if (built.treeSource) entry.treeSource = built.treeSource;
  if (built.summaries) entry.summaries = built.summaries;
  if (model) entry.model = { calls: model.calls, cached: model.cached, inputTokens: model.inputTokens, outputTokens: model.outputTokens, costUsd: model.costUsd, built: model.built };
  // A model that failed (a server that did not answer, a reply that could not be used) is asked
  // again next time: its fallback is not cached (its replies are, in tree-model/).
  if (treeFile && !model?.failed) writeGz(treeFile, entry);
  return { doc: finish(entry), cached: false, fileSha, model };
}

/**
 * Reads PDFs into document trees, in the order given, through the cache. PDFs run in parallel
 * (pdf.js worker threads); a progress line (documents, pages/s, ETA) goes to stderr unless
 * `quiet`, ending with how many were extracted and how many came from the cache. A document
 * that cannot be read or holds no text (a DataError naming it) is left out with a warning and
 * counted in `stats.skipped`; under `strict` they are one DataError naming every such file. What
 * the others extracted is in the cache either way, so a rerun reads only what failed. Any other
 * error (a bug, not the data) throws as it is.
 */
export async function ingestPdfs(sources: PdfSource[], opts: IngestOptions = {}): Promise<{ docs: DocTree[]; stats: IngestStats }> {
  const t0 = performance.now();
  if (opts.tree === 'model' && !opts.model) {
    throw new DataError('corpus.tree: "model" builds trees with the configured model, and none is configured (model.provider is offline); configure a model or use corpus.tree: auto', { field: 'corpus.tree' });
  }
  if (sources.length) assertExtractorAvailable(opts.extractor ?? 'pdfjs');
  sweepIngestCache(opts.cacheDir);
  const progress = startProgress({ label: opts.label ?? 'reading PDFs', total: sources.length, unit: 'PDFs', secondary: 'pages', quiet: opts.quiet || sources.length === 0 });
  let extracted = 0;
  // At most IN_FLIGHT documents at a time, each started on a later turn of the event loop: a cache
  // hit is synchronous work, and 344 of them started at once ran back to back before the first
  // tick, which then saw one document done in the whole load's time ("~3007 s left", then done).
  const settled: Array<PromiseSettledResult<Awaited<ReturnType<typeof ingestOne>>>> = new Array(sources.length);
  let next = 0;
  const lane = async () => {
    while (next < sources.length) {
      const i = next++;
      await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        const r = await ingestOne(sources[i]!, opts, () => extracted++);
        progress.tick(1, r.doc.pages?.length ?? 0);
        settled[i] = { status: 'fulfilled', value: r };
      } catch (err) {
        progress.tick(1, 0);
        settled[i] = { status: 'rejected', reason: err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, sources.length) }, lane));
  const bug = settled.find((r) => r.status === 'rejected' && !(r.reason instanceof DataError));
  if (bug) {
    progress.done('failed');
    throw (bug as PromiseRejectedResult).reason;
  }
  const skipped: SkippedDocument[] = [];
  settled.forEach((r, i) => {
    if (r.status === 'rejected') skipped.push({ docId: sources[i]!.docId, file: sources[i]!.file, reason: (r.reason as DataError).detail });
  });
  if (skipped.length && opts.strict) {
    progress.done('failed');
    const list = skipped.map((s) => `${displayPath(s.file)}: ${s.reason}`).join('; ');
    throw new DataError(`${skipped.length} of ${sources.length} document(s) cannot be read${opts.strictField ? ` (${opts.strictField}: true)` : ''}: ${list}`, opts.strictField ? { field: opts.strictField } : {});
  }
  for (const s of skipped) opts.warnings?.push(`${s.file}: skipped, ${s.reason} (corpus.strict: true makes this an error)`);
  const results = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  // Byte-identical files (the same filing downloaded twice): grouped by the hash the cache keys on.
  const bySha = new Map<string, DuplicateDocuments>();
  results.forEach((r, i) => {
    const group = bySha.get(r.fileSha) ?? { docIds: [], files: [] };
    group.docIds.push(r.doc.docId);
    group.files.push(r.doc.source ?? String(i));
    bySha.set(r.fileSha, group);
  });
  const duplicates = [...bySha.values()].filter((g) => g.docIds.length > 1);
  const fromCache = results.filter((r) => r.cached).length;
  const pages = results.reduce((n, r) => n + (r.doc.pages?.length ?? 0), 0);
  const treeModel = modelTreeStats(results.map((r) => r.model));
  progress.done(
    extracted === 0 && sources.length > 0
      ? `nothing extracted (${fromCache} from the ingestion cache${fromCache < sources.length ? `, ${sources.length - fromCache} rebuilt from cached text` : ''})`
      : `${extracted} extracted, ${fromCache} from the ingestion cache${skipped.length ? `, ${skipped.length} skipped (unreadable)` : ''}`,
  );
  return {
    docs: results.map((r) => r.doc),
    stats: { documents: results.length, pages, extracted, fromCache, ms: performance.now() - t0, extractor: opts.extractor ?? 'pdfjs', ...(skipped.length ? { skipped } : {}), ...(duplicates.length ? { duplicates } : {}), ...(treeModel ? { treeModel } : {}) },
  };
}

/** The model's tree work over the documents it was asked about (null when it was asked about none). */
function modelTreeStats(costs: DocModelCost[]): ModelTreeStats | null {
  const asked = costs.filter((c): c is NonNullable<DocModelCost> => c !== null);
  if (!asked.length) return null;
  const sum = (f: (c: NonNullable<DocModelCost>) => number) => asked.reduce((n, c) => n + f(c), 0);
  return {
    documents: asked.length,
    built: asked.filter((c) => c.built).length,
    fallbacks: asked.filter((c) => c.failed).length,
    calls: sum((c) => c.calls),
    cached: sum((c) => c.cached),
    inputTokens: sum((c) => c.inputTokens),
    outputTokens: sum((c) => c.outputTokens),
    costUsd: sum((c) => c.costUsd),
    ms: sum((c) => c.ms),
  };
}
