// The `treebench` command line. Exit codes: 0 success, 1 a run or gate failed (or stopped with
// work left to resume), 2 a usage, config or data error (the message names the file, line or
// field), 3 a finished run whose error rate is above run.maxErrorRate, 130 interrupted (Ctrl-C).
//
// Start-up: this module imports only what parsing and `--help` need. Every command is listed by
// name and description (cli/commands.ts); the module with its options and handler, and so the
// datasets, strategies, reports and statistics behind it, is loaded only for the command named
// on the command line (yargs runs the builder and handler of that command alone).
import yargs, { type Argv } from 'yargs';
import { ArgumentError, ConfigError, RunStartError, UsageError } from '../harness/errors.ts';
import { redactSecrets } from '../harness/models/secrets.ts';
import { packageVersion } from '../harness/run/version.ts';
import { suggestOptions } from '../harness/text/suggest.ts';
import { forTerminal } from '../harness/text/terminal.ts';
import { DataError } from '../datasets/errors.ts';
import { consoleStyle } from '../reports/console.ts';
import { COMMANDS, commandName } from './commands.ts';
import type { Runner } from './runner.ts';
import { closedStreamNote, guardStreams, streamClosed } from './streams.ts';

export { markCommandProcess } from './heapGrowth.ts';

/** The part of yargs' internals buildCli touches (yargs 18). */
interface YargsInternals {
  getInternalMethods(): { getUsageInstance(): { cacheHelpMessage(): void } };
}

export async function buildCli(argv: string[], setExit: (code: number) => void): Promise<Argv> {
  const run: Runner = (fn) => async () => setExit(await fn());
  // The commands the arguments name; the others need only their name and description.
  const named = new Set(argv.filter((a) => !a.startsWith('-')));
  let cli = yargs(argv)
    .scriptName('treebench')
    .usage('$0 <command> [options]\n\nBenchmark retrieval strategies (vector RAG vs reasoning over a document outline) on QA datasets.');
  // Right after starting a command's handler, yargs renders that command's whole help and keeps
  // it, in case the handler asks for it later (~15 ms of every run's start). No handler here
  // does: a failure is thrown and printed by runCommand, never as yargs' help, and `--help` is
  // answered before any handler starts. So the rendering is skipped.
  (cli as unknown as YargsInternals).getInternalMethods().getUsageInstance().cacheHelpMessage = () => {};
  for (const entry of COMMANDS) {
    const body = named.has(commandName(entry)) ? (await entry.load())(run) : { builder: {}, handler: () => {} };
    cli = cli.command({ command: entry.command, describe: entry.describe, ...body });
  }
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
      throw new ArgumentError(suggestOptions(msg, known));
    });
  return cli;
}

/**
 * Runs the CLI and returns the exit code (never calls process.exit, so tests can drive it).
 * Everything written to stdout and stderr meanwhile goes through the stream guard (redacted,
 * sanitised, and a closed pipe never stops the command: cli/streams.ts).
 */
export async function main(argv: string[]): Promise<number> {
  const guard = guardStreams();
  const closedBefore = streamClosed('stdout');
  try {
    return await runCommand(argv);
  } finally {
    // A failed write reports its EPIPE on a later tick: let it arrive before looking.
    await new Promise((done) => setImmediate(done));
    const note = closedBefore ? null : closedStreamNote();
    if (note) process.stderr.write(note);
    guard.release();
  }
}

async function runCommand(argv: string[]): Promise<number> {
  let code = 0;
  try {
    await (await buildCli(argv, (c) => (code = c))).parseAsync();
    return code;
  } catch (err) {
    const e = err as Error;
    const kind = await errorKind(e);
    // A bug prints its stack; what the user or the model's server can fix prints its message.
    process.stderr.write(forTerminal(`treebench: ${redactSecrets(kind === 'bug' ? e.stack ?? e.message : e.message)}\n`));
    // Only a command line that does not parse is fixed by reading the help; a refused file or run
    // says what to fix in its message.
    if (e instanceof ArgumentError) process.stderr.write('Run `treebench --help` for usage.\n');
    return kind === 'input' ? 2 : 1;
  }
}

/**
 * `input`: a usage, config, data or provider-configuration error (exit 2); `provider`: a model
 * server that failed past its retries where no record can hold the failure, e.g. while embedding
 * the corpus (exit 1: the run failed, the message names the server and the cause); `bug`:
 * anything else (exit 1, with the stack).
 */
async function errorKind(e: Error): Promise<'input' | 'provider' | 'bug'> {
  if (e instanceof ConfigError || e instanceof DataError || e instanceof UsageError) return 'input';
  if (e instanceof RunStartError) return 'provider';
  // Their modules (zod schemas, the OpenAI client) are loaded here, on the error path, rather
  // than at every start; a command that threw one has loaded them already.
  const [{ ModelConfigError }, { ProviderConfigError, ProviderError }] = await Promise.all([
    import('../harness/models/providers/registry.ts'),
    import('../harness/models/providers/openai-client.ts'),
  ]);
  if (e instanceof ModelConfigError || e instanceof ProviderConfigError) return 'input';
  return e instanceof ProviderError ? 'provider' : 'bug';
}
