// Report pieces for the LLM judge and for accounting notes, shared by the console table and the
// Markdown report: the judge's accuracy beside the rule's, their agreement (Cohen's κ with its
// interval) and the judge's own cost; and the notes that say what "tokens" means.
import type { RunSummary, StrategySummary } from '../harness/summary/summary.ts';
import { num, pct, usd } from './format.ts';

/** `recall` → `recall@10` when the records were scored at a cutoff. */
export function atK(name: string, k: number | undefined): string {
  return k === undefined ? name : `${name}@${k}`;
}

/** Two decimals, without a "-0.00". */
const fixed2 = (x: number): string => (Math.abs(x) < 0.005 ? '0.00' : x.toFixed(2));

const kappaText = (s: StrategySummary): string => {
  const a = s.judge?.agreement;
  if (!a) return 'κ n/a';
  const ci = Number.isFinite(a.lo) && Number.isFinite(a.hi) ? ` [${fixed2(a.lo)}, ${fixed2(a.hi)}]` : '';
  return `κ ${fixed2(a.kappa)}${ci}, agree ${pct(a.agree)}`;
};

/** One line per strategy: "vector: rule 24.3%, judge 21.6% [..], κ 0.81 [0.6, 1.0], agree 94.6%; judge $0.0001/q". */
export function judgeLines(strategies: readonly StrategySummary[], priced: boolean): string[] {
  const judged = strategies.filter((s) => s.judge);
  if (judged.length === 0) return [];
  const j = judged[0]!.judge!;
  return [
    `judge ${j.model} (prompt ${j.prompt}) beside the rule; its calls are not in the strategies' calls, tokens, $ or latency:`,
    ...judged.map(
      (s) =>
        `  ${s.strategy}: rule ${pct(s.accuracy, s.intervals?.accuracy)}, judge ${pct(s.judgeAccuracy, s.intervals?.judgeAccuracy)} (n=${s.judge!.n}${s.judge!.errors ? `, ${s.judge!.errors} ungraded` : ''}), ${kappaText(s)}; judge ${num(s.judge!.tokensPerQuestion)} tokens/q, ${usd(s.judge!.costPerQuestion, priced)}/q, ${num(s.judge!.latencyMs)} ms/call`,
    ),
  ];
}

/** Notes on token accounting: chat vs embedding tokens, and estimated counts. */
export function tokenNotes(summary: RunSummary): string[] {
  const notes: string[] = [];
  const embed = summary.strategies.some((s) => s.embedTokensPerQuestion > 0);
  notes.push(`tokens/q: chat tokens (input + output)${embed ? '; embedding tokens are counted apart (embed tokens/q in report.md) and priced at their own rate' : ''}`);
  const est = summary.strategies.map((s) => s.estimatedTokenShare ?? 0);
  if (est.some((x) => x > 0)) {
    notes.push(
      est.every((x) => x >= 1)
        ? 'tokens are estimates: the provider reported no usage, so they were counted with the tokenizer of the model the calls are priced as'
        : 'some tokens are estimates: calls without provider usage were counted with the tokenizer of the model the calls are priced as',
    );
  }
  return notes;
}
