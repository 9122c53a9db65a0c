// The HTML page of `treebench history`: per metric, one line per strategy across runs with its
// interval band, and a marker on the runs whose change from the previous run is significant.
import { flagOf, type HistoryReport } from '../../harness/analysis/history/build.ts';
import { fmtDelta, fmtP, fmtValue, metricLabel } from '../compareFormat.ts';
import { OFFLINE_LABEL } from '../format.ts';
import { bandChart } from './charts.ts';
import { colour } from './charts.ts';
import { esc } from './escape.ts';
import { htmlPage, htmlTable } from './page.ts';

/**
 * One page: a section per history (one per config × dataset when the runs were mixed). `nav`:
 * already-escaped HTML put first in the body (the viewer's links to its other pages).
 */
export function renderHistoryHtml(reports: HistoryReport | readonly HistoryReport[], nav = ''): string {
  const list = Array.isArray(reports) ? reports : [reports as HistoryReport];
  const body = [...(nav ? [nav] : []), ...list.map((r, i) => historySection(r, list.length > 1 ? i : null))].join('\n');
  return htmlPage({ title: 'treebench history', body });
}

/** x-axis label of a run: its start time, then its id (* when it did not finish). */
const runAxisLabel = (r: HistoryReport['runs'][number]) => `${r.startedAt.slice(0, 16).replace('T', ' ')}\n${r.runId}${r.finished === false ? ' *' : ''}`;

function historySection(report: HistoryReport, index: number | null): string {
  const scope = [report.config ? `config ${report.config}` : '', report.dataset ? `dataset ${report.dataset}` : ''].filter(Boolean).join(' · ');
  const body: string[] = [index === null ? `<h1>treebench history${scope ? ` · ${esc(scope)}` : ''}</h1>` : `<h2>${esc(scope || `series ${index + 1}`)}</h2>`, `<p class="meta">${report.runs.length} runs, ${esc(report.runs[0]?.startedAt ?? '')} … ${esc(report.runs[report.runs.length - 1]?.startedAt ?? '')}</p>`];
  if (report.offline) body.push(`<p class="banner">${esc(OFFLINE_LABEL)}: these numbers measure retrieval, not LLM answer quality.</p>`);
  const labels = report.runs.map(runAxisLabel);
  const charts: string[] = [];
  const flags: string[][] = [];
  for (const metric of report.metrics) {
    if (metric === 'costPerQuestion' && !report.priced) continue;
    const series = report.series.filter((s) => s.metric === metric);
    charts.push(
      bandChart(
        `history-${index === null ? '' : `${index}-`}${metric.replace(/\W+/g, '-')}`,
        metricLabel(metric),
        labels,
        series.map((s, i) => ({ label: s.strategy, colour: colour(i), points: s.points.map((p) => ({ value: p.value, lo: p.lo, hi: p.hi, flag: flagOf(p) })) })),
        (v) => fmtValue(metric, v),
      ),
    );
    for (const s of series) {
      s.points.forEach((p, i) => {
        const f = flagOf(p);
        if (f) flags.push([esc(report.runs[i]!.runId), esc(s.strategy), esc(metricLabel(metric)), `<span class="${f === 'better' ? 'up' : 'down'}">${f === 'better' ? '▲' : '▼'} ${esc(fmtDelta(metric, p.change!.delta))}</span>`, esc(fmtP(p.change!.pAdjusted)), esc(p.change!.test)]);
      });
    }
  }
  body.push('<div class="charts">', ...charts, '</div>');
  body.push(`<p class="note">Bands: 95% interval of each run's value. Markers: significant change from the previous run (paired test as in treebench compare, Holm-adjusted per pair of runs, α=${report.alpha}).</p>`);
  body.push('<h2>Significant changes</h2>', flags.length ? htmlTable(['run', 'strategy', 'metric', 'change', 'p (Holm)', 'test'], flags, 'flags') : '<p>None: every night-over-night change is within noise.</p>');
  if (report.runs.some((r) => r.finished === false)) body.push('<p class="note">*: the run did not finish (a partial run): its values cover the questions it answered.</p>');
  if (report.notes.length) body.push('<h2>Notes</h2>', `<ul>${report.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`);
  return body.join('\n');
}
