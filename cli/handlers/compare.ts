// `treebench compare <runA> <runB>` and `treebench compare <run> --within`: paired comparisons
// with intervals, p-values and significance marks. Informational: exit 0 whatever the result
// (use `treebench gate` to turn a comparison into a CI verdict); 2 on a usage or data error.
import { writeOutputFile } from '../../harness/files/output.ts';
import type { Argv } from 'yargs';
import { UsageError } from '../../harness/errors.ts';
import { DEFAULT_COMPARE_METRICS, type CompareMetric } from '../../harness/analysis/compare/metrics.ts';
import { comparePaired, perQuestion, type ComparisonInput } from '../../harness/analysis/compare/paired.ts';
import { assertComparable, comparability, loadRun, strategyIds, strategyRecords, type LoadedRun } from '../../harness/analysis/compare/runs.ts';
import { DEFAULT_BASELINES_DIR } from '../../harness/analysis/baselines.ts';
import { COMPARE_FORMATS, renderCompare, type CompareFormat, type CompareReport } from '../../reports/compare.ts';
import type { CommandBody, Runner } from '../runner.ts';
import { colorVerdicts, consoleStyle } from '../../reports/console.ts';
import { checkAlpha, checkResamples, headlineLevel, resolveMetrics, runLabel, splitList } from './shared.ts';

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

/** Builds the comparison (no output); exported for tests and for other commands. */
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
  });
  return { mode: args.within ? 'within' : 'runs', baseline: runLabel(a), candidate: runLabel(b), notes, forced, result };
}

export function compareCommand(run: Runner): CommandBody {
  return {
    builder: (y: Argv) =>
      y
        .positional('runA', { type: 'string', demandOption: true, describe: 'Baseline: a run folder or a saved baseline name' })
        .positional('runB', { type: 'string', describe: 'Candidate: a run folder or a saved baseline name' })
        .option('within', { type: 'boolean', describe: 'Compare strategies inside runA against --baseline-strategy' })
        .option('baseline-strategy', { type: 'string', describe: 'With --within: the strategy the others are compared to (default: the first)' })
        .option('strategies', { type: 'array', string: true, describe: 'Only these strategy ids (comma or space separated)' })
        .option('metrics', { type: 'array', string: true, describe: `Metric names or paths (default: ${DEFAULT_COMPARE_METRICS.join(', ')})` })
        .option('alpha', { type: 'number', default: 0.05, describe: 'Significance level; intervals are (1 − alpha)' })
        .option('resamples', { type: 'number', default: 10_000, describe: 'Bootstrap / permutation resamples' })
        .option('seed', { type: 'number', describe: "Resampling seed (default: the baseline run's seed)" })
        .option('correction', { choices: ['holm', 'none'] as const, default: 'holm' as const, describe: 'Multiple-comparison correction over all rows' })
        .option('force', { type: 'boolean', describe: 'Compare even if the datasets or corpora differ' })
        .option('format', { choices: COMPARE_FORMATS, default: 'table' as CompareFormat })
        .option('out', { type: 'string', describe: 'Also write the report to this file' })
        .option('baselines-dir', { type: 'string', default: DEFAULT_BASELINES_DIR, describe: 'Where named baselines live' })
        .example('$0 compare runs/nightly-0101 runs/nightly-0102', 'two nights of the same config')
        .example('$0 compare runs/s10 --within --baseline-strategy vector', 'every strategy against vector'),
    handler: (a) =>
      run(() => {
        const args = a as unknown as CompareArgs & { format: CompareFormat; out?: string };
        const report = buildComparison(args);
        const text = renderCompare(args.format, report);
        if (args.out) writeOutputFile(args.out, text.endsWith('\n') ? text : text + '\n', args.format === 'json' ? 'json' : 'document');
        const style = consoleStyle();
        const shown = args.format === 'table' ? colorVerdicts(renderCompare(args.format, report, style), style.color) : text;
        process.stdout.write(shown.endsWith('\n') ? shown : shown + '\n');
        return 0;
      })(),
  };
}
