// `treebench baseline save <run> --name main` and `treebench baseline list`: named copies of
// finished runs for `treebench gate --baseline <name>` (see harness/analysis/baselines.ts).
import type { Argv } from 'yargs';
import { DEFAULT_BASELINES_DIR, listBaselines, saveBaseline } from '../../harness/analysis/baselines.ts';
import type { CommandBody, Runner } from '../runner.ts';

export function baselineCommand(run: Runner): CommandBody {
  return {
    builder: (y: Argv) =>
      y
        .command(
          'save <run>',
          'Copy a finished run folder to <dir>/<name> (replacing a baseline of that name)',
          (yy) =>
            yy
              .positional('run', { type: 'string', demandOption: true, describe: 'Run folder' })
              .option('name', { type: 'string', demandOption: true, describe: 'Baseline name, e.g. main' })
              .option('dir', { type: 'string', default: DEFAULT_BASELINES_DIR, describe: 'Folder of baselines' })
              .option('force', { type: 'boolean', describe: 'Save even if the run did not finish' })
              .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'text, or the baseline(s) as JSON' }),
          (a) =>
            run(() => {
              const args = a as unknown as { run: string; name: string; dir: string; force?: boolean; format?: 'text' | 'json' };
              const b = saveBaseline(args.run, args.name, { dir: args.dir, allowUnfinished: Boolean(args.force) });
              if (args.format === 'json') process.stdout.write(JSON.stringify(b, null, 2) + '\n');
              else process.stdout.write(`saved baseline "${b.name}" → ${b.dir} (run ${b.runId}, ${b.dataset}, ${b.records} records, strategies ${b.strategies.join(', ')})\n`);
              return 0;
            })(),
        )
        .command(
          'list',
          'List saved baselines',
          (yy) =>
            yy
              .option('dir', { type: 'string', default: DEFAULT_BASELINES_DIR, describe: 'Folder of baselines' })
              .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'text, or the baseline(s) as JSON' }),
          (a) =>
            run(() => {
              const args = a as unknown as { dir: string; format: 'text' | 'json' };
              const list = listBaselines(args.dir);
              if (args.format === 'json') process.stdout.write(JSON.stringify(list, null, 2) + '\n');
              else if (list.length === 0) process.stdout.write(`no baselines in ${args.dir}\n`);
              else {
                for (const b of list) {
                  process.stdout.write(
                    `${b.name}\t${b.runId}\t${b.config} · ${b.dataset} · ${b.questions} questions · ${b.records} records · ${b.strategies.join(', ')} · ${b.model}${b.savedAt ? ` · saved ${b.savedAt}` : ''}\n`,
                  );
                }
              }
              return 0;
            })(),
        )
        .demandCommand(1, 'name a baseline subcommand: save, list'),
    handler: () => {},
  };
}
