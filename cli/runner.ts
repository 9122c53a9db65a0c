// What a command module hands to the CLI, in a module of its own so that command modules and
// the command table (cli/commands.ts) both import it and not each other.
import type { CommandModule } from 'yargs';

/** The wrapper every command handler goes through: it awaits the command's body and hands its
 *  exit code to main() (yargs handlers cannot return one). */
export type Runner = (fn: () => Promise<number> | number) => () => Promise<void>;

/** A command's options (builder) and handler. Its name and one-line description live in the
 *  command table, so `treebench --help` lists every command without loading any of them. */
export type CommandBody = Required<Pick<CommandModule, 'builder' | 'handler'>>;
