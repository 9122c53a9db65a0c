// `treebench history <runs…|folder>`: metrics per strategy across runs, with interval bands and
// only the significant night-over-night changes flagged (see harness/analysis/history/build.ts).
import type { Argv } from 'yargs';
import { buildHistory, groupRuns } from '../../harness/analysis/history/build.ts';
import { HISTORY_FORMATS, renderHistoryGroups, type HistoryFormat } from '../../reports/history.ts';
import { colorVerdicts, consoleStyle } from '../../reports/console.ts';
import { writeOutputFile } from '../../harness/files/output.ts';
import type { CommandBody, Runner } from '../runner.ts';
import { checkAlpha, checkResamples, headlineLevel, resolveMetrics, splitList } from './shared.ts';
import { loadRunsUnder } from './runsUnder.ts';
import { strategyIds } from '../../harness/analysis/compare/runs.ts';
import { UsageError } from '../../harness/errors.ts';

interface HistoryArgs {
  runs: string[];
  metric?: string[];
  strategies?: string[];
  alpha: number;
  resamples: number;
  seed?: number;
  format: HistoryFormat;
  out?: string;
}

export function historyCommand(run: Runner): CommandBody {
  return {
    builder: (y: Argv) =>
      y
        .positional('runs', { type: 'string', array: true, demandOption: true, describe: 'Run folders, or folders holding run folders' })
        .option('metric', { type: 'array', string: true, default: ['accuracy', 'costPerQuestion'], describe: 'Metric names or paths (as in compare --metrics)' })
        .option('strategies', { type: 'array', string: true, describe: 'Only these strategy ids' })
        .option('alpha', { type: 'number', default: 0.05, describe: 'Significance level for the night-over-night tests' })
        .option('resamples', { type: 'number', default: 10_000, describe: 'Permutation / bootstrap resamples' })
        .option('seed', { type: 'number', describe: "Resampling seed (default: each later run's seed)" })
        .option('format', { choices: HISTORY_FORMATS, default: 'table' as HistoryFormat, describe: 'table (fits the terminal), md, json, or html (charts)' })
        .option('out', { type: 'string', describe: 'Write the report to this file instead of printing it' })
        .example('$0 history runs/history --format html --out history.html', 'every run in a folder, as a page with charts'),
    handler: (argv) =>
      run(() => {
        const a = argv as unknown as HistoryArgs;
        // Loaded once: the metric level is read from the runs' records, then the history is built.
        const runs = loadRunsUnder(a.runs);
        const level = headlineLevel(...runs.map((r) => r.records));
        const metrics = resolveMetrics(splitList(a.metric), level, '--metric');
        const wanted = splitList(a.strategies);
        if (!runs.length) throw new UsageError('history: no run with records in the folders given');
        const all = [...new Set(runs.flatMap(strategyIds))];
        const unknown = wanted.filter((s) => !all.includes(s));
        if (unknown.length) throw new UsageError(`--strategies: ${unknown.join(', ')} in none of the runs (they have: ${all.join(', ')})`);
        // Runs of different configs or datasets are separate series, one history each.
        const reports = groupRuns(runs)
          .map((group) => {
            const here = new Set(group.flatMap(strategyIds));
            const strategies = wanted.filter((s) => here.has(s));
            if (wanted.length && !strategies.length) return null;
            return buildHistory(group, { metrics, strategies, alpha: checkAlpha(a.alpha), resamples: checkResamples(a.resamples), ...(a.seed !== undefined ? { seed: a.seed } : {}) });
          })
          .filter((r): r is NonNullable<typeof r> => r !== null);
        if (a.out) {
          writeOutputFile(a.out, renderHistoryGroups(a.format, reports), a.format === 'json' ? 'json' : 'document');
          process.stderr.write(`wrote ${a.out}\n`);
          return 0;
        }
        const style = consoleStyle();
        const text = renderHistoryGroups(a.format, reports, style);
        process.stdout.write((a.format === 'table' ? colorVerdicts(text, style.color) : text).replace(/\n?$/, '\n'));
        return 0;
      })(),
  };
}
