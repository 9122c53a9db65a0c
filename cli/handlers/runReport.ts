// The end of `treebench run`: the run folder's report files, the report on stdout and the notes
// after it. Its own module, imported once every call left is out (the runner's onCallsOut, in
// cli/handlers/run.ts), so a run's start does not load the report writers (the HTML report, the
// console table and what draws it): they load while the command waits for the last replies.
import type { BenchmarkData } from '../../harness/types.ts';
import type { RunOutcome } from '../../harness/run/runner.ts';
import type { LoadedConfig } from '../../harness/config/runConfig.ts';
import { RunStore } from '../../harness/run/store.ts';
import { recordsInRunOrder } from '../../harness/run/recordsInOrder.ts';
import { render, type ReportFormat } from '../../reports/index.ts';
import { reportMeta } from '../../reports/meta.ts';
import { consoleStyle } from '../../reports/console.ts';
import { nodeTitles } from '../../reports/html/titles.ts';
import { ingestionLine } from '../../reports/format.ts';
import { printReport, writeReportFiles } from './printReport.ts';

/** Writes the run's report files and warnings, prints its report in `format` and the ingestion note. */
export async function reportRun(outcome: RunOutcome, data: BenchmarkData, loaded: LoadedConfig, format: ReportFormat): Promise<void> {
  const meta = reportMeta(outcome.manifest);
  const store = RunStore.open(outcome.dir);
  // Every warning of the load, one a line: the console showed only the first when there were many.
  if (data.warnings.length) store.writeFile('warnings.txt', data.warnings.join('\n') + '\n');
  // Only the HTML report shows per-record detail: it reads the records file back as it writes,
  // a record at a time (outcome.records would hold every record in memory).
  const extra = (f: string) => ({ nodeTitle: nodeTitles(data.corpus), ...(f === 'html' ? { records: recordsInRunOrder(store, outcome.manifest) } : {}) });
  await writeReportFiles(store, loaded.config.reports, (f) => ({ summary: outcome.summary, meta, ...extra(f) }));
  printReport(render(format, { summary: outcome.summary, meta, ...extra(format), ...(format === 'table' ? consoleStyle() : {}) }), format);
  // The model's ingestion work (trees, summaries) is in every report's notes; on stderr too when
  // stdout is a file format (the console table already shows the same line).
  const ingestion = ingestionLine(meta);
  if (ingestion && format !== 'table') process.stderr.write(`${ingestion}\n`);
}
