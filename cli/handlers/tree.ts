// `treebench tree build | inspect | compare`: build a table of contents for PDFs (and Markdown),
// measure a tree, and compare a built tree with a reference outline.
import { writeOutputFile } from '../../harness/files/output.ts';
import { dataPath } from '../../harness/files/containment.ts';
import { forTerminal } from '../../harness/text/terminal.ts';
import fs from 'node:fs';
import path from 'node:path';
import type { Argv } from 'yargs';
import { UsageError } from '../../harness/errors.ts';
import { loadConfig } from '../../harness/config/runConfig.ts';
import { formatTreeQuality, treeQuality } from '../../harness/trees/quality.ts';
import type { DocTree } from '../../harness/types.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { DEFAULT_INGEST_DIR, ingestPdfs, type TreeChoice } from '../../datasets/ingest.ts';
import { loadMarkdownFile } from '../../datasets/markdown.ts';
import { listFiles, isDirectory, exists, stem } from '../../datasets/files.ts';
import { addExtractiveSummaries } from '../../datasets/summaries.ts';
import { readTreeFile, toNativeJson, toPageIndexJson } from '../../datasets/treeFile.ts';
import { readPdf } from '../../datasets/pdf.ts';
import { buildPdfTree, compareTrees, type TreeComparison } from '../../datasets/treeBuild/index.ts';
import type { TreeNode } from '../../harness/types.ts';
import type { CommandBody, Runner } from '../runner.ts';
import { registerBuiltinStrategies } from '../../strategies/registry.ts';
import { makeDirectory } from '../../harness/files/makeDirectory.ts';

// Configs name the built-in strategies: this command offers them.
registerBuiltinStrategies();

const SOURCES = ['auto', 'outline', 'toc', 'layout', 'pages'] as const;


interface BuildArgs {
  input: string;
  source: TreeChoice;
  ignoreOutline?: boolean;
  format: 'pageindex' | 'native';
  out: string;
  summaries: 'auto' | 'none' | 'extractive';
  withText?: boolean;
  cache: boolean;
  quiet?: boolean;
}

/** PDFs and Markdown files named by a build/inspect target (a file or a folder). */
function inputFiles(target: string): string[] {
  if (!exists(target)) throw new UsageError(`${target}: no such file or folder`);
  const files = isDirectory(target) ? listFiles(target, ['.pdf', '.md', '.markdown']) : [target];
  if (!files.length) throw new UsageError(`${target}: no .pdf or .md files in this folder`);
  const bad = files.find((f) => !/\.(pdf|md|markdown)$/i.test(f));
  if (bad) throw new UsageError(`${bad}: expected a .pdf or .md file (or a folder of them)`);
  return files;
}

/** Builds one tree per input file (PDFs through the ingestion cache). */
async function buildTrees(files: string[], a: Omit<BuildArgs, 'input' | 'format' | 'out' | 'withText'>, warnings: string[]): Promise<DocTree[]> {
  const pdfs = files.filter((f) => /\.pdf$/i.test(f));
  const built = await ingestPdfs(
    pdfs.map((file) => ({ file, docId: stem(file) })),
    {
      tree: a.source,
      ignoreOutline: Boolean(a.ignoreOutline),
      summaries: a.summaries,
      cacheDir: a.cache ? path.resolve(DEFAULT_INGEST_DIR) : null,
      quiet: Boolean(a.quiet),
      warnings,
      // Files named on the command line: one that cannot be read is an error, never skipped.
      strict: true,
    },
  );
  const byFile = new Map(pdfs.map((f, i) => [f, built.docs[i]]));
  return files.map((f) => {
    const pdf = byFile.get(f);
    if (pdf) return pdf;
    const doc = loadMarkdownFile(f, stem(f), { warnings });
    if (a.summaries === 'extractive') addExtractiveSummaries(doc);
    return doc;
  });
}

async function cmdBuild(a: BuildArgs): Promise<number> {
  const files = inputFiles(a.input);
  const warnings: string[] = [];
  const docs = await buildTrees(files, a, warnings);
  for (const w of warnings) process.stderr.write(`warning: ${forTerminal(w)}\n`);
  const serialise = (doc: DocTree) => (a.format === 'pageindex' ? toPageIndexJson(doc, { withText: a.withText }) : toNativeJson(doc, { withPages: a.withText }));
  const outIsDir = docs.length > 1 || (exists(a.out) && isDirectory(a.out));
  if (outIsDir) makeDirectory(a.out);
  for (const doc of docs) {
    // A document id names a file inside --out, never outside it (harness/files/containment.ts).
    const file = outIsDir ? dataPath(a.out, doc.docId, { suffix: a.format === 'pageindex' ? '_structure.json' : '.json' }) : a.out;
    if (!file) throw new UsageError(`${doc.source ?? doc.docId}: document id ${JSON.stringify(doc.docId)} is not a plain file name; cannot write it inside ${a.out}`);
    writeOutputFile(path.resolve(file), JSON.stringify(serialise(doc), null, 2) + '\n', 'json');
    const q = treeQuality(doc);
    process.stderr.write(`${forTerminal(doc.docId)}: ${q.source ?? 'headings'}, ${q.nodes} nodes, depth ${q.depth}${q.pages ? `, ${q.pagesCovered}/${q.pages} pages covered` : ''} -> ${file}\n`);
  }
  return 0;
}

