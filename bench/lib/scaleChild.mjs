// The child process of bench/scale.ts: one `treebench run` of a config, in its own process, as
// the command does it (the config, the dataset loaded for the selected questions, the runner,
// the report files; the compiled JavaScript, as the installed package runs), with every phase
// timed and its memory taken at the boundaries. It prints nothing; it writes one JSON file:
//
//   node [--expose-gc] bench/lib/scaleChild.mjs <config> <out.json> [--settle] [--warm <config>]
//
// With --warm, the child first runs another config the same way (in that config's folder: a
// two-document corpus of the same kind), unmeasured, and collects its garbage: the code every
// phase needs is then loaded and compiled (strategy and report modules, the tokenizer's tables,
// the optimised embedder and index loops), so no phase of the measured run pays for it, and the
// `start` mark holds it. A `modules` mark before the warm-up keeps its cost in view.
//
// Marks: [`modules` (modules loaded), the warm-up,] `start` (ready to run), `loaded` (dataset and
// corpus read: ingestion), then the
// runner's progress — the first and last report of `fingerprint`, `chunking`, `index` and the
// `run` — and `done` (report files written). Each mark has the time (ms since start), the RSS
// now and the peak RSS since the previous mark (`peak`; `perStretch: false` when the platform
// gives only the peak so far). With --settle (and --expose-gc) the garbage of loading is
// collected once after `loaded`, and a `settled` mark taken: what the loaded corpus holds is then
// in the old generation, so the phases after it are measured from what the process keeps (a
// `treebench run` does not collect there: the young generation's survivors, the last documents
// loaded, move to the old one in whichever phase allocates next). --settle also collects after
// each eighth of the index build and of the run (a mark first, so each eighth's own peak, garbage
// and all, is measured): the garbage of the hundreds of tasks of a run then cannot pile up in the
// old generation until V8 next collects (at ×1, ~20 MB of RSS for 240 tasks, a figure set by when
// V8 collects, not by the corpus), while what a phase keeps still shows. After the last
// mark, what was measured is sized: the text the corpus keeps in memory, the index's chunk
// texts and the embedder's fitted tables (the index's vector bytes come from the manifest).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadConfig } from '../../harness/config/runConfig.js';
import { runBenchmark, selectQuestions } from '../../harness/run/runner.js';
import { RunStore } from '../../harness/run/store.js';
import { loadBenchmarkData } from '../../datasets/registry.js';
import { registerBuiltinStrategies } from '../../strategies/registry.js';
import { writeReportFiles } from '../../reports/files.js';
import { recordsInRunOrder } from '../../harness/run/recordsInOrder.js';
import { reportMeta } from '../../reports/meta.js';
import { nodeTitles } from '../../reports/html/titles.js';
import { ValueIndex } from '../../harness/retrieval/valueIndex.js';
import { createEmbedder, embedderOptionsFor } from '../../harness/models/providers/registry.js';

registerBuiltinStrategies();
const [configPath, outFile, ...rest] = process.argv.slice(2);
const settle = rest.includes('--settle');
const warmConfig = rest.includes('--warm') ? resolve(rest[rest.indexOf('--warm') + 1]) : null;
if ((settle || warmConfig) && typeof globalThis.gc !== 'function') throw new Error('--settle and --warm need node --expose-gc');
const t0 = performance.now();
const marks = [];
/**
 * The peak RSS since the last mark: Linux's VmHWM, reset at each mark (clear_refs 5), so each
 * stretch between two marks has a peak of its own. Elsewhere getrusage's maxrss, the peak so far.
 */
let perStretch = true;
function stretchPeak() {
  if (perStretch) {
    try {
      const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024;
      writeFileSync('/proc/self/clear_refs', '5');
      if (hwm > 0) return hwm;
    } catch {
      // not Linux, or /proc not writable
    }
    perStretch = false;
  }
  return process.resourceUsage().maxRSS * 1024;
}
const mark = (name) => {
  const peak = stretchPeak();
  marks.push({ name, ms: performance.now() - t0, rss: process.memoryUsage.rss(), peak });
};

