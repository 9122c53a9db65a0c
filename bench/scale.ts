// Scale: `treebench run` over a corpus grown ×1, ×4 and ×16, each size in its own process, so
// each peak RSS is that process's own. The corpus is synthetic Markdown (bench/lib/scaleCorpus.ts:
// every document distinct, written deterministically into a temporary folder), the run the real
// path, offline: Markdown ingestion, the corpus fingerprint, chunking, the hash index, the six
// quickstart strategies on the offline reasoner, the report files (bench/lib/scaleChild.mjs, the
// compiled JavaScript, built first when stale). Fewer questions run at the larger sizes (the
// corpus is what grows; records are streamed to disk and do not stay in memory).
//
// Per size: peak RSS, each phase's time and how much it raised the peak, the text the corpus
// keeps in memory and the size of the index (vector/posting bytes + chunk texts + the hash
// embedder's tables); then the ratios from one size to the next. Targets (issue #31), PASS/FAIL,
// exit 1 when one fails:
//  - linear: from one size to the next, the peak's growth over the process's start (modules
//    loaded, before the warm-up run) grows no faster than the text kept;
//  - no step: no phase after loading raises the peak by more than 1.5× the index's size;
//  - the fingerprint adds no peak: the phase that hashes the corpus for the manifest (and the
//    dataset's files) raises the peak by ≤ 2 MB.
//
// What a step is. A phase's step is the highest RSS within it (Linux: the peak of each stretch
// between two marks, VmHWM reset at each) above the RSS it started from. The targets are about
// memory that grows with the corpus, so two things that do not are kept out of the steps, and
// both are shown, not hidden:
//  - Start-up cost. Each child first runs the same config over a four-document corpus of the same
//    kind, as many tasks as ×1 (unmeasured; --cold to skip it): modules, the tokenizer's tables,
//    V8's compiled code and a young generation at its working size are then part of the start
//    RSS (printed beside the RSS with only the modules loaded), not of whichever phase is the
//    first to need them. Cold, the ×1 run phase's step was ~28 MB, ~6× its 4.6 MB index, while
//    the same phase at ×16 stepped by ~5 MB: a fixed cost, not one that grows with the corpus.
//  - Garbage V8 has not collected yet. With --settle (the default; --no-settle to measure
//    without) the child collects once after loading and after each eighth of the index build and
//    of the run, a mark taken first, so each eighth's own peak (its garbage included) counts,
//    and only garbage older than an eighth of a phase is kept out. Without it, the hundreds of
//    tasks of the ×1 run left ~14 MB more in the old generation before V8 collected, a figure set
//    by when V8 collects (it moved from run to run), not by the corpus.
// What is left in a step is what the phase keeps plus its transients: e.g. the index build's
// tables, postings, per-text counts and the garbage of the tables it outgrew, and the run's
// bounded caches of the texts it has read (the offline reasoner's token memo, the tokenizer's
// count caches) with the heap V8 grows for them, and what the phase allocates between two
// collections (an eighth of the run, 30 tasks, allocates ~13 MB).
//
// The base. ×1 is 160 documents (an 11 MB index), so that each size's index is larger than what
// any phase allocates between two collections, whatever the corpus: with 40 documents (a 4.6 MB
// index) the run phase's ~10 MB of working memory was 1.8–2.6× the index at ×1 and ~0.3× at ×4,
// a constant of V8's measured against a small index rather than memory growing with the corpus
// (`--docs 40` still shows it). ×16 is then 92,000 chunks, nearer the 203,000 of the
// FinanceBench corpus issue 31 is about.
//
//   npm run bench:scale                               ×1, ×4, ×16 of 160 documents (~1 min)
//   npm run bench:scale -- --docs 40 --sizes 1,4      a smaller base, two sizes
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildIsCurrent } from '../bin/source-dirs.mjs';
import { benchArgs, exitWithUsageError } from './lib/args.ts';
import { writeScaleCorpus } from './lib/scaleCorpus.ts';

