// Per-run summary: one StrategySummary per strategy, in the order strategies first appear in the
// records. Every value is a plain number (or null for "not applicable"), so renderers stay simple;
// confidence intervals, when another step computes them, go into `intervals` beside the values.
//
// What counts, and how:
//   - A record is one strategy × question × repeat. "Per question" values are means per record.
//   - Answer metrics (accuracy, EM, F1) average over every record. A record with an error, or
//     without scores, counts as incorrect (0 on every answer metric, even if it carries partial
//     scores): dropping failures would flatter a strategy that crashes on hard questions.
//     `errors` says how many there were.
//   - Accuracy leaves out the records the rule judge cannot grade (every gold long or
//     procedural: `scores.correct` null, see harness/scoring/answer.ts), failed or not: it is the
//     mean over `accuracyN` records, null when there is none (reports show `n/a (rule)` and point
//     to the LLM judge); `ungradable` counts the others. EM and F1 still average over every record.
//   - Numeric match and yes/no are averaged over the records where they apply (the gold has a
//     number / is yes-no); `numericN` / `yesNoN` give the count. A failed record counts 0 where
//     they apply; without scores, applicability is read from its gold answers.
//   - Retrieval metrics average over the records whose level is non-null (the question has gold
//     at that level and the record was scored); each level's `n` gives the count. A record that
//     failed before scoring has null retrieval and is not in these means; it is in `errors`.
//   - Efficiency (calls, tokens, cost, latency, nodes) averages over every record, errors
//     included: a failed question still cost what it cost.
//   - Latency percentiles are numpy's default linear method (percentile.ts).
//   - If the same strategy × question × repeat appears twice (a retried record appended on
//     resume), the later record wins; `superseded` counts the earlier ones dropped.
import { recordFailed } from '../scoring/recordFailed.ts';
import { BUDGET_NAMES } from '../run/budget.ts';
import type { BudgetName, RunRecord } from '../types.ts';
import { latestRecords } from '../run/store.ts';
import { goldHasNumber, goldPolarity } from '../scoring/answer.ts';
import { ruleVerdict } from '../scoring/ruleVerdict.ts';
import { mean, percentile } from './percentile.ts';
import type { RepeatStats } from './repeatTypes.ts';
import { summarizeTags, type TagSummary } from './tags.ts';
import { judgeSummary, judgeValue, type JudgeSummary } from './judgeSummary.ts';
import { CUSTOM_PREFIX, customPaths, isCustomMetric, type CustomMetricPath } from '../scoring/scorer.ts';

export const RETRIEVAL_LEVELS = ['node', 'page', 'doc'] as const;
export type RetrievalLevel = (typeof RETRIEVAL_LEVELS)[number];
/** `mrr` is MRR@k (cut at `scoring.k`); `mrrUncut` is over the whole list, trec_eval's `recip_rank`. */
export const RETRIEVAL_METRICS = ['recall', 'precision', 'mrr', 'mrrUncut', 'ndcg'] as const;
export type RetrievalMetric = (typeof RETRIEVAL_METRICS)[number];

export interface RetrievalLevelSummary {
  /** Records with a score at this level. */
  n: number;
  recall: number;
  precision: number;
  /** MRR@k. */
  mrr: number;
  /** Reciprocal rank without a cutoff (trec_eval `recip_rank`); null when the records predate it. */
  mrrUncut: number | null;
  ndcg: number;
  /**
   * Document level only: records whose question left more than one document to choose from
   * (RecordRetrieval.candidateDocs > 1). 0 in the closed setting, where document recall only
   * says whether any evidence came back; absent when the records predate candidateDocs.
   */
  openN?: number;
}

export interface LatencySummary {
  mean: number;
  p50: number;
  p95: number;
  p99: number;
}

/** A confidence interval for one metric (filled in by the statistics step, not by summarize). */
export interface ConfidenceInterval {
  lo: number;
  hi: number;
}

export interface StrategySummary {
  strategy: string;
  records: number;
  questions: number;
  /** Distinct repeat indices seen. */
  repeats: number;

