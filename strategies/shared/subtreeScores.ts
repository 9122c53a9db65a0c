// Value-search scores rolled up the outline: a section is as promising as the chunk hits in its
// own text plus those in every sub-section. Tree strategies use it to rank children when the
// model cannot (layerwise fallback) and as PUCT priors (mcts).
import type { ChunkHit, StrategyContext } from '../types.ts';
import { nodeKey } from './evidence.ts';
import { nodeScores } from './scores.ts';
import { indexDoc } from './tree.ts';

export interface SubtreeScores {
  /** NodeScore of the node's own chunks (0 when it has none). */
  own(docId: string, nodeId: string): number;
  /** Own NodeScore plus the NodeScores of every descendant. */
  subtree(docId: string, nodeId: string): number;
  /** Sum of the NodeScores of every node of the document. */
  doc(docId: string): number;
  /** Nodes with a hit, best NodeScore first. */
  readonly ranked: Array<{ docId: string; nodeId: string; score: number }>;
}

/**
 * Aggregates chunk hits (NodeScore = sum / sqrt(N + 1) per node) and adds each node's score to
 * all its ancestors. Hits naming a document or node the corpus does not have are ignored: the
 * chunk index may be older than the corpus, and a stale hit must not crash a search.
 */
export function subtreeScores(ctx: StrategyContext, hits: ChunkHit[]): SubtreeScores {
  const own = new Map<string, number>();
  const subtree = new Map<string, number>();
  const docs = new Map<string, number>();
  const ranked: SubtreeScores['ranked'] = [];
  const known = new Set(ctx.corpus.docs.map((d) => d.docId));
  for (const s of nodeScores(hits)) {
    if (!s.nodeId || !known.has(s.docId)) continue;
    const index = indexDoc(ctx.doc(s.docId));
    let info = index.byId.get(s.nodeId);
    if (!info) continue;
    own.set(s.key, s.score);
    ranked.push({ docId: s.docId, nodeId: s.nodeId, score: s.score });
    docs.set(s.docId, (docs.get(s.docId) ?? 0) + s.score);
    for (;;) {
      const key = nodeKey(s.docId, info.node.id);
      subtree.set(key, (subtree.get(key) ?? 0) + s.score);
      if (!info.parent) break;
      const up = index.byId.get(info.parent.id);
      if (!up) break;
      info = up;
    }
  }
  return {
    own: (docId, nodeId) => own.get(nodeKey(docId, nodeId)) ?? 0,
    subtree: (docId, nodeId) => subtree.get(nodeKey(docId, nodeId)) ?? 0,
    doc: (docId) => docs.get(docId) ?? 0,
    ranked,
  };
}

/** No hits at all: every score is 0 (priors become uniform). */
export const emptySubtreeScores: SubtreeScores = { own: () => 0, subtree: () => 0, doc: () => 0, ranked: [] };
