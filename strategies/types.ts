// The strategy contract (DESIGN.md, "Strategies"): a name, a params schema with defaults, and
// run(question, ctx) -> { answer, evidence, trace }. Strategies reach models only through ctx.
import type { z } from 'zod';
import type { QuestionInput, StrategyResult } from '../harness/types.ts';
import type { StrategyContext } from '../harness/strategyContext.ts';

export type { ChunkHit, StrategyContext, ValueSearchOptions } from '../harness/strategyContext.ts';

export interface Strategy<P = Record<string, unknown>> {
  name: string;
  description: string;
  /** zod schema of the params, with defaults; configs are validated against it. */
  params: z.ZodType<P>;
  run(question: QuestionInput, ctx: StrategyContext, params: P): Promise<StrategyResult>;
}
