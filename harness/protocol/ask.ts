// One structured question to a model: send the task prompt through the metered door, parse and
// validate the JSON reply, retry once with the error spelled out, then give up as data. Prompt
// wording is the caller's (strategies/prompts.ts for the strategies, the judge and model
// summaries their own); this is the loop they share.
import type { StrategyContext } from '../strategy/context.ts';
import type { ChatMessage } from '../types.ts';
import { parseJsonObject } from './jsonReply.ts';

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
 * Sends `messages` (a task prompt named `task`) and validates the JSON answer. Budget refusals
 * propagate as BudgetExhaustedError; everything else comes back as an envelope.
 */
export async function askJson<T>(ctx: Pick<StrategyContext, 'chat'>, task: string, prompt: ChatMessage[], validate: Validator<T>, opts: AskOptions = {}): Promise<AskResult<T>> {
  const messages = [...prompt];
  const attempts = 1 + (opts.retries ?? 1);
  let parseFailures = 0;
  let raw = '';
  let error = '';
  for (let attempt = 0; attempt < attempts; attempt++) {
    const reply = await ctx.chat(messages, { task, json: true, maxTokens: opts.maxTokens ?? 1024 });
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
