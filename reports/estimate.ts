// The console view of `treebench estimate` (harness/run/estimate.ts): per strategy the calls,
// tokens and dollars of the whole run at the config's seed, with the low–high spread over seeds,
// then the index embedding and ingestion apart, and how the spread was found.
import type { Estimate, Range } from '../harness/run/estimate.ts';
import { num } from './format.ts';

const dollars = (x: number): string => (x === 0 ? '$0' : `$${x.toPrecision(3)}`);
const spread = (r: Range, f: (x: number) => string): string => (r.low === r.high ? f(r.expected) : `${f(r.expected)} (${f(r.low)}–${f(r.high)})`);

export function renderEstimate(e: Estimate): string {
  const head = ['strategy', 'questions', 'calls', 'input tokens', 'output tokens', `dollars as ${e.pricedAs}`];
  const rows = e.strategies.map((s) => [
    s.strategy,
    num(s.questions),
    spread(s.range.calls, num),
    spread(s.range.inputTokens, num),
    spread(s.range.outputTokens, num),
    s.dollars ? spread(s.dollars, dollars) : 'unpriced',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const total = e.strategies.reduce((n, s) => n + (s.dollars?.expected ?? 0), 0);
  const out = [`estimate (offline dry run, nothing sent to a model) · prices as ${e.pricedAs}${e.pricesAsOf ? `, table as of ${e.pricesAsOf}` : ''}`, line(head), ...rows.map(line)];
  if (e.priced) out.push(`all strategies: ${dollars(total)} for the questions`);
  const em = e.embedding;
  out.push(
    em.inputTokens > 0
      ? `corpus index: ${num(em.chunks)} chunks, ${num(em.inputTokens)} tokens to embed with ${em.embedder}, ${em.dollars === null ? 'unpriced' : dollars(em.dollars)} (once per run; the embedding cache makes later runs free)`
      : `corpus index: ${num(em.chunks)} chunks, embedded locally (${em.embedder}): no cost`,
  );
  const q = e.queryEmbedding;
  if (q.calls > 0 && q.inputTokens > 0) out.push(`query embeddings: ${num(q.calls)} calls, ${num(q.inputTokens)} tokens with ${em.embedder}, ${q.dollars === null ? 'unpriced' : dollars(q.dollars)} (all strategies; in their dollars above)`);
  if (e.ingestion) out.push(`ingestion: ${e.ingestion.note}`);
  out.push(`(low–high): ${e.bound}`);
  out.push('calls and tokens are the offline reasoner\'s: a real model answers at other lengths and may take other branches');
  return out.join('\n');
}
