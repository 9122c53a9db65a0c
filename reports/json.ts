// JSON report: { format, version, meta, summary }. Full precision. When the model is unpriced,
// cost fields are null (unknown) rather than 0.
import type { RunSummary } from '../harness/summary/summary.ts';
import type { ReportInput } from './types.ts';
import { orderedStrategies, ungradableNote } from './format.ts';
import { jsonText } from '../harness/files/jsonText.ts';

export const JSON_REPORT_VERSION = 1;

export function renderJson({ summary, meta }: ReportInput): string {
  const strategies = orderedStrategies(summary, meta)
    .map((s) => (meta.priced ? s : { ...s, costPerQuestion: null, totalCost: null, ...(s.intervals ? { intervals: withoutCost(s.intervals) } : {}) }))
    .map((s) => (meta.parameters ? { ...s, parameters: meta.parameters.values[s.strategy] ?? {} } : s));
  const ungradable = ungradableNote(orderedStrategies(summary, meta));
  const out: { format: string; version: number; meta: typeof meta; notes?: string[]; summary: Omit<RunSummary, 'strategies'> & { strategies: unknown[] } } = {
    format: 'treebench-report',
    version: JSON_REPORT_VERSION,
    meta,
    // Accuracy that is null ("n/a (rule)") or leaves records out says why here.
    ...(ungradable ? { notes: [ungradable] } : {}),
    summary: { ...summary, strategies },
  };
  return jsonText(out);
}

/** Intervals without the cost ones: an unpriced cost has no interval (not [0, 0]). */
function withoutCost<T extends object>(intervals: T): T {
  const { costPerQuestion: _c, totalCost: _t, ...rest } = intervals as T & { costPerQuestion?: unknown; totalCost?: unknown };
  return rest as T;
}
