// Gate rules (`treebench gate --rules gates.yaml`), validated with zod. Errors name the file,
// the line and the field, e.g. `gates.yaml:4 rules.accuracy.maxDrop: ...`.
//
//   alpha: 0.05            # default significance level of every rule
//   correction: holm       # Holm over all tested rules × strategies, or none
//   resamples: 10000
//   rules:                 # for every strategy
//     accuracy: { maxDrop: 0.02 }                     # absolute, in the metric's units
//     costPerQuestion: { maxIncrease: "10%" }         # relative to the baseline
//     latencyP95: { maxIncrease: "20%", ignoreBelow: 250 }
//   strategies:            # per-strategy overrides, merged over `rules` field by field
//     vector: { accuracy: { maxDrop: 0.05 }, latencyP95: off }
//   coverage:              # on by default (`coverage: off` switches it off); see evaluate.ts
//     maxMissing: 0                 # baseline questions the candidate may lack (count or "N%")
//     requireFinished: true         # an unfinished candidate fails
//     maxExtraErrors: "1%"          # error records beyond the baseline's, on the paired questions
//     maxExtraBudgetExhausted: "5%" # budget-exhausted records beyond the baseline's
//   power: { onLow: note, level: 0.8 }   # what a rule too weak to detect its margin does: note | fail | off
import { isCustomMetric } from '../../scoring/scorer.ts';
import { z } from 'zod';
import { ConfigError, formatFieldPath } from '../../errors.ts';
import { readYamlFile } from '../../files/yamlFile.ts';
import { higherIsBetter, isMetricName, resolveMetric, type CompareMetric } from '../compare/metrics.ts';
import type { RetrievalLevel } from '../../summary/summary.ts';

const PERCENT = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/;

const threshold = z.union([
  z.number().nonnegative('must be >= 0'),
  z.string().regex(PERCENT, 'must be a number (absolute, in the metric\'s units) or a percentage like "10%" (relative to the baseline)'),
]);

const ruleSchema = z
  .object({
    /** Quality metrics: the largest acceptable fall (baseline − candidate). */
    maxDrop: threshold.optional(),
    /** Cost/latency metrics: the largest acceptable rise (candidate − baseline). */
    maxIncrease: threshold.optional(),
    /** Significance level for this rule (default: the file's alpha). */
    alpha: z.number().gt(0, 'must be > 0').lt(1, 'must be < 1').optional(),
    /** Fail on the threshold alone, without a significant test (default true: require it). */
    requireSignificance: z.boolean().optional(),
    /** Changes smaller than this (absolute, metric units) never fail — e.g. milliseconds of timer noise. */
    ignoreBelow: z.number().nonnegative('must be >= 0').optional(),
  })
  .strict();

export type RuleInput = z.infer<typeof ruleSchema>;

/** `off`, `false` or `null` switches a rule off for one strategy. */
const offSchema = z.union([z.null(), z.literal(false), z.literal('off')]);

const coverageSchema = z
  .object({
    /** Baseline questions (per strategy) the candidate may lack: a count, or "N%" of the baseline's questions. */
    maxMissing: threshold.default(0),
    /** An unfinished candidate run (killed, stopped by the circuit breaker) fails. */
    requireFinished: z.boolean().default(true),
    /** Error records the candidate may have beyond the baseline's on the paired questions: a count or "N%" of the baseline's records. */
    maxExtraErrors: threshold.default('1%'),
    /** Budget-exhausted records beyond the baseline's, as for errors. */
    maxExtraBudgetExhausted: threshold.default('5%'),
  })
  .strict();

export type CoverageRules = z.output<typeof coverageSchema>;

const powerSchema = z
  .object({
    /** A rule whose margin is below what these questions can detect: `note` says so, `fail` fails it, `off` says nothing. */
    onLow: z.enum(['note', 'fail', 'off']).default('note'),
    /** Power at which the detectable change is estimated (normal approximation). */
    level: z.number().gt(0, 'must be > 0').lt(1, 'must be < 1').default(0.8),
  })
  .strict();

export type PowerRules = z.output<typeof powerSchema>;

export const gateFileSchema = z
  .object({
    alpha: z.number().gt(0, 'must be > 0').lt(1, 'must be < 1').default(0.05),
    correction: z.enum(['holm', 'none']).default('holm'),
    resamples: z.number().int().min(100).default(10_000),
    rules: z.record(z.string(), ruleSchema).default({}),
    strategies: z.record(z.string(), z.record(z.string(), z.union([ruleSchema, offSchema]))).default({}),
    /** The coverage rule, on by default; `off` (or false/null) switches it off. */
    coverage: z.union([offSchema.transform(() => null), coverageSchema]).default(() => coverageSchema.parse({})),
    /** `power: off` is short for `power: { onLow: off }`. */
    power: z.union([z.enum(['note', 'fail', 'off']).transform((onLow) => powerSchema.parse({ onLow })), powerSchema]).default(() => powerSchema.parse({})),
  })
  .strict();

export type GateFile = z.infer<typeof gateFileSchema>;

export interface Threshold {
  value: number;
  relative: boolean;
  /** As written: "10%" or "0.02". */
  text: string;
}

