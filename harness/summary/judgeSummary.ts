// The LLM judge beside the rule judge, per strategy: its accuracy, how far it agrees with the
// rule (Cohen's κ with a bootstrap interval, over records both graded) and what it cost. The
// judge's calls are its own: they are not in the strategy's calls, tokens, dollars or latency.
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

export function judgeSummary(records: readonly RunRecord[], seed = 0): JudgeSummary | undefined {
  const judged = records.filter((r) => r.judge);
  if (judged.length === 0) return undefined;
  const rule: number[] = [];
  const llm: number[] = [];
  for (const r of judged) {
    const v = judgeValue(r);
    if (v === null) continue;
    rule.push(failed(r) ? 0 : r.scores!.correct);
    llm.push(v);
  }
  const k = rule.length >= 2 ? cohensKappa(rule, llm, { seed }) : null;
  const calls = judged.flatMap((r) => r.judge!.calls);
  const totalCost = calls.reduce((n, c) => n + c.costUsd, 0);
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
