// The `treebench` command line. Exit codes: 0 success, 1 a run or gate failed (or stopped with
// work left to resume), 2 a usage, config or data error (the message names the file, line or
// field), 3 a finished run whose error rate is above run.maxErrorRate, 130 interrupted (Ctrl-C).
import yargs, { type Argv } from 'yargs';
import { ConfigError, loadConfig } from './config.ts';
import { runBenchmark, type Progress } from './runner.ts';
import { RunStore } from './runStore.ts';
import { redactSecrets } from './secrets.ts';
import { UsageError } from './errors.ts';
import { loadBenchmarkData } from '../datasets/registry.ts';
import { DataError } from '../datasets/errors.ts';
import { formatInspect, inspectData } from '../datasets/inspect.ts';
import { render, type ReportFormat } from '../reports/index.ts';
import { reportMeta } from '../reports/meta.ts';
import { summarize } from './metrics/summary.ts';
import { withIntervals } from './metrics/intervals.ts';
import { listStrategies } from '../strategies/registry.ts';
import { commandModules } from './commands.ts';
import { splitList } from './commands/shared.ts';
import { validateRunFlags } from './runFlags.ts';
import { latestRecords } from './runStore.ts';
import { forTerminal } from './text/terminal.ts';
import { ModelConfigError } from './providers/registry.ts';
import { ProviderConfigError } from './providers/openai-client.ts';


const FORMATS = ['table', 'md', 'csv', 'json'] as const;

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

function parseShard(value: string | undefined): { index: number; count: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`--shard must look like i/n with 1 <= i <= n (got "${value}")`);
  return { index, count };
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
}): Promise<number> {
  // Flags first: a bad flag should not wait for a dataset to load.
  const flags = validateRunFlags({ limit: args.limit, concurrency: args.concurrency, repeats: args.repeats });
  if (args.retryErrors && !args.resume) throw new UsageError('--retry-errors only applies with --resume <runDir>');
  const shard = parseShard(args.shard);
  const loaded = loadConfig(args.config);
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
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
  for (const format of loaded.config.reports) {
    if (format === 'table') continue;
    store.writeFile(`report.${format === 'md' ? 'md' : format}`, render(format, { summary: outcome.summary, meta }));
  }
  process.stdout.write(forTerminal(render(args.format, { summary: outcome.summary, meta })) + '\n');
  process.stderr.write(`run folder: ${outcome.dir}\n`);
  return runExitCode(outcome, loaded, args.config);
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

async function cmdReport(args: { runDir: string; format: ReportFormat }): Promise<number> {
  const store = RunStore.open(args.runDir);
  const manifest = store.readManifest();
  const records = store.readRecords();
  const summary = withIntervals(summarize(records), records, { seed: manifest.seed });
  process.stdout.write(forTerminal(render(args.format, { summary, meta: reportMeta(manifest) })) + '\n');
  return 0;
}

async function cmdInspect(args: { config: string; format: 'text' | 'json' }): Promise<number> {
  const loaded = loadConfig(args.config);
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
  const stats = inspectData(data);
  process.stdout.write(args.format === 'json' ? JSON.stringify(stats, null, 2) + '\n' : formatInspect(stats) + '\n');
  for (const w of data.warnings) process.stderr.write(`warning: ${w}\n`);
  return 0;
}

function cmdStrategies(): number {
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
          .option('shard', { type: 'string', describe: 'Run the i-th of n deterministic slices of the questions, e.g. 2/4' })
          .option('format', { choices: FORMATS, default: 'table' as ReportFormat, describe: 'What to print when done' })
          .option('cache', { type: 'boolean', describe: 'Cache chat responses on disk (--no-cache to bypass; default: config cache.enabled)' })
          .option('quiet', { type: 'boolean', describe: 'No progress on stderr' })
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
          .option('format', { choices: FORMATS, default: 'table' as ReportFormat, describe: 'table (console), md, csv or json' }),
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
    .command('strategies', 'List the strategies and their parameters with defaults', () => {}, run(cmdStrategies));
  for (const mod of commandModules(run)) cli = cli.command(mod);
  return cli
    .demandCommand(1, 'name a command (see --help)')
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version(false)
    .exitProcess(false)
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .fail((msg, err) => {
      throw err ?? new UsageError(msg);
    });
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
