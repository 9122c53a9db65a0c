// Markdown ingestion through the on-disk ingestion cache of datasets/ingest.ts, so that the second
// run of a config parses nothing (parsing hundreds of files through mdast takes seconds; reading
// them back from the cache takes a fraction of that).
//
//   ingestMarkdown([{ file, docId }], { intro, cacheDir, quiet, warnings })
//     -> { docs, stats: { documents, parsed, fromCache, ms } }
//
// One entry per file under `<cacheDir>/markdown/`, named by the SHA-256 of
//   { SHA-256 of the file's bytes, MARKDOWN_PARSER_VERSION, docId, intro }
// i.e. everything parseMarkdown's output depends on: a changed file misses (and only that file is
// parsed again), a renamed or moved file with the same doc id hits. The entry holds the tree and
// the warnings parsing gave, with the file's path written as `{file}` (the path is filled in on
// every load, so moving the corpus folder still hits). Entries are written atomically (writeGz);
// an unreadable or malformed entry is a miss and is overwritten. Files that are not valid UTF-8
// are never cached: their decoding warning must come on every run.
import fs from 'node:fs';
import path from 'node:path';
import type { DocTree } from '../harness/types.ts';
import { startProgress } from '../harness/run/progress.ts';
import { readText } from './files.ts';
import { inputFileProblem } from '../harness/files/inputFile.ts';
import { readGz, sweepIngestCache, writeGz } from './ingest.ts';
import { sha256 } from '../harness/files/fileHash.ts';
import { TEXT_FILES_FOR_PROGRESS } from './loadProgress.ts';
import { MARKDOWN_PARSER_VERSION, parseMarkdown } from './markdown.ts';

export interface MarkdownSource {
  file: string;
  docId: string;
}

export interface MarkdownIngestOptions {
  /** Where text before the first heading goes (parseMarkdown's `intro`). */
  intro?: 'node' | 'description';
  /** The ingestion cache folder (entries go to its `markdown/`); null or absent turns the cache off. */
  cacheDir?: string | null;
  /** No progress line. */
  quiet?: boolean;
  /** Non-fatal problems are appended here. */
  warnings?: string[];
}

export interface MarkdownIngestStats {
  documents: number;
  /** Files parseMarkdown had to parse (cache misses, or every file with the cache off). */
  parsed: number;
  /** Files whose tree came from the cache (nothing parsed). */
  fromCache: number;
  ms: number;
}

interface CachedMarkdown {
  /** The tree, with `source` = `{file}`. */
  doc: DocTree;
  /** Warnings parsing gave, with the path written as `{file}`. */
  warnings: string[];
}

const FILE = '{file}';
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const isEntry = (e: CachedMarkdown | null): e is CachedMarkdown =>
  !!e && typeof e === 'object' && !!e.doc && typeof e.doc.docId === 'string' && typeof e.doc.title === 'string' && Array.isArray(e.doc.nodes) && Array.isArray(e.warnings);

/**
 * Parses Markdown files into document trees, in the order given, through the cache. A progress
 * line goes to stderr for big folders (unless `quiet`), ending with how many were parsed and how
 * many came from the cache. A file that cannot be read throws readText's DataError.
 */
export function ingestMarkdown(sources: MarkdownSource[], opts: MarkdownIngestOptions = {}): { docs: DocTree[]; stats: MarkdownIngestStats } {
  const t0 = performance.now();
  const dir = opts.cacheDir ?? null;
  sweepIngestCache(dir);
  const progress = startProgress({ label: 'markdown: parsing', total: sources.length, unit: 'files', quiet: opts.quiet || sources.length < TEXT_FILES_FOR_PROGRESS });
  let parsed = 0;
  let fromCache = 0;
  let writeError: string | undefined;
  const docs: DocTree[] = [];
  try {
    for (const src of sources) {
      docs.push(loadOne(src));
      progress.tick();
    }
  } catch (err) {
    progress.done('stopped by an error');
    throw err;
  }
  if (writeError) opts.warnings?.push(`${dir}: could not write the Markdown ingestion cache (${writeError}); the next run parses again`);
  progress.done(
    !dir ? `${parsed} parsed (ingestion cache off)` : parsed === 0 && sources.length > 0 ? `nothing parsed (${fromCache} from the ingestion cache)` : `${parsed} parsed, ${fromCache} from the ingestion cache`,
  );
  return { docs, stats: { documents: sources.length, parsed, fromCache, ms: performance.now() - t0 } };

  function parse(text: string, src: MarkdownSource, source: string, warnings: string[] | undefined): DocTree {
    parsed++;
    return parseMarkdown(text, { docId: src.docId, source, ...(opts.intro ? { intro: opts.intro } : {}), ...(warnings ? { warnings } : {}) });
  }

  function loadOne(src: MarkdownSource): DocTree {
    if (!dir) return parse(readText(src.file), src, src.file, opts.warnings);
    let bytes: Buffer;
    try {
      if (inputFileProblem(src.file)) throw new Error('not a file to read'); // readText below says why
      bytes = fs.readFileSync(src.file);
    } catch {
      return parse(readText(src.file), src, src.file, opts.warnings); // readText throws, naming the file and why
    }
    const key = sha256(JSON.stringify({ file: sha256(bytes), parser: MARKDOWN_PARSER_VERSION, docId: src.docId, intro: opts.intro ?? 'node' }));
    const entryFile = path.join(dir, 'markdown', `${key}.json.gz`);
    let entry = readGz<CachedMarkdown>(entryFile);
    if (isEntry(entry)) fromCache++;
    else {
      let text: string;
      try {
        text = strictUtf8.decode(bytes); // drops a byte order mark, as readText does
      } catch {
        return parse(readText(src.file), src, src.file, opts.warnings); // not UTF-8: readText warns, on every run
      }
      const warnings: string[] = [];
      entry = { doc: parse(text, src, FILE, warnings), warnings };
      try {
        writeGz(entryFile, entry);
      } catch (err) {
        writeError ??= (err as NodeJS.ErrnoException).code ?? String(err);
      }
    }
    opts.warnings?.push(...entry.warnings.map((w) => w.replaceAll(FILE, src.file)));
    entry.doc.source = src.file;
    return entry.doc;
  }
}
