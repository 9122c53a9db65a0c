// Helpers shared by the compare / gate / baseline / merge commands.
import { UsageError } from '../../harness/errors.ts';
import { resolveMetric, metricNames, type CompareMetric } from '../../harness/analysis/compare/metrics.ts';
import { RETRIEVAL_LEVELS, type RetrievalLevel } from '../../harness/summary/summary.ts';
import type { RunRecord } from '../../harness/types.ts';
import type { LoadedRun } from '../../harness/analysis/compare/runs.ts';
import type { RunLabel } from '../../reports/compare.ts';

/** `--strategies a,b c` → ['a', 'b', 'c']. Commas inside brackets belong to grid ids (`beam[w=1,k=2]`). */
export function splitList(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => String(v).split(/,(?![^[\]]*\])/)).map((s) => s.trim()).filter(Boolean);
}

/** A repeatable string flag (`--set a=1 --set b=2`) as a list. */
export function setFlags(value: string | readonly string[] | undefined): string[] {
  return value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(String);
}

/** The finest retrieval level with gold in any of the record sets (node, else page, else doc). */
export function headlineLevel(...sets: ReadonlyArray<readonly RunRecord[]>): RetrievalLevel {
  return RETRIEVAL_LEVELS.find((l) => sets.some((rs) => rs.some((r) => r.retrieval?.[l]))) ?? 'node';
}

/** Resolves metric names (paths or aliases) for a flag, naming the flag on an unknown one. */
export function resolveMetrics(names: readonly string[], level: RetrievalLevel, flag = '--metrics'): CompareMetric[] {
  const out: CompareMetric[] = [];
  for (const name of names) {
    const m = resolveMetric(name, level);
    if (!m) throw new UsageError(`${flag}: unknown metric "${name}" (known: ${metricNames().join(', ')})`);
    if (!out.includes(m)) out.push(m);
  }
  return out;
}

export function runLabel(run: LoadedRun): RunLabel {
  return {
    ref: run.baseline ?? run.ref,
    runId: run.manifest.runId,
    dataset: run.manifest.dataset?.name ?? '?',
    model: run.manifest.model?.label ?? run.manifest.model?.id ?? '?',
    offline: Boolean(run.manifest.model?.offline),
    priced: Boolean(run.manifest.model?.priced),
  };
}

export function checkAlpha(alpha: number, flag = '--alpha'): number {
  if (!(alpha > 0 && alpha < 1)) throw new UsageError(`${flag} must be between 0 and 1 (got ${alpha})`);
  return alpha;
}

export function checkResamples(n: number): number {
  if (!Number.isSafeInteger(n) || n < 100) throw new UsageError(`--resamples must be an integer >= 100 (got ${n})`);
  return n;
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
