// PDF extraction throughput: treebench's extractors (datasets/pdf.ts: pdf.js in its worker pool,
// the default; and `corpus.extractor: poppler`, pdftohtml processes read by datasets/pdfPoppler.ts)
// against poppler's `pdftotext -layout` (the physical anchor) on the same shared PDFs, same run.
//
//   node bin/run-ts.mjs bench/extraction.ts     (npm run bench:extraction)
//
// Both sides extract every PDF under ../shared/datasets (financebench, pageindex-examples,
// tree-reference) with the same parallelism (treebench's pool size; `--jobs` to change both):
// pages/s by wall time, pages per CPU-second (robust on a loaded machine: treebench's process
// CPU, pdftotext's children CPU from /proc/self/stat; the poppler extractor's is both: its own
// XML reading and its pdftohtml children), and each extractor's figure as a ratio to pdftotext's.
// The target (issue 31): ratio >= 0.5 by CPU, met when one extractor reaches it (exit 1 when
// none does). `--extractor pdfjs|poppler` measures one (default: both, pdf.js first). pdftotext and pdftohtml come from Debian's poppler-utils (.ci/run installs it).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clearPdfCache, PDF_EXTRACTORS, readPdfs, type PdfExtractor } from '../datasets/pdf.ts';
import { pdftohtmlAvailable } from '../datasets/pdfPoppler.ts';
import { benchArgs, exitWithUsageError } from './lib/args.ts';

const args = benchArgs(import.meta.url, {
  extractor: { type: 'string', default: 'both', choices: ['both', ...PDF_EXTRACTORS], help: "which of treebench's extractors to measure (corpus.extractor): pdfjs, poppler (pdftohtml) or both" },
  jobs: { type: 'string', default: String(Math.max(1, Math.min(4, os.availableParallelism?.() ?? os.cpus().length))), number: 'positive-integer', help: 'pdftotext processes run at once (treebench uses its own pool: one worker per core, at most 4)' },
});
const jobs = args.number('jobs');
const extractors: PdfExtractor[] = args.string('extractor') === 'both' ? [...PDF_EXTRACTORS] : [args.string('extractor') as PdfExtractor];
const here = path.dirname(fileURLToPath(import.meta.url));
const shared = path.resolve(here, '../../shared/datasets');
const files = ['financebench/pdfs', 'pageindex-examples', 'tree-reference']
  .map((d) => path.join(shared, d))
  .filter((d) => fs.existsSync(d))
  .flatMap((d) => fs.readdirSync(d).filter((f) => f.endsWith('.pdf')).sort().map((f) => path.join(d, f)));
if (files.length === 0) exitWithUsageError(`no PDFs under ${shared} (see its README)`);
const PDFTOTEXT = '/usr/bin/pdftotext';
if (spawnSync(PDFTOTEXT, ['-v']).error) exitWithUsageError(`${PDFTOTEXT} not found: install Debian's poppler-utils (.ci/run does)`);
if (extractors.includes('poppler') && !pdftohtmlAvailable()) exitWithUsageError(`pdftohtml not found (the poppler extractor runs it): install Debian's poppler-utils (.ci/run does), or --extractor pdfjs`);

/** CPU seconds of this process's waited-for children (utime + stime of /proc/self/stat, in clock ticks). */
function childCpu(): number {
  const f = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(f[13]) + Number(f[14])) / 100;
}

// treebench, each extractor in turn (nothing cached between them)
const measured: { extractor: PdfExtractor; wall: number; cpu: number }[] = [];
let pages = 0;
for (const extractor of extractors) {
  clearPdfCache();
  const c0 = process.cpuUsage();
  const k0 = childCpu();
  const t0 = performance.now();
  const contents = await readPdfs(files, undefined, { extractor });
  const wall = (performance.now() - t0) / 1000;
  const use = process.cpuUsage(c0);
  measured.push({ extractor, wall, cpu: (use.user + use.system) / 1e6 + (childCpu() - k0) });
  pages = contents.reduce((n, c) => n + c.pageCount, 0);
}
clearPdfCache();

// pdftotext -layout, `jobs` at a time
const k0 = childCpu();
const t0 = performance.now();
let next = 0;
const runOne = (): Promise<void> => {
  if (next >= files.length) return Promise.resolve();
  const f = files[next++];
  return new Promise<void>((resolve, reject) => {
    const p = spawn(PDFTOTEXT, ['-layout', f, '-'], { stdio: ['ignore', 'ignore', 'ignore'] });
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pdftotext failed on ${f} (exit ${code})`))));
  }).then(runOne);
};
await Promise.all(Array.from({ length: jobs }, runOne));
const ptWall = (performance.now() - t0) / 1000;
const ptCpu = childCpu() - k0;

const f0 = (v: number) => v.toFixed(0);
console.log(`${files.length} PDFs, ${pages} pages; pdftotext ${jobs} at a time; load average ${os.loadavg()[0].toFixed(1)}`);
const label = { pdfjs: 'treebench (pdf.js pool):', poppler: 'treebench (pdftohtml):  ' };
for (const m of measured) console.log(`${label[m.extractor]}  ${f0(pages / m.wall)} pages/s wall (${m.wall.toFixed(1)} s), ${f0(pages / m.cpu)} pages per CPU-s`);
console.log(`pdftotext -layout:        ${f0(pages / ptWall)} pages/s wall (${ptWall.toFixed(1)} s), ${f0(pages / ptCpu)} pages per CPU-s`);
// The target (issue 31) is met when one of treebench's extractors reaches it, by CPU (the steadier
// figure on a shared machine); each says where it stands, and the default's shortfall is printed.
let met = false;
for (const m of measured) {
  const cpuRatio = ptCpu / m.cpu;
  met ||= cpuRatio >= 0.5;
  console.log(`ratio treebench ${m.extractor === 'pdfjs' ? '(pdf.js, the default)' : '(poppler, corpus.extractor: poppler)'} / pdftotext: wall ${(ptWall / m.wall).toFixed(2)}x, CPU ${cpuRatio.toFixed(2)}x: target >= 0.5x ${cpuRatio >= 0.5 ? 'PASS' : 'FAIL'}`);
}
if (!met) process.exitCode = 1;
