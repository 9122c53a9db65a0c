// The text of a tune: the rungs (sample size, variants run, who survived), why each dropped
// variant was dropped and where, what was spent against what the full grid would have cost,
// then the frontier and the recommendation.
import type { TuneSummary } from '../harness/analysis/tune/run.ts';
import { escapeMarkdown } from './markdown.ts';
import { num, usd } from './format.ts';
import { forTerminalLine } from '../harness/text/terminal.ts';
import { renderRecommendation } from './recommendation.ts';

export function renderTune(t: TuneSummary, opts: { priced: boolean; format: 'table' | 'md'; offline: boolean }): string {
  const md = opts.format === 'md';
  const esc = md ? escapeMarkdown : forTerminalLine;
  const h = (s: string) => (md ? `## ${s}` : `${s}\n${'='.repeat(s.length)}`);
  const bullet = md ? '- ' : '  ';
  const pctOf = (a: number, b: number) => (b > 0 ? `${((a / b) * 100).toFixed(1)}%` : '–');
  const out: string[] = [];
  out.push(h(`Successive halving (eta ${t.eta}, objective ${t.objective})`), '');
  if (opts.offline) out.push(`${md ? '> ' : ''}Offline reasoner (lexical heuristics, not an LLM): the ranking measures retrieval plumbing, not LLM quality.`, '');
  for (const r of t.rungs) {
    const kept = r.variants.filter((v) => v.kept).length;
    const last = r.rung === t.rungs.length;
    out.push(`${bullet}rung ${r.rung}: ${r.variants.length} variants on ${r.questions} questions (${r.newQuestions} new), ${r.spent.calls} model calls; ${last ? `final, ${kept} compared below` : `kept ${kept}`}`);
  }
  out.push('', `${md ? '**Survivors**' : 'Survivors'} (ran every question): ${t.survivors.map(esc).join(', ') || 'none'}`, '');
  if (t.dropped.length) {
    out.push(md ? '### Dropped' : 'Dropped', '');
    for (const d of t.dropped) out.push(`${bullet}${md ? `\`${d.id.replace(/`/g, "'")}\`` : esc(d.id)}: ${esc(d.reason)}`);
    out.push('');
  }
  if (t.firstRung) {
    const f = t.firstRung.frontier;
    const list = (ids: string[] | null) => (ids === null ? 'n/a (unpriced)' : ids.map(esc).join(', '));
    out.push(md ? `### Frontier of every variant on rung 1 (${t.firstRung.questions} questions)` : `Frontier of every variant on rung 1 (${t.firstRung.questions} questions)`, '');
    out.push(`${bullet}vs $/question: ${list(f.dollars)}`, `${bullet}vs p95 latency: ${list(f.latency)}`, `${bullet}vs calls/question: ${list(f.calls)}`, '');
  }
  const est = t.fullGrid.estimated ? ' (estimated from each variant\'s measured per-question means)' : '';
  out.push(md ? '### Spent vs the full grid' : 'Spent vs the full grid', '');
  out.push(`${bullet}calls:   ${num(t.spent.calls)} of ${num(Math.round(t.fullGrid.calls))} (${pctOf(t.spent.calls, t.fullGrid.calls)})`);
  out.push(`${bullet}tokens:  ${num(t.spent.tokens)} of ${num(Math.round(t.fullGrid.tokens))} (${pctOf(t.spent.tokens, t.fullGrid.tokens)})`);
  out.push(`${bullet}dollars: ${usd(t.spent.dollars, opts.priced)} of ${usd(t.fullGrid.dollars, opts.priced)}${opts.priced ? ` (${pctOf(t.spent.dollars, t.fullGrid.dollars)})` : ''}`);
  out.push(`${bullet}full grid = every variant on every question, no response sharing${est}; spent counts calls that reached the model (cache hits are free).`, '');
  if (t.recommendation) out.push(renderRecommendation(t.recommendation, { priced: opts.priced, format: opts.format, ...(t.snippet ? { snippet: t.snippet } : {}) }));
  else out.push('No recommendation: no variant survived (all over the cost cap?).');
  return out.join('\n') + '\n';
}
