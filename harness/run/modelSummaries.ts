// Node summaries written by the configured model at ingestion (`corpus.summaries: model`).
//
// Every node without a summary gets one `summarize` call (the prompt below) with the text it
// would be summarised from extractively (harness/trees/summarySource.ts: its own text, or its
// whole span for a heading whose children hold the content). Calls go through the metered door like
// a strategy's, with no per-question budget, and their tokens, dollars and latency are totalled
// as the run's *ingestion cost*, kept apart from per-question cost. Replies are cached on disk
// (a response cache under the ingestion cache folder, keyed by model settings and the prompt),
// so the next run of the config pays nothing; a cached call reports the tokens and dollars of
// the call that filled the cache, marked as cached. An unusable reply (after one retry) leaves
// the node with an extractive summary and is counted.
import pLimit from 'p-limit';
import { MeteredContext, type ModelDoor } from './context.ts';
import { ResponseCache } from '../models/responseCache.ts';
import type { CallLog, Corpus, TreeNode } from '../types.ts';
import type { ValueIndex } from '../retrieval/valueIndex.ts';
import { askJson } from '../protocol/ask.ts';
import { taskMessage, type PromptPayload } from '../protocol/tasks.ts';
import { extractiveSummary } from '../text/extractive.ts';
import { summarySourceText } from '../trees/summarySource.ts';
import { sumCalls } from './ingestionModel.ts';

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

/** The instruction of the `summarize` task; its payload is harness/protocol/tasks.ts's. */
export const SUMMARIZE_INSTRUCTION = [
  'You write the table-of-contents summary of one section of a document, for a reader deciding whether to open it.',
  'Say what the section covers (topics, kinds of figures, named items), not its conclusions; no preamble.',
  'Use at most `max_tokens` tokens (one to three sentences).',
  'Reply with JSON only: {"summary": "<summary>"}',
].join('\n');

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
      const payload: PromptPayload = { task: 'summarize', doc_title: doc.title, section, text, max_tokens: opts.maxTokens };
      const prompt = [{ role: 'system' as const, content: SUMMARIZE_INSTRUCTION }, taskMessage(payload)];
      const res = await askJson(ctx, payload.task, prompt, validateSummary, { maxTokens: opts.maxTokens * 2 + 32 });
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
    ...sumCalls(calls),
    fallbacks,
    ms: performance.now() - t0,
  };
}
