// Run configuration: YAML validated with zod. Every error names the file, the field path and,
// where the YAML has it, the line — e.g. `configs/x.yaml:14 strategies[1].params.topK: ...`.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { z } from 'zod';
import { BUDGET_NAMES } from '../run/budget.ts';
import { ConfigError, formatFieldPath } from '../errors.ts';
import { explainIssues, unknownKeyMessage } from './issues.ts';
import { closest } from '../text/suggest.ts';
import { readYamlFile } from '../files/yamlFile.ts';
import { expandGrid, gridAxes } from './grid.ts';
import { substituteEnv } from './variables.ts';
import { applyOverrides, overrideLocator, parseOverride } from './overrides.ts';
import { modelConfigSchema } from '../models/providers/registry.ts';
import { priceTableSchema } from '../models/prices.ts';
import { judgeConfigSchema } from '../scoring/judge/config.ts';
import { groundednessConfigSchema } from '../scoring/judge/grounding.ts';
import { corpusConfigSchema, datasetConfigSchema } from './dataSections.ts';
import { getStrategy, hasStrategy, listStrategies } from '../strategy/registry.ts';
import type { Strategy } from '../strategy/strategy.ts';
import type { Budget } from '../types.ts';

export { ConfigError };

const budgetSchema = z
  .object(Object.fromEntries(BUDGET_NAMES.map((n) => [n, z.number().positive().optional()])) as Record<keyof Budget & string, z.ZodOptional<z.ZodNumber>>)
  .strict();

const entryId = z
  .string({ error: (issue) => (issue.input === undefined ? 'required: a command or url entry names its strategy with `id` (the label in records and reports)' : 'expected a string') })
  .regex(/^[A-Za-z0-9._-]+$/, 'use letters, digits, dot, dash or underscore');

/** What every strategy entry may set, whichever door it names. */
const entryCommon = {
  /** Label in records and reports; lets one strategy run with several parameter sets. */
  id: entryId.optional(),
  params: z.record(z.string(), z.unknown()).default({}),
  /** Per-strategy budget, merged over the run's budget. */
  budget: budgetSchema.optional(),
  /** Expand to one variant per combination of these values (see harness/config/grid.ts). */
  grid: z.record(z.string(), z.array(z.unknown())).optional(),
};
/** Out of process: how long one question may take before it is an error record. */
const timeoutMs = z.number().int().min(1).default(120_000);

/**
 * The four kinds of strategy entry, told apart by the key that names the strategy:
 * `strategy` (a built-in, by registry name), `module` (an in-process plugin made with
 * defineStrategy), `command` (a worker speaking the protocol on stdin/stdout) and `url` (an HTTP
 * service). A bare string is a built-in's name, or a module's path when it looks like one.
 */
const ENTRY_KINDS = {
  strategy: z
    .object({
      strategy: z.string().min(1),
      ...entryCommon,
      /** Prompt templates replacing the strategy's own, by prompt name (`treebench strategies` lists them). */
      prompts: z.record(z.string(), z.string().min(1)).optional(),
    })
    .strict(),
  module: z.object({ module: z.string().min(1), ...entryCommon, timeoutMs }).strict(),
  command: z
    .object({
      command: z.array(z.string().min(1), { error: 'expected the program and its arguments as a list, e.g. [python3, ./retriever.py]' }).min(1),
      ...entryCommon,
      id: entryId,
      timeoutMs,
      /** Extra environment variables for the worker. */
      env: z.record(z.string(), z.string()).optional(),
      /** The worker prints {"ready": true} once loaded: nothing is sent, and no latency counted, before. */
      ready: z.boolean().default(false),
    })
    .strict(),
  url: z
    .object({
      url: z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' }),
      ...entryCommon,
      id: entryId,
      timeoutMs,
      /** Extra request headers (e.g. an Authorization for the service; use ${VAR} for secrets). */
      headers: z.record(z.string(), z.string()).optional(),
    })
    .strict(),
} as const;
type EntryKind = keyof typeof ENTRY_KINDS;

