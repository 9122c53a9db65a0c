// Comparison reports (`treebench compare`): console table, Markdown, JSON. One row per
// strategy × metric: A, B, delta with its interval, relative change, p (Holm), test,
// wins/ties/losses, and a mark when the change is significant.
import { fitTable, type FitColumn } from './fit.ts';
import { wrapText } from './console.ts';
import { renderCompareHtml } from './html/compare.ts';
import type { MetricComparison, StrategyComparison } from '../harness/analysis/compare/paired.ts';
import { escapeMarkdown } from './markdown.ts';
import { fmtDeltaCi, fmtP, fmtRel, fmtValue, MARK, metricLabel, significanceMark } from './compareFormat.ts';
import { OFFLINE_LABEL } from './format.ts';

export { COMPARE_FORMATS, type CompareFormat, type CompareReport, type RunLabel } from './compareReport.ts';
import type { CompareFormat, CompareReport, RunLabel } from './compareReport.ts';
import { jsonText } from '../harness/files/jsonText.ts';
import { coverageText } from '../harness/analysis/compare/coverage.ts';

const wtl = (m: MetricComparison) => `${m.wins}/${m.ties}/${m.losses}`;

function testName(m: MetricComparison): string {
  return m.test === 'mcnemar' && m.discordant ? `McNemar (${m.discordant.aOnly}:${m.discordant.bOnly})` : m.test;
}

function rows(report: CompareReport): string[][] {
  const priced = report.baseline.priced && report.candidate.priced;
  const out: string[][] = [];
  for (const c of report.result.comparisons) {
    for (const m of c.metrics) {
      const cost = m.metric === 'costPerQuestion' && !priced;
      out.push([
        c.label,
        metricLabel(m.metric),
        String(m.n),
        cost ? 'unpriced' : fmtValue(m.metric, m.a),
        cost ? 'unpriced' : fmtValue(m.metric, m.b),
        cost ? 'unpriced' : fmtDeltaCi(m.metric, m.delta, m.lo, m.hi),
        cost ? '–' : fmtRel(m.rel),
        fmtP(m.pAdjusted),
        testName(m),
        wtl(m),
        significanceMark(m),
      ]);
    }
  }
  return out;
}

function head(report: CompareReport): string[] {
  const pct = Math.round(report.result.level * 100);
  const pHead = report.result.correction === 'holm' ? 'p (Holm)' : 'p';
  return ['strategy', 'metric', 'n', 'A', 'B', `Δ B − A [${pct}% CI]`, 'relative', pHead, 'test', 'W/T/L', `α=${report.result.alpha}`];
}

function pairingLines(comparisons: StrategyComparison[]): string[] {
  return comparisons.map((c) => {
    const reps = c.baseline.repeats > 1 || c.candidate.repeats > 1 ? `, repeats ${c.baseline.repeats} vs ${c.candidate.repeats} (averaged per question)` : '';
    const cov = c.coverage ?? null;
    if (!cov) return `${c.label}: ${c.pairing.paired} paired questions${reps}`;
    // Every figure above is over the paired questions only: say how much of the baseline that is.
    return `${c.label}: ${coverageText(cov, ['A', 'B'])}${reps}`;
  });
}

function legend(report: CompareReport): string[] {
  const r = report.result;
  const family = r.comparisons.reduce((n, c) => n + c.metrics.filter((m) => m.test !== 'none').length, 0);
  return [
    `Δ: B − A with a ${Math.round(r.level * 100)}% paired bootstrap interval (${r.resamples} resamples, seed ${r.seed}); relative: B / A − 1.`,
    `p: McNemar exact (correct/incorrect), paired permutation (means), paired bootstrap (percentiles)${r.correction === 'holm' ? `, Holm-adjusted over ${family} comparisons` : ''}; ▲/▼ significant at α=${r.alpha}, n.s. not significant.`,
    'W/T/L: questions where B is better / equal / worse (lower is better for calls, tokens, dollars, latency, nodes).',
  ];
}

function sides(report: CompareReport): [string, string] {
  const label = (r: RunLabel) => `${r.ref === r.runId ? r.runId : `${r.ref} (${r.runId})`} · ${r.model}`;
  return [label(report.baseline), label(report.candidate)];
}