const args = benchArgs(import.meta.url, {
  sizes: { type: 'string', default: '1,4,16', number: 'positive-integer-list', help: 'corpus multiples to run, ascending' },
  docs: { type: 'string', default: '160', number: 'positive-integer', help: 'documents at ×1 (each ~14 KB of Markdown)' },
  questions: { type: 'string', default: '40,20,10', number: 'positive-integer-list', help: 'questions per size (the last value for sizes past the list)' },
  'no-settle': { type: 'boolean', default: false, help: 'no garbage collection after loading (as `treebench run`: the loaded corpus is promoted in the next phase that allocates)' },
  cold: { type: 'boolean', default: false, help: 'no warm-up run first: each phase also pays for the code it is the first to load and compile' },
  keep: { type: 'boolean', default: false, help: 'keep the temporary folder (its path is printed)' },
});
const settle = !args.flag('no-settle');
const warm = !args.flag('cold');
const sizes = args.numbers('sizes');
const baseDocs = args.number('docs');
const questionCounts = args.numbers('questions');
if (sizes.some((s, i) => i > 0 && s <= sizes[i - 1]!)) exitWithUsageError(`--sizes must ascend, got ${sizes.join(',')}`);
/** Documents in the warm-up run's corpus. */
const WARM_DOCS = 4;
/** A phase may raise the peak by at most this many times the index's size. */
const MAX_STEP = 1.5;
/** The fingerprint's allowance: page-granular noise, nothing that grows with the corpus. */
const FINGERPRINT_BYTES = 2 * 2 ** 20;

