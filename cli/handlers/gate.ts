// `treebench gate --baseline <run|name> --candidate <run>`: the CI verdict. Exit 0 when every
// rule passes, 1 on a regression, 2 on a usage or data error (bad rules file, missing run,
// runs over different datasets). Writes a Markdown summary (also appended to
// $GITHUB_STEP_SUMMARY when that is set) and JUnit XML.
import { appendOutputFile, writeOutputFile } from '../../harness/files/output.ts';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Argv } from 'yargs';
import { UsageError } from '../../harness/errors.ts';
import { DEFAULT_BASELINES_DIR } from '../../harness/analysis/baselines.ts';
import { assertComparable, comparability, loadRun, strategyIds, strategyRecords } from '../../harness/analysis/compare/runs.ts';
import { evaluateGate } from '../../harness/analysis/gate/evaluate.ts';
import { loadGateRules } from '../../harness/analysis/gate/rules.ts';
import { completenessOf, coverageOf } from '../../harness/analysis/compare/coverage.ts';
import { renderGateJunit, renderGateMarkdown, renderGateText, type GateReport } from '../../reports/gate.ts';
import type { CommandBody, Runner } from '../runner.ts';
import { colorVerdicts, consoleStyle } from '../../reports/console.ts';
import { headlineLevel, runLabel, splitList } from './shared.ts';
import { jsonText } from '../../harness/files/jsonText.ts';

export const DEFAULT_GATE_RULES = fileURLToPath(new URL('../../configs/gates.yaml', import.meta.url));

export interface GateArgs {
  baseline: string;
  candidate: string;
  rules?: string;
  strategies?: string[];
  force?: boolean;
  baselinesDir?: string;
  seed?: number;
}

/** Loads both runs and the rules, and evaluates them (no output). */
export function buildGate(args: GateArgs): GateReport {
  const rulesPath = args.rules ?? DEFAULT_GATE_RULES;
  const file = loadGateRules(rulesPath);
  const dir = args.baselinesDir ?? DEFAULT_BASELINES_DIR;
  const a = loadRun(args.baseline, dir);
  const b = loadRun(args.candidate, dir);
  const c = comparability(a.manifest, b.manifest, ['baseline', 'candidate']);
  // The baseline is the yardstick: one that stopped part-way pairs the candidate on only the
  // questions it reached, so the gate would pass a candidate on a fraction of the dataset
  // (`baseline save` refuses such a run for the same reason). A candidate's own gaps are the
  // coverage rule's business.
  const base = completenessOf(a.manifest, a.records);
  if (!base.finished) c.refusals.push(`the baseline ${a.ref} did not finish (${base.records}${base.expected ? ` of ${base.expected}` : ''} records): resume it with treebench run --resume ${a.dir}`);
  assertComparable(c, Boolean(args.force));
  const notes = [...c.notes];

  const idsA = strategyIds(a);
  const idsB = strategyIds(b);
  const wanted = splitList(args.strategies);
  const unknown = wanted.filter((s) => !idsA.includes(s) && !idsB.includes(s));
  if (unknown.length) throw new UsageError(`--strategies: ${unknown.join(', ')} in neither run (baseline: ${idsA.join(', ')}; candidate: ${idsB.join(', ')})`);
  const scope = wanted.length ? wanted : idsA;
  const missing = scope.filter((s) => idsA.includes(s) && !idsB.includes(s));
  const common = scope.filter((s) => idsA.includes(s) && idsB.includes(s));
  const notInBaseline = (wanted.length ? wanted : idsB).filter((s) => !idsA.includes(s));
  if (notInBaseline.length) notes.push(`not in the baseline, not gated: ${notInBaseline.join(', ')}`);
  if (common.length === 0 && missing.length === 0) throw new UsageError(`the runs have no strategy in common (baseline: ${idsA.join(', ')}; candidate: ${idsB.join(', ')})`);

  const strategies = common.map((s) => ({ strategy: s, a: strategyRecords(a, s), b: strategyRecords(b, s) }));
  for (const s of strategies) {
    const c = coverageOf(s.a, s.b);
    if (c.paired === 0) throw new UsageError(`${s.strategy}: the runs share no question ids; nothing to pair`);
    // Missing baseline questions are the coverage rule's business (it fails them by default);
    // without that rule they are still said.
    if (c.missing.length && !file.coverage) notes.push(`${s.strategy}: ${c.missing.length} baseline questions missing from the candidate (excluded; the coverage rule is off)`);
    if (c.extra.length) notes.push(`${s.strategy}: ${c.extra.length} candidate questions not in the baseline (excluded)`);
  }
  const evaluation = withRulesFile(rulesPath, () => evaluateGate(file, strategies, {
    priced: Boolean(a.manifest.model?.priced && b.manifest.model?.priced),
    level: headlineLevel(a.records, b.records),
    seed: args.seed ?? a.manifest.seed ?? 0,
    missing,
    candidateRun: completenessOf(b.manifest, b.records),
  }));
  return {
    baseline: runLabel(a),
    candidate: runLabel(b),
    rulesPath: relative(process.cwd(), rulesPath) || rulesPath,
    notes,
    forced: c.refusals,
    evaluation,
  };
}

