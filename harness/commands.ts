// Commands beyond run/report/datasets/strategies, each in its own module. Adding a command is
// one import and one entry in the list.
import type { CommandModule } from 'yargs';
import { baselineCommand } from './commands/baseline.ts';
import { compareCommand } from './commands/compare.ts';
import { gateCommand } from './commands/gate.ts';
import { mergeCommand } from './commands/merge.ts';
import { traceCommand } from './commands/trace.ts';
import { historyCommand } from './commands/history.ts';

export type Runner = (fn: () => Promise<number> | number) => () => Promise<void>;

export function commandModules(run: Runner): CommandModule[] {
  return [traceCommand(run), compareCommand(run), gateCommand(run), baselineCommand(run), mergeCommand(run), historyCommand(run)];
}
