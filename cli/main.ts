// The `treebench` command line. Exit codes: 0 success, 1 a run or gate failed (or stopped with
// work left to resume), 2 a usage, config or data error (the message names the file, line or
// field), 3 a finished run whose error rate is above run.maxErrorRate, 130 interrupted (Ctrl-C).
import yargs, { type Argv } from 'yargs';
import { writeFileAtomicSync as writeFileAtomic } from '../harness/atomicFile.ts';
import { ConfigError, loadConfig } from '../harness/config.ts';
import { runBenchmark, selectQuestions, type Progress } from '../harness/runner.ts';
import { RunStore } from '../harness/runStore.ts';
import { redactSecrets } from '../harness/secrets.ts';
import { UsageError } from '../harness/errors.ts';
import { loadBenchmarkData } from '../datasets/registry.ts';
import { DataError } from '../datasets/errors.ts';
import { formatInspect, inspectData } from '../datasets/inspect.ts';
import { render, type ReportFormat } from '../reports/index.ts';
import { reportMeta } from '../reports/meta.ts';
import { summarize } from '../harness/metrics/summary.ts';
import { withIntervals } from '../harness/metrics/intervals.ts';
import { listStrategies } from '../strategies/registry.ts';
import { commandModules } from './commands.ts';
import { checkMargin, setFlags, shardFrom, splitList } from './handlers/shared.ts';
import { OBJECTIVES, type Objective } from '../harness/tune/recommend.ts';
import { recommendationSection } from './handlers/recommendation.ts';
import { corpusOfRun } from './handlers/trace.ts';
import { sortLikeRun } from '../harness/runOrder.ts';
import { packageVersion } from '../harness/version.ts';
import { suggestOptions } from '../harness/suggest.ts';
import { colorVerdicts, consoleStyle } from '../reports/console.ts';
import { nodeTitles } from '../reports/html/titles.ts';
import { validateRunFlags } from '../harness/runFlags.ts';
import { latestRecords } from '../harness/runStore.ts';
import { forTerminal } from '../harness/text/terminal.ts';
import { ModelConfigError } from '../harness/providers/registry.ts';
import { ProviderConfigError } from '../harness/providers/openai-client.ts';


const FORMATS = ['table', 'md', 'csv', 'json', 'html'] as const;

function progressPrinter(quiet: boolean): (p: Progress) => void {
  if (quiet) return () => {};
  const tty = process.stderr.isTTY;
  let lastPrint = 0;
  return (p) => {
    const now = performance.now();
    const final = p.done === p.total;
    if (!final && now - lastPrint < (tty ? 200 : 2000)) return;
    lastPrint = now;
    const rate = p.elapsedMs > 0 ? (p.done / p.elapsedMs) * 1000 : 0;
    const eta = rate > 0 ? Math.ceil((p.total - p.done) / rate) : 0;
    const line =
      p.phase === 'index'
        ? `indexing: ${p.done}/${p.total} chunks embedded`
        : `running: ${p.done}/${p.total} records, ${p.errors} errors, ${rate.toFixed(1)}/s${final ? '' : `, ~${eta}s left`}`;
    process.stderr.write(tty ? `\r\x1b[K${line}${final ? '\n' : ''}` : `${line}\n`);
  };
}

