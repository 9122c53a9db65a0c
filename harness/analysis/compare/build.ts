// A paired comparison of two runs (or of strategies inside one run), as `treebench compare`
// and the library's `compareRuns` make it: load the runs, refuse runs that do not share their
// questions and documents (unless forced), pick strategies and metrics, then the paired tests of
// paired.ts with Holm over every row. No output: renderers take the CompareReport.
import { UsageError } from '../../errors.ts';
import { DEFAULT_BASELINES_DIR } from '../baselines.ts';
import { DEFAULT_COMPARE_METRICS, type CompareMetric } from './metrics.ts';
import { checkAlpha, checkResamples, headlineLevel, resolveMetrics, runLabel, splitList, type RunLabel } from './options.ts';
import { comparePaired, perQuestion, type ComparisonInput, type ComparisonResult } from './paired.ts';
import { assertComparable, comparability, customDirections, loadRun, strategyIds, strategyRecords, type LoadedRun } from './runs.ts';

export type { RunLabel } from './options.ts';

export interface CompareReport {
  /** Two runs, or strategies inside one run against a baseline strategy. */
  mode: 'runs' | 'within';
  baseline: RunLabel;
  candidate: RunLabel;
  /** Differences between the runs that do not stop the comparison. */
  notes: string[];
  /** Reasons to refuse that --force overrode. */
  forced: string[];
  result: ComparisonResult;
}

export interface CompareArgs {
  runA: string;
  runB?: string;
  within?: boolean;
  baselineStrategy?: string;
  strategies?: string[];
  metrics?: string[];
  alpha?: number;
  resamples?: number;
  seed?: number;
  correction?: 'holm' | 'none';
  force?: boolean;
  baselinesDir?: string;
}

function pickStrategies(available: string[], wanted: string[], where: string): string[] {
  if (!wanted.length) return available;
  const unknown = wanted.filter((s) => !available.includes(s));
  if (unknown.length) throw new UsageError(`--strategies: ${unknown.join(', ')} not in ${where} (it has: ${available.join(', ')})`);
  return wanted;
}

/** Builds the comparison (no output). */
export function buildComparison(args: CompareArgs): CompareReport {
  const alpha = checkAlpha(args.alpha ?? 0.05);
  const resamples = checkResamples(args.resamples ?? 10_000);
  const dir = args.baselinesDir ?? DEFAULT_BASELINES_DIR;
  const a = loadRun(args.runA, dir);
  let b: LoadedRun;
  const inputs: ComparisonInput[] = [];
  const notes: string[] = [];
  let forced: string[] = [];
  const wanted = splitList(args.strategies);

  if (args.within) {
    if (args.runB) throw new UsageError('--within compares strategies inside one run: give one run, not two');
    b = a;
    const ids = strategyIds(a);
    const base = args.baselineStrategy ?? ids[0];
    if (!ids.includes(base)) throw new UsageError(`--baseline-strategy: "${base}" is not in ${a.dir} (it has: ${ids.join(', ')})`);
    const others = pickStrategies(ids, wanted, a.dir).filter((s) => s !== base);
    if (others.length === 0) throw new UsageError(`${a.dir}: nothing to compare "${base}" with (strategies: ${ids.join(', ')})`);
    for (const s of others) {
      inputs.push({
        label: `${base} → ${s}`,
        baseline: { run: a.manifest.runId, strategy: base },
        candidate: { run: a.manifest.runId, strategy: s },
        a: strategyRecords(a, base),
        b: strategyRecords(a, s),
      });
    }
  } else {
    if (!args.runB) throw new UsageError('compare needs two runs (baseline, candidate), or one run with --within');
    if (args.baselineStrategy) throw new UsageError('--baseline-strategy goes with --within');
    b = loadRun(args.runB, dir);
    const c = comparability(a.manifest, b.manifest);
    assertComparable(c, Boolean(args.force));
    forced = c.refusals;
    notes.push(...c.notes);
    const idsA = strategyIds(a);
    const idsB = strategyIds(b);
    const common = idsA.filter((s) => idsB.includes(s));
    const onlyA = idsA.filter((s) => !idsB.includes(s));
    const onlyB = idsB.filter((s) => !idsA.includes(s));
    if (onlyA.length) notes.push(`strategies only in A: ${onlyA.join(', ')}`);
    if (onlyB.length) notes.push(`strategies only in B: ${onlyB.join(', ')}`);
    const chosen = pickStrategies(common, wanted, 'both runs');
    if (chosen.length === 0) throw new UsageError(`the runs have no strategy in common (A: ${idsA.join(', ')}; B: ${idsB.join(', ')})`);
    for (const s of chosen) {
      inputs.push({
        label: s,
        baseline: { run: a.manifest.runId, strategy: s },
        candidate: { run: b.manifest.runId, strategy: s },
        a: strategyRecords(a, s),
        b: strategyRecords(b, s),
      });
    }
  }

  const level = headlineLevel(a.records, b.records);
  const userMetrics = splitList(args.metrics);
  const requested = resolveMetrics(userMetrics.length ? userMetrics : DEFAULT_COMPARE_METRICS, level);
  // Default metrics that nobody measured (no gold evidence, say) are left out rather than shown empty.
  const measured = (m: CompareMetric) => inputs.some((i) => perQuestion(i.a, m).size > 0 && perQuestion(i.b, m).size > 0);
  const metrics = userMetrics.length ? requested : requested.filter(measured);
  const dropped = requested.filter((m) => !metrics.includes(m));
  if (dropped.length) notes.push(`not measured in these runs: ${dropped.join(', ')}`);

  const result = comparePaired(inputs, () => metrics, {
    alpha,
    resamples,
    seed: args.seed ?? a.manifest.seed ?? 0,
    correction: args.correction ?? 'holm',
    customDirections: customDirections(a, b),
  });
  return { mode: args.within ? 'within' : 'runs', baseline: runLabel(a), candidate: runLabel(b), notes, forced, result };
}

