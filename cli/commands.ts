// Commands beyond run/report/datasets/strategies, each in its own module. Adding a command is
// one import and one entry in the list.
import type { CommandModule } from 'yargs';
import { baselineCommand } from './handlers/baseline.ts';
import { compareCommand } from './handlers/compare.ts';
import { gateCommand } from './handlers/gate.ts';
import { mergeCommand } from './handlers/merge.ts';
import { traceCommand } from './handlers/trace.ts';
import { treeCommand } from './handlers/tree.ts';
import { rejudgeCommand } from './handlers/rejudge.ts';
import { exportCommand } from './handlers/export.ts';
import { tuneCommand } from './handlers/tune.ts';
import { historyCommand } from './handlers/history.ts';
import type { Runner } from './runner.ts';

export function commandModules(run: Runner): CommandModule[] {
  return [traceCommand(run), compareCommand(run), gateCommand(run), baselineCommand(run), mergeCommand(run), rejudgeCommand(run), exportCommand(run), treeCommand(run), tuneCommand(run), historyCommand(run)];
}
