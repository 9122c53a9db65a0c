// The child process of bench/scale.ts: one `treebench run` of a config, in its own process, as
// the command does it (the config, the dataset loaded for the selected questions, the runner,
// the report files; the compiled JavaScript, as the installed package runs), with every phase
// timed and its memory taken at the boundaries. It prints nothing; it writes one JSON file:
//
//   node [--expose-gc] bench/lib/scaleChild.mjs <config> <out.json> [--settle]
//
// Marks: `start` (modules loaded), `loaded` (dataset and corpus read: ingestion), then the
// runner's progress — the first and last report of `fingerprint`, `chunking`, `index` and the
// `run` — and `done` (report files written). Each mark has the time (ms since start), the RSS
// now and the peak RSS since the previous mark (`peak`; `perStretch: false` when the platform
// gives only the peak so far). With --settle (and --expose-gc) the garbage of loading is
// collected once after `loaded`, and a `settled` mark taken: what the loaded corpus holds is then
// in the old generation, so the phases after it are measured from what the process keeps (a
// `treebench run` does not collect there: the young generation's survivors, the last documents
// loaded, move to the old one in whichever phase allocates next). After the last
// mark, what was measured is sized: the text the corpus keeps in memory, the index's chunk
// texts and the embedder's fitted tables (the index's vector bytes come from the manifest).
import { readFileSync, writeFileSync } from 'node:fs';
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
if (settle && typeof globalThis.gc !== 'function') throw new Error('--settle needs node --expose-gc');
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

mark('start');
const loaded = loadConfig(configPath);
const data = await loadBenchmarkData(loaded.config, loaded.baseDir, { select: (qs) => selectQuestions(qs, loaded.config.run.limit) });
mark('loaded');
if (settle) {
  globalThis.gc();
  mark('settled');
}
/** Per phase: its first and its last progress report. */
const seen = new Map();
const outcome = await runBenchmark({
  loaded,
  data,
  onProgress: (p) => {
    const first = !seen.has(p.phase);
    if (first) {
      seen.set(p.phase, true);
      mark(`${p.phase}:first`);
    }
    if (p.done === p.total) mark(`${p.phase}:last`);
  },
});
const meta = reportMeta(outcome.manifest);
const store = RunStore.open(outcome.dir);
await writeReportFiles(store, loaded.config.reports, (format) => ({
  summary: outcome.summary,
  meta,
  nodeTitle: nodeTitles(data.corpus),
  ...(format === 'html' ? { records: recordsInRunOrder(store, outcome.manifest) } : {}),
}));
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
