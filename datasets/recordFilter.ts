// `dataset.filter`: which raw records become questions, decided by field conditions before any
// mapping, so rows a user does not want (another evidence type, unanswerable questions) are
// counted as filtered, never as invalid.
//
//   filter:
//     all:
//       - { field: evidence_sources, equals: ["Pure-text (Plain-text)"] }
//       - not: { field: answer, equals: Not answerable }
//       - any: [ { field: doc_type, in: [10k, 10q] }, { field: tags, contains: finance } ]
//       - { field: answer, exists: true }
//
// A field is a name or dotted path (as in the mapping); a stringified list (`"['a', 'b']"`) is
// read as the list. Values compare as trimmed strings, so `3` equals `"3"`.
//   equals   the value equals this (a list equals a list: same items, same order)
//   in       the value is one of these (a list value: any item is)
//   contains a list value has this item; a string value has this substring
//   exists   the field is present and not blank (true) or absent/blank (false)
// A list of conditions at the top means `all`.
import { z } from 'zod';
import { unstringifyList } from './listString.ts';

export type FilterCondition =
  | { field: string; equals: unknown }
  | { field: string; in: unknown[] }
  | { field: string; contains: string | number | boolean }
  | { field: string; exists: boolean }
  | { not: FilterCondition }
  | { all: FilterCondition[] }
  | { any: FilterCondition[] };

const OPS = ['equals', 'in', 'contains', 'exists'] as const;
const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first problem with a condition, as a message and the path to it; null when it is fine. */
function conditionProblem(c: unknown, at: Array<string | number>): { message: string; path: Array<string | number> } | null {
  const shape = 'a condition is { field, equals | in | contains | exists } or { not: cond } / { all: [cond] } / { any: [cond] }';
  if (!isObj(c)) return { message: `${shape}; got ${JSON.stringify(c)}`, path: at };
  const keys = Object.keys(c);
  if (keys.length === 1 && (keys[0] === 'not' || keys[0] === 'all' || keys[0] === 'any')) {
    const k = keys[0];
    if (k === 'not') return conditionProblem(c.not, [...at, 'not']);
    const list = c[k];
    if (!Array.isArray(list) || list.length === 0) return { message: `${k} takes a non-empty list of conditions`, path: [...at, k] };
    for (let i = 0; i < list.length; i++) {
      const p = conditionProblem(list[i], [...at, k, i]);
      if (p) return p;
    }
    return null;
  }
  if (typeof c.field !== 'string' || c.field === '') return { message: `${shape}; "field" (a field name or dotted path) is missing`, path: [...at, 'field'] };
  const ops = keys.filter((k) => k !== 'field');
  if (ops.length !== 1 || !(OPS as readonly string[]).includes(ops[0])) {
    return { message: `${shape}; got ${ops.length ? ops.map((k) => `"${k}"`).join(', ') : 'no test'} beside "field"`, path: at };
  }
  const op = ops[0];
  const v = c[op];
  if (op === 'equals' && !(isScalar(v) || (Array.isArray(v) && v.every(isScalar)))) return { message: 'equals takes a value or a list of values', path: [...at, op] };
  if (op === 'in' && !(Array.isArray(v) && v.length > 0 && v.every(isScalar))) return { message: 'in takes a non-empty list of values', path: [...at, op] };
  if (op === 'contains' && !(isScalar(v) && v !== null)) return { message: 'contains takes one value', path: [...at, op] };
  if (op === 'exists' && typeof v !== 'boolean') return { message: 'exists takes true or false', path: [...at, op] };
  return null;
}

/** A condition, or a list of them (all must hold). Errors name the condition's path and what is wrong. */
export const recordFilterSchema = z.unknown().superRefine((v, ctx) => {
  const list = Array.isArray(v) ? v : [v];
  if (Array.isArray(v) && v.length === 0) ctx.addIssue({ code: 'custom', message: 'an empty list of conditions' });
  for (let i = 0; i < list.length; i++) {
    const p = conditionProblem(list[i], Array.isArray(v) ? [i] : []);
    if (p) {
      ctx.addIssue({ code: 'custom', message: p.message, path: p.path });
      return;
    }
  }
}) as unknown as z.ZodType<RecordFilter>;
export type RecordFilter = FilterCondition | FilterCondition[];

const norm = (v: unknown): string => (v === null || v === undefined ? '' : String(v).trim());
const absent = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/** Whether a raw record passes the filter; `get` reads a field (name or dotted path) of it. */
export function matchesFilter(filter: RecordFilter, get: (field: string) => unknown): boolean {
  const test = (c: FilterCondition): boolean => {
    if ('not' in c) return !test(c.not);
    if ('all' in c) return c.all.every(test);
    if ('any' in c) return c.any.some(test);
    const v = unstringifyList(get(c.field));
    if ('exists' in c) return absent(v) !== c.exists;
    if ('equals' in c) {
      if (Array.isArray(c.equals)) return Array.isArray(v) && v.length === c.equals.length && v.every((x, i) => norm(x) === norm((c.equals as unknown[])[i]));
      return !Array.isArray(v) && !absent(v) && norm(v) === norm(c.equals);
    }
    if ('in' in c) {
      const allowed = new Set(c.in.map(norm));
      return Array.isArray(v) ? v.some((x) => allowed.has(norm(x))) : !absent(v) && allowed.has(norm(v));
    }
    if (Array.isArray(v)) return v.some((x) => norm(x) === norm(c.contains));
    return typeof v === 'string' && v.includes(String(c.contains));
  };
  return Array.isArray(filter) ? filter.every(test) : test(filter);
}