/** Column priorities for a narrow terminal: what changed and whether it matters stay longest. */
const COMPARE_PRIORITY = [0, 0, 6, 3, 3, 1, 5, 4, 7, 8, 1];

export function renderCompareTable(report: CompareReport, width = Infinity): string {
  const [a, b] = sides(report);
  const h = head(report);
  const body = rows(report);
  const aligns = ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'left', 'right', 'left'] as const;
  const columns: FitColumn[] = h.map((title, i) => ({
    head: title,
    priority: COMPARE_PRIORITY[i]!,
    align: aligns[i]!,
    cells: body.map((r) => r[i]!),
    // Δ without its interval when space runs out.
    ...(i === 5 ? { condensed: body.map((r) => r[i]!.replace(/ \[.*\]$/, '')) } : {}),
  }));
  const fitted = fitTable(columns, body.length, width);
  const lines = report.mode === 'within'
    ? [`treebench compare (within run ${report.baseline.runId}) · dataset ${report.baseline.dataset}`, `A = baseline strategy, B = each other strategy`]
    : [`treebench compare · dataset ${report.baseline.dataset}`, `A (baseline):  ${a}`, `B (candidate): ${b}`];
  if (report.forced.length) lines.push(`FORCED despite: ${report.forced.join('; ')}`);
  if (report.notes.length) lines.push(`differences: ${report.notes.join('; ')}`);
  lines.push(fitted.text, ...pairingLines(report.result.comparisons), ...legend(report));
  if (fitted.dropped.length || fitted.condensed.length) lines.push(`narrowed to fit ${width} columns:${fitted.condensed.length ? ` ${fitted.condensed.join(', ')} without interval;` : ''}${fitted.dropped.length ? ` hidden ${fitted.dropped.join(', ')};` : ''} full table: --format md or json`);
  if (report.baseline.offline || report.candidate.offline) lines.push(`${OFFLINE_LABEL}: these numbers measure retrieval, not LLM answer quality`);
  if (Number.isFinite(width)) return lines.flatMap((l) => (l === fitted.text ? [l] : wrapText(l, width))).join('\n');
  return lines.join('\n');
}

export function renderCompareMarkdown(report: CompareReport): string {
  const [a, b] = sides(report);
  const h = head(report);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const parts = [
    report.mode === 'within' ? `## treebench compare: strategies in ${escapeMarkdown(report.baseline.runId)}` : '## treebench compare',
    '',
    `- **dataset**: ${escapeMarkdown(report.baseline.dataset)}`,
  ];
  if (report.mode === 'runs') parts.push(`- **A (baseline)**: ${escapeMarkdown(a)}`, `- **B (candidate)**: ${escapeMarkdown(b)}`);
  if (report.forced.length) parts.push(`- **forced despite**: ${escapeMarkdown(report.forced.join('; '))}`);
  if (report.notes.length) parts.push(`- **differences**: ${escapeMarkdown(report.notes.join('; '))}`);
  parts.push('', line(h), line(h.map((_, i) => (i < 2 || i === 8 || i === 10 ? '---' : '---:'))));
  for (const r of rows(report)) {
    const cells = r.map(escapeMarkdown);
    // Significant changes in bold so they stand out in a PR comment.
    if (r[10] === MARK.better || r[10] === MARK.worse) cells[10] = `**${cells[10]}**`;
    parts.push(line(cells));
  }
  parts.push('', ...pairingLines(report.result.comparisons).map((l) => `- ${escapeMarkdown(l)}`), '', ...legend(report).map(escapeMarkdown));
  if (report.baseline.offline || report.candidate.offline) parts.push('', `> ${OFFLINE_LABEL}`);
  return parts.join('\n') + '\n';
}

export function renderCompareJson(report: CompareReport): string {
  return jsonText({ format: 'treebench-compare', version: 1, ...report });
}

export function renderCompare(format: CompareFormat, report: CompareReport, opts: { width?: number } = {}): string {
  if (format === 'md') return renderCompareMarkdown(report);
  if (format === 'json') return renderCompareJson(report);
  if (format === 'html') return renderCompareHtml(report);
  return renderCompareTable(report, opts.width);
}
