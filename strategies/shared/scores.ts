// Aggregating chunk hits into node and document scores (DESIGN.md):
//   NodeScore = sum(ChunkScore) / sqrt(N + 1),  DocScore = sum(ChunkScore) / sqrt(N + 1)
// where N is the number of hits that fall in the node (or document). The sqrt(N + 1) damping
// rewards several hits without letting a long node win on volume alone.
import type { ChunkHit } from '../types.ts';
import { nodeKey } from './evidence.ts';

export interface Scored {
  key: string;
  docId: string;
  nodeId?: string;
  score: number;
  hits: number;
}

function aggregate(hits: ChunkHit[], keyOf: (h: ChunkHit) => string, withNode: boolean): Scored[] {
  const acc = new Map<string, Scored & { sum: number }>();
  for (const h of hits) {
    const key = keyOf(h);
    const cur = acc.get(key) ?? { key, docId: h.docId, ...(withNode ? { nodeId: h.nodeId } : {}), score: 0, hits: 0, sum: 0 };
    cur.sum += h.score;
    cur.hits += 1;
    acc.set(key, cur);
  }
  return [...acc.values()]
    .map(({ sum, ...s }) => ({ ...s, score: sum / Math.sqrt(s.hits + 1) }))
    .sort((a, b) => b.score - a.score || a.key.localeCompare(b.key));
}

export const nodeScores = (hits: ChunkHit[]): Scored[] => aggregate(hits, (h) => nodeKey(h.docId, h.nodeId), true);
export const docScores = (hits: ChunkHit[]): Scored[] => aggregate(hits, (h) => h.docId, false);
