// Node summaries written by the configured model at ingestion (`corpus.summaries: model`).
//
// Every node without a summary gets one `summarize` call (strategies/prompts.ts) with the text
// it would be summarised from extractively (datasets/summaries.ts: its own text, or its whole
// span for a heading whose children hold the content). Calls go through the metered door like
// a strategy's, with no per-question budget, and their tokens, dollars and latency are totalled
// as the run's *ingestion cost*, kept apart from per-question cost. Replies are cached on disk
// (a response cache under the ingestion cache folder, keyed by model settings and the prompt),
// so the next run of the config pays nothing; a cached call reports the tokens and dollars of
// the call that filled the cache, marked as cached. An unusable reply (after one retry) leaves
// the node with an extractive summary and is counted.
import pLimit from 'p-limit';
import { MeteredContext, type ModelDoor } from './context.ts';
import { ResponseCache } from './cache.ts';
import type { CallLog, Corpus, TreeNode } from './types.ts';
import type { ValueIndex } from './valueIndex.ts';
import { ask } from '../strategies/shared/ask.ts';
import { extractiveSummary, summarySourceText } from '../datasets/summaries.ts';

export interface IngestionCost {
  /** Summaries requested (nodes without one). */
  nodes: number;
  calls: number;
  /** Calls answered from the cache. */
  cached: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Nodes whose reply was unusable and got an extractive summary instead. */
  fallbacks: number;
  ms: number;
}

export interface ModelSummaryOptions {
  door: Omit<ModelDoor, 'index' | 'limiter'>;
  maxTokens: number;
  /** Folder of the summary response cache; null = no cache. */
  cacheDir: string | null;
  concurrency: number;
  onProgress?: (done: number, total: number) => void;
}

function validateSummary(obj: Record<string, unknown>) {
  const s = obj.summary;
  if (typeof s !== 'string' || !s.trim()) return { ok: false as const, error: 'expected {"summary": "<non-empty string>"}' };
  return { ok: true as const, value: { summary: s.trim() } };
}

/** Writes a model summary into every node of `corpus` that has none; returns the ingestion cost. */
export async function writeModelSummaries(corpus: Corpus, opts: ModelSummaryOptions): Promise<IngestionCost> {
  const t0 = performance.now();
  const door: ModelDoor = {
    ...opts.door,
    limiter: pLimit(opts.concurrency),
    // Summaries never search: the index is built after them (it indexes their text too).
    index: null as unknown as ValueIndex,
    ...(opts.cacheDir ? { cache: new ResponseCache(opts.cacheDir), modelKey: opts.door.modelKey ?? opts.door.provider.id } : {}),
  };
  const jobs: Array<{ docIdx: number; node: TreeNode }> = [];
  corpus.docs.forEach((doc, docIdx) => {
    const visit = (nodes: TreeNode[]) => {
      for (const node of nodes) {
        if (!node.summary?.trim()) jobs.push({ docIdx, node });
        visit(node.children);
      }
    };
    visit(doc.nodes);
  });
  const calls: CallLog[] = [];
  let fallbacks = 0;
  let done = 0;
  await Promise.all(
    jobs.map(async ({ docIdx, node }) => {
      const doc = corpus.docs[docIdx];
      const text = summarySourceText(doc, node);
      const ctx = new MeteredContext({ corpus, door, budget: {}, seed: 0, repeat: 0 });
      const section = { node_id: node.id, title: node.title, ...(node.pages ? { pages: node.pages } : {}) };
      const res = await ask(ctx, { task: 'summarize', doc_title: doc.title, section, text, max_tokens: opts.maxTokens }, validateSummary, { maxTokens: opts.maxTokens * 2 + 32 });
      calls.push(...ctx.calls);
      if (res.ok) node.summary = res.value.summary;
      else {
        fallbacks++;
        const fallback = extractiveSummary(text, { maxTokens: opts.maxTokens });
        if (fallback) node.summary = fallback;
      }
      opts.onProgress?.(++done, jobs.length);
    }),
  );
  for (const doc of corpus.docs) doc.summaries = 'model';
  return {
    nodes: jobs.length,
    calls: calls.length,
    cached: calls.filter((c) => c.cached).length,
    inputTokens: calls.reduce((n, c) => n + c.inputTokens, 0),
    outputTokens: calls.reduce((n, c) => n + c.outputTokens, 0),
    costUsd: calls.reduce((n, c) => n + c.costUsd, 0),
    fallbacks,
    ms: performance.now() - t0,
  };
}
