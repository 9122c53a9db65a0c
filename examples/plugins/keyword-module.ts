// An in-process strategy plugin in TypeScript: value search over the run's chunk index, the hits
// re-ranked by how many question words their node's title holds, then one answer from the model.
// It gets the same context the built-ins get (metered ctx.chat, ctx.valueSearch, the trees).
//
//   strategies:
//     - id: ts-keyword
//       module: ./keyword-module.ts
//       params: { topK: 3 }
import { defineStrategy, z } from 'treebench';

const words = (s: string) => new Set(s.toLowerCase().match(/[a-z0-9]+/g) ?? []);

export default defineStrategy({
  name: 'title-rerank',
  description: 'Value search, re-ranked by question words in the node title; answers from the top nodes.',
  params: z.object({ topK: z.number().int().min(1).max(20).default(3), searchK: z.number().int().min(1).default(20) }).strict(),
  async run(request, ctx) {
    const q = words(request.question);
    const hits = await ctx.valueSearch(request.question, { topK: request.params.searchK, ...(request.docIds ? { docIds: request.docIds } : {}) });
    const best = new Map<string, { docId: string; nodeId: string; score: number }>();
    for (const h of hits) {
      const title = ctx.node(h.docId, h.nodeId).title;
      const overlap = [...words(title)].filter((w) => q.has(w)).length;
      const key = `${h.docId}/${h.nodeId}`;
      const score = h.score + 0.1 * overlap;
      if ((best.get(key)?.score ?? -Infinity) < score) best.set(key, { docId: h.docId, nodeId: h.nodeId, score });
    }
    const top = [...best.values()].sort((a, b) => b.score - a.score).slice(0, request.params.topK);
    const context = top.map((t) => { const n = ctx.node(t.docId, t.nodeId); return `[${n.title}]\n${n.text ?? n.summary ?? ''}`; }).join('\n\n');
    const reply = await ctx.chat([{ role: 'user', content: `Answer from the context, briefly.\n\nContext:\n${context}\n\nQuestion: ${request.question}` }], { task: 'title-rerank.answer', maxTokens: 256 });
    return {
      answer: reply.text.trim(),
      evidence: top.map((t) => ({ docId: t.docId, nodeId: t.nodeId })),
      trace: top.map((t) => ({ action: 'score', docId: t.docId, nodeId: t.nodeId, source: 'value' as const, score: t.score })),
    };
  },
});