  /** Rule accuracy over the records it can grade; null when it can grade none (see `ungradable`). */
  accuracy: number | null;
  /** Records the rule graded (accuracy's denominator). */
  accuracyN: number;
  /** Records whose gold the rule cannot grade (long or procedural): not in accuracy. */
  ungradable: number;
  exactMatch: number;
  f1: number;
  numericMatch: number | null;
  numericN: number;
  yesNo: number | null;
  yesNoN: number;
  /** Accuracy by the LLM judge (records it graded; a failed record counts 0); null without a judge. */
  judgeAccuracy: number | null;
  /** The judge beside the rule: counts, agreement and its own cost; absent without a judge. */
  judge?: JudgeSummary;
  /** LLM-judged groundedness in the retrieved evidence (supported claims / claims), over `groundednessN` records; null without it. */
  groundedness: number | null;
  groundednessN: number;
  /** The offline lexical proxy of groundedness (content words found in the evidence), over `groundednessLexicalN` records. */
  groundednessLexical: number | null;
  groundednessLexicalN: number;
  /** The groundedness grader's own cost; absent without `scoring.groundedness`. */
  groundednessJudge?: { graded: number; errors: number; costPerQuestion: number; totalCost: number; tokensPerQuestion: number; model: string };

  retrieval: Record<RetrievalLevel, RetrievalLevelSummary | null>;
  /** Scores at further cutoffs of `scoring.k`, keyed by k (the main `retrieval` is at `RunSummary.k`). */
  retrievalAt?: Record<string, Record<RetrievalLevel, RetrievalLevelSummary | null>>;

  callsPerQuestion: number;
  embedCallsPerQuestion: number;
  inputTokensPerQuestion: number;
  outputTokensPerQuestion: number;
  /** Chat tokens (input + output). */
  tokensPerQuestion: number;
  /** Embedding tokens, priced at another rate, so kept apart from chat tokens. */
  embedTokensPerQuestion: number;
  /** Share of logged calls whose tokens were counted by a tokenizer (the provider reported no usage); null without calls. */
  estimatedTokenShare: number | null;
  costPerQuestion: number;
  totalCost: number;
  latencyMs: LatencySummary;
  nodesVisitedPerQuestion: number;
  nodesOpenedPerQuestion: number;
  evidenceTokensPerQuestion: number;
  /** Share of logged model calls answered from the cache; null when no calls were logged. */
  cacheHitRate: number | null;
  /**
   * Calls answered from the response cache (absent when none was): how many, what they cost when
   * they were made (null when unpriced; `totalCost` is what the run cost now, nothing for them),
   * and the mean latency they had then (replayed, not measured now).
   */
  cache?: { calls: number; costThen: number | null; latencyPerCallMs: number };

  /** Records that stopped because this budget ran out (every budget name is present). */
  budgetExhausted: Record<BudgetName, number>;
  /** Records that hit any budget. */
  budgetExhaustedRecords: number;
  /** Sum of unparseable model answers over the records. */
  parseFailures: number;
  /** Records in which the strategy fell back to value search at least once (see RunRecord.valueFallbacks). */
  valueFallbackRecords: number;
  /** Records with an error. */
  errors: number;

  /** Custom scorers' metrics (`scoring.scorers`), by name: the mean over the records where the value is non-null. */
  custom?: Record<string, CustomMetricSummary>;

  /** Confidence intervals, keyed by metric path; absent until a statistics step adds them. */
  intervals?: Partial<Record<MetricPath, ConfidenceInterval>>;
  /** Spread across repeats and flaky questions; present when the strategy ran more than one repeat (see intervals.ts). */
  repeatStats?: RepeatStats;
}

export interface CustomMetricSummary {
  /** Mean over the records with a value; null when none has one. */
  value: number | null;
  /** Records with a value. */
  n: number;
  /** Records where the scorer threw or returned something not a number. */
  errors: number;
}

