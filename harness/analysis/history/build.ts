// `treebench history`: each metric per strategy across runs in time order, with its interval
// band, and the night-over-night changes that are significant. The changes use exactly the
// paired tests of `treebench compare` (McNemar for correct/incorrect, paired permutation for
// means, paired bootstrap for percentiles), Holm-adjusted over the strategies × metrics of each
// pair of consecutive runs — what `treebench compare <previous> <this> --metrics …` would say.
// A change that is not significant is not flagged: nightly noise is not news.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../errors.ts';
import { comparePaired, type ComparisonInput, type MetricComparison } from '../compare/paired.ts';
import { coverageText } from '../compare/coverage.ts';
import { comparability, customDirections, loadRun, strategyIds, strategyRecords, type LoadedRun } from '../compare/runs.ts';
import type { CompareMetric } from '../compare/metrics.ts';
import { metricValue, summarize, type StrategySummary } from '../../summary/summary.ts';
import { withIntervals } from '../../summary/intervals.ts';
import { sortLikeRun } from '../../run/order.ts';

export interface HistoryPoint {
  runId: string;
  startedAt: string;
  /** null when the strategy is not in this run or the metric does not apply. */
  value: number | null;
  lo: number | null;
  hi: number | null;
  /** The paired comparison with the previous run that has this strategy (absent for the first, or when untestable). */
  change?: MetricComparison;
}

export interface HistorySeries {
  strategy: string;
  metric: CompareMetric;
  points: HistoryPoint[];
}

export interface HistoryReport {
  /** finished: false for a run that stopped before its last question (a partial run). */
  runs: Array<{ runId: string; startedAt: string; dir: string; finished: boolean }>;
  /** The config and dataset names of the runs (a history is one series of one config on one dataset). */
  config?: string;
  dataset?: string;
  metrics: CompareMetric[];
  strategies: string[];
  series: HistorySeries[];
  alpha: number;
  resamples: number;
  /** Pairs of runs that were not tested, and why. */
  notes: string[];
  offline: boolean;
  priced: boolean;
}

export interface HistoryOptions {
  metrics: CompareMetric[];
  strategies?: string[];
  alpha?: number;
  resamples?: number;
  seed?: number;
}

/** Run folders from arguments: a run folder itself (has manifest.json), or a folder of run folders. */
export function findRunDirs(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (!existsSync(p)) throw new UsageError(`history: ${p} does not exist`);
    if (existsSync(join(p, 'manifest.json'))) out.push(p);
    else if (statSync(p).isDirectory()) {
      const inner = readdirSync(p)
        .map((d) => join(p, d))
        .filter((d) => existsSync(join(d, 'manifest.json')));
      if (!inner.length) throw new UsageError(`history: ${p} is neither a run folder nor a folder of run folders (no manifest.json)`);
      out.push(...inner);
    } else throw new UsageError(`history: ${p} is not a folder`);
  }
  return [...new Set(out)];
}

/** Each run's summary with intervals, computed as the run computed it (same order and seed). */
function summaryOf(run: LoadedRun): Map<string, StrategySummary> {
  const records = sortLikeRun([...run.records], run.manifest);
  const summary = withIntervals(summarize(records), records, { seed: run.manifest.seed });
  return new Map(summary.strategies.map((s) => [s.strategy, s]));
}

