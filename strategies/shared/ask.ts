// One structured question to the model with a strategy's task prompt (strategies/prompts.ts, or
// the config's template for that task: ctx.prompts):
// the shared loop of harness/protocol/ask.ts (metered call, JSON parse, validate, one retry).
import type { StrategyContext } from '../types.ts';
import { buildPrompt, type StrategyPayload, type StrategyTask, type TaskAnswers } from '../prompts.ts';
import { askJson, type AskOptions, type AskResult, type Validator } from '../../harness/protocol/ask.ts';

export type { AskOptions, AskResult, Validator };

/**
 * Asks a task prompt and validates the JSON answer. Budget refusals propagate as
 * BudgetExhaustedError; everything else comes back as an envelope.
 */
export function ask<K extends StrategyTask>(
  ctx: StrategyContext,
  payload: Extract<StrategyPayload, { task: K }>,
  validate: Validator<TaskAnswers[K]>,
  opts: AskOptions = {},
): Promise<AskResult<TaskAnswers[K]>> {
  return askJson(ctx, payload.task, buildPrompt(payload, ctx.prompts), validate, opts);
}
