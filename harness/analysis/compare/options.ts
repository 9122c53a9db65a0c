// Checks and helpers the comparing commands share (compare, gate, history, baseline): metric
// names from flags, the headline retrieval level, alpha and resample counts. Errors name the flag.
import { UsageError } from '../../errors.ts';
import { resolveMetric, metricNames, type CompareMetric } from './metrics.ts';
import { RETRIEVAL_LEVELS, type RetrievalLevel } from '../../summary/summary.ts';
import type { RunRecord } from '../../types.ts';
import type { LoadedRun } from './runs.ts';

/** `--strategies a,b c` → ['a', 'b', 'c']. Commas inside brackets belong to grid ids (`beam[w=1,k=2]`). */
export function splitList(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => String(v).split(/,(?![^[\]]*\])/)).map((s) => s.trim()).filter(Boolean);
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

/** What a report says about one side of a comparison. */
export interface RunLabel {
  /** What the user named (folder or baseline name). */
  ref: string;
  runId: string;
  dataset: string;
  model: string;
  offline: boolean;
  priced: boolean;
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
