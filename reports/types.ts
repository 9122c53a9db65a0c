// What every report renderer receives besides the summary: the few facts about the run a reader
// needs to trust the numbers (which dataset, which model, whether that model is the offline
// reasoner, whether costs are real). The runner fills it from the manifest (see meta.ts).
import type { RunSummary } from '../harness/summary/summary.ts';
import type { ParameterTable } from './parameters.ts';
import type { RunRecord } from '../harness/types.ts';
import type { OutputStream } from '../harness/files/output.ts';

export interface ReportMeta {
  runId: string;
  /** Config name. */
  config: string;
  /** Dataset name. */
  dataset: string;
  /** Chat model id as the provider reports it. */
  model: string;
  /** True for the embedded offline reasoner: reports label its numbers as not LLM quality. */
  offline: boolean;
  /** False when the model has no entry in the price table: costs print as "unpriced", not $0. */
  priced: boolean;
  /** The model whose prices were used, when it is not the chat model itself (`priceAs`). */
  pricedAs?: string;
  /** Date of the shipped price table (`asOf`). */
  pricesAsOf?: string;
  /** Models the config priced itself (`prices:`, merged over the shipped table). */
  userPrices?: string[];
  /** Rate-limit pacing of the chat requests (manifest.pacing), when there was any. */
  pacing?: { requests: number; refused: number; waitedMs: number; held: number };
  /** Groups of byte-identical documents (their ids), and whether the run merged them. */
  duplicateDocuments?: { groups: string[][]; merged: boolean };
  /** Documents ingestion left out (unreadable, no text): docId, file name, why. */
  skippedDocuments?: Array<{ docId: string; file: string; reason: string }>;
  /** The same for the embedder's requests (manifest.embeddingPacing). */
  embeddingPacing?: { requests: number; refused: number; waitedMs: number; held: number };
  startedAt: string;
  finishedAt?: string;
  /** Questions in the run (before repeats). */
  questions: number;
  /** Strategy ids in config order; reports list strategies in this order. */
  strategies: string[];
  embedder?: string;
  repeats?: number;
  seed?: number;
  configHash?: string;
  codeVersion?: string;
  /** Parameter columns of a sweep or grid (reports/parameters.ts); absent when nothing varies. */
  parameters?: ParameterTable;
  /** The corpus index's embedding: once per run, in no question's cost (manifest.index). */
  index?: { chunks: number; embedCalls: number; inputTokens: number; estimated: boolean; costUsd: number | null };
  /**
   * Model work at ingestion, once per run, in no question's cost (manifest.ingestion): trees the
   * model built, node summaries it wrote. Dollars are null when the model is unpriced.
   */
  ingestion?: {
    trees?: { documents: number; built: number; calls: number; cached: number; tokens: number; costUsd: number | null };
    summaries?: { nodes: number; calls: number; cached: number; tokens: number; costUsd: number | null };
  };
  /** Custom scorers (`scoring.scorers`): their names, descriptions and directions. */
  scorers?: Array<{ name: string; description?: string; higherIsBetter: boolean }>;
}

export interface ReportInput {
  summary: RunSummary;
  meta: ReportMeta;
  /**
   * The run's records, for reports that show questions (HTML matrix, latency distributions): an
   * array, or an iterable that reads them from records.jsonl as it goes (recordsInRunOrder).
   */
  records?: Iterable<RunRecord>;
  /** Node title lookup for search traces, when the corpus is at hand. */
  nodeTitle?: (docId: string, nodeId: string) => string | null;
  /** Console only: columns to fit the table into (default: unlimited) and whether to use colour. */
  width?: number;
  color?: boolean;
}

export interface Renderer {
  /** File extension for `report.<ext>` (no dot). */
  extension: string;
  render(input: ReportInput): string;
  /**
   * The same report written piece by piece to a file being written (writeReportFiles uses it when
   * present): for a report whose size grows with the records (HTML), so that it is never one string.
   */
  write?(input: ReportInput, out: OutputStream): Promise<void>;
}