export interface EffectiveRule {
  /** The name as written in the file (e.g. `latencyP95`). */
  name: string;
  metric: CompareMetric;
  kind: 'maxDrop' | 'maxIncrease';
  threshold: Threshold;
  alpha: number;
  requireSignificance: boolean;
  ignoreBelow: number;
  /** Where the rule came from, for messages: `rules.accuracy` or `strategies.vector.accuracy`. */
  source: string;
}

export function parseThreshold(t: number | string): Threshold {
  if (typeof t === 'number') return { value: t, relative: false, text: String(t) };
  const m = PERCENT.exec(t)!;
  return { value: Number(m[1]) / 100, relative: true, text: `${m[1]}%` };
}

type Issue = { path: PropertyKey[]; message: string };

/** Checks a rule's metric name and direction; `partial` rules (overrides) may omit the threshold. */
function checkRule(name: string, rule: RuleInput, path: PropertyKey[], partial: boolean, issues: Issue[]): void {
  if (!isMetricName(name)) {
    issues.push({ path, message: `unknown metric "${name}" (e.g. accuracy, f1, evidenceRecall, callsPerQuestion, tokensPerQuestion, costPerQuestion, latencyP95)` });
    return;
  }
  if (rule.maxDrop !== undefined && rule.maxIncrease !== undefined) {
    issues.push({ path, message: 'give maxDrop or maxIncrease, not both' });
    return;
  }
  if (!partial && rule.maxDrop === undefined && rule.maxIncrease === undefined) {
    issues.push({ path, message: 'needs maxDrop (quality metrics) or maxIncrease (cost, calls, tokens, latency)' });
    return;
  }
  // A custom scorer's direction is not known before the runs are read: its rule's verb says it.
  if (isCustomMetric(name)) return;
  const hib = higherIsBetter(resolveMetric(name, 'node')!);
  if (rule.maxDrop !== undefined && !hib) issues.push({ path: [...path, 'maxDrop'], message: `${name} is better when lower: use maxIncrease` });
  if (rule.maxIncrease !== undefined && hib) issues.push({ path: [...path, 'maxIncrease'], message: `${name} is better when higher: use maxDrop` });
}

const formatPath = formatFieldPath;

/** Validates a parsed rules object; `where` maps a field path to `file:line`. */
export function validateGateRules(input: unknown, where: (path: PropertyKey[]) => string = () => 'gate rules'): GateFile {
  const parsed = gateFileSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${where(i.path)} ${formatPath(i.path) || '(top level)'}: ${i.message}`);
    throw new ConfigError(`invalid gate rules:\n${lines.join('\n')}`);
  }
  const file = parsed.data;
  const issues: Issue[] = [];
  for (const [name, rule] of Object.entries(file.rules)) checkRule(name, rule, ['rules', name], false, issues);
  for (const [strategy, rules] of Object.entries(file.strategies)) {
    for (const [name, rule] of Object.entries(rules)) {
      const path = ['strategies', strategy, name];
      if (rule === null || rule === false || rule === 'off') {
        if (!isMetricName(name)) issues.push({ path, message: `unknown metric "${name}"` });
        continue;
      }
      const base = file.rules[name];
      checkRule(name, rule, path, base !== undefined, issues);
      // An override that switches direction would be half a rule; say so.
      if (base && ((rule.maxDrop !== undefined && base.maxIncrease !== undefined) || (rule.maxIncrease !== undefined && base.maxDrop !== undefined))) {
        issues.push({ path, message: `overrides rules.${name} with the other direction` });
      }
    }
  }
  if (issues.length) {
    throw new ConfigError(`invalid gate rules:\n${issues.map((i) => `  ${where(i.path)} ${formatPath(i.path)}: ${i.message}`).join('\n')}`);
  }
  return file;
}

/** Reads and validates a rules YAML file. */
export function loadGateRules(path: string): GateFile {
  const file = readYamlFile(path, 'gate rules');
  return validateGateRules(file.data, file.where);
}

/** The rules that apply to one strategy: `rules` with that strategy's overrides merged in. */
export function rulesFor(file: GateFile, strategy: string, level: RetrievalLevel): EffectiveRule[] {
  const overrides = file.strategies[strategy] ?? {};
  const names = [...Object.keys(file.rules), ...Object.keys(overrides).filter((n) => !(n in file.rules))];
  const out: EffectiveRule[] = [];
  for (const name of names) {
    const o = overrides[name];
    if (o === null || o === false || o === 'off') continue;
    const merged: RuleInput = { ...(file.rules[name] ?? {}), ...(o ?? {}) };
    // An override giving the other threshold was refused by validation; a same-direction one replaces it.
    const kind = merged.maxDrop !== undefined ? 'maxDrop' : 'maxIncrease';
    const t = merged[kind]!;
    out.push({
      name,
      metric: resolveMetric(name, level)!,
      kind,
      threshold: parseThreshold(t),
      alpha: merged.alpha ?? file.alpha,
      requireSignificance: merged.requireSignificance ?? true,
      ignoreBelow: merged.ignoreBelow ?? 0,
      source: o ? `strategies.${strategy}.${name}` : `rules.${name}`,
    });
  }
  return out;
}
