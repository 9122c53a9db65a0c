// Number formatting for comparisons (compare and gate reports): values in the metric's own
// units, deltas with a sign, rates in percentage points.
import type { MetricComparison } from '../harness/analysis/compare/paired.ts';
import type { CompareMetric } from '../harness/analysis/compare/metrics.ts';
import { isPercentile } from '../harness/analysis/compare/metrics.ts';
import { ms, NA, num, usd } from './format.ts';

type Kind = 'rate' | 'score' | 'usd' | 'ms' | 'count';

export function metricKind(m: CompareMetric): Kind {
  if (m === 'costPerQuestion') return 'usd';
  if (m.startsWith('custom.')) return 'score';
  if (m === 'latencyMs.mean' || isPercentile(m)) return 'ms';
  if (m.endsWith('.mrr') || m.endsWith('.mrrUncut') || m.endsWith('.ndcg')) return 'score';
  if (m === 'accuracy' || m === 'exactMatch' || m === 'f1' || m === 'numericMatch' || m === 'yesNo' || m === 'judgeAccuracy' || m === 'groundedness' || m === 'groundednessLexical' || m.startsWith('retrieval.')) return 'rate';
  return 'count';
}

/** Readable metric names for tables: "node recall", "latency p95". */
export function metricLabel(m: CompareMetric): string {
  if (m.startsWith('retrieval.')) {
    const [, level, metric] = m.split('.');
    return `${level} ${metric === 'mrr' ? 'MRR@k' : metric === 'mrrUncut' ? 'MRR (uncut)' : metric === 'ndcg' ? 'nDCG' : metric}`;
  }
  if (m.startsWith('latencyMs.')) return `latency ${m.slice('latencyMs.'.length)}`;
  const names: Record<string, string> = {
    exactMatch: 'exact match',
    f1: 'F1',
    numericMatch: 'numeric match',
    yesNo: 'yes/no',
    judgeAccuracy: 'judge accuracy',
    groundedness: 'groundedness (LLM)',
    groundednessLexical: 'lexical support (proxy)',
    embedTokensPerQuestion: 'embed tokens/q',
    callsPerQuestion: 'calls/q',
    embedCallsPerQuestion: 'embed calls/q',
    inputTokensPerQuestion: 'input tokens/q',
    outputTokensPerQuestion: 'output tokens/q',
    tokensPerQuestion: 'tokens/q',
    costPerQuestion: '$/q',
    nodesVisitedPerQuestion: 'nodes visited/q',
    nodesOpenedPerQuestion: 'nodes opened/q',
    evidenceTokensPerQuestion: 'evidence tokens/q',
  };
  return names[m] ?? m;
}

const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

export function fmtValue(m: CompareMetric, x: number, priced = true): string {
  if (!finite(x)) return NA;
  switch (metricKind(m)) {
    case 'rate':
      return `${(x * 100).toFixed(1)}%`;
    case 'score':
      return x.toFixed(3);
    case 'usd':
      return usd(x, priced);
    case 'ms':
      return ms(x);
    default:
      return num(x);
  }
}

function signed(text: string, x: number): string {
  return x > 0 ? `+${text}` : x < 0 ? `−${text}` : text;
}

/** A signed difference: "+12.0 pts", "−0.50", "+$0.0012", "+35 ms". */
export function fmtDelta(m: CompareMetric, d: number, priced = true): string {
  if (!finite(d)) return NA;
  const abs = Math.abs(d);
  switch (metricKind(m)) {
    case 'rate':
      return signed(`${(abs * 100).toFixed(1)} pts`, d);
    case 'score':
      return signed(abs.toFixed(3), d);
    case 'usd':
      return priced ? signed(usd(abs, true), d) : 'unpriced';
    case 'ms':
      return signed(ms(abs), d);
    default:
      return signed(num(abs), d);
  }
}

/** "+12.0 pts [+5.0, +19.0]" — bounds in the delta's units without repeating the unit for rates. */
export function fmtDeltaCi(m: CompareMetric, d: number, lo: number, hi: number, priced = true): string {
  if (!finite(d)) return NA;
  const bound = (x: number) => (metricKind(m) === 'rate' ? fmtDelta(m, x).replace(' pts', '') : fmtDelta(m, x, priced));
  return `${fmtDelta(m, d, priced)} [${bound(lo)}, ${bound(hi)}]`;
}

export function fmtRel(rel: { delta: number; lo: number; hi: number } | null): string {
  if (!rel || !finite(rel.delta)) return NA;
  const p = (x: number) => (finite(x) ? signed(`${(Math.abs(x) * 100).toFixed(1)}%`, x) : x > 0 ? '+∞' : '−∞');
  return `${p(rel.delta)} [${p(rel.lo)}, ${p(rel.hi)}]`;
}

/** p-values: "0.003", "<0.001", "1.000". */
export function fmtP(p: number): string {
  if (!finite(p)) return NA;
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

export const MARK = { better: '▲ better', worse: '▼ worse' } as const;

/** "▲ better" / "▼ worse" when significant, "n.s." when not, "" when untested (console, Markdown and HTML). */
export function significanceMark(m: MetricComparison): string {
  if (m.test === 'none') return '';
  if (!m.significant) return 'n.s.';
  return m.direction === 'same' ? 'n.s.' : MARK[m.direction];
}
