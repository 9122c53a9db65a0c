// Config validation messages a person can act on. zod says `Unrecognized key: "budgte"` and,
// for a value no branch of a union accepts, only "Invalid input". Here an unknown key is named
// with the nearest known key of its section ("did you mean budget?") and the keys it may have,
// and a failed union reports the issues of the branch that came closest instead.
import type { z } from 'zod';
import { closest } from '../text/suggest.ts';

type Issue = z.core.$ZodIssue;
interface Def {
  type: string;
  shape?: Record<string, { def: Def }>;
  innerType?: { def: Def };
  options?: Array<{ def: Def }>;
  element?: { def: Def };
  valueType?: { def: Def };
  in?: { def: Def };
  out?: { def: Def };
  getter?: () => { def: Def };
}

/** The object schemas a field path may lead to (several under a union). */
function schemasAt(def: Def, path: readonly PropertyKey[]): Def[] {
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'nullable':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return def.innerType ? schemasAt(def.innerType.def, path) : [];
    case 'pipe':
      // z.preprocess is a pipe from a transform into the schema: either side may hold the shape.
      return [...(def.in ? schemasAt(def.in.def, path) : []), ...(def.out ? schemasAt(def.out.def, path) : [])];
    case 'lazy':
      return def.getter ? schemasAt(def.getter().def, path) : [];
    case 'union':
      return (def.options ?? []).flatMap((o) => schemasAt(o.def, path));
  }
  if (!path.length) return def.type === 'object' ? [def] : [];
  const [head, ...rest] = path;
  if (def.type === 'object' && typeof head === 'string' && def.shape?.[head]) return schemasAt(def.shape[head].def, rest);
  if (def.type === 'array' && def.element) return schemasAt(def.element.def, rest);
  if (def.type === 'record' && def.valueType) return schemasAt(def.valueType.def, rest);
  return [];
}

/** The keys an object at `path` of `schema` may have ([] when the path leads to no object schema). */
export function knownKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  return [...new Set(schemasAt((schema as unknown as { def: Def }).def, path).flatMap((d) => Object.keys(d.shape ?? {})))];
}

/** `unknown key "budgte" (did you mean "budget"?; known: name, dataset, …)`. */
export function unknownKeyMessage(keys: readonly string[], known: readonly string[]): string {
  const each = keys.map((k) => {
    const near = closest(k, known) ?? known.find((c) => c.toLowerCase() === k.toLowerCase().replace(/[-_]/g, '')) ?? null;
    return `unknown key "${k}"${near ? ` (did you mean "${near}"?)` : ''}`;
  });
  return `${each.join('; ')}${known.length ? `; known keys here: ${known.join(', ')}` : ''}`;
}

/**
 * The issues of a failed parse as (path, message) pairs: unknown keys with suggestions, failed
 * unions as the closest branch's own issues (paths made whole).
 */
export function explainIssues(schema: z.ZodType, issues: readonly Issue[], base: readonly PropertyKey[] = []): Array<{ path: PropertyKey[]; message: string }> {
  const out: Array<{ path: PropertyKey[]; message: string }> = [];
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      out.push({ path, message: unknownKeyMessage(issue.keys, knownKeys(schema, path)) });
    } else if (issue.code === 'invalid_union' && issue.errors?.length) {
      const best = [...issue.errors].sort((a, b) => a.length - b.length)[0]!;
      if (best.length) out.push(...explainIssues(schema, best, path));
      else out.push({ path, message: issue.message });
    } else out.push({ path, message: issue.message });
  }
  return out;
}
