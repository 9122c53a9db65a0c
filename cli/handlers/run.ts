// `treebench run <config>`: run the strategies of a config over its dataset, write the run folder
// and print the table. Exit codes: see runExitCode.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv } from 'yargs';
import { loadConfig } from '../../harness/config/runConfig.ts';
import { limitHeapForModelCalls } from '../heapGrowth.ts';
import { runBenchmark, selectQuestions, type Progress } from '../../harness/run/runner.ts';
import { RunStore, latestRecords } from '../../harness/run/store.ts';
import { RunStartError, UsageError } from '../../harness/errors.ts';
import { redactSecrets } from '../../harness/models/secrets.ts';
import { validateRunFlags } from '../../harness/config/runFlags.ts';
import { classifyFailure } from '../../harness/run/breaker.ts';
import { DEFAULT_API_KEY_ENV } from '../../harness/models/endpoint.ts';
import { forTerminal } from '../../harness/text/terminal.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { setFlags, shardFrom, splitList } from './shared.ts';
import { FORMATS } from './reportFormats.ts';
import type { ReportFormat } from '../../reports/index.ts';
import type { CommandBody, Runner } from '../runner.ts';
import { startProgress, type ProgressLine } from '../../harness/run/progress.ts';
import { registerBuiltinStrategies } from '../../strategies/registry.ts';
import { warningLines } from '../../reports/warnings.ts';
import { progressPrinter } from './runProgress.ts';
import { workerLogFile } from '../../harness/plugins/logFile.ts';

// Configs name the built-in strategies: this command offers them.
registerBuiltinStrategies();

interface RunArgs {
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
  replay?: boolean;
  maxDollars?: number;
  set?: string | string[];
}

async function cmdRun(args: RunArgs): Promise<number> {
  // Flags first: a bad flag should not wait for a dataset to load.
  const flags = validateRunFlags({ limit: args.limit, concurrency: args.concurrency, repeats: args.repeats, maxDollars: args.maxDollars });
  if (args.replay && args.cache === false) throw new UsageError('--replay answers only from the cache: it cannot go with --no-cache');
  // An empty value is a mistake (an unset shell variable), not "use the default".
  for (const [flag, value] of [['--run-id', args.runId], ['--out', args.out], ['--resume', args.resume]] as const) {
    if (value !== undefined && String(value).trim() === '') throw new UsageError(`${flag} needs a value (got an empty string)`);
  }
  if (args.retryErrors && !args.resume) throw new UsageError('--retry-errors only applies with --resume <runDir>');
  const shard = shardFrom(args.shard);
  const loaded = loadConfig(args.config, { set: setFlags(args.set) });
  // The corpus need only serve the questions that will run (corpus.only: referenced, financebench).
  // (A folder a kill left without its manifest has no selection yet: runBenchmark starts it.)
  const resumeIds = args.resume ? resumeSelection(args.resume) : null;
  const limit = flags.limit ?? loaded.config.run.limit;
  const wasQuiet = process.env.TREEBENCH_QUIET;
  const quiet = Boolean(args.quiet) || wasQuiet === '1';
  if (args.quiet) process.env.TREEBENCH_QUIET = '1'; // the load's progress lines (harness/run/progress.ts) too
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
  for (const w of warningLines(data.warnings, 'warnings.txt in the run folder')) process.stderr.write(forTerminal(`warning: ${w}\n`));
  const interrupt = onInterrupt();
  // The report writers (runReport.ts) load near the end of the calls, not before the first one.
  let reporting: Promise<typeof import('./runReport.ts')> | undefined;
  const printProgress = progressPrinter(quiet);
  const outcome = await runBenchmark({
    loaded,
    data,
    ...(args.strategies?.length ? { only: splitList(args.strategies) } : {}),
    ...flags,
    ...(args.out !== undefined ? { outDir: args.out } : {}),
    ...(args.runId !== undefined ? { runId: args.runId } : {}),
    ...(args.resume ? { resumeDir: args.resume } : {}),
    ...(args.retryErrors ? { retryErrors: true } : {}),
    ...(shard ? { shard } : {}),
    ...(args.replay ? { cache: 'replay' as const } : args.cache !== undefined ? { cache: args.cache } : {}),
    onProgress: (p) => {
      // The calls start (done 0): from now on a network model's run holds calls in flight, and
      // its heap is bounded (cli/heapGrowth.ts).
      if (p.phase === 'run' && p.done === 0) limitHeapForModelCalls(loaded.config);
      printProgress(p);
    },
    // Every call left is out and the command waits for the last replies: the reports load then.
    onCallsOut: () => void (reporting ??= loadReporting()),
    onSummaryProgress: summaryProgress(quiet),
    signal: interrupt.signal,
    onNote: (m) => process.stderr.write(forTerminal(`note: ${m}\n`)),
  })
    .catch((err: unknown) => {
      if (!(err instanceof RunStartError)) throw err;
      // A refused key is not a server that will answer later: say what to fix.
      const when = classifyFailure(err.cause) === 'auth' ? `the server refused the API key (check ${keyVariable(loaded.config.model)}); once the key is right, resume with` : 'once the server answers, resume with';
      process.stderr.write(forTerminal(`treebench: ${redactSecrets(err.message)}\nno ${args.resume ? 'new ' : ''}record written; ${when}:\n  ${resumeCommand(args, err.runDir)}\n`));
      return null;
    })
    .finally(() => interrupt.dispose());
  if (!outcome) return 1;
  for (const w of outcome.warnings) process.stderr.write(forTerminal(`warning: ${w}\n`));
  await (await (reporting ??= loadReporting())).reportRun(outcome, data, loaded, args.format);
  // A judge that could not grade (its server unreachable, no verdict) leaves records ungraded:
  // said here, not only in the report, so a run that "passed" with no grades is noticed.
  const ungraded = outcome.summary.strategies.reduce((n, s) => n + (s.judge?.errors ?? 0), 0);
  if (ungraded > 0) {
    const judged = outcome.summary.strategies.reduce((n, s) => n + (s.judge ? s.judge.n + s.judge.errors : 0), 0);
    process.stderr.write(`warning: the LLM judge could not grade ${ungraded} of ${judged} records (their judge.error says why; \`treebench rejudge\` grades them again)\n`);
  }
  if (outcome.spentUsd !== null && (args.maxDollars !== undefined || loaded.config.run.maxDollars !== undefined)) {
    process.stderr.write(`spent: $${outcome.spentUsd.toFixed(4)} of run.maxDollars $${args.maxDollars ?? loaded.config.run.maxDollars} (this invocation; cached calls cost nothing)\n`);
  }
  process.stderr.write(`run folder: ${outcome.dir}\n`);
  return runExitCode(outcome, loaded, args);
}