async function cmdRun(args: {
  config: string;
  strategies?: string[];
  limit?: number;
  concurrency?: number;
  repeats?: number;
  out?: string;
  runId?: string;
  resume?: string;
  retryErrors?: boolean;
  shard?: string;
  format: ReportFormat;
  quiet?: boolean;
  cache?: boolean;
  set?: string | string[];
}): Promise<number> {
  // Flags first: a bad flag should not wait for a dataset to load.
  const flags = validateRunFlags({ limit: args.limit, concurrency: args.concurrency, repeats: args.repeats });
  if (args.retryErrors && !args.resume) throw new UsageError('--retry-errors only applies with --resume <runDir>');
  const shard = shardFrom(args.shard);
  const loaded = loadConfig(args.config, { set: setFlags(args.set) });
  // The corpus need only serve the questions that will run (corpus.only: referenced, financebench).
  // (A folder a kill left without its manifest has no selection yet: runBenchmark starts it.)
  const resumeIds = args.resume ? resumeSelection(args.resume) : null;
  const limit = flags.limit ?? loaded.config.run.limit;
  const wasQuiet = process.env.TREEBENCH_QUIET;
  if (args.quiet) process.env.TREEBENCH_QUIET = '1'; // the load's progress lines (harness/progress.ts) too
  let data: Awaited<ReturnType<typeof loadBenchmarkData>>;
  try {
    data = await loadBenchmarkData(loaded.config, loaded.baseDir, {
      select: (qs) => (resumeIds ? qs.filter((q) => resumeIds.has(q.id)) : selectQuestions(qs, limit, shard)),
    });
  } finally {
    if (wasQuiet === undefined) delete process.env.TREEBENCH_QUIET;
    else process.env.TREEBENCH_QUIET = wasQuiet;
  }
  for (const n of data.notes) process.stderr.write(forTerminal(`note: ${n}\n`));
  for (const w of data.warnings) process.stderr.write(forTerminal(`warning: ${w}\n`));
  const interrupt = onInterrupt();
  const outcome = await runBenchmark({
    loaded,
    data,
    ...(args.strategies?.length ? { only: splitList(args.strategies) } : {}),
    ...flags,
    ...(args.out ? { outDir: args.out } : {}),
    ...(args.runId ? { runId: args.runId } : {}),
    ...(args.resume ? { resumeDir: args.resume } : {}),
    ...(args.retryErrors ? { retryErrors: true } : {}),
    ...(shard ? { shard } : {}),
    ...(args.cache !== undefined ? { cache: args.cache } : {}),
    onProgress: progressPrinter(Boolean(args.quiet)),
    signal: interrupt.signal,
    onNote: (m) => process.stderr.write(forTerminal(`note: ${m}\n`)),
  }).finally(() => interrupt.dispose());
  const meta = reportMeta(outcome.manifest);
  const store = RunStore.open(outcome.dir);
  const extra = { records: outcome.records, nodeTitle: nodeTitles(data.corpus) };
  for (const format of loaded.config.reports) {
    if (format === 'table') continue;
    store.writeFile(`report.${format === 'md' ? 'md' : format}`, render(format, { summary: outcome.summary, meta, ...extra }));
  }
  printReport(render(args.format, { summary: outcome.summary, meta, ...extra, ...(args.format === 'table' ? consoleStyle() : {}) }), args.format);
  process.stderr.write(`run folder: ${outcome.dir}\n`);
  return runExitCode(outcome, loaded, args.config);
}

/** The questions a run folder was started with, or null when it has no readable manifest yet. */
function resumeSelection(dir: string): Set<string> | null {
  try {
    return new Set(RunStore.open(dir).readManifest().questionIds);
  } catch {
    return null;
  }
}

/**
 * Ctrl-C: the first stops new work and aborts calls in flight (finished records are already on
 * disk; the run then prints how to resume and exits 130); a second one exits at once.
 */
