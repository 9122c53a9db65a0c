// The order a run summarises its records in: config order of strategies, then repeat, then the
// dataset's question order. `treebench run` sorts this way before computing intervals; anything
// that recomputes a summary from records.jsonl (which holds completion order) must sort the same
// way, or the seeded bootstrap draws other questions and prints other intervals.
import type { RunManifest } from './store.ts';
import type { RunRecord } from '../types.ts';

export function sortLikeRun<R extends Pick<RunRecord, 'strategy' | 'repeat' | 'questionId'>>(records: R[], manifest: Pick<RunManifest, 'strategies' | 'questionIds'>): R[] {
  const order = new Map(manifest.strategies.map((s, i) => [s.id, i]));
  const qOrder = new Map((manifest.questionIds ?? []).map((q, i) => [q, i]));
  // Stable sort: records of the same key (a retried record after its failed first try) keep file order.
  return records.sort((a, b) => (order.get(a.strategy) ?? 0) - (order.get(b.strategy) ?? 0) || a.repeat - b.repeat || (qOrder.get(a.questionId) ?? 0) - (qOrder.get(b.questionId) ?? 0));
}
