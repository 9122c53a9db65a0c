// The strategy contract (DESIGN.md, "Strategies"): a name, a params schema with defaults, and
// run(question, ctx, params) -> { answer, evidence, trace }. Strategies reach models only through
// ctx. The built-ins (strategies/) and plugins implement it; the runner only ever sees this shape.
import type { z } from 'zod';
import type { QuestionInput, StrategyResult } from '../types.ts';
import type { StrategyContext } from './context.ts';

/** A prompt a strategy sends, which a config may replace with a template file (`prompts:`). */
export interface PromptInfo {
  /** The name configs use (`prompts: { <name>: ./file.md }`). */
  name: string;
  description: string;
  /** The `{{variables}}` a template of this prompt may use. */
  variables: readonly string[];
}

export interface Strategy<P = Record<string, unknown>> {
  name: string;
  description: string;
  /** The prompts a config may replace, with their variables (`treebench strategies` lists them). */
  prompts?: readonly PromptInfo[];
  /** zod schema of the params, with defaults; configs are validated against it. */
  params: z.ZodType<P>;
  run(question: QuestionInput, ctx: StrategyContext, params: P): Promise<StrategyResult>;
}
