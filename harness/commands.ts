// Commands beyond run/report/datasets/strategies, each in its own module. Adding a command is
// one import and one entry in the list.
import type { CommandModule } from 'yargs';
import { baselineCommand } from './commands/baseline.ts';
import { compareCommand } from './commands/compare.ts';
import { gateCommand } from './commands/gate.ts';
import { mergeCommand } from './commands/merge.ts';
import { traceCommand } from './commands/trace.ts';
import { treeCommand } from './commands/tree.ts';
import { rejudgeCommand } from './commands/rejudge.ts';
import { exportCommand } from './commands/export.ts';
import { tuneCommand } from './commands/tune.ts';
import { historyCommand } from './commands/history.ts';

export type Runner = (fn: () => Promise<number> | number) => () => Promise<void>;

export function commandModules(run: Runner): CommandModule[] {
  return [traceCommand(run), compareCommand(run), gateCommand(run), baselineCommand(run), mergeCommand(run), rejudgeCommand(run), exportCommand(run), treeCommand(run), tuneCommand(run), historyCommand(run)];
}
