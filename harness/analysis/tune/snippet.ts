// The YAML that sets a variant: its strategy, the parameters that differ from the strategy's
// defaults, and the budget fields that differ from the run's budget. Pasting it under
// `strategies:` reproduces the variant (its grid id aside).
import { stringify } from 'yaml';
import { getStrategy } from '../../strategy/registry.ts';

export interface SnippetSource {
  strategy: string;
  params: Record<string, unknown>;
  budget: Record<string, number>;
}

export function variantSnippet(spec: SnippetSource, runBudget: Record<string, number | undefined> = {}): string {
  let defaults: Record<string, unknown> = {};
  try {
    const parsed = getStrategy(spec.strategy).params.safeParse({});
    if (parsed.success) defaults = parsed.data as Record<string, unknown>;
  } catch {
    // A strategy this build does not know (an old run): keep every parameter.
  }
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const params = Object.fromEntries(Object.entries(spec.params ?? {}).filter(([k, v]) => !same(v, defaults[k])));
  const budget = Object.fromEntries(Object.entries(spec.budget ?? {}).filter(([k, v]) => !same(v, runBudget[k])));
  const entry: Record<string, unknown> = { strategy: spec.strategy };
  if (Object.keys(params).length) entry.params = params;
  if (Object.keys(budget).length) entry.budget = budget;
  return stringify({ strategies: [entry] }, { flowCollectionPadding: true, collectionStyle: 'block' }).trimEnd();
}
