// Retrieval quality, binary relevance, following ranx's definitions (github.com/AmenRa/ranx):
//   recall      = relevant retrieved (in the top k) / relevant
//   precision   = relevant retrieved in the top k / k; without k, / number retrieved (0 if none)
//   reciprocal rank = 1 / rank of the first relevant item (0 if none in the top k): `mrr`, MRR@k;
//   uncut reciprocal rank = the same over the whole list, whatever k (`mrrUncut`), which is what
//                 trec_eval's `recip_rank` and ranx's `mrr` without a cutoff report
//   nDCG        = DCG / IDCG, DCG = Σ rel_i / log2(i + 1) over ranks i = 1..k (Järvelin &
//                 Kekäläinen); IDCG is the DCG of the ideal list, min(k, |relevant|) hits first.
// `k` undefined means the whole ranked list. Ranked ids are deduplicated first (first occurrence
// keeps its rank), as ranx requires unique ids per query: a node found by two chunks counts once.
// With an empty gold set every metric is undefined (NaN); `scoreRetrieval` turns that into null.
//
// `scoreRetrieval` scores one record at three levels; each level is null when the question has
// no gold at that level (unknown is never scored as 0):
//   node — gold: every (docId, nodeId) in the question's evidence; retrieved: evidence items by rank.
//   page — gold: each evidence item's pages, or, when it names nodes but no pages, the page
//          ranges of those nodes in the corpus; retrieved: each evidence item's page range (or its
//          node's range in the corpus) expanded page by page, in evidence-rank order, deduplicated.
//   doc  — gold: the evidence's docIds; retrieved: evidence docIds by rank, deduplicated.
//          Document recall@k is the share of gold documents among the first k DISTINCT
//          documents of the evidence in rank order (ten items from one filing are one document);
//          a gold page or node id in the wrong document is no hit at any level, as every id is
//          keyed by its docId.
// `candidateDocuments` says how many documents the question left to choose from (recorded as
// `candidateDocs`): where it is 1 (the closed setting) document recall only says whether any
// evidence came back, and reports hide or mark it.
// When only some gold items can be resolved to pages, page scores use the pages that are known.
import type { Corpus, EvidenceItem, Question, RecordRetrieval, RetrievalScores, TreeNode } from '../types.ts';

function checkK(k: number | undefined): void {
  if (k !== undefined && !(Number.isInteger(k) && k > 0)) {
    throw new RangeError(`k must be a positive integer, got ${k}`);
  }
}

function topK(ranked: readonly string[], k?: number): string[] {
  checkK(k);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of ranked) {
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
    if (k !== undefined && out.length >= k) break;
  }
  return out;
}

function asSet(gold: Iterable<string>): Set<string> {
  return gold instanceof Set ? gold : new Set(gold);
}

function hits(list: readonly string[], gold: Set<string>): number {
  let n = 0;
  for (const id of list) if (gold.has(id)) n += 1;
  return n;
}

export function recall(ranked: readonly string[], gold: Iterable<string>, k?: number): number {
  const g = asSet(gold);
  if (g.size === 0) return NaN;
  return hits(topK(ranked, k), g) / g.size;
}

export function precision(ranked: readonly string[], gold: Iterable<string>, k?: number): number {
  const g = asSet(gold);
  if (g.size === 0) return NaN;
  const list = topK(ranked, k);
  const denom = k ?? list.length;
  return denom === 0 ? 0 : hits(list, g) / denom;
}

export function reciprocalRank(ranked: readonly string[], gold: Iterable<string>, k?: number): number {
  const g = asSet(gold);
  if (g.size === 0) return NaN;
  const list = topK(ranked, k);
  const i = list.findIndex((id) => g.has(id));
  return i < 0 ? 0 : 1 / (i + 1);
}

