// The report files of a run folder: one per format of the config's `reports` (`report.md`,
// `report.html`, …; the console table is not a file). Shared by the CLI's commands and the
// library's runBenchmark.
import type { RunStore } from '../harness/run/store.ts';
import { render, type RenderArgs, type ReportFormat } from './index.ts';

/** `args` is asked per format, so the records file is read back only for a format that shows records (HTML). */
export function writeReportFiles(store: RunStore, formats: readonly string[], args: (format: ReportFormat) => RenderArgs): void {
  for (const format of formats) {
    if (format === 'table') continue;
    store.writeFile(`report.${format}`, render(format as ReportFormat, args(format as ReportFormat)));
  }
}
