// A strategy plugin whose vectors live in a real vector database, LanceDB (embedded, on disk):
// the pattern for corpora that outgrow memory, and for a team's own Qdrant, pgvector or
// OpenSearch. Each node's own text is embedded once per run with a small local embedder (feature
// hashing: no model, no network, nothing to meter) and written to a LanceDB table in the run
// folder; each question is embedded the same way, its nearest nodes are read from the table and
// the model answers from them through the metered ctx.chat.
//
//   npm install @lancedb/lancedb@0.31.0      (a development dependency of this repository)
//   strategies:
//     - id: lancedb
//       module: ./lancedb-module.ts
//       params: { topK: 3 }
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { defineStrategy, z, type Corpus, type TreeNode } from 'treebench';

const DIM = 256;

/** Feature-hashed, L2-normalised bag of words: a stand-in for a local embedding model. */
function embed(text: string): number[] {
  const v = new Array<number>(DIM).fill(0);
  for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (w.length < 3) continue;
    const h = createHash('md5').update(w).digest();
    v[h.readUInt16LE(0) % DIM]! += h[2]! & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

// One table per run (per corpus file), built by the first question that needs it.
const tables = new Map<string, Promise<lancedb.Table>>();

async function tableFor(corpusPath: string, corpus: Corpus): Promise<lancedb.Table> {
  let table = tables.get(corpusPath);
  if (!table) {
    table = (async () => {
      const rows: Array<{ vector: number[]; docId: string; nodeId: string }> = [];
      const add = (docId: string, nodes: TreeNode[]) => {
        for (const n of nodes) {
          rows.push({ vector: embed(`${n.title} ${n.title} ${n.summary ?? ''} ${n.text ?? ''}`), docId, nodeId: n.id });
          add(docId, n.children);
        }
      };
      for (const d of corpus.docs) add(d.docId, d.nodes);
      const db = await lancedb.connect(join(dirname(corpusPath), 'lancedb'));
      return db.createTable('nodes', rows, { mode: 'overwrite' });
    })();
    tables.set(corpusPath, table);
  }
  return table;
}

export default defineStrategy({
  name: 'lancedb',
  description: 'Nearest nodes from a LanceDB table (local hashed embeddings), answered by the model.',
  params: z.object({ topK: z.number().int().min(1).max(50).default(3) }).strict(),
  async run(request, ctx) {
    const table = await tableFor(request.corpusPath, ctx.corpus);
    const hits = (await table.vectorSearch(embed(request.question)).distanceType('cosine').limit(request.params.topK).toArray()) as Array<{ docId: string; nodeId: string; _distance: number }>;
    const context = hits.map((h) => { const n = ctx.node(h.docId, h.nodeId); return `[${n.title}]\n${n.text ?? n.summary ?? ''}`; }).join('\n\n');
    const reply = await ctx.chat([{ role: 'user', content: `Answer from the context, briefly.\n\nContext:\n${context}\n\nQuestion: ${request.question}` }], { task: 'lancedb.answer', maxTokens: 256 });
    return {
      answer: reply.text.trim(),
      evidence: hits.map((h) => ({ docId: h.docId, nodeId: h.nodeId })),
      trace: hits.map((h) => ({ action: 'score', docId: h.docId, nodeId: h.nodeId, source: 'value' as const, score: 1 - h._distance, reason: 'LanceDB cosine nearest neighbour' })),
    };
  },
});