/** `dirs`: run folders, or runs already loaded (the caller may have needed their records first). */
export function buildHistory(dirs: ReadonlyArray<string | LoadedRun>, opts: HistoryOptions): HistoryReport {
  const alpha = opts.alpha ?? 0.05;
  const resamples = opts.resamples ?? 10_000;
  if (dirs.length === 0) throw new UsageError('history needs at least one run folder');
  const runs = dirs.map((d) => (typeof d === 'string' ? loadRun(d) : d)).sort((a, b) => a.manifest.startedAt.localeCompare(b.manifest.startedAt) || a.manifest.runId.localeCompare(b.manifest.runId));
  const all = [...new Set(runs.flatMap(strategyIds))];
  const wanted = opts.strategies?.length ? opts.strategies : all;
  const unknown = wanted.filter((s) => !all.includes(s));
  if (unknown.length) throw new UsageError(`--strategies: ${unknown.join(', ')} in none of the runs (they have: ${all.join(', ')})`);
  const summaries = runs.map(summaryOf);
  const series: HistorySeries[] = [];
  for (const strategy of wanted) {
    for (const metric of opts.metrics) {
      series.push({
        strategy,
        metric,
        points: runs.map((run, i) => {
          const s = summaries[i]!.get(strategy);
          const ci = s?.intervals?.[metric as keyof NonNullable<StrategySummary['intervals']>];
          return { runId: run.manifest.runId, startedAt: run.manifest.startedAt, value: s ? metricValue(s, metric) : null, lo: ci?.lo ?? null, hi: ci?.hi ?? null };
        }),
      });
    }
  }

  // Night over night: run i against the latest earlier run that has the same strategy.
  // Untested pairs are noted once per pair of runs (not once per strategy).
  const notes: string[] = [];
  const untested = new Map<string, { strategies: string[]; why: string }>();
  for (let i = 1; i < runs.length; i++) {
    const cur = runs[i]!;
    const inputs: ComparisonInput[] = [];
    for (const strategy of wanted) {
      if (!strategyIds(cur).includes(strategy)) continue;
      let j = i - 1;
      while (j >= 0 && !strategyIds(runs[j]!).includes(strategy)) j--;
      if (j < 0) continue;
      const prev = runs[j]!;
      const c = comparability(prev.manifest, cur.manifest);
      if (c.refusals.length) {
        const key = `${prev.manifest.runId} → ${cur.manifest.runId}`;
        const entry = untested.get(key) ?? { strategies: [], why: c.refusals.join('; ') };
        entry.strategies.push(strategy);
        untested.set(key, entry);
        continue;
      }
      inputs.push({ label: strategy, baseline: { run: prev.manifest.runId, strategy }, candidate: { run: cur.manifest.runId, strategy }, a: strategyRecords(prev, strategy), b: strategyRecords(cur, strategy) });
    }
    if (!inputs.length) continue;
    const priced = (r: LoadedRun) => Boolean(r.manifest.model?.priced);
    const result = comparePaired(inputs, (input) => opts.metrics.filter((m) => m !== 'costPerQuestion' || (priced(cur) && priced(runs.find((r) => r.manifest.runId === input.baseline.run)!))), {
      alpha,
      resamples,
      seed: opts.seed ?? cur.manifest.seed ?? 0,
      correction: 'holm',
      customDirections: customDirections(...runs),
    });
    for (const comp of result.comparisons) {
      // The tests see only the questions both nights answered: say so when that is not all of them.
      const cov = comp.coverage;
      if (cov.missing.length || !cur.manifest.finishedAt) {
        notes.push(`${comp.baseline.run} → ${comp.candidate.run} (${comp.label}): ${coverageText(cov, [comp.baseline.run, comp.candidate.run])}${cur.manifest.finishedAt ? '' : `; ${comp.candidate.run} did not finish`}: the change flags cover the paired questions only`);
      }
      for (const m of comp.metrics) {
        const point = series.find((s) => s.strategy === comp.label && s.metric === m.metric)?.points[i];
        if (point) point.change = m;
      }
    }
  }
  notes.unshift(...[...untested].map(([pair, u]) => `${pair} (${u.strategies.length === wanted.length ? 'all strategies' : u.strategies.join(', ')}): not tested: ${u.why}`));
  const names = (f: (r: LoadedRun) => string | undefined) => [...new Set(runs.map(f).filter((x): x is string => Boolean(x)))];
  const configs = names((r) => r.manifest.name);
  const datasets = names((r) => r.manifest.dataset?.name);
  return {
    runs: runs.map((r) => ({ runId: r.manifest.runId, startedAt: r.manifest.startedAt, dir: r.dir, finished: Boolean(r.manifest.finishedAt) })),
    ...(configs.length === 1 ? { config: configs[0]! } : {}),
    ...(datasets.length === 1 ? { dataset: datasets[0]! } : {}),
    metrics: opts.metrics,
    strategies: wanted,
    series,
    alpha,
    resamples,
    notes,
    offline: runs.some((r) => r.manifest.model?.offline),
    priced: runs.every((r) => r.manifest.model?.priced),
  };
}

/**
 * Runs of different configs or datasets are different series: a history over a folder of mixed
 * runs is one history per config × dataset (in order of first run), never one joined line.
 */
export function groupRuns(runs: readonly LoadedRun[]): LoadedRun[][] {
  const groups = new Map<string, LoadedRun[]>();
  const sorted = [...runs].sort((a, b) => a.manifest.startedAt.localeCompare(b.manifest.startedAt) || a.manifest.runId.localeCompare(b.manifest.runId));
  for (const r of sorted) {
    const key = JSON.stringify([r.manifest.name, r.manifest.dataset?.name, r.manifest.dataset?.questionsHash]);
    const g = groups.get(key) ?? [];
    g.push(r);
    groups.set(key, g);
  }
  return [...groups.values()];
}

/** A flagged change: significant after Holm, in a definite direction. */
export function flagOf(p: HistoryPoint): 'better' | 'worse' | null {
  const c = p.change;
  return c && c.test !== 'none' && c.significant && c.direction !== 'same' ? c.direction : null;
}