/** One `treebench run` of a config, as the command does it: the config, the data, the run, the report files. */
async function run(path, onProgress) {
  const loaded = loadConfig(path);
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir, { select: (qs) => selectQuestions(qs, loaded.config.run.limit) });
  onProgress?.loaded?.();
  const outcome = await runBenchmark({ loaded, data, ...(onProgress?.run ? { onProgress: onProgress.run } : {}) });
  const meta = reportMeta(outcome.manifest);
  const store = RunStore.open(outcome.dir);
  await writeReportFiles(store, loaded.config.reports, (format) => ({
    summary: outcome.summary,
    meta,
    nodeTitle: nodeTitles(data.corpus),
    ...(format === 'html' ? { records: recordsInRunOrder(store, outcome.manifest) } : {}),
  }));
  return { loaded, data, outcome };
}

if (warmConfig) {
  mark('modules');
  const here = process.cwd();
  process.chdir(dirname(warmConfig)); // its run folder and caches go there
  await run(warmConfig);
  process.chdir(here);
  globalThis.gc();
}
mark('start');
/** Per phase: its first and its last progress report. */
const seen = new Map();
/** The long phases, in which --settle also collects after each eighth (see above). */
const COLLECT_IN = new Set(['index', 'run']);
const { loaded, data, outcome } = await run(configPath, {
  loaded: () => {
    mark('loaded');
    if (settle) {
      globalThis.gc();
      mark('settled');
    }
  },
  run: (p) => {
    const first = !seen.has(p.phase);
    if (first) {
      seen.set(p.phase, true);
      mark(`${p.phase}:first`);
    }
    if (p.done === p.total) mark(`${p.phase}:last`);
    else if (settle && COLLECT_IN.has(p.phase)) {
      // An eighth of the phase done since the last collection: a mark, then a collection.
      const eighth = Math.floor((8 * p.done) / p.total);
      if (eighth > (seen.get(`${p.phase}/8`) ?? 0)) {
        seen.set(`${p.phase}/8`, eighth);
        mark(`${p.phase}:${eighth}/8`);
        globalThis.gc();
      }
    }
  },
});
mark('done');

// Sizes, after every mark: UTF-8 bytes of what the corpus holds (titles, summaries, texts, pages).
let textBytes = 0;
const size = (s) => (s ? Buffer.byteLength(s) : 0);
const walk = (nodes) => {
  for (const n of nodes) {
    textBytes += size(n.title) + size(n.summary) + size(n.text);
    walk(n.children);
  }
};
for (const d of data.corpus.docs) {
  textBytes += size(d.title) + size(d.description);
  for (const p of d.pages ?? []) textBytes += size(p);
  walk(d.nodes);
}
const { chunkTokens, overlap } = loaded.config.index;
const chunkTexts = ValueIndex.chunkCorpus(data.corpus, { chunkTokens, overlap }).map((c) => c.text);
const chunkTextBytes = chunkTexts.reduce((n, t) => n + Buffer.byteLength(t), 0);
// The hash embedder's fitted tables (vocabulary, bigrams, document frequencies) stay with the
// index for the questions' queries: fitted again here on the same chunks to size them.
const embedder = createEmbedder(loaded.config.embedder, embedderOptionsFor(loaded.config.model));
embedder.fit?.(chunkTexts);
embedder.releaseFit?.();
const embedderBytes = typeof embedder.tableBytes === 'number' ? embedder.tableBytes : 0;
const records = outcome.summary.strategies.reduce((n, s) => n + s.records, 0);
writeFileSync(
  outFile,
  JSON.stringify({
    marks,
    perStretch,
    docs: data.corpus.docs.length,
    questions: outcome.manifest.questionIds.length,
    records,
    textBytes,
    chunkTextBytes,
    embedderBytes,
    index: outcome.manifest.index,
  }),
);