/** The end of the run (its reports), imported: a rejected import is thrown where it is awaited. */
function loadReporting(): Promise<typeof import('./runReport.ts')> {
  const loading = import('./runReport.ts');
  loading.catch(() => {});
  return loading;
}

/** The questions a run folder was started with, or null when it has no readable manifest yet. */
function resumeSelection(dir: string): Set<string> | null {
  try {
    return new Set(RunStore.open(dir).readManifest().questionIds);
  } catch {
    return null;
  }
}

/** A progress line for model-written node summaries (corpus.summaries: model), started on the first call. */
function summaryProgress(quiet: boolean): (done: number, total: number) => void {
  let line: ProgressLine | null = null;
  return (done, total) => {
    line ??= startProgress({ label: 'writing node summaries', total, unit: 'nodes', quiet });
    line.tick();
    if (done === total) line.done();
  };
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
function runExitCode(outcome: Awaited<ReturnType<typeof runBenchmark>>, loaded: { path: string; config: { run: { maxErrorRate: number }; cache?: { dir: string } } }, args: RunArgs): number {
  if (outcome.stopped) {
    const { reason, notRun, interrupted } = outcome.stopped;
    // With --retry-errors some of these tasks keep the error record they had; none got a new one.
    const what = args.retryErrors ? 'no new record written for them' : 'no record written';
    process.stderr.write(forTerminal(`${interrupted ? 'interrupted' : `run stopped: ${reason}`}\n${notRun} tasks not run (${what}); resume with:\n  ${resumeCommand(args, outcome.dir)}\n`));
    return interrupted ? 130 : 1;
  }
  // Replay never calls the model: a miss failed its question, and the gate must not pass on it.
  const misses = outcome.cache?.replayMisses ?? 0;
  if (misses > 0) {
    const failed = latestRecords(outcome.records).filter((r) => r.error?.startsWith('CacheMissError')).length;
    process.stderr.write(
      `replay: ${misses} call(s) were not in the response cache (${loaded.config.cache?.dir ?? '.treebench/cache'}), so ${failed} record(s) failed and no request was made; ` +
        `the prompts or model settings changed since the cache was filled: fill it again with --cache (cache.mode: use), then replay\n`,
    );
    return 2;
  }
  // The summary counts the latest record of each task; the records file is read only to name
  // the commonest errors when the rate is over the limit.
  const total = outcome.summary.strategies.reduce((n, s) => n + s.records, 0);
  const rate = total ? outcome.summary.strategies.reduce((n, s) => n + s.errors, 0) / total : 0;
  const max = loaded.config.run.maxErrorRate;
  if (rate > max) {
    const failed = latestRecords(outcome.records).filter((r) => r.error !== null);
    const counts = new Map<string, number>();
    for (const r of failed) counts.set(r.error!, (counts.get(r.error!) ?? 0) + 1);
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
    process.stderr.write(
      forTerminal(
        `run failed: ${failed.length} of ${total} records are errors (${(rate * 100).toFixed(1)}% > run.maxErrorRate ${(max * 100).toFixed(1)}%). Commonest:\n` +
          top.map(([m, n]) => `  ${n}x ${m.length > 300 ? `${m.slice(0, 300)}…` : m}`).join('\n') +
          workerLogs(outcome.dir, failed) +
          `\nafter fixing the cause: ${resumeCommand({ ...args, retryErrors: true }, outcome.dir)}\n`,
      ),
    );
    return 3;
  }
  return 0;
}

/** Where the stderr of the workers that failed went (a worker's own account of its errors). */
function workerLogs(dir: string, failed: readonly { strategy: string }[]): string {
  const logs = [...new Set(failed.map((r) => r.strategy))].map((id) => join(dir, workerLogFile(id))).filter((f) => existsSync(f) && statSync(f).size > 0);
  return logs.map((f) => `\nworker stderr: ${f}`).join('');
}

/**
 * The command that resumes the run in `dir`: the invocation as the user typed it, flag for flag
 * (every --set, which the run's config hash covers, so that the resume is accepted), with
 * --resume <dir> in place of --out / --run-id / an earlier --resume. --retry-errors stays when
 * the invocation had it.
 */
export function resumeCommand(args: RunArgs, dir: string): string {
  const parts = ['treebench', 'run', args.config];
  if (args.strategies?.length) parts.push('--strategies', splitList(args.strategies).join(','));
  for (const flag of ['limit', 'concurrency', 'repeats'] as const) if (args[flag] !== undefined) parts.push(`--${flag}`, String(args[flag]));
  if (args.shard !== undefined) parts.push('--shard', args.shard);
  if (args.replay) parts.push('--replay');
  else if (args.cache !== undefined) parts.push(args.cache ? '--cache' : '--no-cache');
  if (args.maxDollars !== undefined) parts.push('--max-dollars', String(args.maxDollars));
  for (const expr of setFlags(args.set)) parts.push('--set', expr);
  if (args.format !== undefined && args.format !== 'table') parts.push('--format', args.format);
  if (args.quiet) parts.push('--quiet');
  parts.push('--resume', dir);
  if (args.retryErrors) parts.push('--retry-errors');
  return parts.map(shellQuote).join(' ');
}

const shellQuote = (s: string): string => (/^[A-Za-z0-9_./:=@,+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function runCommand(run: Runner): CommandBody {
  return {
    builder: (y: Argv) =>
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
        .option('cache', { type: 'boolean', describe: 'Cache chat responses on disk (--no-cache to bypass; default: config cache.mode / cache.enabled)' })
        .option('replay', { type: 'boolean', describe: 'Answer only from the response cache (cache.mode: replay): a miss fails its question and the run exits 2; never calls the model' })
        .option('max-dollars', { type: 'number', describe: 'Launch no more work once the calls have cost this much (run.maxDollars; per invocation); the rest is resumable' })
        .option('quiet', { type: 'boolean', describe: 'No progress on stderr' })
        .option('set', { type: 'string', requiresArg: true, describe: 'Override a config field, e.g. --set budget.calls=12 (repeatable; validated like the file)' })
        .example('$0 run configs/quickstart.yaml', 'offline quickstart over the bundled sample')
        .example('$0 run configs/emanual-s10.yaml --strategies vector,node-list --limit 10', 'a quick slice')
        .epilogue(
          'Environment: OPENAI_API_KEY and OPENAI_BASE_URL for model.provider: openai (the key is never written anywhere); ' +
            'TREEBENCH_SHARD=i/n as --shard; TREEBENCH_QUIET=1 as --quiet; TREEBENCH_HEAP_FLAGS=off keeps V8\'s garbage-collector ' +
            'defaults for runs that call a model over the network (treebench otherwise keeps their memory near what they hold alive).',
        ),
    handler: (a) => run(() => cmdRun(a as unknown as Parameters<typeof cmdRun>[0]))(),
  };
}

/** The env var holding the run model's key, as the user should check it. */
function keyVariable(model: { apiKeyEnv?: string | undefined }): string {
  return `$${model.apiKeyEnv ?? DEFAULT_API_KEY_ENV}, named by model.apiKeyEnv`;
}
