// The frontier-and-recommendation section printed by `treebench report` for a run folder with
// several variants.
import { renderRecommendation } from '../../reports/recommendation.ts';
import type { RunManifest } from '../../harness/run/store.ts';
import type { RunRecord } from '../../harness/types.ts';
import type { Objective } from '../../harness/analysis/tune/recommend.ts';
import { recommendRun, snippetFor } from '../../harness/analysis/tune/runRecommendation.ts';

/** The printed section, or null when the run has fewer than two variants with records. */
export function recommendationSection(
  manifest: RunManifest,
  records: readonly RunRecord[],
  opts: { format: 'table' | 'md'; objective?: Objective; margin?: number; alpha?: number; width?: number },
): string | null {
  const rec = recommendRun(manifest, records, opts);
  if (!rec) return null;
  const snippet = snippetFor(manifest, rec.recommended);
  return renderRecommendation(rec, { priced: manifest.model.priced, format: opts.format, ...(snippet ? { snippet } : {}), ...(opts.width !== undefined ? { width: opts.width } : {}) });
}
