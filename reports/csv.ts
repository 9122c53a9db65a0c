// CSV: one row per strategy, every summary field flattened (see flattenStrategySummary), run
// metadata in the first columns so files from many runs can be concatenated. RFC 4180: CRLF
// line ends, a field is quoted when it holds a comma, quote, CR or LF, quotes are doubled.
// Empty field = not applicable. Control and bidi characters in text are neutralised. Costs are empty when the model is unpriced (unknown, not $0).
import { flattenStrategySummary, intervalPaths, type FlatValue } from '../harness/summary/summary.ts';
import type { ReportInput } from './types.ts';
import { forDocument } from '../harness/text/terminal.ts';
import { orderedStrategies, RULE_NA } from './format.ts';

const COST_COLUMNS = new Set(['costPerQuestion', 'totalCost']);

export function csvField(value: FlatValue | boolean | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  // A text cell starting with = + - @ (or tab / CR) is a formula to a spreadsheet
  // (=HYPERLINK(...) from a dataset name would run on open): a leading apostrophe keeps it text.
  let s = forDocument(String(value));
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** For the accuracy cell: `n/a (rule)` and where to get a verdict, or the records left out. */
function accuracyNote(s: ReportInput['summary']['strategies'][number]): string | null {
  if (!s.ungradable) return null;
  const judge = 'grade them with the LLM judge (scoring.judge or treebench rejudge --judge)';
  return s.accuracy === null ? `${RULE_NA}: every gold is long or procedural; ${judge}` : `over ${s.accuracyN} of ${s.records} records; ${s.ungradable} with a long or procedural gold left out; ${judge}`;
}

export function renderCsv({ summary, meta }: ReportInput): string {
  const strategies = orderedStrategies(summary, meta);
  const ciPaths = intervalPaths(strategies);
  const metaCols: Array<[string, FlatValue | boolean]> = [
    ['runId', meta.runId],
    ['config', meta.config],
    ['dataset', meta.dataset],
    ['model', meta.model],
    ['offline', meta.offline],
    ['priced', meta.priced],
    // The corpus index's embedding, once per run (not in any question's cost).
    ['index.inputTokens', meta.index?.inputTokens ?? null],
    ['index.costUsd', meta.index?.costUsd ?? null],
  ];
  const rows = strategies.map((s) => {
    const cols: Array<[string, FlatValue | boolean]> = [...metaCols];
    for (const [k, v] of flattenStrategySummary(s)) {
      cols.push([k, COST_COLUMNS.has(k) && !meta.priced ? null : v]);
      // Why accuracy is empty or leaves records out (every run has the column, empty when it does not).
      if (k === 'ungradable') cols.push(['accuracyNote', accuracyNote(s)]);
      // Parameter columns (sweeps, grids) right after the strategy id.
      if (k === 'strategy') for (const c of meta.parameters?.columns ?? []) cols.push([c, meta.parameters!.values[s.strategy]?.[c] ?? null]);
    }
    for (const p of ciPaths) {
      // An unpriced run's cost has no interval either (not [0, 0]).
      const ci = COST_COLUMNS.has(p) && !meta.priced ? undefined : s.intervals?.[p];
      cols.push([`${p}.ciLo`, ci ? ci.lo : null], [`${p}.ciHi`, ci ? ci.hi : null]);
    }
    return cols;
  });
  const header =
    rows[0]?.map(([k]) => k) ??
    // No strategies: still write the header so the file has a schema.
    [...metaCols.map(([k]) => k)];
  const lines = [header.map(csvField), ...rows.map((r) => r.map(([, v]) => csvField(v)))];
  return lines.map((l) => l.join(',')).join('\r\n') + '\r\n';
}