function onInterrupt(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const handler = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\ninterrupted: finishing writes (Ctrl-C again to quit at once)\n');
    controller.abort(new Error('interrupted (Ctrl-C)'));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

/** 130 interrupted, 1 stopped with work left, 3 too many errors, else 0 — each with its reason. */
function runExitCode(outcome: Awaited<ReturnType<typeof runBenchmark>>, loaded: { path: string; config: { run: { maxErrorRate: number } } }, configArg: string): number {
  const resume = `treebench run ${shellQuote(configArg)} --resume ${shellQuote(outcome.dir)}`;
  if (outcome.stopped) {
    const { reason, notRun, interrupted } = outcome.stopped;
    process.stderr.write(forTerminal(`${interrupted ? 'interrupted' : `run stopped: ${reason}`}\n${notRun} tasks not run (no record written); resume with:\n  ${resume}\n`));
    return interrupted ? 130 : 1;
  }
  const records = latestRecords(outcome.records);
  const failed = records.filter((r) => r.error !== null);
  const rate = records.length ? failed.length / records.length : 0;
  const max = loaded.config.run.maxErrorRate;
  if (rate > max) {
    const counts = new Map<string, number>();
    for (const r of failed) counts.set(r.error!, (counts.get(r.error!) ?? 0) + 1);
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
    process.stderr.write(
      forTerminal(
        `run failed: ${failed.length} of ${records.length} records are errors (${(rate * 100).toFixed(1)}% > run.maxErrorRate ${(max * 100).toFixed(1)}%). Commonest:\n` +
          top.map(([m, n]) => `  ${n}x ${m.length > 300 ? `${m.slice(0, 300)}…` : m}`).join('\n') +
          `\nafter fixing the cause: ${resume} --retry-errors\n`,
      ),
    );
    return 3;
  }
  return 0;
}

const shellQuote = (s: string): string => (/^[A-Za-z0-9_./:=@-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Console output: colour for verdicts only on a terminal (see reports/console.ts). */
function printReport(text: string, format: ReportFormat): void {
  // Only the console table is coloured; md, csv, json and html are files even when printed.
  // Data text never reaches the terminal raw (control characters removed) before colour is added.
  const safe = forTerminal(text);
  const shown = format === 'table' ? colorVerdicts(safe, consoleStyle().color) : safe;
  process.stdout.write(shown + (safe.endsWith('\n') ? '' : '\n'));
}

async function cmdReport(args: { runDir: string; format: ReportFormat; out?: string; objective?: Objective; margin?: number }): Promise<number> {
  const store = RunStore.open(args.runDir);
  const manifest = store.readManifest();
  // Records in the order the run summarised them, so the seeded bootstrap gives the same intervals.
  const records = sortLikeRun(store.readRecords(), manifest);
  const summary = withIntervals(summarize(records), records, { seed: manifest.seed });
  const nodeTitle = args.format === 'html' ? nodeTitles(await corpusOfRun(store)) : undefined;
  const input = { summary, meta: reportMeta(manifest), records, ...(nodeTitle ? { nodeTitle } : {}) };
  if (args.out) {
    writeFileAtomic(args.out, render(args.format, input));
    process.stderr.write(`wrote ${args.out}\n`);
    return 0;
  }
  printReport(render(args.format, { ...input, ...(args.format === 'table' ? consoleStyle() : {}) }), args.format);
  // Several variants: the frontier and the recommendation (human-readable formats only).
  if (args.format === 'table' || args.format === 'md') {
    const section = recommendationSection(manifest, records, {
      format: args.format as 'table' | 'md',
      ...(args.objective ? { objective: args.objective } : {}),
      margin: checkMargin(args.margin ?? 0),
      ...(args.format === 'table' ? { width: consoleStyle().width } : {}),
    });
    if (section) process.stdout.write('\n' + forTerminal(section) + '\n');
  }
  return 0;
}

async function cmdInspect(args: { config: string; format: 'text' | 'json' }): Promise<number> {
  const loaded = loadConfig(args.config);
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
  for (const n of data.notes) process.stderr.write(`note: ${n}\n`);
  const stats = inspectData(data);
  process.stdout.write(args.format === 'json' ? JSON.stringify(stats, null, 2) + '\n' : formatInspect(stats) + '\n');
  for (const w of data.warnings) process.stderr.write(`warning: ${w}\n`);
  return 0;
}

function cmdStrategies(args: { format?: 'text' | 'json' } = {}): number {
  if (args.format === 'json') {
    const list = listStrategies().map((s) => {
      const defaults = s.params.safeParse({});
      return { name: s.name, description: s.description, defaults: defaults.success ? defaults.data : null };
    });
    process.stdout.write(JSON.stringify(list, null, 2) + '\n');
    return 0;
  }
  for (const s of listStrategies()) {
    const defaults = s.params.safeParse({});
    process.stdout.write(`${s.name}\n  ${s.description}\n  params (defaults): ${defaults.success ? JSON.stringify(defaults.data) : '(see README)'}\n`);
  }
  return 0;
}

export function buildCli(argv: string[], setExit: (code: number) => void): Argv {
  const run = (fn: () => Promise<number> | number) => async () => setExit(await fn());
  let cli = yargs(argv)
    .scriptName('treebench')
    .usage('$0 <command> [options]\n\nBenchmark retrieval strategies (vector RAG vs reasoning over a document outline) on QA datasets.')
    .command(
      'run <config>',
      'Run the strategies of a config over its dataset; writes runs/<runId>/ and prints a table',
      (y) =>
        y
          .positional('config', { type: 'string', demandOption: true, describe: 'YAML config (see configs/)' })
          .option('strategies', { type: 'array', string: true, describe: 'Only these strategy ids (comma or space separated)' })
          .option('limit', { type: 'number', describe: 'Only the first N questions' })
          .option('concurrency', { type: 'number', describe: 'Model calls in flight at once (default: config run.concurrency)' })
          .option('repeats', { type: 'number', describe: 'Run every question N times (independent model calls)' })
          .option('out', { type: 'string', describe: 'Folder for run folders (default: config run.outDir, "runs")' })
          .option('run-id', { type: 'string', describe: 'Name of the run folder (default: <config name>-<UTC timestamp>)' })
          .option('resume', { type: 'string', describe: 'Resume an interrupted run folder: skips finished records' })
          .option('retry-errors', { type: 'boolean', describe: 'With --resume: run again the records that ended in an error' })
          .option('shard', { type: 'string', describe: 'Run the i-th of n deterministic slices of the questions, e.g. 2/4 (default: $TREEBENCH_SHARD)' })
          .option('format', { choices: FORMATS, default: 'table' as ReportFormat, describe: 'What to print when done' })
          .option('cache', { type: 'boolean', describe: 'Cache chat responses on disk (--no-cache to bypass; default: config cache.enabled)' })
          .option('quiet', { type: 'boolean', describe: 'No progress on stderr' })
          .option('set', { type: 'string', requiresArg: true, describe: 'Override a config field, e.g. --set budget.calls=12 (repeatable; validated like the file)' })
          .example('$0 run configs/quickstart.yaml', 'offline quickstart over the bundled sample')
          .example('$0 run configs/emanual-s10.yaml --strategies vector,node-list --limit 10', 'a quick slice'),
      (a) => run(() => cmdRun(a as unknown as Parameters<typeof cmdRun>[0]))(),
    )
    .command(
      'report <runDir>',
      'Print the report of a finished (or interrupted) run',
      (y) =>
        y
          .positional('runDir', { type: 'string', demandOption: true, describe: 'A run folder, e.g. runs/quickstart-20261129-101500Z' })
          .option('format', { choices: FORMATS, default: 'table' as ReportFormat, describe: 'table (console), md, csv, json or html (self-contained page)' })
          .option('out', { type: 'string', describe: 'Write the report to this file instead of printing it' })
          .option('objective', { choices: OBJECTIVES, describe: 'For the frontier and recommendation (default: accuracy)' })
          .option('margin', { type: 'number', describe: 'Shortfall from the best still counted as "not worse" (objective units, default 0)' })
          .example('$0 report runs/quickstart-... --format html --out report.html', 'a page with charts and traces'),
      (a) => run(() => cmdReport(a as unknown as Parameters<typeof cmdReport>[0]))(),
    )
    .command('datasets', 'Dataset tools', (y) =>
      y
        .command(
          'inspect <config>',
          'Load the dataset and corpus of a config and print counts, depth, fanout and gold coverage',
          (yy) =>
            yy
              .positional('config', { type: 'string', demandOption: true })
              .option('format', { choices: ['text', 'json'] as const, default: 'text' as const }),
          (a) => run(() => cmdInspect(a as unknown as Parameters<typeof cmdInspect>[0]))(),
        )
        .demandCommand(1, 'name a datasets subcommand: inspect'),
    )
    .command(
      'strategies',
      'List the strategies and their parameters with defaults',
      (y) => y.option('format', { choices: ['text', 'json'] as const, default: 'text' as const }),
      (a) => run(() => cmdStrategies(a as unknown as Parameters<typeof cmdStrategies>[0]))(),
    );
  for (const mod of commandModules(run)) cli = cli.command(mod);
  cli = cli
    .demandCommand(1, 'name a command (see --help)')
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version('version', 'Print the version', packageVersion())
    .exitProcess(false)
    .wrap(Math.min(110, Number.isFinite(consoleStyle().width) ? consoleStyle().width : 100))
    .fail((msg, err) => {
      if (err) throw err;
      // Known option names of the command being parsed (yargs rebuilds the same instance for it).
      const known = Object.keys((cli as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key).filter((k) => !/[A-Z]/.test(k));
      throw new UsageError(suggestOptions(msg, known));
    });
  return cli;
}

/** Runs the CLI and returns the exit code (never calls process.exit, so tests can drive it). */
export async function main(argv: string[]): Promise<number> {
  let code = 0;
  try {
    await buildCli(argv, (c) => (code = c)).parseAsync();
    return code;
  } catch (err) {
    const e = err as Error;
    const known = e instanceof ConfigError || e instanceof DataError || e instanceof UsageError || e instanceof ProviderConfigError || e instanceof ModelConfigError;
    process.stderr.write(forTerminal(`treebench: ${redactSecrets(known ? e.message : e.stack ?? e.message)}\n`));
    if (e instanceof UsageError) process.stderr.write('Run `treebench --help` for usage.\n');
    return known ? 2 : 1;
  }
}
