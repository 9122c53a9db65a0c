// The strategy contract (DESIGN.md, "Strategies"): a name, a params schema with defaults, and
// run(question, ctx, params) -> { answer, evidence, trace }. Strategies reach models only through
// ctx. The built-ins (strategies/) and plugins implement it; the runner only ever sees this shape.
import type { z } from 'zod';
import type { QuestionInput, StrategyResult } from '../types.ts';
import type { StrategyContext } from './context.ts';

export interface Strategy<P = Record<string, unknown>> {
  name: string;
  description: string;
  /** zod schema of the params, with defaults; configs are validated against it. */
  params: z.ZodType<P>;
  run(question: QuestionInput, ctx: StrategyContext, params: P): Promise<StrategyResult>;
}
