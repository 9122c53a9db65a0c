// The final step every strategy shares: answer the question from the evidence it gathered.
import type { EvidenceItem, QuestionInput } from '../../harness/types.ts';
import type { StrategyContext } from '../types.ts';
import type { Passage } from '../prompts.ts';
import { ask } from './ask.ts';
import { isBudgetExhausted } from '../../harness/run/budget.ts';
import type { Trace } from './evidence.ts';

export interface AnswerOutcome {
  answer: string;
  choice?: number;
  parseFailures: number;
}

export function toPassages(evidence: EvidenceItem[]): Passage[] {
  return evidence.map((e) => {
    const p: Passage = { doc_id: e.docId, node_id: e.nodeId, title: e.title ?? e.nodeId, text: e.text };
    if (e.pages) p.pages = e.pages;
    return p;
  });
}

/**
 * Asks the model for the answer. The context is cut to `maxContextTokens` (evidence in rank
 * order) so a large evidence set cannot blow the model's window. A reply that is not valid JSON
 * after the retry is used as plain text: a real model that ignores the format still answered.
 */
export async function answerFromEvidence(
  question: QuestionInput,
  evidence: EvidenceItem[],
  ctx: StrategyContext,
  trace: Trace,
  opts: { maxContextTokens?: number; maxTokens?: number } = {},
): Promise<AnswerOutcome> {
  const limit = opts.maxContextTokens ?? 6000;
  const context: Passage[] = [];
  let used = 0;
  for (const p of toPassages(evidence)) {
    const tokens = ctx.countTokens(p.text);
    if (used + tokens > limit && context.length > 0) break;
    context.push(p);
    used += tokens;
  }
  const payload = { task: 'answer' as const, question: question.question, context, ...(question.choices ? { choices: question.choices } : {}) };
  let res: Awaited<ReturnType<typeof ask<'answer'>>>;
  try {
    res = await ask(ctx, payload, (obj) => {
    if (typeof obj.answer !== 'string' && typeof obj.answer !== 'number') return { ok: false, error: '"answer" must be a string' };
    const choice = typeof obj.choice === 'number' && Number.isInteger(obj.choice) ? obj.choice : null;
    return { ok: true, value: { answer: String(obj.answer), choice } };
    }, { maxTokens: opts.maxTokens ?? 512 });
  } catch (err) {
    // A spent budget still returns the evidence gathered so far, just without an answer.
    if (!isBudgetExhausted(err)) throw err;
    trace.add({ action: 'answer', source: 'rule', reason: `no answer: ${(err as Error).message}` });
    return { answer: '', parseFailures: 0 };
  }
  if (res.ok) {
    trace.add({ action: 'answer', source: 'llm', reason: res.value.answer.slice(0, 200) });
    const out: AnswerOutcome = { answer: res.value.answer, parseFailures: res.parseFailures };
    if (res.value.choice !== null && res.value.choice !== undefined) out.choice = res.value.choice;
    return out;
  }
  trace.add({ action: 'answer', source: 'llm', reason: `unparsed reply used as text (${res.error})` });
  return { answer: res.raw.trim(), parseFailures: res.parseFailures };
}
