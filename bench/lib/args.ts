// The command-line options of a bench script: node's parseArgs, plus what a user of
// `npm run bench:… -- …` expects of a command:
//  - `--help` (or `-h`) prints the script's opening comment (what it measures, how to run it)
//    and its options with their defaults, and exits 0;
//  - an unknown flag, a missing value or a number that is not one is an error that names the
//    flag, printed with a pointer to --help, and exit 2, before any work starts.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export interface BenchOption {
  type: 'string' | 'boolean';
  default?: string | boolean;
  /** What the option sets, for --help. */
  help: string;
  /** A string option that holds a number (or a comma-separated list of numbers), checked at once. */
  number?: 'positive' | 'positive-integer' | 'positive-integer-list';
  /** A string option that must be one of these. */
  choices?: readonly string[];
  /** Plumbing between a bench and its own child processes: accepted, not listed by --help. */
  internal?: boolean;
}

export type BenchOptions = Record<string, BenchOption>;

export interface BenchArgs {
  flag(name: string): boolean;
  string(name: string): string | undefined;
  /** A `number` option's value (its default when not given). */
  number(name: string): number;
  /** A `positive-integer-list` option's values. */
  numbers(name: string): number[];
}

/** A usage error: the message to print before the pointer to --help (exit 2). */
export class BenchUsageError extends Error {}

/**
 * Parses `argv` against `options`. Returns the values, or `{ help }` (the text to print) for
 * --help; throws BenchUsageError for bad input. `usage` is the script's description.
 */
export function parseBenchArgs(argv: string[], options: BenchOptions, usage: string): BenchArgs | { help: string } {
  const spec: Record<string, { type: 'string' | 'boolean'; default?: string | boolean; short?: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, o] of Object.entries(options)) spec[name] = { type: o.type, ...(o.default !== undefined ? { default: o.default } : {}) };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options: spec, strict: true, allowPositionals: false }));
  } catch (err) {
    // parseArgs's own messages name the flag ("Unknown option '--cals'", "Option '--calls <value>' argument missing").
    throw new BenchUsageError((err as Error).message);
  }
  if (values.help) return { help: helpText(options, usage) };
  const parsed = new Map<string, number[]>();
  for (const [name, o] of Object.entries(options)) {
    const raw = values[name];
    if (o.choices && typeof raw === 'string' && !o.choices.includes(raw)) {
      throw new BenchUsageError(`--${name} must be one of ${o.choices.map((c) => JSON.stringify(c)).join(', ')}, got ${JSON.stringify(raw)}`);
    }
    if (!o.number || typeof raw !== 'string') continue;
    const parts = o.number === 'positive-integer-list' ? raw.split(',') : [raw];
    const nums = parts.map((p) => Number(p.trim()));
    const ok = nums.every((n, i) => parts[i]!.trim() !== '' && Number.isFinite(n) && n > 0 && (o.number === 'positive' || Number.isInteger(n)));
    if (!ok) {
      const want = o.number === 'positive-integer-list' ? 'a comma-separated list of positive whole numbers' : o.number === 'positive-integer' ? 'a positive whole number' : 'a positive number';
      throw new BenchUsageError(`--${name} must be ${want}, got ${JSON.stringify(raw)}`);
    }
    parsed.set(name, nums);
  }
  return {
    flag: (name) => values[name] === true,
    string: (name) => (typeof values[name] === 'string' ? (values[name] as string) : undefined),
    number: (name) => numbersOf(name)[0]!,
    numbers: numbersOf,
  };
  function numbersOf(name: string): number[] {
    const v = parsed.get(name);
    if (!v) throw new Error(`bench option --${name} has no number (declare it with \`number\` and a default)`);
    return v;
  }
}

function helpText(options: BenchOptions, usage: string): string {
  const rows = Object.entries(options)
    .filter(([, o]) => !o.internal)
    .map(([name, o]) => {
      const left = `  --${name}${o.type === 'string' ? ' <value>' : ''}`;
      const choices = o.choices ? ` (one of: ${o.choices.join(', ')})` : '';
      const dflt = o.default !== undefined && o.default !== false ? ` (default: ${o.default})` : '';
      return `${left.padEnd(26)} ${o.help}${choices}${dflt}`;
    });
  return `${usage}\n\nOptions:\n${rows.join('\n')}\n  ${'--help, -h'.padEnd(24)} this text\n`;
}

/** The opening `//` comment of a script file, without the comment markers: its description. */
export function openingComment(scriptUrl: string): string {
  const lines = readFileSync(fileURLToPath(scriptUrl), 'utf8').split('\n');
  const out: string[] = [];
  for (const line of lines) {
    if (!line.startsWith('//')) break;
    out.push(line.replace(/^\/\/ ?/, ''));
  }
  return out.join('\n').trimEnd();
}

/**
 * The bench script's options from process.argv: prints --help and exits 0, or prints a usage
 * error and exits 2 (see the top of this file). `scriptUrl`: the script's import.meta.url.
 */
export function benchArgs(scriptUrl: string, options: BenchOptions): BenchArgs {
  try {
    const r = parseBenchArgs(process.argv.slice(2), options, openingComment(scriptUrl));
    if ('help' in r) {
      process.stdout.write(r.help);
      process.exit(0);
    }
    return r;
  } catch (err) {
    if (!(err instanceof BenchUsageError)) throw err;
    exitWithUsageError(err.message);
  }
}

/**
 * For what only the script can check (a file that must exist, a name it must know): prints the
 * error and where the options are (`npm run bench:http -- --help` when started by npm), exit 2.
 */
export function exitWithUsageError(message: string): never {
  const script = process.env.npm_lifecycle_event;
  process.stderr.write(`error: ${message}\nOptions: ${script ? `npm run ${script} -- --help` : '--help'}\n`);
  process.exit(2);
}
