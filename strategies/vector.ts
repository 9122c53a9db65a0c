// `vector` — classic RAG: cosine top-k over token-bounded chunks of node text (the run's shared
// chunk index maps each chunk to the node it came from), then one answer call over the chunks.
// Chunks of one node are one evidence item; on paged documents it names the pages its chunks
// are printed on (a chunk of a 12-page section is not a read of all 12 pages).
import { z } from 'zod';
import type { EvidenceItem } from '../harness/types.ts';
import type { Strategy } from './types.ts';
import { answerFromEvidence } from './shared/answer.ts';
import { nodeKey, openNode, pagesOfPassages, rankEvidence, Trace } from './shared/evidence.ts';
import { isBudgetExhausted } from '../harness/run/budget.ts';
import { promptInfo } from './prompts.ts';

const params = z
  .object({
    /** Chunks retrieved. */
    topK: z.number().int().min(1).max(200).default(5),
    /** Tokens of context passed to the answer call. */
    maxContextTokens: z.number().int().min(100).default(6000),
  })
  .strict();

export type VectorParams = z.infer<typeof params>;

export const vectorStrategy: Strategy<VectorParams> = {
  name: 'vector',
  description: 'Embed chunks of node text, take the cosine top-k, answer from the chunks (1 answer call).',
  prompts: promptInfo(['answer']),
  params,
  async run(question, ctx, p) {
    const trace = new Trace();
    const hits = await ctx.valueSearch(question.question, { topK: p.topK, ...(question.docIds ? { docIds: question.docIds } : {}) });
    // Chunks of the same node become one evidence item (ranked by its best chunk) so retrieval
    // metrics count nodes, while the answer still sees every retrieved chunk.
    const byNode = new Map<string, { docId: string; nodeId: string; texts: string[]; score: number }>();
    for (const h of hits) {
      const key = nodeKey(h.docId, h.nodeId);
      const cur = byNode.get(key) ?? { docId: h.docId, nodeId: h.nodeId, texts: [], score: h.score };
      cur.texts.push(h.text);
      byNode.set(key, cur);
    }
    const evidence: EvidenceItem[] = [];
    try {
      for (const n of byNode.values()) {
        // Evidence names the pages the chunks are on, not the whole section: that is what was read.
        const pages = pagesOfPassages(ctx.doc(n.docId), ctx.node(n.docId, n.nodeId), n.texts);
        evidence.push(openNode(ctx, trace, n.docId, n.nodeId, { source: 'value', score: n.score, text: n.texts.join('\n…\n'), reason: `${n.texts.length} chunk(s)`, ...(pages ? { pages } : {}) }));
      }
    } catch (err) {
      if (!isBudgetExhausted(err)) throw err;
    }
    const ranked = rankEvidence(evidence);
    const out = await answerFromEvidence(question, ranked, ctx, trace, { maxContextTokens: p.maxContextTokens });
    return { answer: out.answer, ...(out.choice !== undefined ? { choice: out.choice } : {}), evidence: ranked, trace: trace.steps, parseFailures: out.parseFailures };
  },
};
