// Every command: its usage, its one-line description, and how to load its options and handler.
// `treebench --help` needs only the first two, so a command's module (and everything it
// imports: datasets, strategies, reports, statistics) is loaded only when that command is the
// one being run (see main.ts). Adding a command is one row here and one module in handlers/.
import type { CommandBody, Runner } from './runner.ts';

export interface CommandEntry {
  /** yargs usage: the name, then positionals (`compare <runA> [runB]`). */
  command: string;
  describe: string;
  load: () => Promise<(run: Runner) => CommandBody>;
}

/** In the order `treebench --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { command: 'run <config>', describe: 'Run the strategies of a config over its dataset; writes runs/<runId>/ and prints a table', load: async () => (await import('./handlers/run.ts')).runCommand },
  { command: 'estimate <config>', describe: 'What a config would cost: an offline dry run pricing each strategy\'s calls and tokens as a model, before anything is spent', load: async () => (await import('./handlers/estimate.ts')).estimateCommand },
  { command: 'report <runDir>', describe: 'Print the report of a finished (or interrupted) run', load: async () => (await import('./handlers/report.ts')).reportCommand },
  { command: 'datasets', describe: 'Dataset tools', load: async () => (await import('./handlers/datasets.ts')).datasetsCommand },
  { command: 'strategies', describe: 'List the strategies and their parameters with defaults', load: async () => (await import('./handlers/strategies.ts')).strategiesCommand },
  { command: 'trace <runDir>', describe: 'Print how a strategy searched for one question, as an indented path', load: async () => (await import('./handlers/trace.ts')).traceCommand },
  { command: 'compare <runA> [runB]', describe: 'Paired comparison of two runs (A baseline, B candidate), or of strategies inside one run with --within', load: async () => (await import('./handlers/compare.ts')).compareCommand },
  { command: 'gate', describe: 'CI gate: compare a candidate run with a baseline under rules; exit 0 pass, 1 regression, 2 usage/data error', load: async () => (await import('./handlers/gate.ts')).gateCommand },
  { command: 'baseline', describe: 'Save runs as named baselines and list them', load: async () => (await import('./handlers/baseline.ts')).baselineCommand },
  { command: 'merge <shards..>', describe: 'Join the runs of --shard 1/n … n/n into one run folder that reports like an unsharded run', load: async () => (await import('./handlers/merge.ts')).mergeCommand },
  { command: 'rejudge <runDir>', describe: "Re-score a finished run's answers (rule judge, optional LLM judge) into a new run folder, without re-running strategies", load: async () => (await import('./handlers/rejudge.ts')).rejudgeCommand },
  { command: 'export <runDir>', describe: 'Write a run as TREC run/qrels files (for trec_eval or ranx)', load: async () => (await import('./handlers/export.ts')).exportCommand },
  { command: 'tree', describe: 'Build, inspect and compare document trees (tables of contents)', load: async () => (await import('./handlers/tree.ts')).treeCommand },
  { command: 'tune <config>', describe: 'Successive halving over the variants of a config (grids): rungs, spend vs the full grid, frontier, recommendation', load: async () => (await import('./handlers/tune.ts')).tuneCommand },
  { command: 'history <runs..>', describe: 'Metrics per strategy across runs in time order, with interval bands; flags only significant changes between consecutive runs', load: async () => (await import('./handlers/history.ts')).historyCommand },
  { command: 'view [runs..]', describe: 'A local web viewer (127.0.0.1) over run folders: run list, run pages, two runs or strategies side by side, history; or --export a static copy', load: async () => (await import('./handlers/view.ts')).viewCommand },
];

/** A command's name: the first word of its usage. */
export const commandName = (entry: CommandEntry): string => entry.command.split(' ')[0]!;