const strategyEntrySchema = z.union([z.string().min(1), z.record(z.string(), z.unknown())]);

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
        /** On-disk embedding cache: a second run embeds only chunks it has not seen (docs/performance.md). */
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
        /** Dollars (priced calls) after which the run launches no more work; the rest is resumable. */
        maxDollars: z.number().positive({ error: 'must be a number of dollars > 0' }).optional(),
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
        /** Optional LLM-judged groundedness in the retrieved evidence (harness/scoring/judge/grounding.ts); the lexical proxy is always on. */
        groundedness: groundednessConfigSchema.optional(),
        /** A free-text gold with more words than this is ungradable by the rule judge (default 9; harness/scoring/answer.ts). */
        maxGoldWords: z.number().int().positive().optional(),
        /** Custom per-record metrics: modules made with `defineScorer`, paths relative to the config (harness/scoring/scorer.ts). */
        scorers: z.array(z.string().min(1, 'a scorer is the path of a module made with defineScorer')).optional(),
      })
      .strict()
      .default({ f1Threshold: 0.5, numericRelTol: 0.01, k: 10 }),
    /** On-disk response cache for chat calls (useful with paid models; see docs/real-models.md). */
    // `mode` wins over `enabled` (kept for older configs: true = use, false = off). `replay` answers
    // only from the cache and fails a question on a miss; `refresh` calls again and overwrites.
    cache: z
      .object({ enabled: z.boolean().default(false), dir: z.string().default('.treebench/cache'), mode: z.enum(['use', 'replay', 'refresh', 'off']).optional() })
      .strict()
      .default({ enabled: false, dir: '.treebench/cache' }),
    /**
     * Prices merged over the shipped table (configs/prices.yaml): a YAML file of the same shape
     * (path relative to the config), or the table inline (`models: { my-model: { input, output } }`).
     */
    prices: z.union([z.string().min(1), priceTableSchema]).optional(),
    reports: z.array(z.enum(['table', 'md', 'csv', 'json', 'html'])).default(['md', 'csv']),
  })
  .strict();

export type RunConfig = z.infer<typeof configSchema>;

/** Where a strategy entry's code is: a built-in, or one of the three plugin doors. */
export type StrategySource =
  | { kind: 'builtin' }
  | { kind: 'module'; path: string; timeoutMs: number }
  | { kind: 'command'; argv: string[]; cwd: string; env?: Record<string, string>; timeoutMs: number; ready: boolean }
  | { kind: 'url'; url: string; headers?: Record<string, string>; timeoutMs: number };

/** A strategy entry after validation: registry name, label, parsed params, merged budget. */
export interface StrategySpec {
  id: string;
  /** The built-in's registry name; for a plugin, its door and location (`module:./x.ts`, `command:…`, `url:…`). */
  strategy: string;
  params: Record<string, unknown>;
  budget: Budget;
  /** For a grid variant: its combination, grid key → value (harness/config/grid.ts). */
  grid?: Record<string, unknown>;
  /** Absent for a built-in. A module plugin's params are checked against its schema when it loads. */
  source?: Exclude<StrategySource, { kind: 'builtin' }>;
  /** Prompt templates replacing a built-in's own: prompt name → template text. */
  prompts?: Record<string, string>;
  /** Index of the config entry it came from (`strategies[i]`), for messages. */
  entry?: number;
  /** For a plugin entry of a config file: the `file:line` of its door, for errors found when it loads. */
  at?: string;
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
  /**
   * SHA-256 of the files that shape the strategies' behaviour beside the config itself — plugin
   * modules, worker scripts, prompt templates — by path relative to the config: part of the
   * config hash, so a changed prompt or plugin is a different config, never a silently resumed one.
   */
  sources?: Record<string, string>;
}

export interface LoadOptions {
  /** `--set path=value` expressions. */
  set?: readonly string[];
  /** Where `${VAR}` reads from (default: process.env). */
  env?: Record<string, string | undefined>;
}

const formatPath = formatFieldPath;

