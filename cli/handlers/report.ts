// `treebench report <runDir>`: print (or write) the report of a finished or interrupted run,
// with the same intervals the run wrote, and the frontier and recommendation of a run with
// several variants.
import type { Argv } from 'yargs';
import { writeOutputFile, writeOutputStream } from '../../harness/files/output.ts';
import { RunStore, type RunManifest } from '../../harness/run/store.ts';
import { recordsInRunOrder } from '../../harness/run/recordsInOrder.ts';
import { summaryRecord } from '../../harness/summary/rows.ts';
import type { RunRecord } from '../../harness/types.ts';
import { writeHtml } from '../../reports/html/run.ts';
import { summarize } from '../../harness/summary/summary.ts';
import { withIntervalsInParallel } from '../../harness/summary/intervals.ts';
import { sortLikeRun } from '../../harness/run/order.ts';
import { OBJECTIVES, type Objective } from '../../harness/analysis/tune/recommend.ts';
import { forTerminal } from '../../harness/text/terminal.ts';
import { render, type ReportFormat } from '../../reports/index.ts';
import { reportMeta } from '../../reports/meta.ts';
import { consoleStyle } from '../../reports/console.ts';
import { nodeTitles } from '../../reports/html/titles.ts';
import { checkMargin } from './shared.ts';
import { recommendationSection } from './recommendation.ts';
import { corpusOfRun } from './trace.ts';
import { printReport } from './printReport.ts';
import { FORMATS } from './reportFormats.ts';
import type { CommandBody, Runner } from '../runner.ts';

async function cmdReport(args: { runDir: string; format: ReportFormat; out?: string; objective?: Objective; margin?: number }): Promise<number> {
  const store = RunStore.open(args.runDir);
  const manifest = store.readManifest();
  if (args.format === 'html') return htmlReport(store, manifest, args.out);
  // Records in the order the run summarised them, so the seeded bootstrap gives the same intervals.
  const records = sortLikeRun(store.readRecords(), manifest);
  const summary = await withIntervalsInParallel(summarize(records), records, { seed: manifest.seed });
  const input = { summary, meta: reportMeta(manifest), records };
  if (args.out) {
    writeOutputFile(args.out, render(args.format, input), args.format === 'json' ? 'json' : 'document');
    process.stderr.write(`wrote ${args.out}\n`);
    return 0;
  }
  printReport(render(args.format, { ...input, ...(args.format === 'table' ? consoleStyle() : {}) }), args.format);
  // Several variants: the frontier and the recommendation (human-readable formats only).
  if (args.format === 'table' || args.format === 'md') {
    const section = recommendationSection(manifest, records, {
      format: args.format as 'table' | 'md',
      ...(args.objective ? { objective: args.objective } : {}),
      margin: checkMargin(args.margin ?? 0),
      ...(args.format === 'table' ? { width: consoleStyle().width } : {}),
    });
    if (section) process.stdout.write('\n' + forTerminal(section) + '\n');
  }
  return 0;
}

/**
 * The HTML report, written as `run` writes it: the summary from summary rows (as the run made
 * it), the page streamed with the records read back one at a time, to the file or to stdout.
 */
async function htmlReport(store: RunStore, manifest: RunManifest, out: string | undefined): Promise<number> {
  const rows: RunRecord[] = [];
  store.forEachRecord((r) => void rows.push(summaryRecord(r)));
  sortLikeRun(rows, manifest);
  const summary = await withIntervalsInParallel(summarize(rows), rows, { seed: manifest.seed });
  rows.length = 0;
  const input = { summary, meta: reportMeta(manifest), records: recordsInRunOrder(store, manifest), nodeTitle: nodeTitles(await corpusOfRun(store)) };
  if (out) {
    await writeOutputStream(out, (o) => writeHtml(input, o), 'document');
    process.stderr.write(`wrote ${out}\n`);
    return 0;
  }
  // stdout's guard (cli/streams.ts) redacts and sanitises what is written; pieces are gathered
  // into writes of 64 KB. A slow reader leaves at most the page itself (7 times smaller than the
  // records it shows) in the stream's buffer.
  let pending = '';
  const push = (t: string) => {
    pending += t;
    if (pending.length >= 1 << 16) (process.stdout.write(pending), (pending = ''));
  };
  await writeHtml(input, { write: push, writeRaw: push });
  if (pending) process.stdout.write(pending);
  return 0;
}

export function reportCommand(run: Runner): CommandBody {
  return {
    builder: (y: Argv) =>
      y
        .positional('runDir', { type: 'string', demandOption: true, describe: 'A run folder, e.g. runs/quickstart-20261129-101500Z' })
        .option('format', { choices: FORMATS, default: 'table' as ReportFormat, describe: 'table (console), md, csv, json or html (self-contained page)' })
        .option('out', { type: 'string', describe: 'Write the report to this file instead of printing it' })
        .option('objective', { choices: OBJECTIVES, describe: 'For the frontier and recommendation (default: accuracy)' })
        .option('margin', { type: 'number', describe: 'Shortfall from the best still counted as "not worse" (objective units, default 0)' })
        .example('$0 report runs/quickstart-... --format html --out report.html', 'a page with charts and traces'),
    handler: (a) => run(() => cmdReport(a as unknown as Parameters<typeof cmdReport>[0]))(),
  };
}
