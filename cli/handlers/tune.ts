// `treebench tune <config>`: successive halving over the config's variants (grids included),
// then the frontier and the recommendation. See harness/analysis/tune/.
import { writeReportFiles } from './printReport.ts';
import { validateRunFlags } from '../../harness/config/runFlags.ts';
import type { Argv } from 'yargs';
import { loadConfig } from '../../harness/config/runConfig.ts';
import { limitHeapForModelCalls } from '../heapGrowth.ts';
import { UsageError } from '../../harness/errors.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { reportMeta } from '../../reports/meta.ts';
import { renderTune } from '../../reports/tune.ts';
import { RunStore } from '../../harness/run/store.ts';
import { OBJECTIVES, type Objective } from '../../harness/analysis/tune/recommend.ts';
import { loadStages, runTune } from '../../harness/analysis/tune/run.ts';
import type { CommandBody, Runner } from '../runner.ts';
import { checkAlpha, checkMargin, setFlags, shardFrom, splitList } from './shared.ts';
import { configHashOf } from '../../harness/config/overrides.ts';
import { forTerminal } from '../../harness/text/terminal.ts';
import { jsonText } from '../../harness/files/jsonText.ts';
import { registerBuiltinStrategies } from '../../strategies/registry.ts';

// Configs name the built-in strategies: this command offers them.
registerBuiltinStrategies();

interface TuneArgs {
  config: string;
  objective: Objective;
  maxCostPerQuestion?: number;
  eta: number;
  minQuestions: number;
  margin: number;
  alpha: number;
  set?: string | string[];
  out?: string;
  runId?: string;
  limit?: number;
  concurrency?: number;
  cache?: boolean;
  format: 'table' | 'md' | 'json';
  quiet?: boolean;
  reuse?: string[];
  shard?: string;
}

function positiveInt(value: number, flag: string, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) throw new UsageError(`${flag} must be an integer >= ${min} (got ${value})`);
  return value;
}

export async function cmdTune(args: TuneArgs): Promise<number> {
  const eta = positiveInt(args.eta, '--eta', 2);
  const minQuestions = positiveInt(args.minQuestions, '--min-questions', 1);
  const margin = checkMargin(args.margin);
  const alpha = checkAlpha(args.alpha);
  // --limit and --concurrency follow the same rules as `run`'s (and run.* in a config).
  const flags = validateRunFlags({ limit: args.limit, concurrency: args.concurrency });
  if (args.maxCostPerQuestion !== undefined && !(args.maxCostPerQuestion > 0)) {
    throw new UsageError(`--max-cost-per-question must be a positive dollar amount (got ${args.maxCostPerQuestion})`);
  }
  const loaded = loadConfig(args.config, { set: setFlags(args.set) });
  limitHeapForModelCalls(loaded.config);
  if (loaded.strategies.length < 2) throw new UsageError(`${args.config}: tune needs at least two variants (a grid: or several strategy entries); it has ${loaded.strategies.length}`);
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
  for (const w of data.warnings) process.stderr.write(`warning: ${w}\n`);
  const reuse = loadStages(splitList(args.reuse), configHashOf(loaded));
  const shard = shardFrom(args.shard);
  const outcome = await runTune({
    ...(reuse.length ? { reuse } : {}),
    ...(shard ? { shard } : {}),
    loaded,
    data,
    tune: { objective: args.objective, eta, minQuestions, margin, alpha, ...(args.maxCostPerQuestion !== undefined ? { maxCostPerQuestion: args.maxCostPerQuestion } : {}) },
    ...(args.out ? { outDir: args.out } : {}),
    ...(args.runId ? { runId: args.runId } : {}),
    ...(flags.limit !== undefined ? { limit: flags.limit } : {}),
    ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
    ...(args.cache !== undefined ? { cache: args.cache } : {}),
    onProgress: (p) => {
      if (!args.quiet && p.phase === 'run' && p.done === p.total) process.stderr.write(`rung ${p.rung}: ${p.done} records, ${p.errors} errors\n`);
    },
  });
  if (outcome.stage) {
    const { rung, shard: sh, records } = outcome.stage;
    process.stdout.write(`stage done: rung ${rung}, shard ${sh.index}/${sh.count}: ${records} new records in ${outcome.dir}\n`);
    process.stdout.write('When every shard of this stage is done, run the next stage (or, with nothing left to run, the final tune) with --reuse <all their folders>.\n');
    return 0;
  }
  if (outcome.manifest.tune.maxCostPerQuestion !== null && !outcome.manifest.model.priced) {
    process.stderr.write('warning: --max-cost-per-question with an unpriced model: every cost is $0 (set model.priceAs)\n');
  }
  const store = RunStore.open(outcome.dir);
  const meta = reportMeta(outcome.manifest);
  await writeReportFiles(store, loaded.config.reports, () => ({ summary: outcome.summary, meta }));
  const priced = outcome.manifest.model.priced;
  const offline = outcome.manifest.model.offline;
  store.writeFile('tune.md', renderTune(outcome.manifest.tune, { priced, offline, format: 'md' }));
  // Markdown escaping leaves control characters alone; the terminal must not get them.
  if (args.format === 'json') process.stdout.write(jsonText({ format: 'treebench-tune', version: 1, runId: outcome.manifest.runId, dir: outcome.dir, priced, offline, ...outcome.manifest.tune }));
  else process.stdout.write(forTerminal(renderTune(outcome.manifest.tune, { priced, offline, format: args.format })));
  process.stderr.write(`tune folder: ${outcome.dir}\n`);
  return 0;
}

