// The report files of a run folder: one per format of the config's `reports` (`report.md`,
// `report.html`, …; the console table is not a file). Shared by the CLI's commands and the
// library's runBenchmark.
import { join } from 'node:path';
import { writeOutputStream } from '../harness/files/output.ts';
import type { RunStore } from '../harness/run/store.ts';
import { getRenderer, reportInput, type RenderArgs, type ReportFormat } from './index.ts';

/**
 * `args` is asked per format, so records are handed only to a format that shows them (HTML). A
 * format that can write itself in pieces (HTML) streams into its file, atomically as every other
 * one: with records read from records.jsonl as it goes (recordsInRunOrder), memory does not grow
 * with the records.
 */
export async function writeReportFiles(store: RunStore, formats: readonly string[], args: (format: ReportFormat) => RenderArgs): Promise<void> {
  for (const format of formats) {
    if (format === 'table') continue;
    const renderer = getRenderer(format);
    const input = reportInput(args(format));
    const name = `report.${format}`;
    if (renderer.write) await writeOutputStream(join(store.dir, name), (out) => renderer.write!(input, out));
    else store.writeFile(name, renderer.render(input));
  }
}
