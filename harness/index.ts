// The engine's public face: what the folders above (and, through the package's index.ts, a
// user's program) may rely on. Everything else in harness/ is internal and may change between
// versions without notice.
//
// Writing a strategy:   defineStrategy, z (zod, for params schemas), the protocol types
// Writing a scorer:     defineScorer, ScorerInput
// Reading results:      RunRecord, RunSummary, StrategySummary, RunManifest, CompareReport, the statistics
export { z } from 'zod';
export { defineStrategy } from './plugins/define.ts';
export type { PluginRequest, StrategyPlugin, StrategyPluginDefinition } from './plugins/define.ts';
export { PROTOCOL } from './plugins/protocol.ts';
export type { CorpusFile, EvidenceRef, PageIndexNode, StrategyRequest, StrategyResponse, TraceStepInput } from './plugins/protocol.ts';
export type { ChunkHit, StrategyContext, ValueSearchOptions } from './strategy/context.ts';
export type { PromptInfo, Strategy } from './strategy/strategy.ts';
export { getStrategy, listStrategies, registerStrategy } from './strategy/registry.ts';
export { defineScorer } from './scoring/scorer.ts';
export type { Scorer, ScorerDefinition, ScorerInfo, ScorerInput } from './scoring/scorer.ts';
export type { CompareArgs, CompareReport, RunLabel } from './analysis/compare/build.ts';
export type { ComparisonResult, MetricComparison, StrategyComparison } from './analysis/compare/paired.ts';
export type { CompareMetric } from './analysis/compare/metrics.ts';
export type {
  Budget,
  BudgetName,
  CallLog,
  ChatMessage,
  ChatOptions,
  ChatResult,
  Corpus,
  DocTree,
  EvidenceItem,
  GoldEvidence,
  Question,
  QuestionInput,
  RunRecord,
  StrategyResult,
  ToolCall,
  ToolSpec,
  TraceStep,
  TreeNode,
} from './types.ts';
export type { RunSummary, StrategySummary, ConfidenceInterval, CustomMetricSummary, LatencySummary } from './summary/summary.ts';
export type { RunManifest } from './run/store.ts';
export type { LoadedConfig, RunConfig, StrategySpec } from './config/runConfig.ts';
export type { Progress, RunStop } from './run/runner.ts';
export { ConfigError, UsageError } from './errors.ts';
export * as stats from './stats/index.ts';
