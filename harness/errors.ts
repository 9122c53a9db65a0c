/** A problem the user can fix (bad flag, missing run folder): reported without a stack trace, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A command line that does not parse (unknown command or flag, missing argument): the help can fix it. */
export class ArgumentError extends UsageError {
  constructor(message: string) {
    super(message);
    this.name = 'ArgumentError';
  }
}

/** A config or rules file that does not validate; the message names file, line and field. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * A run whose model server failed before the first record could be written (while the corpus
 * was embedded): its folder holds the manifest and no record, and can be resumed once the
 * server answers. The message is the failure's.
 */
export class RunStartError extends Error {
  constructor(
    readonly runDir: string,
    failure: Error,
  ) {
    super(failure.message, { cause: failure });
    this.name = 'RunStartError';
  }
}

/** `strategies[1].params.topK` from a zod issue path. */
export function formatFieldPath(path: PropertyKey[]): string {
  return path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), '');
}