export interface RunSummary {
  /** Distinct run ids in the records, in first-seen order (one, unless runs were merged). */
  runIds: string[];
  records: number;
  questions: number;
  /** Records dropped because a later record had the same strategy × question × repeat. */
  superseded: number;
  strategies: StrategySummary[];
  /** Cutoff of the ranked retrieval metrics (nDCG@k); absent when the records were scored over the whole list. */
  k?: number;
  /** Accuracy and recall per question tag and strategy; absent when no question has tags. */
  tags?: TagSummary[];
  /** How `intervals` were computed, when they were. */
  ci?: { level: number; method: string; resamples?: number; seed?: number };
  /** Rate-limit pacing of the chat requests of the last invocation (harness/models/pacing.ts), when the server sent limits or refused any. */
  pacing?: import('../models/pacing.ts').PacingStats;
  /** The same for the embedder's requests, when the embedding server sent limits or refused any. */
  embeddingPacing?: import('../models/pacing.ts').PacingStats;
}

// ---------------------------------------------------------------------------------------------
// Metric paths: one name per number, shared by renderers, CSV columns and the CI step.

type RetrievalPath = `retrieval.${RetrievalLevel}.${RetrievalMetric}`;

/** Metrics that are a mean of one value per record (null = the record does not count). */
export type MeanMetricPath = BuiltinMeanMetricPath | CustomMetricPath;

/** The mean metrics treebench itself computes (custom scorers add `custom.<name>`). */
export type BuiltinMeanMetricPath =
  | 'accuracy'
  | 'exactMatch'
  | 'f1'
  | 'numericMatch'
  | 'yesNo'
  | 'judgeAccuracy'
  | 'groundedness'
  | 'groundednessLexical'
  | RetrievalPath
  | 'callsPerQuestion'
  | 'embedCallsPerQuestion'
  | 'inputTokensPerQuestion'
  | 'outputTokensPerQuestion'
  | 'tokensPerQuestion'
  | 'embedTokensPerQuestion'
  | 'costPerQuestion'
  | 'latencyMs.mean'
  | 'nodesVisitedPerQuestion'
  | 'nodesOpenedPerQuestion'
  | 'evidenceTokensPerQuestion';

export type MetricPath = MeanMetricPath | 'latencyMs.p50' | 'latencyMs.p95' | 'latencyMs.p99' | 'totalCost';

const retrievalValue =
  (level: RetrievalLevel, metric: RetrievalMetric) =>
  (r: RunRecord): number | null =>
    r.retrieval?.[level]?.[metric] ?? null;

function retrievalExtractors(): Record<RetrievalPath, (r: RunRecord) => number | null> {
  const out = {} as Record<RetrievalPath, (r: RunRecord) => number | null>;
  for (const level of RETRIEVAL_LEVELS) {
    for (const metric of RETRIEVAL_METRICS) out[`retrieval.${level}.${metric}`] = retrievalValue(level, metric);
  }
  return out;
}

export { recordFailed };

function answerValue(r: RunRecord, key: 'exactMatch' | 'f1'): number {
  return recordFailed(r) ? 0 : r.scores![key];
}

/** Numeric/yes-no: null when it does not apply to the question; a failed record counts 0 where it applies. */
function conditionalAnswerValue(r: RunRecord, key: 'numericMatch' | 'yesNo', appliesToGold: (gold: string[]) => boolean): number | null {
  if (!recordFailed(r)) return r.scores![key];
  const applies = r.scores ? r.scores[key] !== null : appliesToGold(r.gold ?? []);
  return applies ? 0 : null;
}

/**
 * The per-record value behind each mean metric. The summary is the mean of these values over
 * the non-null ones, so a bootstrap over records reproduces exactly the summary's numbers.
 */
export const RECORD_METRICS: Record<BuiltinMeanMetricPath, (r: RunRecord) => number | null> = {
  accuracy: ruleVerdict,
  exactMatch: (r) => answerValue(r, 'exactMatch'),
  f1: (r) => answerValue(r, 'f1'),
  numericMatch: (r) => conditionalAnswerValue(r, 'numericMatch', (g) => g.some((x) => goldHasNumber(x, 6, r.question))),
  yesNo: (r) => conditionalAnswerValue(r, 'yesNo', (g) => g.some((x) => goldPolarity(x, r.question) !== null)),
  judgeAccuracy: judgeValue,
  // Groundedness of a failed record is not measured (it has no answer); errors count apart.
  groundedness: (r) => (recordFailed(r) ? null : (r.groundedness?.judge?.score ?? null)),
  groundednessLexical: (r) => (recordFailed(r) ? null : (r.groundedness?.lexical ?? null)),
  ...retrievalExtractors(),
  callsPerQuestion: (r) => r.calls,
  embedCallsPerQuestion: (r) => r.embedCalls,
  inputTokensPerQuestion: (r) => r.inputTokens,
  outputTokensPerQuestion: (r) => r.outputTokens,
  tokensPerQuestion: (r) => r.inputTokens + r.outputTokens,
  embedTokensPerQuestion: (r) => r.embedTokens ?? 0,
  costPerQuestion: (r) => r.costUsd,
  'latencyMs.mean': (r) => r.latencyMs,
  nodesVisitedPerQuestion: (r) => r.nodesVisited,
  nodesOpenedPerQuestion: (r) => r.nodesOpened,
  evidenceTokensPerQuestion: (r) => r.evidenceTokens,
};

