// Parameter columns for reports of sweeps and grids: one column per parameter that distinguishes
// the variants of a run. A column is `params.<name>` or `budget.<name>`; it is shown when a
// grid varies it, or when two entries of the same registry strategy set it differently (a
// hand-written sweep), or — for budgets, which every strategy has — when any two entries differ.
// Defaults that every variant shares stay out of the way. A strategy without the parameter gets
// an empty cell (not applicable), never a made-up value.
import type { FlatValue } from '../harness/summary/summary.ts';

export interface ParameterSource {
  id: string;
  strategy: string;
  params: Record<string, unknown>;
  budget: Record<string, number>;
  grid?: Record<string, unknown>;
}

export interface ParameterTable {
  /** Column names in order: grid keys first (in grid order), then other varying keys. */
  columns: string[];
  /** Strategy id → column → value (absent = not applicable). */
  values: Record<string, Record<string, FlatValue | boolean>>;
}

/** A parameter value as one cell: scalars as they are, anything else as JSON. */
export function parameterCell(v: unknown): FlatValue | boolean {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  return JSON.stringify(v);
}

function columnOfGridKey(key: string): string {
  if (key.startsWith('budget.') || key.startsWith('params.')) return key;
  return `params.${key}`;
}

export function parameterTable(strategies: readonly ParameterSource[]): ParameterTable {
  const columns: string[] = [];
  const add = (c: string) => {
    if (!columns.includes(c)) columns.push(c);
  };
  for (const s of strategies) for (const k of Object.keys(s.grid ?? {})) add(columnOfGridKey(k));

  const key = (v: unknown) => JSON.stringify(v ?? null);
  // Parameters set differently by two entries of one registry strategy.
  const byStrategy = new Map<string, ParameterSource[]>();
  for (const s of strategies) byStrategy.set(s.strategy, [...(byStrategy.get(s.strategy) ?? []), s]);
  const paramNames = [...new Set(strategies.flatMap((s) => Object.keys(s.params ?? {})))];
  for (const name of paramNames) {
    for (const group of byStrategy.values()) {
      if (new Set(group.map((s) => key(s.params?.[name]))).size > 1) add(`params.${name}`);
    }
  }
  const budgetNames = [...new Set(strategies.flatMap((s) => Object.keys(s.budget ?? {})))];
  for (const name of budgetNames) {
    if (new Set(strategies.map((s) => key(s.budget?.[name]))).size > 1) add(`budget.${name}`);
  }

  const values: ParameterTable['values'] = {};
  for (const s of strategies) {
    const row: Record<string, FlatValue | boolean> = {};
    for (const c of columns) {
      const [kind, ...rest] = c.split('.');
      const name = rest.join('.');
      const v = kind === 'budget' ? s.budget?.[name] : s.params?.[name];
      if (v !== undefined) row[c] = parameterCell(v);
    }
    values[s.id] = row;
  }
  return { columns, values };
}
