// Ranked metrics at a cutoff, and the TREC export read back by an independent reader that
// follows the TREC formats (trec_eval README): run lines `qid Q0 docno rank score tag`, ordered
// by descending score; qrels lines `qid iter docno rel`. The reader recomputes nDCG@10 and
// recall@10 the way trec_eval does and must agree with the records.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig, type LoadedConfig } from '../../../harness/config/runConfig.ts';
import { runBenchmark } from '../../../harness/run/runner.ts';
import { exportTrec } from '../../../cli/handlers/export.ts';
import { scoreRetrievalAtK } from '../../../harness/scoring/retrieval.ts';
import { loadBenchmarkData } from '../../../datasets/registry.ts';
import { UsageError } from '../../../harness/errors.ts';
import type { Corpus, Question } from '../../../harness/types.ts';
import { render } from '../../../reports/index.ts';
import { reportMeta } from '../../../reports/meta.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'treebench-trec-'));

describe('ranked metrics @k', () => {
  const corpus: Corpus = { name: 'c', docs: [{ docId: 'd', title: 'D', nodes: Array.from({ length: 12 }, (_, i) => ({ id: `n${i + 1}`, title: `N${i + 1}`, children: [] })) }] };
  const question: Question = { id: 'q', question: '?', answers: ['x'], evidence: [{ docId: 'd', nodeIds: ['n11'] }] };
  const evidence = Array.from({ length: 12 }, (_, i) => ({ docId: 'd', nodeId: `n${i + 1}`, rank: i + 1 }));

  it('nDCG@10 is 0 for a gold hit at rank 11; the whole list would give 1/log2(12) = 0.279', () => {
    const r = scoreRetrievalAtK(question, evidence, corpus, [10, 20]);
    expect(r.k).toBe(10);
    // MRR@10 is 0 too; the uncut reciprocal rank beside it is trec_eval's recip_rank, 1/11.
    expect(r.node).toEqual({ recall: 0, precision: 0, mrr: 0, mrrUncut: 1 / 11, ndcg: 0 });
    expect(r.at!['20']!.node!.ndcg).toBeCloseTo(1 / Math.log2(12), 12);
    expect(r.at!['20']!.node!.mrr).toBeCloseTo(1 / 11, 12);
    expect(r.at!['20']!.node!.precision).toBeCloseTo(1 / 20, 12);
    // Default cutoff: 10.
    expect(scoreRetrievalAtK(question, evidence, corpus).node!.ndcg).toBe(0);
  });
});

// ---- An independent reader of the TREC formats -------------------------------------------------

type Run = Map<string, Array<{ docno: string; rank: number; score: number; tag: string }>>;

function readRun(text: string): Run {
  const run: Run = new Map();
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const f = line.trim().split(/\s+/);
    if (f.length !== 6) throw new Error(`run line ${i + 1}: expected 6 fields, got ${f.length}`);
    const [qid, q0, docno, rank, score, tag] = f as [string, string, string, string, string, string];
    if (q0 !== 'Q0') throw new Error(`run line ${i + 1}: second field must be Q0`);
    if (!/^\d+$/.test(rank) || !Number.isFinite(Number(score))) throw new Error(`run line ${i + 1}: bad rank or score`);
    if (!run.has(qid)) run.set(qid, []);
    run.get(qid)!.push({ docno, rank: Number(rank), score: Number(score), tag });
  });
  return run;
}

function readQrels(text: string): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const f = line.trim().split(/\s+/);
    if (f.length !== 4) throw new Error(`qrels line ${i + 1}: expected 4 fields`);
    const [qid, , docno, rel] = f as [string, string, string, string];
    if (!qrels.has(qid)) qrels.set(qid, new Map());
    qrels.get(qid)!.set(docno, Number(rel));
  });
  return qrels;
}

/** trec_eval's ordering: score descending, ties by docno descending; then its ndcg_cut / recall, and recip_rank (never cut). */
function trecEvalAt(run: Run, qrels: Map<string, Map<string, number>>, k: number): Map<string, { ndcg: number; recall: number; recipRank: number }> {
  const out = new Map<string, { ndcg: number; recall: number; recipRank: number }>();
  for (const [qid, rels] of qrels) {
    const all = [...(run.get(qid) ?? [])].sort((a, b) => b.score - a.score || (a.docno < b.docno ? 1 : -1));
    const firstHit = all.findIndex((d) => (rels.get(d.docno) ?? 0) > 0);
    const docs = all.slice(0, k);
    const relevant = [...rels.values()].filter((r) => r > 0).length;
    let dcg = 0;
    let found = 0;
    docs.forEach((d, i) => {
      const rel = rels.get(d.docno) ?? 0;
      if (rel > 0) found += 1;
      dcg += rel / Math.log2(i + 2);
    });
    let idcg = 0;
    for (let i = 0; i < Math.min(k, relevant); i++) idcg += 1 / Math.log2(i + 2);
    out.set(qid, { ndcg: idcg ? dcg / idcg : 0, recall: found / relevant, recipRank: firstHit < 0 ? 0 : 1 / (firstHit + 1) });
  }
  return out;
}