/** Which door an entry names, by its keys; a bare string is a built-in, or a module when it looks like a path. */
function entryKind(entry: unknown): { kind: EntryKind; value: Record<string, unknown> } | { problem: string } {
  if (typeof entry === 'string') {
    if (/^(\.{1,2}\/|\/)|\.(m|c)?[jt]s$/.test(entry)) return { kind: 'module', value: { module: entry } };
    return { kind: 'strategy', value: { strategy: entry } };
  }
  const value = entry as Record<string, unknown>;
  const named = (Object.keys(ENTRY_KINDS) as EntryKind[]).filter((k) => k in value);
  if (named.length === 1) return { kind: named[0]!, value };
  if (named.length === 0) {
    // A door's key misspelt ("comand:") says so, as any other unknown key does.
    const doors = Object.keys(ENTRY_KINDS);
    const misspelt = Object.keys(value).filter((k) => closest(k, doors) !== null);
    const hint = misspelt.length ? `${unknownKeyMessage(misspelt, doors).replace(/; known keys here: .*$/, '')}; ` : '';
    return { problem: `${hint}name the strategy with one of \`strategy: <built-in>\`, \`module: ./file.ts\`, \`command: [program, args…]\` or \`url: http://…\`` };
  }
  return { problem: `give one of ${named.map((k) => `\`${k}\``).join(', ')}, not several` };
}

/** The files an argv names (worker scripts), relative to `cwd`, for the config hash. */
function argvFiles(argv: readonly string[], cwd: string): string[] {
  return argv.filter((a) => {
    try {
      return statSync(resolve(cwd, a)).isFile();
    } catch {
      return false;
    }
  });
}

/** `{{name}}` placeholders in a prompt template. */
export function templateVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g)].map((m) => m[1]!))];
}

/**
 * Validates a parsed config object; `where` maps a field path to `file:line` for messages, and
 * `baseDir` is the folder paths in it are relative to (plugin modules, worker scripts, prompts).
 */
export function validateConfig(
  input: unknown,
  where: (path: PropertyKey[]) => string = () => 'config',
  baseDir: string = process.cwd(),
): { config: RunConfig; strategies: StrategySpec[]; sources?: Record<string, string> } {
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const lines = explainIssues(configSchema, parsed.error.issues).map((i) => `  ${where(i.path)} ${formatPath(i.path) || '(top level)'}: ${i.message}`);
    throw new ConfigError(`invalid config:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  const errors: string[] = [];
  // A tree built by the model needs a model: the offline reasoner cannot read pages.
  if (config.corpus?.tree === 'model' && config.model.provider === 'offline') {
    errors.push(`  ${where(['corpus', 'tree'])} corpus.tree: "model" builds trees with the configured model, and model.provider is "offline"; configure a model (model.provider: openai, model.model: …) or use corpus.tree: auto`);
  }
  const strategies: StrategySpec[] = [];
  const sources: Record<string, string> = {};
  const hashFile = (abs: string) => (sources[relative(baseDir, abs) || abs] = createHash('sha256').update(readFileSync(abs)).digest('hex'));
  const seen = new Set<string>();
  config.strategies.forEach((raw, i) => {
    const fail = (path: PropertyKey[], message: string) => errors.push(`  ${where(path)} ${formatPath(path)}: ${message}`);
    const kinded = entryKind(raw);
    if ('problem' in kinded) return fail(['strategies', i], kinded.problem);
    const checked = ENTRY_KINDS[kinded.kind].safeParse(kinded.value);
    if (!checked.success) {
      for (const issue of explainIssues(ENTRY_KINDS[kinded.kind], checked.error.issues)) {
        const path = typeof raw === 'string' ? ['strategies', i] : ['strategies', i, ...issue.path];
        fail(path, issue.message);
      }
      return;
    }
    const e = checked.data as z.infer<(typeof ENTRY_KINDS)['strategy']> & Partial<z.infer<(typeof ENTRY_KINDS)['module']>> & Partial<z.infer<(typeof ENTRY_KINDS)['command']>> & Partial<z.infer<(typeof ENTRY_KINDS)['url']>>;
    const keyPath = typeof raw === 'string' ? ['strategies', i] : ['strategies', i, kinded.kind];

    // The door: a built-in from the registry, or a plugin's location.
    let strategy: Strategy | undefined;
    let source: StrategySpec['source'];
    let name: string;
    let id: string;
    if (kinded.kind === 'strategy') {
      name = e.strategy;
      id = e.id ?? name;
      if (!hasStrategy(name)) {
        const known = listStrategies().map((s) => s.name).join(', ');
        const pathLike = /[/\\]/.test(name) ? '; a plugin module is named with `module: ./file.ts`' : '';
        return fail(keyPath, `unknown strategy "${name}" (known: ${known})${pathLike}`);
      }
      strategy = getStrategy(name);
    } else if (kinded.kind === 'module') {
      const abs = resolve(baseDir, e.module!);
      if (!existsSync(abs)) return fail(keyPath, `${e.module}: no such file (paths are relative to the config's folder, ${baseDir})`);
      if (!statSync(abs).isFile()) return fail(keyPath, `${e.module}: not a file (a module entry names its .ts or .js file, made with defineStrategy)`);
      hashFile(abs);
      source = { kind: 'module', path: abs, timeoutMs: e.timeoutMs! };
      name = `module:${e.module}`;
      id = e.id ?? basename(abs).replace(/\.(m|c)?[jt]s$/, '');
    } else if (kinded.kind === 'command') {
      const argv = e.command!;
      // A script argument that is not there (`[python3, ./retriver.py]`) would fail every
      // question at run time: say so now. Only relative paths with a file extension look like one.
      const missing = argv.findIndex((a, j) => j > 0 && /^\.\.?[/\\]/.test(a) && /\.[A-Za-z0-9]+$/.test(a) && !existsSync(resolve(baseDir, a)));
      if (missing > 0) return fail(['strategies', i, 'command', missing], `${argv[missing]}: no such file (paths are relative to the config's folder, ${baseDir})`);
      for (const f of argvFiles(argv, baseDir)) hashFile(resolve(baseDir, f));
      source = { kind: 'command', argv, cwd: baseDir, ...(e.env ? { env: e.env } : {}), timeoutMs: e.timeoutMs!, ready: e.ready ?? false };
      name = `command:${argv.join(' ')}`;
      id = e.id!;
    } else {
      source = { kind: 'url', url: e.url!, ...(e.headers ? { headers: e.headers } : {}), timeoutMs: e.timeoutMs! };
      name = `url:${e.url}`;
      id = e.id!;
    }

    // Prompt templates (built-ins only): read, checked against the strategy's prompts and variables.
    let prompts: Record<string, string> | undefined;
    if (e.prompts) {
      prompts = {};
      const known = strategy?.prompts ?? [];
      for (const [promptName, file] of Object.entries(e.prompts)) {
        const path = ['strategies', i, 'prompts', promptName];
        const info = known.find((p) => p.name === promptName);
        if (!info) {
          fail(path, `${name} has no prompt "${promptName}" (its prompts: ${known.map((p) => p.name).join(', ') || 'none'}; see \`treebench strategies\`)`);
          continue;
        }
        const abs = resolve(baseDir, file);
        let text: string;
        try {
          text = readFileSync(abs, 'utf8');
        } catch (err) {
          fail(path, `${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
          continue;
        }
        const unknown = templateVariables(text).filter((v) => !info.variables.includes(v));
        if (unknown.length) {
          fail(path, `${file}: unknown variable${unknown.length > 1 ? 's' : ''} ${unknown.map((v) => `{{${v}}}`).join(', ')} (the ${promptName} prompt has: ${info.variables.map((v) => `{{${v}}}`).join(', ')})`);
          continue;
        }
        hashFile(abs);
        prompts[promptName] = text;
      }
    }

    const entryBudget = e.budget ?? {};
    const grid = e.grid;
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
      // A built-in's params are checked here; a module plugin's when it loads (harness/plugins/host.ts);
      // an out-of-process strategy's by the strategy itself.
      let params = v.params;
      if (strategy) {
        const checkedParams = strategy.params.safeParse(v.params);
        if (!checkedParams.success) {
          for (const issue of explainIssues(strategy.params, checkedParams.error.issues)) {
            const path = at('params', issue.path[0], issue.path);
            errors.push(`  ${where(path)} ${label}${formatPath(['strategies', i, 'params', ...issue.path])}: ${issue.message}`);
          }
          continue;
        }
        params = checkedParams.data as Record<string, unknown>;
      }
      const budget = budgetSchema.safeParse({ ...entryBudget, ...v.budget });
      if (!budget.success) {
        for (const issue of explainIssues(budgetSchema, budget.error.issues)) {
          const path = at('budget', issue.path[0], issue.path);
          errors.push(`  ${where(path)} ${label}${formatPath(['strategies', i, 'budget', ...issue.path])}: ${issue.message}`);
        }
        continue;
      }
      strategies.push({
        id: v.id,
        strategy: name,
        params,
        budget: { ...config.budget, ...budget.data },
        ...(v.coords ? { grid: v.coords } : {}),
        ...(source ? { source } : {}),
        ...(prompts && Object.keys(prompts).length ? { prompts } : {}),
        entry: i,
      });
    }
  });
  if (errors.length) throw new ConfigError(`invalid config:\n${errors.join('\n')}`);
  // Custom scorers: their files, like plugin files, are part of the config hash.
  (config.scoring.scorers ?? []).forEach((file, i) => {
    const abs = resolve(baseDir, file);
    const path = ['scoring', 'scorers', i];
    if (!/\.(m|c)?[jt]s$/.test(abs)) errors.push(`  ${where(path)} ${formatPath(path)}: ${file}: a scorer is a .ts, .mts, .cts, .js, .mjs or .cjs module made with defineScorer`);
    else if (!existsSync(abs)) errors.push(`  ${where(path)} ${formatPath(path)}: ${file}: no such file (paths are relative to the config's folder, ${baseDir})`);
    else hashFile(abs);
  });
  if (errors.length) throw new ConfigError(`invalid config:\n${errors.join('\n')}`);
  return { config, strategies, ...(Object.keys(sources).length ? { sources } : {}) };
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
  const validated = validateConfig(applyOverrides(data, overrides), where, dirname(abs));
  const { config, sources } = validated;
  // A plugin's errors found when it loads (a syntax error, no such program) name the line too.
  const strategies = validated.strategies.map((s) => (s.source ? { ...s, at: where(['strategies', s.entry ?? 0, s.source.kind]) } : s));
  return {
    path: abs,
    baseDir: dirname(abs),
    raw: file.raw,
    config,
    strategies,
    ...(sources ? { sources } : {}),
    ...(overrides.length ? { overrides: overrides.map((o) => o.expr) } : {}),
    ...(Object.keys(used).length ? { env: used } : {}),
  };
}
