// The wrapper every command handler goes through: it awaits the command's body and hands its
// exit code to main() (yargs handlers cannot return one). A module of its own so that command
// modules and the command list (cli/commands.ts) both import it and not each other.
export type Runner = (fn: () => Promise<number> | number) => () => Promise<void>;