export const MEAN_METRIC_PATHS = Object.keys(RECORD_METRICS) as BuiltinMeanMetricPath[];
export const METRIC_PATHS: MetricPath[] = [...MEAN_METRIC_PATHS, 'latencyMs.p50', 'latencyMs.p95', 'latencyMs.p99', 'totalCost'];

/** The per-record value behind a mean metric, built-in or custom (`custom.<name>`). */
export function recordMetric(path: MeanMetricPath): (r: RunRecord) => number | null {
  if (isCustomMetric(path)) {
    const name = path.slice(CUSTOM_PREFIX.length);
    return (r) => r.custom?.[name] ?? null;
  }
  return RECORD_METRICS[path];
}

/** Built-in mean metrics, then the custom ones present in the records. */
export function meanMetricPaths(records: readonly RunRecord[]): MeanMetricPath[] {
  return [...MEAN_METRIC_PATHS, ...customPaths(records)];
}

/** The non-null per-record values of a mean metric, in record order. */
export function recordValues(records: readonly RunRecord[], path: MeanMetricPath): number[] {
  const f = recordMetric(path);
  const out: number[] = [];
  for (const r of records) {
    const v = f(r);
    if (v !== null && v !== undefined) out.push(v);
  }
  return out;
}

/** Read one metric of a strategy summary by path; null when it does not apply. */
export function metricValue(s: StrategySummary, path: MetricPath): number | null {
  if (path.startsWith('retrieval.')) {
    const [, level, metric] = path.split('.') as [string, RetrievalLevel, RetrievalMetric];
    return s.retrieval[level]?.[metric] ?? null;
  }
  if (path.startsWith('latencyMs.')) return s.latencyMs[path.slice('latencyMs.'.length) as keyof LatencySummary];
  if (isCustomMetric(path)) return s.custom?.[path.slice(CUSTOM_PREFIX.length)]?.value ?? null;
  return s[path as Exclude<MetricPath, RetrievalPath | `latencyMs.${string}` | CustomMetricPath>];
}

// ---------------------------------------------------------------------------------------------

/** Retrieval summaries at the further cutoffs the records carry (`retrieval.at`). */
function retrievalAtSummary(records: readonly RunRecord[]): StrategySummary['retrievalAt'] | undefined {
  const ks = [...new Set(records.flatMap((r) => Object.keys(r.retrieval?.at ?? {})))];
  if (ks.length === 0) return undefined;
  const out: NonNullable<StrategySummary['retrievalAt']> = {};
  for (const k of ks) {
    const byLevel = {} as Record<RetrievalLevel, RetrievalLevelSummary | null>;
    for (const level of RETRIEVAL_LEVELS) {
      const scored = records.map((r) => r.retrieval?.at?.[k]?.[level]).filter((x): x is NonNullable<typeof x> => Boolean(x));
      byLevel[level] =
        scored.length === 0
          ? null
          : {
              n: scored.length,
              recall: mean(scored.map((x) => x.recall)),
              precision: mean(scored.map((x) => x.precision)),
              mrr: mean(scored.map((x) => x.mrr)),
              mrrUncut: nullableMean(scored.map((x) => x.mrrUncut).filter((v): v is number => v !== undefined)),
              ndcg: mean(scored.map((x) => x.ndcg)),
            };
    }
    out[k] = byLevel;
  }
  return out;
}

