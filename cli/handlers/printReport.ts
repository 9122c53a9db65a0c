// Printing a run's report on the console, and writing its report files: shared by `run`,
// `report`, `merge`, `rejudge` and `tune`.
import { colorVerdicts, consoleStyle } from '../../reports/console.ts';
import type { ReportFormat } from '../../reports/index.ts';
import { forTerminal } from '../../harness/text/terminal.ts';

/** Console output: colour for verdicts only on a terminal (see reports/console.ts). */
export function printReport(text: string, format: ReportFormat): void {
  // Only the console table is coloured; md, csv, json and html are files even when printed.
  // Data text never reaches the terminal raw (control characters removed) before colour is added.
  const safe = forTerminal(text);
  const shown = format === 'table' ? colorVerdicts(safe, consoleStyle().color) : safe;
  process.stdout.write(shown + (safe.endsWith('\n') ? '' : '\n'));
}

export { writeReportFiles } from '../../reports/files.ts';