function configOf(raw: Record<string, unknown>): LoadedConfig {
  const full = { name: 'trec-test', dataset: { format: 'sample' }, ...raw };
  const { config, strategies } = validateConfig(full);
  return { path: join(process.cwd(), 'trec-test.yaml'), baseDir: process.cwd(), raw: JSON.stringify(full), config, strategies };
}

describe('treebench export --trec --qrels', () => {
  it('writes files a TREC reader parses, and they reproduce the records’ nDCG@10 and recall@10', async () => {
    const dir = tmp();
    const loaded = configOf({ strategies: [{ strategy: 'vector', params: { topK: 12 } }, 'hybrid-beam'], scoring: { k: [10, 3] } });
    const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
    data.questions = data.questions.slice(0, 20);
    const outcome = await runBenchmark({ loaded, data, outDir: dir, runId: 't' });
    await expect(exportTrec({ runDir: join(dir, 't'), trec: join(dir, 'x.run') })).rejects.toThrow(UsageError); // two strategies: --strategy needed
    // The summary names its cutoff and summarises the further one; reports name the metrics @k.
    expect(outcome.summary.k).toBe(10);
    const vector = outcome.summary.strategies.find((s) => s.strategy === 'vector')!;
    const at3 = outcome.records.filter((r) => r.strategy === 'vector' && r.retrieval?.at?.['3']?.node).map((r) => r.retrieval!.at!['3']!.node!.ndcg);
    expect(vector.retrievalAt!['3']!.node!.ndcg).toBeCloseTo(at3.reduce((a, b) => a + b, 0) / at3.length, 12);
    const md = render('md', { summary: outcome.summary, meta: reportMeta(outcome.manifest) });
    expect(md).toContain('node nDCG@10');
    expect(md).toContain('node nDCG@3');
    // MRR cut at k and the uncut reciprocal rank sit side by side, named apart.
    expect(md).toContain('node MRR@10');
    expect(md).toContain('node MRR (uncut)');
    expect(vector.retrieval.node!.mrrUncut).toBeGreaterThanOrEqual(vector.retrieval.node!.mrr);

    for (const strategy of ['vector', 'hybrid-beam']) {
      const runPath = join(dir, `${strategy}.run`);
      const qrelsPath = join(dir, 'gold.qrels');
      await exportTrec({ runDir: join(dir, 't'), trec: runPath, qrels: qrelsPath, strategy, level: 'node' });
      const run = readRun(readFileSync(runPath, 'utf8'));
      const qrels = readQrels(readFileSync(qrelsPath, 'utf8'));
      for (const docs of run.values()) {
        expect(docs.every((d) => d.tag === strategy)).toBe(true);
        expect(docs.map((d) => d.rank)).toEqual(docs.map((_, i) => i + 1));
      }
      const ours = trecEvalAt(run, qrels, 10);
      const records = outcome.records.filter((r) => r.strategy === strategy && r.retrieval?.node);
      expect(records.length).toBeGreaterThan(10);
      expect(ours.size).toBe(records.length);
      for (const r of records) {
        const m = ours.get(r.questionId)!;
        expect(r.retrieval!.k).toBe(10);
        expect(m.ndcg).toBeCloseTo(r.retrieval!.node!.ndcg, 12);
        expect(m.recall).toBeCloseTo(r.retrieval!.node!.recall, 12);
        // recip_rank is not cut at k: it is our mrrUncut, not MRR@10.
        expect(m.recipRank).toBeCloseTo(r.retrieval!.node!.mrrUncut!, 12);
        expect(trecEvalAt(run, qrels, 3).get(r.questionId)!.ndcg).toBeCloseTo(r.retrieval!.at!['3']!.node!.ndcg, 12);
      }
    }
    // An unknown level is a usage error naming the flag.
    await expect(exportTrec({ runDir: join(dir, 't'), qrels: join(dir, 'p.qrels'), strategy: 'vector', level: 'chapter' })).rejects.toThrow(/--level/);
  });
});