/** `openN` of the document level, when the records say how many documents each question left open. */
function openCount(scored: readonly RunRecord[]): Pick<RetrievalLevelSummary, 'openN'> {
  if (!scored.some((r) => typeof r.retrieval?.candidateDocs === 'number')) return {};
  return { openN: scored.filter((r) => (r.retrieval?.candidateDocs ?? 0) > 1).length };
}

function nullableMean(values: number[]): number | null {
  return values.length === 0 ? null : mean(values);
}

function summarizeStrategy(strategy: string, records: RunRecord[]): StrategySummary {
  const m = (path: MeanMetricPath) => mean(recordValues(records, path));
  const latencies = records.map((r) => r.latencyMs);

  const retrieval = {} as Record<RetrievalLevel, RetrievalLevelSummary | null>;
  for (const level of RETRIEVAL_LEVELS) {
    const scored = records.filter((r) => r.retrieval?.[level]);
    retrieval[level] =
      scored.length === 0
        ? null
        : {
            n: scored.length,
            recall: m(`retrieval.${level}.recall`),
            precision: m(`retrieval.${level}.precision`),
            mrr: m(`retrieval.${level}.mrr`),
            mrrUncut: nullableMean(recordValues(scored, `retrieval.${level}.mrrUncut`)),
            ndcg: m(`retrieval.${level}.ndcg`),
            ...(level === 'doc' ? openCount(scored) : {}),
          };
  }

  const budgetExhausted = Object.fromEntries(BUDGET_NAMES.map((b) => [b, 0])) as Record<BudgetName, number>;
  let budgetExhaustedRecords = 0;
  for (const r of records) {
    if (r.budgetExhausted) {
      budgetExhausted[r.budgetExhausted] = (budgetExhausted[r.budgetExhausted] ?? 0) + 1;
      budgetExhaustedRecords += 1;
    }
  }

  let logged = 0;
  let cached = 0;
  for (const r of records) {
    for (const c of r.callLog ?? []) {
      logged += 1;
      if (c.cached) cached += 1;
    }
  }

  let estimated = 0;
  for (const r of records) for (const c of r.callLog ?? []) if (c.estimated) estimated += 1;
  const judged = recordValues(records, 'judgeAccuracy');
  const retrievalAt = retrievalAtSummary(records);
  const judge = judgeSummary(records);
  const numeric = recordValues(records, 'numericMatch');
  const yesNo = recordValues(records, 'yesNo');
  const graded = recordValues(records, 'accuracy');
  const grounded = recordValues(records, 'groundedness');
  const groundedLexical = recordValues(records, 'groundednessLexical');
  const grader = records.filter((r) => r.groundedness?.judge);
  const graderCalls = grader.flatMap((r) => r.groundedness!.judge!.calls);
  return {
    strategy,
    records: records.length,
    questions: new Set(records.map((r) => r.questionId)).size,
    repeats: new Set(records.map((r) => r.repeat)).size,
    accuracy: nullableMean(graded),
    accuracyN: graded.length,
    ungradable: records.length - graded.length,
    exactMatch: m('exactMatch'),
    f1: m('f1'),
    numericMatch: nullableMean(numeric),
    numericN: numeric.length,
    yesNo: nullableMean(yesNo),
    yesNoN: yesNo.length,
    judgeAccuracy: nullableMean(judged),
    ...(judge ? { judge } : {}),
    groundedness: nullableMean(grounded),
    groundednessN: grounded.length,
    groundednessLexical: nullableMean(groundedLexical),
    groundednessLexicalN: groundedLexical.length,
    ...(grader.length
      ? {
          groundednessJudge: {
            graded: grounded.length,
            errors: grader.filter((r) => r.groundedness!.judge!.error).length,
            costPerQuestion: graderCalls.reduce((n, c) => n + (c.costUsd ?? 0), 0) / grader.length,
            totalCost: graderCalls.reduce((n, c) => n + (c.costUsd ?? 0), 0),
            tokensPerQuestion: graderCalls.reduce((n, c) => n + c.inputTokens + c.outputTokens, 0) / grader.length,
            model: grader[0]!.groundedness!.judge!.model,
          },
        }
      : {}),
    retrieval,
    ...(retrievalAt ? { retrievalAt } : {}),
    callsPerQuestion: m('callsPerQuestion'),
    embedCallsPerQuestion: m('embedCallsPerQuestion'),
    inputTokensPerQuestion: m('inputTokensPerQuestion'),
    outputTokensPerQuestion: m('outputTokensPerQuestion'),
    tokensPerQuestion: m('tokensPerQuestion'),
    embedTokensPerQuestion: m('embedTokensPerQuestion'),
    estimatedTokenShare: logged === 0 ? null : estimated / logged,
    costPerQuestion: m('costPerQuestion'),
    totalCost: records.reduce((sum, r) => sum + (r.costUsd ?? 0), 0),
    latencyMs: {
      mean: mean(latencies),
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
    },
    nodesVisitedPerQuestion: m('nodesVisitedPerQuestion'),
    nodesOpenedPerQuestion: m('nodesOpenedPerQuestion'),
    evidenceTokensPerQuestion: m('evidenceTokensPerQuestion'),
    cacheHitRate: logged === 0 ? null : cached / logged,
    ...cacheSummary(records),
    budgetExhausted,
    budgetExhaustedRecords,
    parseFailures: records.reduce((sum, r) => sum + (r.parseFailures ?? 0), 0),
    valueFallbackRecords: records.filter((r) => (r.valueFallbacks ?? 0) > 0).length,
    errors: records.filter((r) => r.error !== null && r.error !== undefined).length,
    ...customSummary(records),
  };
}

