// What the harness gives a strategy while it answers one question (DESIGN.md, "Strategies"): the
// corpus, the one metered door to models, value search, the budget and seeded randomness. The
// harness implements it (harness/run/context.ts, MeteredContext) and the strategies use it, so it is
// defined here, below both; strategies/types.ts re-exports it beside the Strategy contract.
import type { ChatMessage, ChatOptions, ChatResult, Corpus, DocTree, TreeNode } from '../types.ts';
import type { BudgetTracker } from '../run/budget.ts';

/** A chunk hit from value search, already mapped to the node it belongs to. */
export interface ChunkHit {
  docId: string;
  nodeId: string;
  chunkId: number;
  text: string;
  /** Cosine similarity of the chunk to the query. */
  score: number;
}

export interface ValueSearchOptions {
  topK: number;
  /** Restrict the search to these documents. */
  docIds?: string[];
}

/** Everything a strategy may use while answering one question. */
export interface StrategyContext {
  readonly corpus: Corpus;
  /** Metered, budgeted chat call. Throws BudgetExhaustedError when a budget refuses it. */
  chat(messages: ChatMessage[], opts?: ChatOptions): Promise<ChatResult>;
  /** Metered embedding call. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Cosine top-k over the run's shared chunk index (the query embedding is metered). */
  valueSearch(query: string, opts: ValueSearchOptions): Promise<ChunkHit[]>;
  /** Counts tokens with the run's tokenizer. */
  countTokens(text: string): number;
  /** Per-question budget: visit/open counters and what remains. */
  readonly budget: BudgetTracker;
  /** Seeded random numbers in [0, 1), stable per (run seed, strategy, question, repeat). */
  random(): number;
  readonly seed: number;
  doc(docId: string): DocTree;
  node(docId: string, nodeId: string): TreeNode;
  /** Prompt templates replacing the strategy's own (the config entry's `prompts:`), by prompt name. */
  readonly prompts?: Readonly<Record<string, string>>;
  /** False once the run's provider knows its server refuses native tools (absent: unknown, try). */
  toolsSupported?(): boolean;
}
