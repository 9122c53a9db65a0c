// One structured question to the model: build the prompt, call through the metered door,
// parse and validate the reply, retry once with the error spelled out, then give up as data.
import type { StrategyContext } from '../types.ts';
import type { ChatMessage } from '../../harness/types.ts';
import { buildPrompt, type PromptPayload, type TaskAnswers } from '../prompts.ts';
import { parseJsonObject } from '../../harness/protocol/jsonReply.ts';

export type AskResult<T> =
  | { ok: true; value: T; raw: string; parseFailures: number }
  | { ok: false; error: string; raw: string; parseFailures: number };

/** Validates a parsed object; returns the typed value or an error message for the retry. */
export type Validator<T> = (obj: Record<string, unknown>) => { ok: true; value: T } | { ok: false; error: string };

export interface AskOptions {
  maxTokens?: number;
  /** Attempts after the first when the reply is invalid (default 1). */
  retries?: number;
}

/**
 * Asks a task prompt and validates the JSON answer. Budget refusals propagate as
 * BudgetExhaustedError; everything else comes back as an envelope.
 */
export async function ask<K extends PromptPayload['task']>(
  ctx: StrategyContext,
  payload: Extract<PromptPayload, { task: K }>,
  validate: Validator<TaskAnswers[K]>,
  opts: AskOptions = {},
): Promise<AskResult<TaskAnswers[K]>> {
  const messages: ChatMessage[] = buildPrompt(payload);
  const attempts = 1 + (opts.retries ?? 1);
  let parseFailures = 0;
  let raw = '';
  let error = '';
  for (let attempt = 0; attempt < attempts; attempt++) {
    const reply = await ctx.chat(messages, { task: payload.task, json: true, maxTokens: opts.maxTokens ?? 1024 });
    raw = reply.text;
    const parsed = parseJsonObject(raw);
    const checked = parsed.ok ? validate(parsed.value) : parsed;
    if (checked.ok) return { ok: true, value: checked.value, raw, parseFailures };
    parseFailures++;
    error = checked.error;
    // The retry shows the model its own reply and what was wrong with it.
    messages.push({ role: 'assistant', content: raw });
    messages.push({ role: 'user', content: `Your reply could not be used: ${error}. Reply again with JSON only, in the shape asked for.` });
  }
  return { ok: false, error, raw, parseFailures };
}