const root = process.cwd();
if (!(await buildIsCurrent(root))) {
  console.error('building (the compiled JavaScript is older than the sources)…');
  const build = spawnSync(process.execPath, ['bin/build.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}

interface Mark {
  name: string;
  ms: number;
  rss: number;
  peak: number;
}
interface ChildResult {
  marks: Mark[];
  /** True when each mark's peak is that of the stretch since the previous mark (Linux). */
  perStretch: boolean;
  docs: number;
  questions: number;
  records: number;
  textBytes: number;
  chunkTextBytes: number;
  embedderBytes: number;
  index: { chunks: number; vectorBytes?: number; ms: number; chunkMs?: number };
}

const CONFIG = (questions: number) =>
  [
    'name: scale',
    'dataset:',
    '  format: csv',
    '  path: questions.csv',
    '  mapping: { question: Question, answers: [Answer], evidenceDocId: Document }',
    'corpus: { format: markdown, path: docs }',
    'model: { provider: offline, priceAs: gpt-4o-mini }',
    'embedder: hash',
    'strategies: [vector, node-list, layerwise, hybrid-beam, mcts, agent]',
    'budget: { calls: 24, timeMs: 60000 }',
    `run: { concurrency: 8, seed: 42, limit: ${questions} }`,
    'reports: [md, csv, json]',
    '',
  ].join('\n');

/** The phases, each from one mark to another (the first mark of a phase the runner reports once per document/batch). */
const PHASES: Array<{ name: string; from: string; to: string; what: string }> = [
  { name: 'load', from: 'start', to: 'loaded', what: 'config, questions, Markdown parsed into trees' },
  { name: 'fingerprint', from: settle ? 'settled' : 'loaded', to: 'fingerprint:last', what: "the manifest's hashes: dataset files, corpus" },
  { name: 'setup', from: 'fingerprint:last', to: 'chunking:first', what: 'run folder, tokenizer tables' },
  { name: 'chunking', from: 'chunking:first', to: 'chunking:last', what: 'the corpus cut into chunks' },
  { name: 'index', from: 'chunking:last', to: 'run:first', what: 'IDF fit, embedding, embedding cache, postings laid out' },
  { name: 'run', from: 'run:first', to: 'run:last', what: 'the questions × 6 strategies' },
  { name: 'reports', from: 'run:last', to: 'done', what: 'summary read back, report files' },
];

interface SizeResult extends ChildResult {
  multiple: number;
  markdownBytes: number;
  peak: number;
  startRss: number;
  /** RSS with the modules loaded, before the warm-up run (= startRss with --cold). */
  modulesRss: number;
  indexBytes: number;
  /** `step`: how far above the RSS it started from the phase's own peak went. */
  phases: Array<{ name: string; ms: number; step: number; rssEnd: number }>;
}

function runSize(work: string, multiple: number, questions: number): SizeResult {
  const dir = join(work, `x${multiple}`);
  const corpus = writeScaleCorpus(dir, { docs: baseDocs * multiple, questions });
  writeFileSync(join(dir, 'scale.yaml'), CONFIG(corpus.questions));
  const out = join(dir, 'measured.json');
  const child = [resolve(root, 'bench/lib/scaleChild.mjs'), 'scale.yaml', out];
  if (settle) child.push('--settle');
  if (warm) {
    // The warm-up's own corpus, per size: the same kind of documents, four of them and as many
    // tasks as ×1 runs (enough for V8 to optimise what the run phase runs hot), nothing cached.
    const warmDir = join(dir, 'warm-up');
    const small = writeScaleCorpus(warmDir, { docs: WARM_DOCS, questions: questionCounts[0]! });
    writeFileSync(join(warmDir, 'scale.yaml'), CONFIG(small.questions));
    child.push('--warm', join(warmDir, 'scale.yaml'));
  }
  const r = spawnSync(process.execPath, settle || warm ? ['--expose-gc', ...child] : child, {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, TREEBENCH_QUIET: '1' },
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`×${multiple}: the run exited with ${r.status ?? r.signal}:\n${r.stderr.toString().slice(-3000)}`);
  const res = JSON.parse(readFileSync(out, 'utf8')) as ChildResult;
  const at = (name: string): Mark => {
    const m = res.marks.find((x) => x.name === name);
    if (!m) throw new Error(`×${multiple}: no mark ${name} (marks: ${res.marks.map((x) => x.name).join(', ')})`);
    return m;
  };
  // A phase's own peak: the highest of the stretches it spans (with per-stretch peaks), as a
  // step above the RSS it started from; else how much it raised the peak so far.
  const index = (name: string) => res.marks.indexOf(at(name));
  const phases = PHASES.map((p) => {
    const [from, to] = [index(p.from), index(p.to)];
    const peak = Math.max(...res.marks.slice(from + 1, to + 1).map((m) => m.peak));
    const step = res.perStretch ? peak - res.marks[from]!.rss : res.marks[to]!.peak - res.marks[from]!.peak;
    return { name: p.name, ms: res.marks[to]!.ms - res.marks[from]!.ms, step: Math.max(0, step), rssEnd: res.marks[to]!.rss };
  });
  if (!args.flag('keep')) rmSync(dir, { recursive: true, force: true });
  return {
    ...res,
    multiple,
    markdownBytes: corpus.bytes,
    // The measured run's peak: from the start mark on (module loading and the warm-up before it are not the run's).
    peak: res.perStretch ? Math.max(at('start').rss, ...res.marks.slice(index('start') + 1).map((m) => m.peak)) : at('done').peak,
    startRss: at('start').rss,
    modulesRss: warm ? at('modules').rss : at('start').rss,
    indexBytes: (res.index.vectorBytes ?? 0) + res.chunkTextBytes + res.embedderBytes,
    phases,
  };
}

const MB = 2 ** 20;
const mb = (b: number) => `${(b / MB).toFixed(1)} MB`;
const ms = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${Math.round(x)} ms`);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

const work = mkdtempSync(join(tmpdir(), 'treebench-bench-scale-'));
const results: SizeResult[] = [];
const failures: string[] = [];
try {
  console.log(`scale: treebench run over a synthetic Markdown corpus of ${baseDocs} documents × ${sizes.join(', ')}, offline, six strategies; each size in its own process`);
  sizes.forEach((m, i) => {
    const q = questionCounts[Math.min(i, questionCounts.length - 1)]!;
    const t = performance.now();
    const r = runSize(work, m, q);
    results.push(r);
    console.log(`\n×${m}: ${r.docs} documents, ${mb(r.markdownBytes)} of Markdown; ${r.questions} questions × 6 strategies (${r.records} records); ${r.index.chunks} chunks   (${ms(performance.now() - t)} wall)`);
    const start = warm ? `at start, after the warm-up run: ${mb(r.startRss)}; modules loaded: ${mb(r.modulesRss)}` : `at start, modules loaded: ${mb(r.startRss)}`;
    console.log(`  peak RSS ${mb(r.peak)} (${start}); text kept ${mb(r.textBytes)}; index ${mb(r.indexBytes)} (postings ${mb(r.index.vectorBytes ?? 0)} + chunk texts ${mb(r.chunkTextBytes)} + embedder tables ${mb(r.embedderBytes)})`);
    if (settle) {
      const [loadedMark, settled] = [r.marks.find((x) => x.name === 'loaded')!, r.marks.find((x) => x.name === 'settled')!];
      console.log(`  (collected after loading, untimed: RSS ${mb(loadedMark.rss)} → ${mb(settled.rss)}; --no-settle to measure without)`);
    }
    for (const [k, p] of r.phases.entries()) {
      console.log(`  ${p.name.padEnd(12)} ${ms(p.ms).padStart(9)}   own peak +${mb(p.step).padStart(9)}   RSS after ${mb(p.rssEnd).padStart(9)}   ${PHASES[k]!.what}`);
    }
  });

  console.log('\nratios from one size to the next:');
  for (let i = 1; i < results.length; i++) {
    const a = results[i - 1]!;
    const b = results[i]!;
    // Over the RSS with the modules loaded (before the warm-up run, whose freed memory the
    // smaller runs reuse more of): the same baseline, cold or warmed up.
    const growA = a.peak - a.modulesRss;
    const growB = b.peak - b.modulesRss;
    const phaseRatios = b.phases.map((p, k) => `${p.name} ${ratio(p.ms, Math.max(1, a.phases[k]!.ms))}`).join(', ');
    console.log(`  ×${b.multiple}/×${a.multiple}: text kept ${ratio(b.textBytes, a.textBytes)}, index ${ratio(b.indexBytes, a.indexBytes)}, peak ${ratio(b.peak, a.peak)}, peak over start ${ratio(growB, growA)}`);
    console.log(`    time: ${phaseRatios}`);
    const linear = growB / growA <= b.textBytes / a.textBytes;
    console.log(`    linear: peak over start ${ratio(growB, growA)} ≤ text ${ratio(b.textBytes, a.textBytes)}: ${linear ? 'PASS' : 'FAIL'}`);
    if (!linear) failures.push(`×${b.multiple}/×${a.multiple}: the peak over start grew ${ratio(growB, growA)}, faster than the text kept (${ratio(b.textBytes, a.textBytes)})`);
  }

  console.log(`\ntargets per size (no phase after loading raises the peak by more than ${MAX_STEP}× the index; the fingerprint raises it by ≤ ${mb(FINGERPRINT_BYTES)}):`);
  for (const r of results) {
    const after = r.phases.filter((p) => p.name !== 'load');
    const worst = after.reduce((w, p) => (p.step > w.step ? p : w));
    const stepOk = worst.step <= MAX_STEP * r.indexBytes;
    const fp = r.phases.find((p) => p.name === 'fingerprint')!;
    const fpOk = fp.step <= FINGERPRINT_BYTES;
    console.log(`  ×${r.multiple}: largest step ${worst.name} +${mb(worst.step)} = ${(worst.step / r.indexBytes).toFixed(2)}× the index: ${stepOk ? 'PASS' : 'FAIL'}; fingerprint +${mb(fp.step)}: ${fpOk ? 'PASS' : 'FAIL'}`);
    if (!stepOk) failures.push(`×${r.multiple}: ${worst.name} raised the peak by ${mb(worst.step)}, ${(worst.step / r.indexBytes).toFixed(2)}× the index (target ≤ ${MAX_STEP}×)`);
    if (!fpOk) failures.push(`×${r.multiple}: the fingerprint raised the peak by ${mb(fp.step)} (target ≤ ${mb(FINGERPRINT_BYTES)})`);
  }
} finally {
  if (args.flag('keep')) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
if (failures.length) {
  console.log(`\nFAIL:\n  ${failures.join('\n  ')}`);
  process.exitCode = 1;
} else console.log('\nPASS');
