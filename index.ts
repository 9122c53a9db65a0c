// treebench as a library: `import { defineStrategy, runBenchmark } from 'treebench'`.
//
// The engine's public face (harness/index.ts) with the built-ins wired in: the six strategies,
// the dataset loaders and the report writers. This is the package's one entry point; every other
// module is internal.
//
//   const { runDir, summary } = await runBenchmark('configs/quickstart.yaml', { limit: 10 });
//
// runBenchmark does what `treebench run` does — load the config and its dataset, run, write the
// run folder and its report files — without printing: progress comes to `onProgress`.
import { resolve } from 'node:path';
import { loadConfig as loadConfigFile, validateConfig, type LoadOptions } from './harness/config/runConfig.ts';
import type { LoadedConfig } from './harness/config/runConfig.ts';
import { runBenchmark as runEngine, selectQuestions, type Progress, type RunStop } from './harness/run/runner.ts';
import { RunStore, type RunManifest } from './harness/run/store.ts';
import type { RunSummary } from './harness/summary/summary.ts';
import type { ChatProvider, RunRecord } from './harness/types.ts';
import { loadBenchmarkData } from './datasets/registry.ts';
import { registerBuiltinStrategies } from './strategies/registry.ts';
import { writeReportFiles } from './reports/files.ts';
import { recordsInRunOrder } from './harness/run/recordsInOrder.ts';
import { reportMeta } from './reports/meta.ts';
import { nodeTitles } from './reports/html/titles.ts';
import { buildComparison, type CompareArgs, type CompareReport } from './harness/analysis/compare/build.ts';

export * from './harness/index.ts';

registerBuiltinStrategies();

/** Reads, parses and validates a YAML config file (`${VAR}` placeholders, then `--set`-style overrides). */
export function loadConfig(path: string, options: LoadOptions = {}): LoadedConfig {
  return loadConfigFile(path, options);
}

export interface BenchmarkOptions {
  /** `path=value` overrides, as `--set` takes them. */
  set?: readonly string[];
  /** For a config given as an object: the folder its relative paths start from (default: the working directory). */
  baseDir?: string;
  /** Only these strategy ids. */
  strategies?: string[];
  limit?: number;
  concurrency?: number;
  repeats?: number;
  /** Folder of run folders (default: the config's `run.outDir`). */
  outDir?: string;
  runId?: string;
  /** Resume this run folder. */
  resume?: string;
  retryErrors?: boolean;
  shard?: { index: number; count: number };
  /** Turn the response cache on or off, whatever the config says. */
  cache?: boolean;
  /** Report files to write (default: the config's `reports`); [] writes none. */
  reports?: Array<'md' | 'csv' | 'json' | 'html'>;
  /** Progress of the index build and of the records. */
  onProgress?: (p: Progress) => void;
  /** Messages for the user: dataset notes and warnings, resume notes. */
  onNote?: (message: string) => void;
  /** Stops the run: no new work starts, finished records stay (resume with `resume`). */
  signal?: AbortSignal;
  /** Use this chat provider instead of the configured one (tests, custom clients). */
  provider?: ChatProvider;
}

export interface BenchmarkResult {
  runDir: string;
  summary: RunSummary;
  manifest: RunManifest;
  /** Set when work was left undone (interrupted, circuit breaker); the run is resumable. */
  stopped: RunStop | null;
  /** Every record of the run, in run order (read from records.jsonl when first asked for). */
  readonly records: RunRecord[];
}

/** Runs a config (a file path, a loaded config, or a config object) and writes its run folder and reports. */
export async function runBenchmark(config: string | LoadedConfig | Record<string, unknown>, options: BenchmarkOptions = {}): Promise<BenchmarkResult> {
  const loaded = typeof config === 'string' ? loadConfigFile(config, options.set ? { set: options.set } : {}) : isLoaded(config) ? config : inlineConfig(config, options.baseDir);
  const limit = options.limit ?? loaded.config.run.limit;
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir, {
    ...(options.resume ? {} : { select: (qs) => selectQuestions(qs, limit, options.shard) }),
  });
  for (const n of data.notes) options.onNote?.(n);
  for (const w of data.warnings) options.onNote?.(`warning: ${w}`);
  const outcome = await runEngine({
    loaded,
    data,
    ...(options.strategies?.length ? { only: options.strategies } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.repeats !== undefined ? { repeats: options.repeats } : {}),
    ...(options.outDir ? { outDir: options.outDir } : {}),
    ...(options.runId ? { runId: options.runId } : {}),
    ...(options.resume ? { resumeDir: options.resume } : {}),
    ...(options.retryErrors ? { retryErrors: true } : {}),
    ...(options.shard ? { shard: options.shard } : {}),
    ...(options.cache !== undefined ? { cache: options.cache } : {}),
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.onNote ? { onNote: options.onNote } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const meta = reportMeta(outcome.manifest);
  const store = RunStore.open(outcome.dir);
  // The HTML report reads the records back as it writes (not outcome.records: all in memory).
  await writeReportFiles(store, options.reports ?? loaded.config.reports, (format) => ({
    summary: outcome.summary,
    meta,
    nodeTitle: nodeTitles(data.corpus),
    ...(format === 'html' ? { records: recordsInRunOrder(store, outcome.manifest) } : {}),
  }));
  return {
    runDir: outcome.dir,
    summary: outcome.summary,
    manifest: outcome.manifest,
    stopped: outcome.stopped,
    get records() {
      return outcome.records;
    },
  };
}

const isLoaded = (c: object): c is LoadedConfig => 'config' in c && 'strategies' in c && 'baseDir' in c;

function inlineConfig(config: Record<string, unknown>, baseDir = process.cwd()): LoadedConfig {
  const dir = resolve(baseDir);
  const { config: parsed, strategies, sources } = validateConfig(config, () => 'config', dir);
  return { path: resolve(dir, '<inline config>'), baseDir: dir, raw: JSON.stringify(config), config: parsed, strategies, ...(sources ? { sources } : {}) };
}

/** What `compareRuns` takes besides the runs: `treebench compare`'s flags. */
export type CompareOptions = Omit<CompareArgs, 'runA' | 'runB'>;

/**
 * The paired comparison `treebench compare` prints, as data: `compareRuns('runs/a', 'runs/b')`,
 * or strategies inside one run, `compareRuns('runs/a', { within: true, baselineStrategy: 'vector' })`.
 * A run is a run folder or a saved baseline name. Render it with `treebench compare`'s formats, or
 * read `result.comparisons[i].metrics` (delta, interval, p, pAdjusted, significant, wins/ties/losses).
 */
export function compareRuns(baseline: string, candidate?: string | CompareOptions, options: CompareOptions = {}): CompareReport {
  const [runB, opts] = typeof candidate === 'string' ? [candidate, options] : [undefined, candidate ?? options];
  return buildComparison({ ...opts, runA: baseline, ...(runB !== undefined ? { runB } : {}) });
}
