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
import { unstringifyList } from './listString.ts';
import type { FilterCondition, RecordFilter } from '../harness/config/dataSections.ts';

export { recordFilterSchema, type FilterCondition, type RecordFilter } from '../harness/config/dataSections.ts';

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
