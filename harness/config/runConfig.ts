// Run configuration: YAML validated with zod. Every error names the file, the field path and,
// where the YAML has it, the line — e.g. `configs/x.yaml:14 strategies[1].params.topK: ...`.
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { BUDGET_NAMES } from '../run/budget.ts';
import { ConfigError, formatFieldPath } from '../errors.ts';
import { readYamlFile } from '../files/yamlFile.ts';
import { expandGrid, gridAxes } from './grid.ts';
import { substituteEnv } from './variables.ts';
import { applyOverrides, overrideLocator, parseOverride } from './overrides.ts';
import { modelConfigSchema } from '../models/providers/registry.ts';
import { judgeConfigSchema } from '../scoring/judge/config.ts';
import { corpusConfigSchema, datasetConfigSchema } from './dataSections.ts';
import { getStrategy, listStrategies } from '../strategy/registry.ts';
import type { Budget } from '../types.ts';

export { ConfigError };

const budgetSchema = z
  .object(Object.fromEntries(BUDGET_NAMES.map((n) => [n, z.number().positive().optional()])) as Record<keyof Budget & string, z.ZodOptional<z.ZodNumber>>)
  .strict();

const strategyEntrySchema = z.union([
  z.string(),
  z
    .object({
      /** Registry name of the strategy. */
      strategy: z.string(),
      /** Label in records and reports; lets one strategy run with several parameter sets. */
      id: z.string().regex(/^[A-Za-z0-9._-]+$/, 'use letters, digits, dot, dash or underscore').optional(),
      params: z.record(z.string(), z.unknown()).default({}),
      /** Per-strategy budget, merged over the run's budget. */
      budget: budgetSchema.optional(),
      /** Expand to one variant per combination of these values (see harness/config/grid.ts). */
      grid: z.record(z.string(), z.array(z.unknown())).optional(),
    })
    .strict(),
]);

export const configSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    dataset: datasetConfigSchema,
    corpus: corpusConfigSchema.optional(),
    model: z.preprocess((v) => v ?? { provider: 'offline' }, modelConfigSchema),
    /** `hash` (offline) or `openai:<model>`. */
    embedder: z.string().default('hash'),
    index: z
      .object({
        chunkTokens: z.number().int().min(16).max(8192).default(256),
        overlap: z.number().int().min(0).default(32),
        /** On-disk embedding cache: a second run embeds only chunks it has not seen (README, "Performance"). */
        cache: z
          .object({ enabled: z.boolean().default(true), dir: z.string().default('.treebench/embeddings') })
          .strict()
          .default({ enabled: true, dir: '.treebench/embeddings' }),
        /** Approximate (HNSW) search for dense corpora of at least minChunks chunks; false = always exact. */
        approximate: z
          .union([
            z.literal(false),
            z
              .object({
                minChunks: z.number().int().min(1).default(50_000),
                connectivity: z.number().int().min(2).max(256).optional(),
                expansionAdd: z.number().int().min(1).optional(),
                expansionSearch: z.number().int().min(1).optional(),
                oversample: z.number().int().min(1).optional(),
              })
              .strict(),
          ])
          .default({ minChunks: 50_000 }),
      })
      .strict()
      .default({ chunkTokens: 256, overlap: 32, cache: { enabled: true, dir: '.treebench/embeddings' }, approximate: { minChunks: 50_000 } }),
    strategies: z.array(strategyEntrySchema).min(1),
    budget: budgetSchema.default({}),
    run: z
      .object({
        /** Model calls in flight at once. */
        concurrency: z.number().int().min(1).max(1024).default(8),
        repeats: z.number().int().min(1).default(1),
        seed: z.number().int().default(42),
        limit: z.number().int().min(1).optional(),
        outDir: z.string().default('runs'),
        /** A finished run whose share of error records is above this exits 3. */
        maxErrorRate: z.number().min(0).max(1).default(0.2),
        /** Consecutive connection failures (each after its retries) that stop the run. */
        maxConsecutiveFailures: z.number().int().min(1).default(5),
      })
      .strict()
      .default({ concurrency: 8, repeats: 1, seed: 42, outDir: 'runs', maxErrorRate: 0.2, maxConsecutiveFailures: 5 }),
    scoring: z
      .object({
        f1Threshold: z.number().min(0).max(1).default(0.5),
        numericRelTol: z.number().min(0).default(0.01),
        /** Cutoff(s) of ranked retrieval metrics: `10` or `[5, 10, 20]`; the first is the headline (nDCG@10). */
        k: z.union([z.number().int().positive(), z.array(z.number().int().positive()).min(1)]).default(10),
        /** Optional LLM judge beside the rule judge (harness/scoring/judge/llm.ts). */
        judge: judgeConfigSchema.optional(),
      })
      .strict()
      .default({ f1Threshold: 0.5, numericRelTol: 0.01, k: 10 }),
    /** On-disk response cache for chat calls (useful with paid models; see README). */
    cache: z
      .object({ enabled: z.boolean().default(false), dir: z.string().default('.treebench/cache') })
      .strict()
      .default({ enabled: false, dir: '.treebench/cache' }),
    reports: z.array(z.enum(['table', 'md', 'csv', 'json', 'html'])).default(['md', 'csv']),
  })
  .strict();

export type RunConfig = z.infer<typeof configSchema>;

/** A strategy entry after validation: registry name, label, parsed params, merged budget. */
export interface StrategySpec {
  id: string;
  strategy: string;
  params: Record<string, unknown>;
  budget: Budget;
  /** For a grid variant: its combination, grid key → value (harness/config/grid.ts). */
  grid?: Record<string, unknown>;
}

