/**
 * What changed between two runs' configs, as the fields a user would edit.
 *
 * "config differs" alone sends the user to diff two manifests by hand. This walks both parsed
 * configs (as the manifests recorded them) and names each differing leaf by its dotted path,
 * with both values. Lists of objects that carry an `id` (strategies, scorers) are matched by id,
 * (a plain string entry is its own id), so reordering strategies is not a change and a changed beam width reads
 * `strategies[hybrid].beamWidth: 3 → 5`, not `strategies.2.beamWidth`. A strategy present on
 * one side only is one entry (`strategies[mcts]: added`). Values are shortened for one line.
 */

export interface ConfigChange {
  /** Dotted path of the field, e.g. `strategies[hybrid].beamWidth` or `dataset.limit`. */
  path: string;
  /** The first run's value, or undefined when the field is absent there. */
  a: unknown;
  /** The second run's value, or undefined when the field is absent there. */
  b: unknown;
  /** `added`/`removed`: an id-keyed list entry (a strategy, a scorer) present on one side only. */
  kind: 'changed' | 'added' | 'removed';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A list entry's identity: a string entry is its own id (`strategies: [vector]`), an object its `id`. */
const entryId = (x: unknown): string | undefined => (typeof x === 'string' ? x : isObject(x) && typeof x.id === 'string' ? x.id : undefined);
const keyed = (v: unknown): v is unknown[] =>
  Array.isArray(v) && v.length > 0 && v.every((x) => entryId(x) !== undefined) && new Set(v.map(entryId)).size === v.length;

/** Every differing leaf of two JSON-like values, in a stable order (first config's keys first). */
export function configDiff(a: unknown, b: unknown, path = ''): ConfigChange[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (isObject(a) && isObject(b)) {
    const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !(k in a))];
    return keys.flatMap((k) => configDiff(a[k], b[k], path ? `${path}.${k}` : k));
  }
  if (keyed(a) && keyed(b)) {
    const byId = (xs: unknown[]) => new Map(xs.map((x) => [entryId(x)!, x]));
    const ma = byId(a);
    const mb = byId(b);
    const ids = [...ma.keys(), ...[...mb.keys()].filter((id) => !ma.has(id))];
    return ids.flatMap((id) => {
      const at = `${path}[${id}]`;
      if (!mb.has(id)) return [{ path: at, a: ma.get(id), b: undefined, kind: 'removed' as const }];
      if (!ma.has(id)) return [{ path: at, a: undefined, b: mb.get(id), kind: 'added' as const }];
      return configDiff(ma.get(id), mb.get(id), at);
    });
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x) => isObject(x) || Array.isArray(x))) {
    return a.flatMap((x, i) => configDiff(x, b[i], `${path}.${i}`));
  }
  return [{ path: path || '(config)', a, b, kind: 'changed' }];
}

function shortValue(v: unknown, max = 40): string {
  if (v === undefined) return '(absent)';
  const s = JSON.stringify(v) ?? String(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** One change as a line fragment: `path: a → b`, with `added`/`removed` for keyed list entries. */
export function describeChange(c: ConfigChange): string {
  if (c.kind !== 'changed') return `${c.path}: ${c.kind}`;
  return `${c.path}: ${shortValue(c.a)} → ${shortValue(c.b)}`;
}

/**
 * The note compare, gate and history print: the differing fields, the first `max` of them
 * named and the rest counted. When the parsed configs agree the hash can only differ through
 * the files the config names (plugin modules, worker scripts, prompt templates).
 */
export function configDiffNote(a: unknown, b: unknown, max = 5): string {
  if (a == null || b == null) return 'config differs (a manifest does not record its config)';
  const changes = configDiff(a, b);
  if (!changes.length) return 'config differs only in the files it names (plugin modules, worker scripts or prompt templates)';
  const shown = changes.slice(0, max).map(describeChange).join('; ');
  const more = changes.length > max ? `; and ${changes.length - max} more field${changes.length - max === 1 ? '' : 's'}` : '';
  return `config differs: ${shown}${more}`;
}
