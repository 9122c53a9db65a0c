// Parameter grids: a strategy entry with `grid:` expands to one variant per combination.
//
//   - strategy: hybrid-beam
//     grid: { beamWidth: [1, 3], budget.tokens: [20000, 60000] }
//
// gives hybrid-beam[beamWidth=1,budget.tokens=20000], hybrid-beam[beamWidth=1,budget.tokens=60000],
// hybrid-beam[beamWidth=3,budget.tokens=20000], hybrid-beam[beamWidth=3,budget.tokens=60000].
//
// A grid key is a strategy parameter (`beamWidth`, or `params.beamWidth`) or a budget field
// (`budget.tokens`). The first key varies slowest, as in nested loops written in the YAML's order.
// Ids are `<entry id or strategy name>[key=value,...]` with the keys in the grid's order, so the
// same grid always gives the same ids (runs can be compared, resumed and merged by id).
// The grid's values fill in over the entry's own `params` and `budget`.
import { BUDGET_NAMES } from '../run/budget.ts';
import type { Budget, BudgetName } from '../types.ts';

export interface GridAxis {
  /** The key as written in the grid (and in the variant id). */
  key: string;
  /** Where the value goes: a strategy parameter or a budget field. */
  target: { kind: 'param'; name: string } | { kind: 'budget'; name: BudgetName };
  values: unknown[];
}

export interface GridVariant {
  id: string;
  params: Record<string, unknown>;
  /** Budget fields set by the grid (merged over the entry's budget by the caller). */
  budget: Budget;
  /** The combination: grid key → value, in the grid's key order. */
  coords: Record<string, unknown>;
}

/** A grid value as it appears in an id: scalars as written, anything else as JSON. */
export function formatGridValue(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function variantId(base: string, coords: Record<string, unknown>): string {
  const parts = Object.entries(coords).map(([k, v]) => `${k}=${formatGridValue(v)}`);
  return parts.length ? `${base}[${parts.join(',')}]` : base;
}

/** Reads the axes of a grid; problems come back as [grid key, message] pairs. */
export function gridAxes(grid: Record<string, unknown[]>): { axes: GridAxis[]; problems: Array<[string, string]> } {
  const axes: GridAxis[] = [];
  const problems: Array<[string, string]> = [];
  const seen = new Set<string>();
  for (const [key, values] of Object.entries(grid)) {
    let target: GridAxis['target'];
    if (key.startsWith('budget.')) {
      const name = key.slice('budget.'.length);
      if (!(BUDGET_NAMES as readonly string[]).includes(name)) {
        problems.push([key, `unknown budget "${name}" (known: ${BUDGET_NAMES.join(', ')})`]);
        continue;
      }
      target = { kind: 'budget', name: name as BudgetName };
    } else {
      const name = key.startsWith('params.') ? key.slice('params.'.length) : key;
      if (!name || name.includes('.')) {
        problems.push([key, 'a grid key is a parameter name (beamWidth, params.beamWidth) or budget.<name>']);
        continue;
      }
      target = { kind: 'param', name };
    }
    const where = `${target.kind}.${target.name}`;
    if (seen.has(where)) {
      problems.push([key, `${where} appears twice in the grid`]);
      continue;
    }
    seen.add(where);
    if (!Array.isArray(values) || values.length === 0) {
      problems.push([key, 'a grid axis needs a list of at least one value']);
      continue;
    }
    const distinct = new Set(values.map(formatGridValue));
    if (distinct.size !== values.length) {
      problems.push([key, `values repeat (${values.map(formatGridValue).join(', ')}): each combination must be distinct`]);
      continue;
    }
    axes.push({ key, target, values });
  }
  return { axes, problems };
}

/** Every combination of the axes, first axis slowest. */
export function expandGrid(base: string, params: Record<string, unknown>, axes: readonly GridAxis[]): GridVariant[] {
  let combos: Array<Array<[GridAxis, unknown]>> = [[]];
  for (const axis of axes) combos = combos.flatMap((c) => axis.values.map((v) => [...c, [axis, v] as [GridAxis, unknown]]));
  return combos.map((combo) => {
    const p = { ...params };
    const budget: Budget = {};
    const coords: Record<string, unknown> = {};
    for (const [axis, v] of combo) {
      coords[axis.key] = v;
      if (axis.target.kind === 'param') p[axis.target.name] = v;
      else budget[axis.target.name] = v as number;
    }
    return { id: variantId(base, coords), params: p, budget, coords };
  });
}
