// Commands beyond run/report/datasets/strategies, each in its own module. Adding a command is
// one import and one entry in the list.
import type { CommandModule } from 'yargs';
import { traceCommand } from './commands/trace.ts';

export type Runner = (fn: () => Promise<number> | number) => () => Promise<void>;

export function commandModules(run: Runner): CommandModule[] {
  return [traceCommand(run)];
}
