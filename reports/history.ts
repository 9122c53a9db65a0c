// `treebench history` reports: per metric, one row per run (time order) and one column per
// strategy, each cell the value with its interval band, and ▲/▼ with the paired difference where
// the change from the previous run is significant. Table (fits the terminal), Markdown, JSON.
import { flagOf, type HistoryPoint, type HistoryReport } from '../harness/analysis/history/build.ts';
import { fmtDelta, fmtP, fmtValue, metricKind, metricLabel } from './compareFormat.ts';
import { NA, OFFLINE_LABEL, pct } from './format.ts';
import { escapeMarkdown } from './markdown.ts';
import { fitTable, type FitColumn } from './fit.ts';
import { wrapText } from './console.ts';
import { renderHistoryHtml } from './html/history.ts';
import { jsonText } from '../harness/files/jsonText.ts';

export const HISTORY_FORMATS = ['table', 'md', 'json', 'html'] as const;
export type HistoryFormat = (typeof HISTORY_FORMATS)[number];

function cell(report: HistoryReport, metric: HistoryReport['metrics'][number], p: HistoryPoint, withBand: boolean): string {
  if (p.value === null) return NA;
  const unpriced = metric === 'costPerQuestion' && !report.priced;
  if (unpriced) return 'unpriced';
  const f = (v: number) => fmtValue(metric, v);
  const band = withBand && p.lo !== null && p.hi !== null ? { lo: p.lo, hi: p.hi } : undefined;
  // Rates as the run table prints them: "26.7% [18.0, 37.6]".
  let text = metricKind(metric) === 'rate' ? pct(p.value, band) : band ? `${f(p.value)} [${f(band.lo)}, ${f(band.hi)}]` : f(p.value);
  const flag = flagOf(p);
  if (flag) text += ` ${flag === 'better' ? '▲' : '▼'} ${fmtDelta(metric, p.change!.delta)} (p ${fmtP(p.change!.pAdjusted)})`;
  return text;
}

const date = (iso: string) => iso.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, 'Z');

function legend(report: HistoryReport): string[] {
  const flagged = report.series.reduce((n, s) => n + s.points.filter((p) => flagOf(p)).length, 0);
  const lines = [
    `[lo, hi]: 95% interval of each run's value. ▲/▼: significant change from the previous run (paired test as in \`treebench compare\`, Holm-adjusted per pair of runs, α=${report.alpha}); ${flagged} flagged.`,
  ];
  if (report.runs.some((r) => r.finished === false)) lines.push('*: the run did not finish (a partial run): its values cover the questions it answered.');
  for (const n of report.notes) lines.push(`note: ${n}`);
  if (report.offline) lines.push(`${OFFLINE_LABEL}: these numbers measure retrieval, not LLM answer quality`);
  return lines;
}

/** "config nightly · dataset sample": which series this history is (absent names left out). */
export function historyScope(report: HistoryReport): string {
  return [report.config ? `config ${report.config}` : '', report.dataset ? `dataset ${report.dataset}` : ''].filter(Boolean).join(' · ');
}

/** The run id, with * when the run did not finish. */
const runLabel = (r: HistoryReport['runs'][number]) => (r.finished === false ? `${r.runId} *` : r.runId);

export function renderHistoryTable(report: HistoryReport, width = Infinity): string {
  const scope = historyScope(report);
  const lines = wrapText(`treebench history · ${scope ? `${scope} · ` : ''}${report.runs.length} runs · ${report.runs[0]?.startedAt.slice(0, 10)} … ${report.runs[report.runs.length - 1]?.startedAt.slice(0, 10)}`, width);
  for (const metric of report.metrics) {
    const series = report.series.filter((s) => s.metric === metric);
    // A strategy with a significant change is the news: it is never hidden to fit (priority 0);
    // the others give way in their order.
    const flagged = (s: (typeof series)[number]) => s.points.some((p) => flagOf(p));
    const columns: FitColumn[] = [
      { head: 'run', priority: 0, align: 'left', cells: report.runs.map(runLabel) },
      // In a terminal the start time gives way to the bands (the header gives the date range).
      ...(Number.isFinite(width) ? [] : [{ head: 'started', priority: 50, align: 'left' as const, cells: report.runs.map((r) => date(r.startedAt)) }]),
      ...series.map((s, i) => ({
        head: s.strategy,
        priority: flagged(s) ? 0 : i + 1,
        align: 'right' as const,
        cells: s.points.map((p) => cell(report, metric, p, true)),
        condensed: s.points.map((p) => cell(report, metric, p, false)),
      })),
    ];
    const fitted = fitTable(columns, report.runs.length, width);
    lines.push('', metricLabel(metric), fitted.text);
    if (fitted.dropped.length) lines.push(...wrapText(`hidden to fit ${width} columns: ${fitted.dropped.join(', ')} (--strategies to choose, or --format md)`, width));
    if (fitted.condensed.length) lines.push(...wrapText(`without intervals to fit ${width} columns: ${fitted.condensed.join(', ')}`, width));
  }
  lines.push('', ...legend(report).flatMap((l) => wrapText(l, width)));
  return lines.join('\n');
}

/** Several histories (one per config × dataset) one after another. */
export function renderHistoryGroups(format: HistoryFormat, reports: readonly HistoryReport[], opts: { width?: number } = {}): string {
  if (reports.length === 1) return renderHistory(format, reports[0]!, opts);
  if (format === 'json') return jsonText({ format: 'treebench-history-groups', version: 1, groups: reports.map((r) => ({ format: 'treebench-history', version: 1, ...r })) });
  if (format === 'html') return renderHistoryHtml(reports);
  const rule = Number.isFinite(opts.width) ? '─'.repeat(Math.min(opts.width ?? 80, 80)) : '─'.repeat(80);
  return reports.map((r) => renderHistory(format, r, opts).replace(/\n$/, '')).join(format === 'md' ? '\n\n' : `\n\n${rule}\n`) + (format === 'md' ? '\n' : '');
}

export function renderHistoryMarkdown(report: HistoryReport): string {
  const scope = historyScope(report);
  const parts = [`## treebench history${scope ? ` · ${escapeMarkdown(scope)}` : ''} (${report.runs.length} runs)`];
  for (const metric of report.metrics) {
    const series = report.series.filter((s) => s.metric === metric);
    const head = ['run', 'started', ...series.map((s) => escapeMarkdown(s.strategy))];
    parts.push('', `### ${escapeMarkdown(metricLabel(metric))}`, '', `| ${head.join(' | ')} |`, `| ${head.map((_, i) => (i < 2 ? '---' : '---:')).join(' | ')} |`);
    report.runs.forEach((r, i) => {
      const cells = series.map((s) => {
        const p = s.points[i]!;
        const text = escapeMarkdown(cell(report, metric, p, true));
        return flagOf(p) ? `**${text}**` : text;
      });
      parts.push(`| ${[escapeMarkdown(runLabel(r)), escapeMarkdown(date(r.startedAt)), ...cells].join(' | ')} |`);
    });
  }
  parts.push('', ...legend(report).map(escapeMarkdown));
  return parts.join('\n') + '\n';
}

export function renderHistoryJson(report: HistoryReport): string {
  return jsonText({ format: 'treebench-history', version: 1, ...report });
}

export function renderHistory(format: HistoryFormat, report: HistoryReport, opts: { width?: number } = {}): string {
  if (format === 'md') return renderHistoryMarkdown(report);
  if (format === 'json') return renderHistoryJson(report);
  if (format === 'html') return renderHistoryHtml(report);
  return renderHistoryTable(report, opts.width);
}