export function ndcgAtK(ranked: readonly string[], gold: Iterable<string>, k?: number): number {
  const g = asSet(gold);
  if (g.size === 0) return NaN;
  const list = topK(ranked, k);
  let dcg = 0;
  list.forEach((id, i) => {
    if (g.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  const ideal = Math.min(k ?? g.size, g.size);
  let idcg = 0;
  for (let i = 0; i < ideal; i++) idcg += 1 / Math.log2(i + 2);
  return dcg / idcg;
}

export function retrievalScores(ranked: readonly string[], gold: Iterable<string>, k?: number): RetrievalScores | null {
  const g = asSet(gold);
  if (g.size === 0) return null;
  return {
    recall: recall(ranked, g, k),
    precision: precision(ranked, g, k),
    mrr: reciprocalRank(ranked, g, k),
    mrrUncut: reciprocalRank(ranked, g),
    ndcg: ndcgAtK(ranked, g, k),
  };
}

// ---------------------------------------------------------------------------------------------
// One record, three levels

/** What scoring needs of an evidence item; records keep these fields (without the text). */
export type RankedEvidence = Pick<EvidenceItem, 'docId' | 'nodeId' | 'rank'> & { pages?: [number, number] };

// NUL cannot occur in ids read from JSON/CSV in practice, so it keeps composite keys unambiguous.
const nodeKey = (docId: string, nodeId: string) => `${docId}\u0000${nodeId}`;
const pageKey = (docId: string, page: number) => `${docId}\u0000${page}`;

type NodeIndex = Map<string, Map<string, TreeNode>>;
const indexCache = new WeakMap<Corpus, NodeIndex>();

function nodeIndex(corpus: Corpus): NodeIndex {
  let index = indexCache.get(corpus);
  if (index) return index;
  index = new Map();
  for (const doc of corpus.docs) {
    const nodes = new Map<string, TreeNode>();
    const stack = [...doc.nodes];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (!nodes.has(n.id)) nodes.set(n.id, n);
      stack.push(...n.children);
    }
    index.set(doc.docId, nodes);
  }
  indexCache.set(corpus, index);
  return index;
}

// A malformed range (non-integer ends, e.g. from a hand-edited tree) contributes no pages rather
// than looping forever or crashing the scorer.
function expand(range: readonly [number, number]): number[] {
  if (!Number.isSafeInteger(range[0]) || !Number.isSafeInteger(range[1])) return [];
  const lo = Math.min(range[0], range[1]);
  const hi = Math.max(range[0], range[1]);
  const out: number[] = [];
  for (let p = lo; p <= hi; p++) out.push(p);
  return out;
}

export interface RetrievalOptions {
  /** Cutoff for every metric; default: the whole ranked list. */
  k?: number;
}

/** One level's ranked ids (deduplicated by the metrics, not here) and gold ids. */
export interface RankedLevel {
  ranked: string[];
  gold: Set<string>;
}

/**
 * The ranked and gold id lists that `scoreRetrieval` scores, per level, with ids
 * `docId\u0000nodeId` (node), `docId\u0000page` (page) and `docId` (doc). The TREC export writes
 * these same lists, so trec_eval or ranx recompute the record's numbers.
 */
export function rankedLevels(question: Question, evidence: readonly RankedEvidence[], corpus: Corpus): Record<'node' | 'page' | 'doc', RankedLevel> {
  const gold = question.evidence ?? [];
  const index = nodeIndex(corpus);
  const lookup = (docId: string, nodeId: string) => index.get(docId)?.get(nodeId);

  // Stable sort: ties keep the strategy's order.
  const ranked = evidence
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.rank - b.e.rank || a.i - b.i)
    .map((x) => x.e);

  const goldNodes = new Set<string>();
  const goldPages = new Set<string>();
  const goldDocs = new Set<string>();
  for (const g of gold) {
    goldDocs.add(g.docId);
    for (const id of g.nodeIds ?? []) goldNodes.add(nodeKey(g.docId, id));
    if (g.pages && g.pages.length > 0) {
      for (const p of g.pages) goldPages.add(pageKey(g.docId, p));
    } else {
      for (const id of g.nodeIds ?? []) {
        const pages = lookup(g.docId, id)?.pages;
        if (pages) for (const p of expand(pages)) goldPages.add(pageKey(g.docId, p));
      }
    }
  }

  const retrievedNodes = ranked.map((e) => nodeKey(e.docId, e.nodeId));
  const retrievedPages: string[] = [];
  for (const e of ranked) {
    const pages = e.pages ?? lookup(e.docId, e.nodeId)?.pages;
    if (pages) for (const p of expand(pages)) retrievedPages.push(pageKey(e.docId, p));
  }
  const retrievedDocs = ranked.map((e) => e.docId);
  return {
    node: { ranked: retrievedNodes, gold: goldNodes },
    page: { ranked: retrievedPages, gold: goldPages },
    doc: { ranked: retrievedDocs, gold: goldDocs },
  };
}

export function scoreRetrieval(
  question: Question,
  evidence: readonly RankedEvidence[],
  corpus: Corpus,
  opts: RetrievalOptions = {},
): RecordRetrieval {
  const l = rankedLevels(question, evidence, corpus);
  return {
    node: retrievalScores(l.node.ranked, l.node.gold, opts.k),
    page: retrievalScores(l.page.ranked, l.page.gold, opts.k),
    doc: retrievalScores(l.doc.ranked, l.doc.gold, opts.k),
  };
}

/**
 * How many documents the question leaves the strategy to choose from: the documents it names
 * that the corpus has (the closed setting: usually one), else the whole corpus (the open
 * setting), as strategies/shared/docSelect.ts chooses.
 */
export function candidateDocuments(question: Pick<Question, 'docIds'>, corpus: Corpus): number {
  const known = nodeIndex(corpus);
  const named = new Set((question.docIds ?? []).filter((id) => known.has(id)));
  return named.size > 0 ? named.size : known.size;
}

/** A record's evidence recall at the finest level it has gold for (node, else page, else doc). */
export function headlineRecall(retrieval: RecordRetrieval | null | undefined): number | null {
  return retrieval?.node?.recall ?? retrieval?.page?.recall ?? retrieval?.doc?.recall ?? null;
}

/** The default cutoff of ranked metrics (docs/scoring.md promises nDCG@10). */
export const DEFAULT_K = 10;

/** `scoring.k` as a list: a number, a list, or nothing (the default). */
export function cutoffs(k: number | readonly number[] | undefined): number[] {
  const list = k === undefined ? [DEFAULT_K] : typeof k === 'number' ? [k] : [...k];
  for (const v of list) checkK(v);
  return list.length ? [...new Set(list)] : [DEFAULT_K];
}

/**
 * A record's retrieval scores at the cutoffs of `scoring.k`: the first cutoff fills node/page/doc
 * (and `k`), further ones go under `at[k]`. A gold hit at rank 11 counts 0 in nDCG@10.
 */
export function scoreRetrievalAtK(
  question: Question,
  evidence: readonly RankedEvidence[],
  corpus: Corpus,
  k?: number | readonly number[],
): RecordRetrieval {
  const [first, ...rest] = cutoffs(k) as [number, ...number[]];
  // Field by field: a spread here gave every record's object a hidden class of its own.
  const atFirst = scoreRetrieval(question, evidence, corpus, { k: first });
  const out: RecordRetrieval = { node: atFirst.node, page: atFirst.page, doc: atFirst.doc, k: first, candidateDocs: candidateDocuments(question, corpus) };
  if (rest.length) out.at = Object.fromEntries(rest.map((kk) => [String(kk), scoreRetrieval(question, evidence, corpus, { k: kk })]));
  return out;
}
