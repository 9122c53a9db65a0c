// Commands beyond run/report/datasets/strategies, each in its own module. Adding a command is
// one import and one entry in the list.
import type { CommandModule } from 'yargs';

export type Runner = (fn: () => Promise<number> | number) => () => Promise<void>;

export function commandModules(_run: Runner): CommandModule[] {
  return [];
}
