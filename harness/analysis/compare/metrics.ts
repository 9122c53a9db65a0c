// Which metrics can be compared between runs, which way is better, and the short names people
// write in gate rules and on the command line (`evidenceRecall`, `latencyP95`, ...).
import {
  MEAN_METRIC_PATHS,
  RETRIEVAL_LEVELS,
  RETRIEVAL_METRICS,
  type MeanMetricPath,
  type RetrievalLevel,
} from '../../summary/summary.ts';
import { CUSTOM_PREFIX, isCustomMetric } from '../../scoring/scorer.ts';

export type PercentilePath = 'latencyMs.p50' | 'latencyMs.p95' | 'latencyMs.p99';
/** A metric a paired comparison can test: a per-record mean or a latency percentile. */
export type CompareMetric = MeanMetricPath | PercentilePath;

export const PERCENTILE_PATHS: Record<PercentilePath, number> = { 'latencyMs.p50': 50, 'latencyMs.p95': 95, 'latencyMs.p99': 99 };
export const COMPARE_METRICS: CompareMetric[] = [...MEAN_METRIC_PATHS, ...(Object.keys(PERCENTILE_PATHS) as PercentilePath[])];

/** Correct/incorrect per record: McNemar's exact test applies when each side has one outcome per question. */
export const BINARY_METRICS: ReadonlySet<CompareMetric> = new Set<CompareMetric>(['accuracy', 'exactMatch', 'numericMatch', 'yesNo', 'judgeAccuracy']);

export const isPercentile = (m: CompareMetric): m is PercentilePath => m in PERCENTILE_PATHS;

/**
 * Quality metrics go up when things improve; effort metrics (calls, tokens, dollars, time, nodes)
 * go down. A custom metric goes the way its scorer declared (`directions`, by scorer name), up
 * when nobody said.
 */
export function higherIsBetter(m: CompareMetric, directions?: Readonly<Record<string, boolean>>): boolean {
  if (isCustomMetric(m)) return directions?.[m.slice(CUSTOM_PREFIX.length)] ?? true;
  return BINARY_METRICS.has(m) || m === 'f1' || m === 'groundedness' || m === 'groundednessLexical' || m.startsWith('retrieval.');
}

/** Short names, resolved against the finest retrieval level with gold evidence. */
const ALIASES: Record<string, CompareMetric | ((level: RetrievalLevel) => CompareMetric)> = {
  em: 'exactMatch',
  evidenceRecall: (l) => `retrieval.${l}.recall`,
  recall: (l) => `retrieval.${l}.recall`,
  evidencePrecision: (l) => `retrieval.${l}.precision`,
  precision: (l) => `retrieval.${l}.precision`,
  mrr: (l) => `retrieval.${l}.mrr`,
  mrrUncut: (l) => `retrieval.${l}.mrrUncut`,
  recipRank: (l) => `retrieval.${l}.mrrUncut`,
  ndcg: (l) => `retrieval.${l}.ndcg`,
  calls: 'callsPerQuestion',
  tokens: 'tokensPerQuestion',
  judge: 'judgeAccuracy',
  grounded: 'groundedness',
  lexicalSupport: 'groundednessLexical',
  embedTokens: 'embedTokensPerQuestion',
  cost: 'costPerQuestion',
  dollarsPerQuestion: 'costPerQuestion',
  latency: 'latencyMs.mean',
  latencyMean: 'latencyMs.mean',
  latencyP50: 'latencyMs.p50',
  latencyP95: 'latencyMs.p95',
  latencyP99: 'latencyMs.p99',
  nodesVisited: 'nodesVisitedPerQuestion',
  nodesOpened: 'nodesOpenedPerQuestion',
  evidenceTokens: 'evidenceTokensPerQuestion',
};
for (const level of RETRIEVAL_LEVELS) {
  for (const metric of RETRIEVAL_METRICS) {
    ALIASES[`${level}${metric[0].toUpperCase()}${metric.slice(1)}`] = `retrieval.${level}.${metric}`;
  }
}

/** Every name accepted by resolveMetric: full paths and aliases (and `custom.<name>` of a custom scorer). */
export function metricNames(): string[] {
  return [...COMPARE_METRICS, ...Object.keys(ALIASES), 'custom.<scorer name>'];
}

export function isMetricName(name: string): boolean {
  return (COMPARE_METRICS as string[]).includes(name) || Object.hasOwn(ALIASES, name) || isCustomMetric(name);
}

/** A full metric path for a name or alias; null when the name is unknown. */
export function resolveMetric(name: string, level: RetrievalLevel): CompareMetric | null {
  if ((COMPARE_METRICS as string[]).includes(name) || isCustomMetric(name)) return name as CompareMetric;
  const a = Object.hasOwn(ALIASES, name) ? ALIASES[name] : undefined;
  if (a === undefined) return null;
  return typeof a === 'function' ? a(level) : a;
}

/** What `compare` shows when --metrics is not given. */
export const DEFAULT_COMPARE_METRICS = ['accuracy', 'f1', 'evidenceRecall', 'callsPerQuestion', 'tokensPerQuestion', 'costPerQuestion', 'latencyP95'];
