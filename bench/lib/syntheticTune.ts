// A tuning problem whose answer is known, for the successive-halving test and `npm run bench:tune`.
//
// A fixture strategy, `synthetic-beam`, has two parameters: `beamWidth` and `maxCalls`. It makes
// `maxCalls` model calls per question (cost rises with maxCalls) and states its beam width in
// the prompt; a scripted model answers correctly with probability
//   P(correct) = 0.35 + 0.11 x beamWidth     (beamWidth 1, 2, 3, 5 → 0.46, 0.57, 0.68, 0.90)
// drawn per (seed, question, variant), independent of maxCalls. So the best variant is the
// widest beam at the smallest call cap: every beamWidth-5 variant is equally accurate and the
// one with the fewest calls is cheapest. Everything else runs through the real runner, cache,
// meter, halving and recommendation.
import { z } from 'zod';
import { validateConfig, type LoadedConfig } from '../../harness/config/runConfig.ts';
import { hashSeed, mulberry32 } from '../../harness/run/random.ts';
import type { BenchmarkData } from '../../harness/run/runner.ts';
import type { ChatMessage, ChatProvider, Corpus, Question } from '../../harness/types.ts';
import { getStrategy, registerStrategy } from '../../strategies/registry.ts';
import { binomTest } from '../../harness/stats/binomial.ts';
import type { Strategy } from '../../strategies/types.ts';
import { registerBuiltinStrategies } from '../../strategies/registry.ts';

registerBuiltinStrategies();

export const BEAM_WIDTHS = [1, 2, 3, 5];
export const MAX_CALLS = [2, 4, 8];
export const accuracyOf = (beamWidth: number): number => 0.35 + 0.11 * beamWidth;
export const KNOWN_BEST = `synthetic-beam[beamWidth=${Math.max(...BEAM_WIDTHS)},maxCalls=${Math.min(...MAX_CALLS)}]`;

const params = z.object({ beamWidth: z.number().int().min(1).max(10).default(1), maxCalls: z.number().int().min(1).max(64).default(2) }).strict();

const syntheticBeam: Strategy<z.infer<typeof params>> = {
  name: 'synthetic-beam',
  description: 'Test fixture: maxCalls calls per question; a scripted model is right more often at wider beams.',
  params,
  async run(question, ctx, p) {
    let answer = '';
    for (let i = 0; i < p.maxCalls; i++) {
      const messages: ChatMessage[] = [
        { role: 'system', content: 'Answer the question.' },
        { role: 'user', content: JSON.stringify({ task: 'synthetic.answer', question: question.id, beamWidth: p.beamWidth, maxCalls: p.maxCalls, step: i }) },
      ];
      answer = (await ctx.chat(messages, { task: 'synthetic.answer', maxTokens: 16 })).text;
    }
    return { answer, evidence: [], trace: [] };
  },
};

export function ensureSyntheticStrategy(): void {
  try {
    getStrategy('synthetic-beam');
  } catch {
    registerStrategy(syntheticBeam);
  }
}

/** Whether the scripted model answers a question right for a variant (the ground truth). */
export function syntheticCorrect(seed: number, questionId: string, beamWidth: number, maxCalls: number): boolean {
  return mulberry32(hashSeed(seed, questionId, beamWidth, maxCalls))() < accuracyOf(beamWidth);
}

/** The scripted model: right with probability accuracyOf(beamWidth), per (seed, question, variant). */
export function syntheticProvider(seed: number): ChatProvider {
  return {
    id: 'synthetic-scripted',
    offline: true,
    async chat(messages) {
      const p = JSON.parse(messages.at(-1)!.content) as { question: string; beamWidth: number; maxCalls: number };
      const right = syntheticCorrect(seed, p.question, p.beamWidth, p.maxCalls);
      return { text: right ? `answer-${p.question}` : 'no idea', model: 'synthetic-scripted', usage: { inputTokens: 40, outputTokens: 4 } };
    },
  };
}

/** The full grid's chat calls on n questions: every variant makes maxCalls calls per question. */
export const fullGridCalls = (questions: number): number => questions * BEAM_WIDTHS.length * MAX_CALLS.reduce((s, c) => s + c, 0);

export interface SeedOutcome {
  seed: number;
  recommended: string;
  /** The recommendation is the known best, or not significantly worse than it on every question. */
  acceptable: boolean;
  exact: boolean;
  /** One-sided exact McNemar p of "recommended worse than the known best" on all questions. */
  pWorse: number;
  spentCalls: number;
  fullCalls: number;
}

/**
 * The independent check: the ground truth of every question for the recommended variant and the
 * known best, compared with a one-sided exact McNemar test (worse at alpha 0.05 = not acceptable).
 */
export function judgeRecommendation(seed: number, questionIds: readonly string[], recommended: string, alpha = 0.05): { acceptable: boolean; exact: boolean; pWorse: number } {
  const m = /beamWidth=(\d+),maxCalls=(\d+)/.exec(recommended);
  if (!m) return { acceptable: false, exact: false, pWorse: 0 };
  const [bw, mc] = [Number(m[1]), Number(m[2])];
  const best = { bw: Math.max(...BEAM_WIDTHS), mc: Math.min(...MAX_CALLS) };
  let b = 0;
  let c = 0;
  for (const q of questionIds) {
    const rb = syntheticCorrect(seed, q, best.bw, best.mc);
    const rr = syntheticCorrect(seed, q, bw, mc);
    if (rb && !rr) b++;
    else if (!rb && rr) c++;
  }
  const pWorse = b + c === 0 ? 1 : binomTest(b, b + c, 0.5, 'greater');
  const exact = recommended === KNOWN_BEST;
  return { acceptable: exact || pWorse > alpha, exact, pWorse };
}

export function syntheticData(questions: number): BenchmarkData {
  const corpus: Corpus = { name: 'synthetic', docs: [{ docId: 'd1', title: 'Synthetic', nodes: [{ id: 'n1', title: 'Only section', text: 'Nothing here.', children: [] }] }] };
  const qs: Question[] = Array.from({ length: questions }, (_, i) => ({
    id: `q${String(i + 1).padStart(3, '0')}`,
    question: `Synthetic question ${i + 1}?`,
    answers: [`answer-q${String(i + 1).padStart(3, '0')}`],
    tags: [i % 3 === 0 ? 'hard' : 'easy'],
  }));
  return { name: 'synthetic', corpus, questions: qs, warnings: [], notes: [], files: [] };
}

export function syntheticConfig(seed: number, dirs: { outDir: string; cacheDir: string }): LoadedConfig {
  ensureSyntheticStrategy();
  const raw = {
    name: 'synthetic-tune',
    dataset: { format: 'sample' },
    model: { provider: 'offline', priceAs: 'gpt-4o-mini' },
    strategies: [{ strategy: 'synthetic-beam', grid: { beamWidth: BEAM_WIDTHS, maxCalls: MAX_CALLS } }],
    run: { concurrency: 16, seed, outDir: dirs.outDir },
    cache: { enabled: false, dir: dirs.cacheDir },
    reports: ['csv'],
  };
  const { config, strategies } = validateConfig(raw);
  return { path: 'synthetic-tune.yaml', baseDir: process.cwd(), raw: JSON.stringify(raw), config, strategies };
}
