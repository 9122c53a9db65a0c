// `treebench datasets inspect <config>`: load a config's dataset and corpus and print their
// counts, depth, fanout and gold coverage.
import type { Argv } from 'yargs';
import { loadConfig } from '../../harness/config/runConfig.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { formatInspect, inspectData } from '../../datasets/inspect.ts';
import type { CommandBody, Runner } from '../runner.ts';
import { registerBuiltinStrategies } from '../../strategies/registry.ts';

// Configs name the built-in strategies: this command offers them.
registerBuiltinStrategies();

async function cmdInspect(args: { config: string; format: 'text' | 'json' }): Promise<number> {
  const loaded = loadConfig(args.config);
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
  for (const n of data.notes) process.stderr.write(`note: ${n}\n`);
  const stats = inspectData(data);
  process.stdout.write(args.format === 'json' ? JSON.stringify(stats, null, 2) + '\n' : formatInspect(stats) + '\n');
  for (const w of data.warnings) process.stderr.write(`warning: ${w}\n`);
  return 0;
}

export function datasetsCommand(run: Runner): CommandBody {
  return {
    builder: (y: Argv) =>
      y
        .command(
          'inspect <config>',
          'Load the dataset and corpus of a config and print counts, depth, fanout and gold coverage',
          (yy) =>
            yy
              .positional('config', { type: 'string', demandOption: true, describe: 'Config .yaml whose dataset and corpus to load' })
              .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'text, or the counts as JSON' }),
          (a) => run(() => cmdInspect(a as unknown as Parameters<typeof cmdInspect>[0]))(),
        )
        .demandCommand(1, 'name a datasets subcommand: inspect'),
    handler: () => {},
  };
}