async function treesOf(target: string, a: { source: TreeChoice; ignoreOutline?: boolean; cache: boolean; quiet?: boolean }, warnings: string[]): Promise<DocTree[]> {
  if (/\.ya?ml$/i.test(target)) {
    const loaded = loadConfig(target);
    const data = await loadBenchmarkData(loaded.config, loaded.baseDir, { quiet: Boolean(a.quiet) });
    warnings.push(...data.warnings);
    return data.corpus.docs;
  }
  if (/\.json$/i.test(target)) {
    if (!exists(target)) throw new UsageError(`${target}: no such file`);
    return readTreeFile(target).docs;
  }
  return buildTrees(inputFiles(target), { source: a.source, ignoreOutline: a.ignoreOutline, summaries: 'auto', cache: a.cache, quiet: a.quiet }, warnings);
}

async function cmdInspect(a: { target: string; format: 'text' | 'json'; source: TreeChoice; ignoreOutline?: boolean; cache: boolean; quiet?: boolean }): Promise<number> {
  const warnings: string[] = [];
  const docs = await treesOf(a.target, a, warnings);
  const rows = docs.map(treeQuality);
  process.stdout.write(a.format === 'json' ? JSON.stringify(rows, null, 2) + '\n' : formatTreeQuality(rows, forTerminal) + '\n');
  for (const w of warnings) process.stderr.write(`warning: ${forTerminal(w)}\n`);
  return 0;
}

/** The reference tree: a PDF's bookmarks, or a tree file (PageIndex `*_structure.json` or native). */
async function referenceTree(ref: string): Promise<{ nodes: TreeNode[]; what: string; pages?: string[] }> {
  if (!exists(ref)) throw new UsageError(`--reference ${ref}: no such file`);
  if (/\.pdf$/i.test(ref)) {
    const content = await readPdf(ref);
    if (!content.outline?.length) throw new UsageError(`--reference ${ref}: the PDF has no outline (bookmarks) to compare with; give a tree file instead`);
    const { doc, report } = buildPdfTree(content, { docId: stem(ref), tree: 'outline' });
    if (report.source !== 'outline') throw new UsageError(`--reference ${ref}: its outline is not usable as a reference (${report.reason})`);
    return { nodes: doc.nodes, what: `${ref} (bookmarks)`, pages: content.pages };
  }
  const { docs, format } = readTreeFile(ref);
  if (docs.length !== 1) throw new UsageError(`--reference ${ref}: holds ${docs.length} documents; give one tree`);
  return { nodes: docs[0].nodes, what: `${ref} (${format})` };
}

const fixed = (x: number) => x.toFixed(2);