export interface LoadedConfig {
  path: string;
  baseDir: string;
  raw: string;
  config: RunConfig;
  strategies: StrategySpec[];
  /** `--set` expressions applied, in order (part of the config hash; see overrides.ts). */
  overrides?: string[];
  /** Environment variables substituted into the config, with the values used. */
  env?: Record<string, string>;
}

export interface LoadOptions {
  /** `--set path=value` expressions. */
  set?: readonly string[];
  /** Where `${VAR}` reads from (default: process.env). */
  env?: Record<string, string | undefined>;
}

const formatPath = formatFieldPath;

/** Validates a parsed config object; `where` maps a field path to `file:line` for messages. */
export function validateConfig(input: unknown, where: (path: PropertyKey[]) => string = () => 'config'): { config: RunConfig; strategies: StrategySpec[] } {
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${where(i.path)} ${formatPath(i.path) || '(top level)'}: ${i.message}`);
    throw new ConfigError(`invalid config:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  const errors: string[] = [];
  const strategies: StrategySpec[] = [];
  const seen = new Set<string>();
  config.strategies.forEach((entry, i) => {
    const e = typeof entry === 'string' ? { strategy: entry, params: {} as Record<string, unknown> } : entry;
    const id = (typeof entry === 'string' ? undefined : entry.id) ?? e.strategy;
    let strategy;
    try {
      strategy = getStrategy(e.strategy);
    } catch {
      const path = typeof entry === 'string' ? ['strategies', i] : ['strategies', i, 'strategy'];
      errors.push(`  ${where(path)} ${formatPath(path)}: unknown strategy "${e.strategy}" (known: ${listStrategies().map((s) => s.name).join(', ')})`);
      return;
    }
    const entryBudget = typeof entry === 'string' ? {} : entry.budget ?? {};
    const grid = typeof entry === 'string' ? undefined : entry.grid;
    const { axes, problems } = gridAxes(grid ?? {});
    for (const [key, message] of problems) {
      const path = ['strategies', i, 'grid', key];
      errors.push(`  ${where(path)} strategies[${i}].grid.${key}: ${message}`);
    }
    if (problems.length) return;
    const variants = grid ? expandGrid(id, e.params, axes) : [{ id, params: e.params, budget: {}, coords: undefined }];
    for (const v of variants) {
      if (seen.has(v.id)) {
        errors.push(`  ${where(['strategies', i])} strategies[${i}]: duplicate strategy id "${v.id}" (give each entry its own \`id\`)`);
        continue;
      }
      seen.add(v.id);
      // A grid variant that does not validate names its combination and points at the grid key.
      const label = v.coords ? `${v.id}: ` : '';
      const at = (kind: 'params' | 'budget', key: PropertyKey | undefined, rest: PropertyKey[]): PropertyKey[] => {
        const axis = axes.find((a) => a.target.kind === (kind === 'params' ? 'param' : 'budget') && a.target.name === key);
        return axis ? ['strategies', i, 'grid', axis.key] : ['strategies', i, kind, ...rest];
      };
      const params = strategy.params.safeParse(v.params);
      if (!params.success) {
        for (const issue of params.error.issues) {
          const path = at('params', issue.path[0], issue.path);
          errors.push(`  ${where(path)} ${label}${formatPath(['strategies', i, 'params', ...issue.path])}: ${issue.message}`);
        }
        continue;
      }
      const budget = budgetSchema.safeParse({ ...entryBudget, ...v.budget });
      if (!budget.success) {
        for (const issue of budget.error.issues) {
          const path = at('budget', issue.path[0], issue.path);
          errors.push(`  ${where(path)} ${label}${formatPath(['strategies', i, 'budget', ...issue.path])}: ${issue.message}`);
        }
        continue;
      }
      strategies.push({
        id: v.id,
        strategy: e.strategy,
        params: params.data as Record<string, unknown>,
        budget: { ...config.budget, ...budget.data },
        ...(v.coords ? { grid: v.coords } : {}),
      });
    }
  });
  if (errors.length) throw new ConfigError(`invalid config:\n${errors.join('\n')}`);
  return { config, strategies };
}

/**
 * Reads, parses and validates a YAML config file: `${VAR}` placeholders first, then `--set`
 * overrides, then the schema (errors in an overridden field name the flag).
 */
export function loadConfig(path: string, opts: LoadOptions = {}): LoadedConfig {
  const abs = resolve(path);
  const file = readYamlFile(path, 'config');
  // An empty file or a bare value is not a config; say which file, as every config error does.
  if (file.data === null || file.data === undefined || typeof file.data !== 'object' || Array.isArray(file.data)) {
    const got = file.data === null || file.data === undefined ? 'is empty' : `holds ${Array.isArray(file.data) ? 'a list' : `a ${typeof file.data} (${JSON.stringify(file.data).slice(0, 40)})`}`;
    throw new ConfigError(`${path}: the config ${got}; a config is a mapping of fields (name, dataset, strategies, …; see configs/quickstart.yaml)`);
  }
  const { data, used } = substituteEnv(file.data, opts.env ?? process.env, file.where);
  const overrides = (opts.set ?? []).map((expr) => parseOverride(expr, data));
  const where = overrideLocator(file.where, overrides);
  const { config, strategies } = validateConfig(applyOverrides(data, overrides), where);
  return {
    path: abs,
    baseDir: dirname(abs),
    raw: file.raw,
    config,
    strategies,
    ...(overrides.length ? { overrides: overrides.map((o) => o.expr) } : {}),
    ...(Object.keys(used).length ? { env: used } : {}),
  };
}
