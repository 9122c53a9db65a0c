// Helpers shared by the compare / gate / baseline / merge commands.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../harness/errors.ts';
import { findRunDirs } from '../../harness/analysis/history/build.ts';
import { loadRun, loadRunIfAny, type LoadedRun } from '../../harness/analysis/compare/runs.ts';
import { forTerminal } from '../../harness/text/terminal.ts';
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

/**
 * The runs under `paths` (`history`, `view`): a run folder named on its own must load, or it is
 * the error; one found inside a folder of runs that has no records yet (stopped before its first)
 * or records no comparison may read (another run's lines, a file edited) is skipped with a note:
 * one such folder must not refuse the whole listing.
 */
export function loadRunsUnder(paths: readonly string[]): LoadedRun[] {
  const named = new Set(paths.filter((p) => existsSync(join(p, 'manifest.json'))));
  const runs: LoadedRun[] = [];
  for (const dir of findRunDirs(paths)) {
    if (named.has(dir)) {
      runs.push(loadRun(dir));
      continue;
    }
    let loaded: LoadedRun | null;
    try {
      loaded = loadRunIfAny(dir);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      process.stderr.write(forTerminal(`note: skipped ${dir}: ${err.message}\n`));
      continue;
    }
    if (loaded) runs.push(loaded);
    else process.stderr.write(forTerminal(`note: skipped ${dir}: the run has no records\n`));
  }
  return runs;
}
