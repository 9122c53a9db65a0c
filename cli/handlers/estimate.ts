// `treebench estimate <config>`: what a config would cost, from an offline dry run
// (harness/run/estimate.ts); nothing is sent to a model and nothing is written.
import type { Argv } from 'yargs';
import { loadConfig } from '../../harness/config/runConfig.ts';
import { validateRunFlags } from '../../harness/config/runFlags.ts';
import { estimateCost } from '../../harness/run/estimate.ts';
import { selectQuestions } from '../../harness/run/runner.ts';
import { UsageError } from '../../harness/errors.ts';
import { forTerminal } from '../../harness/text/terminal.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { renderEstimate } from '../../reports/estimate.ts';
import { registerBuiltinStrategies } from '../../strategies/registry.ts';
import { setFlags, splitList } from './shared.ts';
import type { CommandBody, Runner } from '../runner.ts';

registerBuiltinStrategies();

interface EstimateArgs {
  config: string;
  priceAs?: string;
  limit?: number;
  seeds?: number;
  strategies?: string[];
  format: 'table' | 'json';
  set?: string | string[];
}

async function cmdEstimate(args: EstimateArgs): Promise<number> {
  const flags = validateRunFlags({ limit: args.limit });
  if (args.seeds !== undefined && (!Number.isInteger(args.seeds) || args.seeds < 1 || args.seeds > 20)) throw new UsageError(`--seeds: expected a whole number from 1 to 20 (got ${args.seeds})`);
  if (args.priceAs !== undefined && String(args.priceAs).trim() === '') throw new UsageError('--price-as needs a model name (got an empty string)');
  const loaded = loadConfig(args.config, { set: setFlags(args.set) });
  const limit = flags.limit ?? loaded.config.run.limit;
  const was = process.env.TREEBENCH_QUIET;
  process.env.TREEBENCH_QUIET = '1';
  let data: Awaited<ReturnType<typeof loadBenchmarkData>>;
  try {
    // The estimate never spends: trees are built offline here (a model-built tree is ingestion, noted apart).
    data = await loadBenchmarkData(loaded.config, loaded.baseDir, { select: (qs) => selectQuestions(qs, limit), model: null });
  } finally {
    if (was === undefined) delete process.env.TREEBENCH_QUIET;
    else process.env.TREEBENCH_QUIET = was;
  }
  for (const w of data.warnings) process.stderr.write(forTerminal(`warning: ${w}\n`));
  const estimate = await estimateCost({
    loaded,
    data,
    ...(args.priceAs ? { priceAs: args.priceAs } : {}),
    ...(limit ? { limit } : {}),
    ...(args.seeds ? { seeds: args.seeds } : {}),
    ...(args.strategies?.length ? { only: splitList(args.strategies) } : {}),
  });
  if (!estimate.priced) process.stderr.write(forTerminal(`warning: "${estimate.pricedAs}" is not in the price table: dollars are unpriced (add it under \`prices:\` in the config)\n`));
  process.stdout.write(forTerminal(args.format === 'json' ? `${JSON.stringify(estimate, null, 2)}\n` : `${renderEstimate(estimate)}\n`));
  return 0;
}

export function estimateCommand(run: Runner): CommandBody {
  return {
    builder: (y: Argv) =>
      y
        .positional('config', { type: 'string', demandOption: true, describe: 'YAML config (see configs/)' })
        .option('price-as', { type: 'string', describe: 'Price the calls as this model (default: model.priceAs, else model.model)' })
        .option('limit', { type: 'number', describe: 'Only the first N questions' })
        .option('seeds', { type: 'number', describe: 'Seeds to run for the low–high spread (default 3)' })
        .option('strategies', { type: 'array', string: true, describe: 'Only these strategy ids' })
        .option('format', { choices: ['table', 'json'] as const, default: 'table' as const, describe: 'table, or json: { strategies: [ { strategy, questions, calls, inputTokens, outputTokens, dollars: { low, expected, high } } ], … }' })
        .option('set', { type: 'string', requiresArg: true, describe: 'Override a config field, e.g. --set budget.calls=12 (repeatable)' })
        .example('$0 estimate configs/quickstart.yaml --price-as gpt-4o-mini', 'what the quickstart would cost on gpt-4o-mini'),
    handler: (a) => run(() => cmdEstimate(a as unknown as EstimateArgs))(),
  };
}