export function tuneCommand(run: Runner): CommandBody {
  return {
    builder: (y: Argv) =>
      y
        .positional('config', { type: 'string', demandOption: true, describe: 'YAML config whose strategies (and grids) are the variants' })
        .option('objective', { choices: OBJECTIVES, default: 'accuracy' as Objective, describe: 'What to maximise' })
        .option('max-cost-per-question', { type: 'number', describe: 'Drop variants whose measured $/question is above this' })
        .option('eta', { type: 'number', default: 3, describe: 'Keep the best 1/eta at each rung; samples grow by eta' })
        .option('min-questions', { type: 'number', default: 20, describe: 'Questions in the first rung (at least)' })
        .option('margin', { type: 'number', default: 0, describe: 'Shortfall from the best still "not worse" (objective units, e.g. 0.02)' })
        .option('alpha', { type: 'number', default: 0.05, describe: 'Significance level of the Holm-adjusted paired tests' })
        .option('set', { type: 'string', requiresArg: true, describe: 'Override a config field, e.g. --set budget.calls=12 (repeatable)' })
        .option('limit', { type: 'number', describe: 'Only the first N questions' })
        .option('concurrency', { type: 'number', describe: 'Model calls in flight at once' })
        .option('out', { type: 'string', describe: 'Folder for the tune folder (default: config run.outDir)' })
        .option('run-id', { type: 'string', describe: 'Name of the tune folder' })
        .option('cache', { type: 'boolean', describe: 'Share responses through the cache (default on; --no-cache to pay every call)' })
        .option('reuse', { type: 'array', string: true, describe: 'Tune folders of earlier stages (same config): their records stand in for running their cells' })
        .option('shard', { type: 'string', describe: 'i/n: run slice i of the first incomplete rung, then stop (default: $TREEBENCH_SHARD)' })
        .option('format', { choices: ['table', 'md', 'json'] as const, default: 'table' as const, describe: 'What to print: the text, Markdown, or the tune summary as JSON' })
        .option('quiet', { type: 'boolean', describe: 'No progress on stderr' })
        .example('$0 tune configs/tune.yaml', 'offline, over the bundled sample')
        .example('$0 tune configs/tune.yaml --objective f1 --eta 2 --margin 0.02', 'gentler halving, two points of tolerance'),
    handler: (a) => run(() => cmdTune(a as unknown as TuneArgs))(),
  };
}
