// `treebench trace <runDir> --question <id> --strategy <id>`
import { forTerminal } from '../../harness/text/terminal.ts';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../harness/errors.ts';
import { RunStore } from '../../harness/run/store.ts';
import { validateConfig } from '../../harness/config/runConfig.ts';
import type { Corpus } from '../../harness/types.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { formatTrace } from '../../reports/trace.ts';
import type { CommandBody, Runner } from '../runner.ts';
import { registerBuiltinStrategies } from '../../strategies/registry.ts';

// Configs name the built-in strategies: this command offers them.
registerBuiltinStrategies();

/** Reloads the run's corpus for node titles; the trace still prints (ids only) if it cannot. */
export async function corpusOfRun(store: RunStore): Promise<Corpus | null> {
  try {
    const manifest = store.readManifest();
    const { config } = validateConfig(manifest.config);
    const data = await loadBenchmarkData(config, dirname(resolve(manifest.configPath)));
    return data.corpus;
  } catch {
    return null;
  }
}

export function traceCommand(run: Runner): CommandBody {
  return {
    builder: (y) =>
      y
        .positional('runDir', { type: 'string', demandOption: true, describe: 'Run folder (runs/<runId>)' })
        .option('question', { type: 'string', demandOption: true, describe: 'Question id' })
        .option('strategy', { type: 'string', describe: 'Strategy id (default: every strategy in the run)' })
        .option('repeat', { type: 'number', default: 0, describe: 'Which repeat of the question (runs with run.repeats > 1), from 0' })
        .option('full', { type: 'boolean', describe: 'Print every line whole (default: lines are cut to the terminal width)' })
        .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'text, or the records (trace, evidence, scores) as JSON' })
        .example('$0 trace runs/quickstart-... --question sample-001 --strategy layerwise', ''),
    handler: (argv) =>
      run(async () => {
        const a = argv as unknown as { runDir: string; question: string; strategy?: string; repeat: number; full?: boolean; format?: 'text' | 'json' };
        const store = RunStore.open(a.runDir);
        const records = store.readRecords().filter((r) => r.questionId === a.question && r.repeat === a.repeat && (!a.strategy || r.strategy === a.strategy));
        if (!records.length) {
          const all = store.readRecords();
          const strategies = [...new Set(all.map((r) => r.strategy))].join(', ');
          const known = all.some((r) => r.questionId === a.question);
          throw new UsageError(
            known ? `no record for question "${a.question}" with strategy "${a.strategy}" (strategies in this run: ${strategies})` : `question "${a.question}" is not in ${a.runDir} (e.g. ${all.slice(0, 3).map((r) => r.questionId).join(', ')})`,
          );
        }
        if (a.format === 'json') {
          process.stdout.write(JSON.stringify(records, null, 2) + '\n');
          return 0;
        }
        const corpus = await corpusOfRun(store);
        const width = a.full ? Infinity : Math.max(80, process.stdout.columns ?? 110);
        process.stdout.write(forTerminal(records.map((r) => formatTrace(r, corpus, { width })).join('\n\n' + '─'.repeat(60) + '\n\n')) + '\n');
        return 0;
      })(),
  };
}
