// `treebench run` flags that override `run:` settings go through the config's own schema, so
// `--limit -5`, `--limit abc`, `--repeats 1.5` or `--concurrency 0` fail exactly as the same value
// in a config would — with exit 2 and a message naming the flag.
import type { z } from 'zod';
import { configSchema } from './runConfig.ts';
import { UsageError } from '../errors.ts';

const runShape = configSchema.shape.run.unwrap().shape;

/** Flag name -> the `run:` field it overrides. */
const RUN_FLAGS = { limit: 'limit', concurrency: 'concurrency', repeats: 'repeats', maxDollars: 'maxDollars' } as const satisfies Record<string, keyof typeof runShape>;

export type RunFlagValues = Partial<Record<keyof typeof RUN_FLAGS, unknown>>;

/** Validated overrides; throws a UsageError naming every bad flag. */
export function validateRunFlags(flags: RunFlagValues): { limit?: number; concurrency?: number; repeats?: number; maxDollars?: number } {
  const out: Record<string, number> = {};
  const problems: string[] = [];
  for (const [flag, field] of Object.entries(RUN_FLAGS) as Array<[keyof typeof RUN_FLAGS, keyof typeof runShape]>) {
    const value = flags[flag];
    if (value === undefined) continue;
    const parsed = (runShape[field] as z.ZodType).safeParse(value);
    if (parsed.success && typeof parsed.data === 'number') out[flag] = parsed.data;
    else {
      const message = parsed.success ? 'expected a number' : parsed.error.issues.map((i) => i.message).join('; ');
      problems.push(`--${flagName(flag)}: ${message} (got ${Number.isNaN(value) ? 'a value that is not a number' : JSON.stringify(value)}; same rule as run.${field} in a config)`);
    }
  }
  if (problems.length) throw new UsageError(problems.join('\n'));
  return out;
}

/** The flag as typed: `maxDollars` is `--max-dollars`. */
const flagName = (flag: string): string => flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