/** A usage error about the rules (resamples too few to reject) names the rules file. */
function withRulesFile<T>(rulesPath: string, f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${relative(process.cwd(), rulesPath) || rulesPath}: ${err.message}`);
    throw err;
  }
}

export function gateCommand(run: Runner): CommandBody {
  return {
    builder: (y: Argv) =>
      y
        .option('baseline', { type: 'string', demandOption: true, describe: 'Baseline run folder or saved baseline name (see `treebench baseline save`)' })
        .option('candidate', { type: 'string', demandOption: true, describe: 'Candidate run folder' })
        .option('rules', { type: 'string', describe: 'Rules YAML (default: configs/gates.yaml)' })
        .option('strategies', { type: 'array', string: true, describe: 'Only gate these strategy ids' })
        .option('summary-md', { type: 'string', describe: 'Write the Markdown summary here (also appended to $GITHUB_STEP_SUMMARY when set)' })
        .option('junit', { type: 'string', describe: 'Write JUnit XML here (one test case per strategy × rule)' })
        .option('force', { type: 'boolean', describe: 'Gate even if the datasets or corpora differ or the baseline did not finish' })
        .option('seed', { type: 'number', describe: "Resampling seed (default: the baseline run's seed)" })
        .option('baselines-dir', { type: 'string', default: DEFAULT_BASELINES_DIR, describe: 'Where named baselines live' })
        .option('quiet', { type: 'boolean', describe: 'Print only the verdict line' })
        .option('format', { choices: ['table', 'json'] as const, default: 'table' as const, describe: 'What to print: the verdict table, or the whole evaluation as JSON' })
        .example('$0 gate --baseline main --candidate runs/pr-123 --junit gate.xml --summary-md gate.md', 'PR gate against the saved baseline "main"'),
    handler: (argv) =>
      run(() => {
        const args = argv as unknown as GateArgs & { summaryMd?: string; junit?: string; quiet?: boolean; format?: 'table' | 'json' };
        const report = buildGate(args);
        const md = renderGateMarkdown(report);
        if (args.summaryMd) writeOutputFile(args.summaryMd, md, 'document');
        if (process.env.GITHUB_STEP_SUMMARY) appendOutputFile(process.env.GITHUB_STEP_SUMMARY, md + '\n', 'document');
        if (args.junit) writeOutputFile(args.junit, renderGateJunit(report), 'document');
        if (args.format === 'json') {
          process.stdout.write(jsonText({ format: 'treebench-gate', version: 1, ...report }));
          return report.evaluation.passed ? 0 : 1;
        }
        const style = consoleStyle();
        const text = renderGateText(report, style.width);
        process.stdout.write(colorVerdicts(args.quiet ? text.split('\n')[0]! : text, style.color) + '\n');
        return report.evaluation.passed ? 0 : 1;
      })(),
  };
}