function customSummary(records: readonly RunRecord[]): Pick<StrategySummary, 'custom'> {
  const paths = customPaths(records);
  if (paths.length === 0) return {};
  const custom: Record<string, CustomMetricSummary> = {};
  for (const path of paths) {
    const name = path.slice(CUSTOM_PREFIX.length);
    const values = recordValues(records, path);
    custom[name] = { value: nullableMean(values), n: values.length, errors: records.filter((r) => r.customErrors?.[name] !== undefined).length };
  }
  return { custom };
}

function cacheSummary(records: readonly RunRecord[]): Pick<StrategySummary, 'cache'> {
  let calls = 0;
  let latency = 0;
  let costThen: number | null = 0;
  for (const r of records) {
    if (!r.cachedCalls) continue;
    calls += r.cachedCalls;
    latency += r.cachedLatencyMs ?? 0;
    costThen = costThen === null || r.cachedCostUsd === null || r.cachedCostUsd === undefined ? null : costThen + r.cachedCostUsd;
  }
  return calls === 0 ? {} : { cache: { calls, costThen, latencyPerCallMs: latency / calls } };
}

export function summarize(records: readonly RunRecord[]): RunSummary {
  // Last record per key wins; the key keeps its first-seen position so the order is stable.
  const unique = latestRecords(records);

  const groups = new Map<string, RunRecord[]>();
  for (const r of unique) {
    const g = groups.get(r.strategy);
    if (g) g.push(r);
    else groups.set(r.strategy, [r]);
  }
  const tags = summarizeTags(unique);
  const k = unique.find((r) => r.retrieval?.k !== undefined)?.retrieval?.k;
  return {
    runIds: [...new Set(unique.map((r) => r.runId))],
    records: unique.length,
    questions: new Set(unique.map((r) => r.questionId)).size,
    superseded: records.length - unique.length,
    ...(k !== undefined ? { k } : {}),
    strategies: [...groups].map(([name, rs]) => summarizeStrategy(name, rs)),
    ...(tags.length ? { tags } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Flat view (CSV columns and anything else that wants one row per strategy)

export type FlatValue = string | number | null;

/**
 * One strategy summary as ordered [column, value] pairs. The columns are the same for every
 * strategy and every run (absent retrieval levels give n = 0 and empty values), so CSV files
 * from different nights line up. Interval columns are not included; see `flattenIntervals`.
 */
export function flattenStrategySummary(s: StrategySummary): Array<[string, FlatValue]> {
  const cols: Array<[string, FlatValue]> = [
    ['strategy', s.strategy],
    ['records', s.records],
    ['questions', s.questions],
    ['repeats', s.repeats],
    ['accuracy', s.accuracy],
    ['accuracyN', s.accuracyN],
    ['ungradable', s.ungradable],
    ['exactMatch', s.exactMatch],
    ['f1', s.f1],
    ['numericMatch', s.numericMatch],
    ['numericN', s.numericN],
    ['yesNo', s.yesNo],
    ['yesNoN', s.yesNoN],
  ];
  for (const level of RETRIEVAL_LEVELS) {
    const l = s.retrieval[level];
    cols.push([`retrieval.${level}.n`, l ? l.n : 0]);
    for (const metric of RETRIEVAL_METRICS) cols.push([`retrieval.${level}.${metric}`, l ? l[metric] : null]);
  }
  // Empty when the records predate candidateDocs; 0 in the closed setting.
  cols.push(['retrieval.doc.openN', s.retrieval.doc?.openN ?? null]);
  cols.push(
    ['callsPerQuestion', s.callsPerQuestion],
    ['embedCallsPerQuestion', s.embedCallsPerQuestion],
    ['inputTokensPerQuestion', s.inputTokensPerQuestion],
    ['outputTokensPerQuestion', s.outputTokensPerQuestion],
    ['tokensPerQuestion', s.tokensPerQuestion],
    ['costPerQuestion', s.costPerQuestion],
    ['totalCost', s.totalCost],
    ['latencyMs.mean', s.latencyMs.mean],
    ['latencyMs.p50', s.latencyMs.p50],
    ['latencyMs.p95', s.latencyMs.p95],
    ['latencyMs.p99', s.latencyMs.p99],
    ['nodesVisitedPerQuestion', s.nodesVisitedPerQuestion],
    ['nodesOpenedPerQuestion', s.nodesOpenedPerQuestion],
    ['evidenceTokensPerQuestion', s.evidenceTokensPerQuestion],
    ['cacheHitRate', s.cacheHitRate],
    ['embedTokensPerQuestion', s.embedTokensPerQuestion],
    ['estimatedTokenShare', s.estimatedTokenShare],
    ['judgeAccuracy', s.judgeAccuracy],
    ['judge.n', s.judge?.n ?? 0],
    ['judge.kappa', s.judge?.agreement?.kappa ?? null],
    ['judge.kappaLo', s.judge?.agreement?.lo ?? null],
    ['judge.kappaHi', s.judge?.agreement?.hi ?? null],
    ['judge.agree', s.judge?.agreement?.agree ?? null],
    ['judge.costPerQuestion', s.judge?.costPerQuestion ?? null],
    ['judge.tokensPerQuestion', s.judge?.tokensPerQuestion ?? null],
    ['judge.latencyMs.mean', s.judge?.latencyMs ?? null],
    ['groundedness', s.groundedness ?? null],
    ['groundedness.n', s.groundednessN ?? 0],
    ['groundednessLexical', s.groundednessLexical ?? null],
    ['groundednessLexical.n', s.groundednessLexicalN ?? 0],
    ['groundedness.costPerQuestion', s.groundednessJudge?.costPerQuestion ?? null],
  );
  for (const b of BUDGET_NAMES) cols.push([`budgetExhausted.${b}`, s.budgetExhausted[b] ?? 0]);
  cols.push(
    ['budgetExhaustedRecords', s.budgetExhaustedRecords],
    ['parseFailures', s.parseFailures],
    ['valueFallbackRecords', s.valueFallbackRecords],
    ['errors', s.errors],
  );
  // Custom scorers' columns come last, so the built-in columns line up across every run.
  for (const [name, c] of Object.entries(s.custom ?? {})) cols.push([`custom.${name}`, c.value], [`custom.${name}.n`, c.n]);
  return cols;
}

/** Metric paths with an interval in any of the strategies, in METRIC_PATHS order, then custom ones. */
export function intervalPaths(strategies: readonly StrategySummary[]): MetricPath[] {
  const custom = [...new Set(strategies.flatMap((s) => Object.keys(s.custom ?? {})))].map((n) => `${CUSTOM_PREFIX}${n}` as CustomMetricPath);
  return [...METRIC_PATHS, ...custom].filter((p) => strategies.some((s) => s.intervals?.[p] !== undefined));
}
