// The frontier and recommendation as text: a plain table for the console, or Markdown.
// Strategy ids come from configs and are escaped like every other cell.
import type { Recommendation } from '../harness/analysis/tune/recommend.ts';
import { forTerminalLine } from '../harness/text/terminal.ts';
import { escapeMarkdown } from './markdown.ts';
import { ms, num, pct, score, usd } from './format.ts';
import { fitTable } from './fit.ts';
import { wrapText } from './console.ts';

function plainTable(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function mdTable(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(line)].join('\n');
}

/** Console columns by importance (0 = never dropped), for fitting a terminal's width. */
const PRIORITY = [0, 8, 1, 2, 6, 7, 5, 4, 3, 9];

export function renderRecommendation(rec: Recommendation, opts: { priced: boolean; format: 'table' | 'md'; snippet?: string; width?: number }): string {
  const md = opts.format === 'md';
  const esc = md ? escapeMarkdown : forTerminalLine;
  const width = opts.width ?? Infinity;
  let hidden: string[] = [];
  const fitted = (head: string[], rows: string[][]) => {
    const fit = fitTable(
      head.map((h, i) => ({ head: h, priority: PRIORITY[i] ?? 9, align: i === 0 ? 'left' : 'right', cells: rows.map((r) => r[i]) })),
      rows.length,
      width,
    );
    hidden = fit.dropped;
    return fit.text;
  };
  const table = md ? mdTable : Number.isFinite(width) ? fitted : plainTable;
  const value = (x: number) => (rec.objective === 'accuracy' || rec.objective === 'evidenceRecall' ? pct(x) : score(x));
  const on = (list: string[] | null, id: string) => (list === null ? 'n/a' : list.includes(id) ? '*' : '-');
  const cmp = new Map(rec.comparisons.map((c) => [c.id, c]));
  const rows = rec.points
    .filter((p) => !rec.partial.includes(p.id))
    .map((p) => {
      const c = cmp.get(p.id);
      const verdict = p.id === rec.best ? 'best' : c ? (c.significantlyWorse ? 'worse' : 'not worse') : '';
      return [
        esc(p.id) + (p.id === rec.recommended ? (md ? ' **(recommended)**' : '  <- recommended') : ''),
        String(p.n),
        value(p.objective),
        usd(p.costPerQuestion, opts.priced),
        num(p.callsPerQuestion),
        ms(p.p95LatencyMs),
        c ? `${c.delta >= 0 ? '+' : ''}${(c.delta * 100).toFixed(1)}` : '',
        c ? c.pAdjusted.toFixed(3) : '',
        verdict,
        [on(rec.frontier.dollars, p.id), on(rec.frontier.latency, p.id), on(rec.frontier.calls, p.id)].join(' '),
      ];
    });
  const head = ['variant', 'n', rec.objective, '$/q', 'calls/q', 'p95', 'Δ vs best (pts)', 'p (Holm)', 'vs best', 'frontier $ lat calls'];
  const h = (t: string) => (md ? `### ${t}` : t);
  const cost = rec.costBasis === 'dollars' ? '$/question' : 'calls/question (the model is unpriced)';
  const lines = [
    h(`Frontier and recommendation (${rec.objective})`),
    '',
    table(head, rows),
    '',
    `Frontier columns ($, p95 latency, calls): * = on the Pareto frontier of ${rec.objective} against $/question, p95 latency, calls/question${rec.frontier.dollars === null ? ' ($: unpriced model, not computed)' : ''}.`,
    `Paired one-sided tests against the best (${rec.comparisons[0]?.test === 'mcnemar' ? 'exact McNemar' : 'sign-flip permutation'}; margin ${rec.margin}), Holm-adjusted, alpha ${rec.alpha}.`,
    `Recommended: ${md ? '`' : ''}${esc(rec.recommended)}${md ? '`' : ''} — the cheapest by ${cost} of the variants not significantly worse than the best (${esc(rec.best)}).`,
  ];
  if (rec.partial.length) lines.push(`Not compared (did not run every question): ${rec.partial.length} variant(s).`);
  if (hidden.length) lines.push(`hidden to fit ${width} columns: ${hidden.join(', ')} (full table: --format md)`);
  if (opts.snippet) lines.push('', md ? '```yaml' : '', opts.snippet, md ? '```' : '');
  return lines
    .filter((l, i, a) => !(l === '' && a[i - 1] === ''))
    .flatMap((l) => (md || l.includes('\n') ? [l] : wrapText(l, width)))
    .join('\n');
}
