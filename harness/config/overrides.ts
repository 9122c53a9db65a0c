// `--set path=value` overrides, applied to the parsed config before validation, so a flag goes
// through exactly the checks a line in the file does and its errors name the flag:
//
//   --set budget.calls=12                           --set run.seed=7
//   --set strategies.hybrid-beam.params.beamWidth=5 --set strategies.1.budget.tokens=20000
//   --set strategies.hybrid-beam.grid.beamWidth=[1,3,5]
//
// `strategies.<id>` picks the entry whose `id` (or, without one, strategy name) is <id>; ids may
// contain dots, so the longest matching id wins; `strategies.<n>` picks the n-th entry (0-based).
// The value is read as a YAML scalar or flow collection: `5` is a number, `true` a boolean,
// `[1, 3]` a list, `gpt-4o-mini` a string. Setting a parameter the entry's grid varies removes
// that axis: the flag fixes the value. Overrides apply in the order given; later ones win.
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { ConfigError, formatFieldPath, UsageError } from '../errors.ts';

export interface Override {
  /** The flag's text, `path=value`, for messages and the manifest. */
  expr: string;
  /** Resolved path into the config object (strategy entries by index). */
  path: Array<string | number>;
  value: unknown;
}

function parseValue(text: string, expr: string): unknown {
  if (text === '') return '';
  try {
    return parseYaml(text) as unknown;
  } catch (err) {
    throw new UsageError(`--set ${expr}: cannot read the value "${text}" (${(err as Error).message.split('\n')[0]})`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** The id an entry answers to in `strategies.<id>`: its `id`, else its strategy name. */
function entryId(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (isObject(entry)) return typeof entry.id === 'string' ? entry.id : typeof entry.strategy === 'string' ? entry.strategy : undefined;
  return undefined;
}

/** Parses one `--set` expression against the config object (to resolve strategy ids). */
export function parseOverride(expr: string, config: unknown): Override {
  const eq = expr.indexOf('=');
  if (eq <= 0) throw new UsageError(`--set ${expr}: expected path=value, e.g. --set budget.calls=12`);
  const pathText = expr.slice(0, eq).trim();
  const value = parseValue(expr.slice(eq + 1).trim(), expr);
  if (!/^[^.\s][^\s]*$/.test(pathText) || pathText.endsWith('.') || pathText.includes('..')) {
    throw new UsageError(`--set ${expr}: "${pathText}" is not a field path (fields joined by dots, e.g. run.seed)`);
  }
  // `__proto__`, `constructor` and `prototype` are not config fields: setting them would reach
  // every object in the process (prototype pollution) and blame unrelated lines.
  const forbidden = pathText.split('.').find((seg) => seg === '__proto__' || seg === 'constructor' || seg === 'prototype');
  if (forbidden) throw new UsageError(`--set ${expr}: "${forbidden}" is not a config field`);
  if (pathText === 'strategies' || !pathText.startsWith('strategies.')) {
    if (pathText === 'strategies') throw new UsageError(`--set ${expr}: set a field of one entry, e.g. strategies.<id>.params.<name>=<value>`);
    return { expr, path: pathText.split('.'), value };
  }
  const rest = pathText.slice('strategies.'.length);
  const entries = isObject(config) && Array.isArray(config.strategies) ? config.strategies : [];
  let index = -1;
  let tail = '';
  const numeric = /^(\d+)(?:\.(.*))?$/.exec(rest);
  if (numeric) {
    index = Number(numeric[1]);
    tail = numeric[2] ?? '';
    if (index >= entries.length) throw new UsageError(`--set ${expr}: the config has ${entries.length} strategy entries (0-based index)`);
  } else {
    let best = '';
    entries.forEach((e, i) => {
      const id = entryId(e);
      if (id && (rest === id || rest.startsWith(`${id}.`)) && id.length > best.length) {
        best = id;
        index = i;
      }
    });
    if (index < 0) {
      const ids = entries.map(entryId).filter(Boolean);
      throw new UsageError(`--set ${expr}: no strategy entry "${rest.split('.')[0]}" (the config has: ${ids.join(', ')}; or use strategies.<0-based index>)`);
    }
    if (entries.filter((e) => entryId(e) === best).length > 1) {
      throw new UsageError(`--set ${expr}: several strategy entries answer to "${best}"; use strategies.<0-based index>`);
    }
    tail = rest.slice(best.length + 1);
  }
  if (!tail) throw new UsageError(`--set ${expr}: name a field of the entry, e.g. strategies.${rest}.params.<name>=<value>`);
  return { expr, path: ['strategies', index, ...tail.split('.')], value };
}

/** Applies overrides to a copy of the config object. */
export function applyOverrides(config: unknown, overrides: readonly Override[]): unknown {
  const root = structuredClone(config) as Record<string, unknown>;
  if (!isObject(root)) throw new ConfigError('config: the file is not a mapping of fields');
  for (const o of overrides) {
    let node: Record<string, unknown> | unknown[] = root;
    for (let i = 0; i < o.path.length - 1; i++) {
      const key = o.path[i];
      let next = (node as Record<string | number, unknown>)[key];
      // A strategy given as a bare name becomes an entry object so it can carry fields.
      if (o.path[0] === 'strategies' && i === 1 && typeof next === 'string') next = { strategy: next };
      if (next === undefined || next === null) next = {};
      if (typeof next !== 'object') {
        throw new UsageError(`--set ${o.expr}: ${formatFieldPath(o.path.slice(0, i + 1))} is ${JSON.stringify(next)}, not a mapping`);
      }
      (node as Record<string | number, unknown>)[key] = next;
      node = next as Record<string, unknown>;
    }
    (node as Record<string | number, unknown>)[o.path.at(-1)!] = o.value;
    // A parameter fixed by the flag is no longer an axis of the entry's grid.
    if (o.path[0] === 'strategies' && o.path[2] === 'params' && o.path.length === 4) {
      const entry = (root.strategies as unknown[])[o.path[1] as number];
      if (isObject(entry) && isObject(entry.grid)) {
        delete entry.grid[String(o.path[3])];
        delete entry.grid[`params.${String(o.path[3])}`];
      }
    }
    if (o.path[0] === 'strategies' && o.path[2] === 'budget' && o.path.length === 4) {
      const entry = (root.strategies as unknown[])[o.path[1] as number];
      if (isObject(entry) && isObject(entry.grid)) delete entry.grid[`budget.${String(o.path[3])}`];
    }
  }
  return root;
}

/**
 * Wraps a `file:line` locator so that a field set by a flag is reported as that flag. A path
 * matches an override when one is a prefix of the other (an unknown key is reported at its
 * parent: `budget: Unrecognized key "calss"` belongs to `--set budget.calss=3`).
 */
export function overrideLocator(where: (path: PropertyKey[]) => string, overrides: readonly Override[]): (path: PropertyKey[]) => string {
  if (!overrides.length) return where;
  return (path) => {
    const hit = [...overrides].reverse().find((o) => {
      const n = Math.min(o.path.length, path.length);
      if (path.length < o.path.length - 1) return false;
      for (let i = 0; i < n; i++) if (String(o.path[i]) !== String(path[i])) return false;
      return true;
    });
    return hit ? `--set ${hit.expr}` : where(path);
  };
}

/**
 * The config hash: over the parsed config, after `--set` overrides and `${VAR}` values were
 * applied, so two runs share a hash exactly when they ran the same settings, while comments and
 * formatting change nothing (a comment-only edit does not block --resume). The files the config
 * names that shape behaviour (plugins, worker scripts, prompt templates) count too.
 */
export function configHashOf(loaded: { config: unknown; sources?: Record<string, string> }): string {
  const h = createHash('sha256').update(JSON.stringify(loaded.config));
  // Plugin modules, worker scripts and prompt templates the config names (runConfig.ts): a
  // config without them hashes as it always did.
  if (loaded.sources && Object.keys(loaded.sources).length) h.update(`\n# treebench sources ${JSON.stringify(loaded.sources)}`);
  return h.digest('hex');
}

/** The hash manifests written before parsed-config hashing carried: the file's text, plus overrides. */
export function legacyConfigHash(loaded: { raw: string; overrides?: readonly string[]; env?: Record<string, string> }): string {
  const h = createHash('sha256').update(loaded.raw);
  const extra = { ...(loaded.overrides?.length ? { set: loaded.overrides } : {}), ...(loaded.env && Object.keys(loaded.env).length ? { env: loaded.env } : {}) };
  if (Object.keys(extra).length) h.update(`\n# treebench overrides ${JSON.stringify(extra)}`);
  return h.digest('hex');
}
