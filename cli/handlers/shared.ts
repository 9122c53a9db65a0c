// Helpers shared by the compare / gate / baseline / merge commands.
import { UsageError } from '../../harness/errors.ts';
export { checkAlpha, checkResamples, headlineLevel, resolveMetrics, runLabel, splitList } from '../../harness/analysis/compare/options.ts';

/** A repeatable string flag (`--set a=1 --set b=2`) as a list. */
export function setFlags(value: string | readonly string[] | undefined): string[] {
  return value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(String);
}

export function checkMargin(margin: number, flag = '--margin'): number {
  if (!(Number.isFinite(margin) && margin >= 0 && margin < 1)) throw new UsageError(`${flag} must be a number in [0, 1) in objective units, e.g. 0.02 (got ${margin})`);
  return margin;
}

export function parseShard(value: string | undefined): { index: number; count: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`--shard must look like i/n with 1 <= i <= n (got "${value}")`);
  return { index, count };
}

/** `--shard`, else the TREEBENCH_SHARD environment variable (CI matrices, Kubernetes indexed jobs). */
export function shardFrom(flag: string | undefined, env: Record<string, string | undefined> = process.env): { index: number; count: number } | undefined {
  if (flag !== undefined) return parseShard(flag);
  const value = env.TREEBENCH_SHARD;
  if (value === undefined || value === '') return undefined;
  try {
    return parseShard(value);
  } catch {
    throw new UsageError(`TREEBENCH_SHARD must look like i/n with 1 <= i <= n (got "${value}")`);
  }
}

