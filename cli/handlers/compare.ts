// `treebench compare <runA> <runB>` and `treebench compare <run> --within`: paired comparisons
// with intervals, p-values and significance marks. Informational: exit 0 whatever the result
// (use `treebench gate` to turn a comparison into a CI verdict); 2 on a usage or data error.
import { writeOutputFile } from '../../harness/files/output.ts';
import type { Argv } from 'yargs';
import { DEFAULT_COMPARE_METRICS } from '../../harness/analysis/compare/metrics.ts';
import { buildComparison, type CompareArgs } from '../../harness/analysis/compare/build.ts';
import { DEFAULT_BASELINES_DIR } from '../../harness/analysis/baselines.ts';
import { COMPARE_FORMATS, renderCompare, type CompareFormat } from '../../reports/compare.ts';
import type { CommandBody, Runner } from '../runner.ts';
import { colorVerdicts, consoleStyle } from '../../reports/console.ts';

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
        .option('format', { choices: COMPARE_FORMATS, default: 'table' as CompareFormat, describe: 'table (fits the terminal), md, json, or html (forest plots)' })
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
