// The LLM judge beside the rule judge, per strategy: its accuracy, how far it agrees with the
// rule (Cohen's κ over the records both graded: a question the rule cannot grade is left out)
// and what it cost. The judge's calls are its own: they are not in the strategy's calls,
// tokens, dollars or latency. κ's interval is the run's: a question-cluster bootstrap with the
// run's seed and resamples, added by withIntervals (intervals.ts); `summarize` alone gives κ
// without one.
import { cohensKappa, type KappaResult } from '../stats/kappa.ts';
import type { RunRecord } from '../types.ts';
import { mean } from './percentile.ts';
import { recordFailed as failed } from '../scoring/recordFailed.ts';

export interface JudgeSummary {
  /** Records with a judge verdict (a failed strategy record counts, as incorrect). */
  n: number;
  /** Records the judge could not grade (its call failed or its reply had no verdict). */
  errors: number;
  /** Rule vs judge over records both graded; null when fewer than 2 or κ is undefined. */
  agreement: KappaResult | null;
  costPerQuestion: number;
  totalCost: number;
  tokensPerQuestion: number;
  latencyMs: number;
  model: string;
  prompt: string;
}


/** The judge's verdict of a record: 0 for a failed record, null when it was not judged. */
export function judgeValue(r: RunRecord): number | null {
  if (!r.judge) return null;
  if (failed(r)) return 0;
  return r.judge.correct;
}

export interface JudgeSummaryOptions {
  /** Compute κ's bootstrap interval (default false: κ alone, lo/hi NaN). */
  interval?: boolean;
  seed?: number;
  resamples?: number;
}

export function judgeSummary(records: readonly RunRecord[], opts: JudgeSummaryOptions = {}): JudgeSummary | undefined {
  const judged = records.filter((r) => r.judge);
  if (judged.length === 0) return undefined;
  const rule: number[] = [];
  const llm: number[] = [];
  const questions: string[] = [];
  for (const r of judged) {
    const v = judgeValue(r);
    if (v === null) continue;
    const ruleVerdict = r.scores?.correct;
    // The rule gave no verdict (ungradable gold): nothing to agree or disagree with.
    if (r.scores && (ruleVerdict === null || ruleVerdict === undefined)) continue;
    rule.push(failed(r) ? 0 : ruleVerdict!);
    llm.push(v);
    questions.push(r.questionId);
  }
  const k = rule.length >= 2 ? cohensKappa(rule, llm, { clusters: questions, seed: opts.seed ?? 0, resamples: opts.interval ? (opts.resamples ?? 10_000) : 1 }) : null;
  if (k && !opts.interval) {
    k.lo = NaN;
    k.hi = NaN;
  }
  const calls = judged.flatMap((r) => r.judge!.calls);
  const totalCost = calls.reduce((n, c) => n + (c.costUsd ?? 0), 0);
  return {
    n: llm.length,
    errors: judged.length - llm.length,
    agreement: k && Number.isFinite(k.kappa) ? k : null,
    costPerQuestion: totalCost / judged.length,
    totalCost,
    tokensPerQuestion: calls.reduce((n, c) => n + c.inputTokens + c.outputTokens, 0) / judged.length,
    latencyMs: calls.length ? mean(calls.map((c) => c.latencyMs)) : 0,
    model: judged[0]!.judge!.model,
    prompt: judged[0]!.judge!.prompt,
  };
}
