// `scoring.judge`: the optional LLM judge's model settings, validated like `model:` plus the
// prompt to grade with. The offline reasoner cannot judge: it would have to read gold answers.
import { z } from 'zod';
import { modelConfigSchema } from '../../models/providers/registry.ts';

export const JUDGE_PROMPTS = ['default', 'financebench'] as const;
export type JudgePromptName = (typeof JUDGE_PROMPTS)[number];

export const judgeConfigSchema = modelConfigSchema
  .extend({
    /** `financebench`: FinanceBench's grading guidance (numbers, rounding, refusals); `default`: short factual QA. */
    prompt: z.enum(JUDGE_PROMPTS).default('default'),
  })
  .refine((c) => c.provider !== 'offline', {
    error: 'the judge needs a real model (e.g. provider: openai); the offline reasoner does not judge answers',
    path: ['provider'],
  });

export type JudgeConfig = z.output<typeof judgeConfigSchema>;
