// The recommendation for a run folder with several variants (records grouped by strategy id,
// in the manifest's order), and the YAML snippet for one of its variants.
import type { RunManifest } from '../../run/store.ts';
import { latestRecords } from '../../run/store.ts';
import type { RunRecord } from '../../types.ts';
import { recommend, type Objective, type Recommendation } from './recommend.ts';
import { variantSnippet } from './snippet.ts';

export function groupByStrategy(records: readonly RunRecord[], order: readonly string[]): Map<string, RunRecord[]> {
  const groups = new Map<string, RunRecord[]>(order.map((id) => [id, []]));
  for (const r of latestRecords(records)) groups.get(r.strategy)?.push(r);
  for (const [id, rs] of groups) if (rs.length === 0) groups.delete(id);
  return groups;
}

/** Null when the run has fewer than two variants with records. */
export function recommendRun(manifest: RunManifest, records: readonly RunRecord[], opts: { objective?: Objective; margin?: number; alpha?: number }): Recommendation | null {
  const groups = groupByStrategy(records, manifest.strategies.map((s) => s.id));
  if (groups.size < 2) return null;
  return recommend(groups, { ...opts, priced: manifest.model.priced, seed: manifest.seed });
}

export function snippetFor(manifest: RunManifest, id: string): string | undefined {
  const spec = manifest.strategies.find((s) => s.id === id);
  const runBudget = ((manifest.config as { budget?: Record<string, number> } | null)?.budget ?? {}) as Record<string, number>;
  return spec ? variantSnippet(spec, runBudget) : undefined;
}
