// Re-scoring a finished run without running its strategies again: the rule judge of today's
// code (and, when asked, the LLM judge) over each record's question, gold and answer. The result
// is a new run folder with the same dataset, corpus and question ids, so `compare` and `gate`
// pair it with the original record by record.
//
// Multiple-choice records keep their scores (records do not store the choices). Retrieval
// scores are kept as they are (they do not depend on the judge).
import { jsonText } from '../files/jsonText.ts';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import { scoreAnswer } from './answer.ts';
import { summarize, type RunSummary } from '../summary/summary.ts';
import { withIntervals } from '../summary/intervals.ts';
import { LlmJudge } from './judge/llm.ts';
import { judgeConfigSchema, type JudgeConfig } from './judge/config.ts';
import { formatFieldPath } from '../errors.ts';
import { loadPriceTable } from '../models/prices.ts';
import { inheritEndpoint } from '../models/endpoint.ts';
import { ResponseCache } from '../models/responseCache.ts';
import { latestRecords, RunStore, type RunManifest } from '../run/store.ts';
import { sortLikeRun } from '../run/order.ts';
import type { ChatProvider, RunRecord } from '../types.ts';

export interface RejudgeOptions {
  runDir: string;
  /** Output folder (default `<runDir>-rejudged`). */
  outDir?: string;
  /** Judge settings (validated like `scoring.judge`); default: the run's `scoring.judge`, if any. */
  judge?: unknown;
  /** Rule judge only, even if the run had an LLM judge. */
  noJudge?: boolean;
  /** Response cache folder for the judge's calls. */
  cacheDir?: string;
  concurrency?: number;
  /** Scripted judge provider (tests). */
  judgeProvider?: ChatProvider;
}

export interface RejudgeOutcome {
  dir: string;
  manifest: RunManifest & { rejudgedFrom?: unknown };
  records: RunRecord[];
  summary: RunSummary;
}

/** `scoring.judge`-shaped input → JudgeConfig, or a UsageError naming the field (exit 2). */
export function parseJudgeConfig(raw: unknown, where = 'scoring.judge'): JudgeConfig {
  const parsed = judgeConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  // Flags are named as the user typed them: --judge-prompt, not --judge.prompt.
  const FLAGS: Record<string, string> = { prompt: '--judge-prompt', baseURL: '--judge-base-url', priceAs: '--judge-price-as' };
  const name = (path: PropertyKey[]) =>
    where === '--judge' ? (FLAGS[String(path[0])] ?? '--judge') : `${where}${path.length ? '.' + formatFieldPath(path) : ''}`;
  throw new UsageError(parsed.error.issues.map((i) => `${name(i.path)}: ${i.message}`).join('\n'));
}

export async function rejudgeRun(opts: RejudgeOptions): Promise<RejudgeOutcome> {
  const source = RunStore.open(opts.runDir);
  const manifest = source.readManifest();
  const config = (manifest.config ?? {}) as { scoring?: { f1Threshold?: number; numericRelTol?: number; maxGoldWords?: number; judge?: unknown } };
  const scoring = config.scoring ?? {};
  const judgeRaw = opts.noJudge ? undefined : (opts.judge ?? scoring.judge);
  // A judge without a server of its own talks to the run's model server (harness/models/endpoint.ts),
  // whether it comes from the run's scoring.judge or from --judge.
  const runModel = (config as { model?: { baseURL?: string; apiKeyEnv?: string } }).model;
  const judgeConfig = judgeRaw === undefined ? undefined : inheritEndpoint(parseJudgeConfig(judgeRaw, opts.judge !== undefined ? '--judge' : 'scoring.judge'), runModel);
  const judge = judgeConfig
    ? new LlmJudge({
        config: judgeConfig,
        prices: loadPriceTable(),
        concurrency: opts.concurrency ?? 4,
        ...(opts.judgeProvider ? { provider: opts.judgeProvider } : {}),
        ...(opts.cacheDir ? { cache: new ResponseCache(opts.cacheDir) } : {}),
      })
    : undefined;

  const outDir = opts.outDir ?? `${opts.runDir.replace(/[/\\]+$/, '')}-rejudged`;
  if (existsSync(join(outDir, 'records.jsonl'))) throw new UsageError(`${outDir} already holds a run; choose another --out`);
  const store = RunStore.create(outDir);
  const runId = `${manifest.runId}-rejudged`;
  const { apiKeyEnv: _k, ...judgeShown } = (judgeConfig ?? {}) as Record<string, unknown>;
  const out: RejudgeOutcome['manifest'] = {
    ...manifest,
    runId,
    config: { ...(manifest.config as object), scoring: { ...scoring, ...(judgeConfig ? { judge: judgeShown } : { judge: undefined }) } },
    rejudgedFrom: { runId: manifest.runId, dir: opts.runDir, at: new Date().toISOString(), judge: judgeConfig ? `${judgeConfig.provider}:${judgeConfig.model ?? ''} (${judgeConfig.prompt})` : null },
    finishedAt: null,
  };
  store.writeManifest(out);

  // In the order the run summarised them (records.jsonl holds completion order), so the seeded
  // bootstrap draws the same questions and the intervals are the ones `report` prints.
  const records = sortLikeRun(latestRecords(source.readRecords()), manifest);
  const rescored = await Promise.all(
    records.map(async (r): Promise<RunRecord> => {
      const failed = r.error !== null && r.error !== undefined;
      const multipleChoice = r.scores?.choice !== null && r.scores?.choice !== undefined;
      const scores =
        r.scores && !multipleChoice
          ? scoreAnswer({ id: r.questionId, question: r.question, answers: r.gold }, { answer: r.answer }, { f1Threshold: scoring.f1Threshold ?? 0.5, relTol: scoring.numericRelTol ?? 0.01, ...(scoring.maxGoldWords ? { maxGoldWords: scoring.maxGoldWords } : {}) })
          : r.scores;
      const { judge: _old, ...rest } = r;
      const next: RunRecord = { ...rest, runId, scores };
      if (judge) {
        next.judge = failed
          ? judge.failedVerdict()
          : await judge.judge({ question: r.question, gold: r.gold, answer: r.answer });
      }
      return next;
    }),
  );
  for (const r of rescored) store.append(r);
  const summary = withIntervals(summarize(rescored), rescored, { seed: manifest.seed });
  out.finishedAt = new Date().toISOString();
  store.writeManifest(out);
  store.writeFile('summary.json', jsonText(summary));
  return { dir: store.dir, manifest: out, records: rescored, summary };
}