/** Per level: reference nodes, title recall, start page exact and within one page; then precision and the headline. */
export function formatComparison(c: TreeComparison, label: { built: string; reference: string }): string {
  const head = ['level', 'reference', 'matched', 'title recall', 'start exact', 'start ±1'];
  const rows = c.levels.map((l) => [String(l.level), String(l.reference), String(l.matched), fixed(l.titleRecall), fixed(l.exactRecall), fixed(l.within1Recall)]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join('  ');
  return [
    `built ${forTerminal(label.built)} (${c.builtNodes} nodes) against ${forTerminal(label.reference)} (${c.referenceNodes} nodes)`,
    line(head),
    ...rows.map(line),
    `precision ${fixed(c.precision)} (built nodes whose title matches a reference node)`,
    `top two levels, title matched and start page exact: recall ${fixed(c.top2ExactRecall)} (within one page: ${fixed(c.top2Within1Recall)})`,
    ...(c.fair
      ? [
          `fair: recall ${fixed(c.fair.exactRecall)} (within one page: ${fixed(c.fair.within1Recall)}) over the ${c.fair.printed} top-two-level reference entries printed on their page; precision ${fixed(c.fair.precisionTop2)} over the built tree's top two levels (${c.fair.builtTop2} nodes, groups looked through)`,
        ]
      : []),
    'recall per level counts reference nodes; "start exact" and "start ±1" count those whose title matched and whose start page agrees',
  ].join('\n');
}

async function cmdCompare(a: { built: string; reference: string; format: 'text' | 'json'; cache: boolean; quiet?: boolean }): Promise<number> {
  const warnings: string[] = [];
  // The built side: a tree file as written by `tree build`, or a PDF built now with its bookmarks ignored.
  const built = /\.json$/i.test(a.built)
    ? (await treesOf(a.built, { source: 'auto', cache: a.cache, quiet: a.quiet }, warnings))
    : await treesOf(a.built, { source: 'auto', ignoreOutline: true, cache: a.cache, quiet: a.quiet }, warnings);
  if (built.length !== 1) throw new UsageError(`${a.built}: holds ${built.length} documents; compare one tree at a time`);
  const ref = await referenceTree(a.reference);
  // The fair figures need the page texts: the built document's, or the reference PDF's.
  const pages = built[0].pages?.length ? built[0].pages : ref.pages;
  const c = compareTrees(built[0].nodes, ref.nodes, pages ? { pages } : {});
  process.stdout.write(a.format === 'json' ? JSON.stringify({ built: a.built, reference: a.reference, ...c }, null, 2) + '\n' : formatComparison(c, { built: a.built, reference: ref.what }) + '\n');
  for (const w of warnings) process.stderr.write(`warning: ${forTerminal(w)}\n`);
  return 0;
}

const buildOptions = (y: Argv) =>
  y
    .option('source', { choices: SOURCES, default: 'auto' as TreeChoice, describe: 'PDFs: outline (bookmarks), toc (printed table of contents), layout (headings by font), pages (page groups), or auto (the first that works)' })
    .option('ignore-outline', { type: 'boolean', describe: 'PDFs: build as if the file had no bookmarks (to compare with them)' })
    .option('cache', { type: 'boolean', default: true, describe: `Reuse extracted text and built trees from ${DEFAULT_INGEST_DIR} (--no-cache to rebuild)` })
    .option('quiet', { type: 'boolean', describe: 'No progress on stderr' });

export function treeCommand(run: Runner): CommandBody {
  return {
    builder: (y) =>
      y
        .command(
          'build <input>',
          'Build a tree (table of contents) for a PDF, a Markdown file or a folder of them, and write it as JSON',
          (yy) =>
            buildOptions(yy)
              .positional('input', { type: 'string', demandOption: true, describe: 'A .pdf or .md file, or a folder of them' })
              .option('format', { choices: ['pageindex', 'native'] as const, default: 'pageindex' as const, describe: 'pageindex: PageIndex structure JSON (title, node_id, start_index, end_index, summary, nodes); native: treebench DocTree JSON' })
              .option('out', { alias: 'o', type: 'string', demandOption: true, describe: 'Output file (one input) or folder (several: <docId>_structure.json or <docId>.json)' })
              .option('summaries', { choices: ['auto', 'none', 'extractive'] as const, default: 'auto' as const, describe: 'Node summaries: extractive (offline; auto = for PDFs) or none' })
              .option('with-text', { type: 'boolean', describe: 'Include node text (pageindex) or page texts (native), so the file stands alone' })
              .example('$0 tree build report.pdf -o report_structure.json', 'PageIndex-style tree of one PDF')
              .example('$0 tree build filings/ --ignore-outline -o built/', 'one tree per PDF, bookmarks ignored'),
          (a) => run(() => cmdBuild(a as unknown as BuildArgs))(),
        )
        .command(
          'inspect <target>',
          'Measure trees: depth, fanout, poor titles (as the hybrid-beam outline gate counts them), page coverage, largest node, summaries, source',
          (yy) =>
            buildOptions(yy)
              .positional('target', { type: 'string', demandOption: true, describe: 'A tree .json (PageIndex or native), a .pdf / folder (built first), or a config .yaml (its corpus)' })
              .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'text, or the measures as JSON' }),
          (a) => run(() => cmdInspect(a as unknown as Parameters<typeof cmdInspect>[0]))(),
        )
        .command(
          'compare <built>',
          'Compare a built tree with a reference (a PDF\'s bookmarks or a PageIndex structure): per level title recall, start-page agreement (exact, within 1), precision',
          (yy) =>
            yy
              .positional('built', { type: 'string', demandOption: true, describe: 'A tree .json (as `tree build` writes it), or a .pdf to build now with its bookmarks ignored' })
              .option('reference', { type: 'string', demandOption: true, describe: 'A .pdf with bookmarks, or a tree .json (PageIndex *_structure.json or native)' })
              .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'text, or the measures as JSON' })
              .option('cache', { type: 'boolean', default: true, describe: `Reuse extracted text and built trees from ${DEFAULT_INGEST_DIR}` })
              .option('quiet', { type: 'boolean', describe: 'No progress on stderr' })
              .example('$0 tree compare report.pdf --reference report.pdf', 'the builder without bookmarks against the bookmarks')
              .example('$0 tree compare built.json --reference q1_structure.json --format json', ''),
          (a) => run(() => cmdCompare(a as unknown as Parameters<typeof cmdCompare>[0]))(),
        )
        .demandCommand(1, 'name a tree subcommand: build, inspect or compare'),
    handler: () => {},
  };
}
