// The HTML page of `treebench compare`: the same rows as the console table, and per metric a
// forest plot of the paired differences (B − A) with their intervals, coloured when significant.
import { coverageText } from '../../harness/analysis/compare/coverage.ts';
import type { CompareReport } from '../compareReport.ts';
import { fmtDeltaCi, fmtP, fmtRel, fmtValue, metricLabel, significanceMark } from '../compareFormat.ts';
import { OFFLINE_LABEL } from '../format.ts';
import { forestPlot, type ForestRow } from './charts.ts';
import { esc } from './escape.ts';
import { htmlPage, htmlTable } from './page.ts';

export function renderCompareHtml(report: CompareReport): string {
  const r = report.result;
  const priced = report.baseline.priced && report.candidate.priced;
  const label = (x: CompareReport['baseline']) => `${x.ref === x.runId ? x.runId : `${x.ref} (${x.runId})`} · ${x.model}`;
  const body: string[] = [
    `<h1>treebench compare${report.mode === 'within' ? ` (within run ${esc(report.baseline.runId)})` : ''}</h1>`,
    `<p class="meta">dataset <b>${esc(report.baseline.dataset)}</b></p>`,
  ];
  if (report.mode === 'runs') body.push(`<p class="meta">A (baseline): <b>${esc(label(report.baseline))}</b></p>`, `<p class="meta">B (candidate): <b>${esc(label(report.candidate))}</b></p>`);
  else body.push('<p class="meta">A = baseline strategy, B = each other strategy</p>');
  if (report.forced.length) body.push(`<p class="banner">Forced despite: ${esc(report.forced.join('; '))}</p>`);
  if (report.notes.length) body.push(`<p class="note">Differences: ${esc(report.notes.join('; '))}</p>`);
  if (report.baseline.offline || report.candidate.offline) body.push(`<p class="banner">${esc(OFFLINE_LABEL)}: these numbers measure retrieval, not LLM answer quality.</p>`);

  const rows: string[][] = [];
  for (const c of r.comparisons) {
    for (const m of c.metrics) {
      const cost = m.metric === 'costPerQuestion' && !priced;
      const sig = significanceMark(m);
      const cls = sig.startsWith('▲') ? 'up' : sig.startsWith('▼') ? 'down' : '';
      rows.push([
        esc(c.label),
        esc(metricLabel(m.metric)),
        String(m.n),
        cost ? 'unpriced' : esc(fmtValue(m.metric, m.a)),
        cost ? 'unpriced' : esc(fmtValue(m.metric, m.b)),
        cost ? 'unpriced' : esc(fmtDeltaCi(m.metric, m.delta, m.lo, m.hi)),
        cost ? '–' : esc(fmtRel(m.rel)),
        esc(fmtP(m.pAdjusted)),
        esc(m.test),
        `${m.wins}/${m.ties}/${m.losses}`,
        cls ? `<span class="${cls}">${esc(sig)}</span>` : esc(sig),
      ]);
    }
  }
  const level = Math.round(r.level * 100);
  // What the paired figures cover: the questions both sides answered, and how much of A that is.
  const coverage = r.comparisons.filter((c) => c.coverage).map((c) => `<li>${esc(`${c.label}: ${coverageText(c.coverage, ['A', 'B'])}`)}</li>`);
  if (coverage.length) body.push('<h2>Coverage</h2>', `<ul class="note">${coverage.join('')}</ul>`);
  body.push('<h2>Paired differences</h2>', htmlTable(['strategy', 'metric', 'n', 'A', 'B', `Δ B − A [${level}% CI]`, 'relative', r.correction === 'holm' ? 'p (Holm)' : 'p', 'test', 'W/T/L', `α=${r.alpha}`], rows, 'compare'));

  const metrics = [...new Set(r.comparisons.flatMap((c) => c.metrics.map((m) => m.metric)))];
  const plots = metrics
    .filter((metric) => metric !== 'costPerQuestion' || priced)
    .map((metric) => {
      const fr: ForestRow[] = r.comparisons.flatMap((c) =>
        c.metrics
          .filter((m) => m.metric === metric && m.test !== 'none')
          .map((m) => ({ label: c.label, delta: m.delta, lo: m.lo, hi: m.hi, mark: m.significant && m.direction !== 'same' ? m.direction : ('ns' as const) })),
      );
      const fmt = (v: number) => fmtValue(metric, v);
      return forestPlot(`forest-${metric.replace(/\W+/g, '-')}`, `${metricLabel(metric)}: B − A`, fr, fmt);
    });
  body.push('<h2>Differences with intervals</h2>', `<div class="charts">${plots.join('\n')}</div>`);
  body.push(`<p class="note">Δ: B − A with a ${level}% paired bootstrap interval (${r.resamples} resamples, seed ${r.seed}). Green: significantly better, red: significantly worse at α=${r.alpha}${r.correction === 'holm' ? ' after Holm correction' : ''}; grey: not significant.</p>`);
  return htmlPage({ title: 'treebench compare', body: body.join('\n') });
}
