// The data model shared by every part of treebench (see ../shared/DESIGN.md, "Core data model").
// Pages are 1-based everywhere inside treebench; loaders convert on the way in.

/** One section of a document outline. `text` is the node's own text, excluding its children's. */
export interface TreeNode {
  id: string;
  title: string;
  summary?: string;
  text?: string;
  /** Inclusive 1-based page range, for paged sources (PDF). */
  pages?: [number, number];
  /** 1-based line of the heading, for Markdown sources. */
  line?: number;
  children: TreeNode[];
}

export interface DocTree {
  docId: string;
  title: string;
  description?: string;
  nodes: TreeNode[];
  /** Page texts for paged sources, index 0 = page 1. */
  pages?: string[];
  /** Where the tree came from (a path), for error messages and manifests. */
  source?: string;
  /** How the tree was made, for paged sources: `outline`, `toc`, `layout` or `pages` (datasets/treeBuild). */
  treeSource?: string;
  /** The builder's account of a built tree: why that source, table-of-contents entries found and located. */
  treeReport?: { source: string; reason: string; tocEntries?: number; located?: number; unlocated?: string[]; headings?: number; nodes: number; depth: number };
  /** Who wrote the node summaries that were missing: `extractive` (offline) or `model`. */
  summaries?: 'extractive' | 'model';
  /**
   * Fields of the dataset's document table, when it has one (FinanceBench: company, period,
   * type, sector): what `docSelect: metadata` matches against the question. Never gold.
   */
  metadata?: DocMetadata;
}

/** A document's catalogue fields, all optional; `type` as the dataset names it (10k, 10q, 8k, earnings). */
export interface DocMetadata {
  company?: string;
  period?: string;
  type?: string;
  sector?: string;
}

export interface Corpus {
  name: string;
  docs: DocTree[];
}

export interface GoldEvidence {
  docId: string;
  nodeIds?: string[];
  /** 1-based pages. */
  pages?: number[];
}

export interface Question {
  id: string;
  question: string;
  /** Acceptable answers (free text). Empty when the question is multiple choice. */
  answers: string[];
  choices?: string[];
  /** Index into `choices` of the right answer. */
  label?: number;
  /** Documents the question is about, when the dataset says so (strategies may use this). */
  docIds?: string[];
  /** Gold evidence: only scorers read it, never strategies. */
  evidence?: GoldEvidence[];
  tags?: string[];
}

/** What a strategy is allowed to see of a question: no gold answers, no gold evidence. */
export interface QuestionInput {
  id: string;
  question: string;
  choices?: string[];
  docIds?: string[];
}

/** What reads PDFs (corpus.extractor): pdf.js in worker threads (the default) or poppler's pdftohtml. */
export const PDF_EXTRACTORS = ['pdfjs', 'poppler'] as const;
export type PdfExtractor = (typeof PDF_EXTRACTORS)[number];

export function toQuestionInput(q: Question): QuestionInput {
  const input: QuestionInput = { id: q.id, question: q.question };
  if (q.choices) input.choices = [...q.choices];
  if (q.docIds) input.docIds = [...q.docIds];
  return input;
}

// ---------------------------------------------------------------------------------------------
// Models

export type Role = 'system' | 'user' | 'assistant' | 'tool';
export interface ChatMessage {
  role: Role;
  content: string;
  /** assistant: the tools the model called in this turn (native tool calling). */
  toolCalls?: ToolCall[];
  /** tool: the id of the call this message answers. */
  toolCallId?: string;
}

/** A tool offered to the model (native tool calling): its parameters as a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One tool call a model made. `arguments` is the raw JSON text the model wrote (it may be invalid). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ChatOptions {
  /** The prompt's task name (e.g. `node-list.select`); recorded in the call log. */
  task?: string;
  maxTokens?: number;
  temperature?: number;
  /** Ask the provider for a JSON object answer. */
  json?: boolean;
  /** Tools the model may call (native tool calling); a provider that cannot throws ToolsUnsupportedError. */
  tools?: ToolSpec[];
  /** `none` asks for a plain answer although tools are listed. */
  toolChoice?: 'auto' | 'none' | 'required';
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export interface ChatResult {
  text: string;
  /** Provider-reported usage when the provider gives it; the meter counts tokens otherwise. */
  usage?: Usage;
  model: string;
  /** Attempts after the first that the provider needed (429s, 5xx, timeouts). */
  retries?: number;
  /** True when the answer came from a response cache. */
  cached?: boolean;
  /** Tools the model called instead of (or beside) answering, when tools were offered. */
  toolCalls?: ToolCall[];
  /** Time the provider held the call to stay under the server's rate limits (not the model's latency). */
  pacedMs?: number;
}

/** A chat model behind one provider. Providers are stateless apart from their client. */
export interface ChatProvider {
  /** Model id, as reported in manifests and priced in configs/prices.yaml. */
  readonly id: string;
  /** True for the embedded offline reasoner, so reports can label its results. */
  readonly offline: boolean;
  /** False once the provider knows its server refuses native tools (see harness/models/tools.ts). */
  readonly supportsTools?: boolean;
  /** Rate-limit pacing figures of this provider's requests, when it paces (harness/models/pacing.ts). */
  readonly pacing?: import('./models/pacing.ts').PacingStats;
  chat(messages: ChatMessage[], opts: ChatOptions & { attempt?: number; signal?: AbortSignal }): Promise<ChatResult>;
}

export interface EmbedResult {
  vectors: Float32Array[];
  usage?: { inputTokens: number };
}

export interface Embedder {
  readonly id: string;
  readonly dim: number;
  /**
   * What makes this embedder's vectors what they are (id and vector-shaping options, never
   * secrets), for the on-disk embedding cache. Undefined: vectors are never cached.
   */
  readonly cacheKey?: string;
  /** Rate-limit pacing figures of this embedder's requests, when it paces (harness/models/pacing.ts). */
  readonly pacing?: import('./models/pacing.ts').PacingStats;
  embed(texts: string[]): Promise<EmbedResult>;
  /** Optional corpus statistics (e.g. IDF for the hash embedder); called once before indexing. */
  fit?(texts: string[]): void;
  /**
   * Optional local, synchronous embed of one text into `out` (dim long, all zeros on entry; the
   * same vector embed would give). The value index then reuses one buffer for every chunk instead
   * of a new array each (at a million chunks, gigabytes of short-lived arrays and their GC).
   * `fitIndex`: the text's position in the texts given to the last fit(), when it is one (an
   * embedder may keep what fitting learned about each text, and skip reading it again).
   */
  embedInto?(text: string, out: Float32Array, fitIndex?: number): Float32Array;
  /**
   * Optional, after fit(): per dimension, at most how many of the fitted texts' vectors are
   * non-zero there (null when unknown). A sparse index then allocates its posting lists at their
   * size up front instead of logging every entry first.
   */
  nonZeroBound?(): Int32Array | null;
  /** Optional: the fitted texts have been embedded; drop what fit() kept for them. */
  releaseFit?(): void;
}

/** One metered model call, as stored in a record. */
export interface CallLog {
  kind: 'chat' | 'embed';
  task?: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** Dollars this call cost now: 0 for a call answered from the cache; null when the model is unpriced (never a made-up 0). */
  costUsd: number | null;
  /** For a cached call, what it cost when it was made (priced today); absent otherwise. */
  cachedCostUsd?: number | null;
  /** For a cached call: the latency recorded when it was made (no time passed now). */
  latencyMs: number;
  cached: boolean;
  retries: number;
  error?: string;
  /** True when the provider reported no usage and the tokens were counted with a tokenizer. */
  estimated?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Budgets

export type BudgetName =
  | 'calls'
  | 'tokens'
  | 'dollars'
  | 'timeMs'
  | 'nodesVisited'
  | 'nodesOpened'
  | 'evidenceTokens';

export type Budget = Partial<Record<BudgetName, number>>;

// ---------------------------------------------------------------------------------------------
// Strategies

export interface EvidenceItem {
  docId: string;
  nodeId: string;
  title?: string;
  pages?: [number, number];
  text: string;
  /** 1 = most relevant. */
  rank: number;
  score?: number;
}

export type TraceAction = 'select' | 'expand' | 'skip' | 'open' | 'score' | 'sufficiency' | 'answer' | 'doc-select' | 'fallback' | 'tool';

export interface TraceStep {
  step: number;
  action: TraceAction;
  docId?: string;
  nodeId?: string;
  source: 'llm' | 'value' | 'prior' | 'rule' | 'metadata' | 'fused';
  reason?: string;
  score?: number;
  pages?: [number, number];
  /** Depth in the tree (0 = top level), so `treebench trace` can indent. */
  depth?: number;
  /** `tool` steps (agent): the tool called, its arguments and a preview of what it returned. */
  tool?: string;
  args?: Record<string, unknown>;
  result?: string;
}

export interface StrategyResult {
  answer: string;
  /** Index into choices for multiple-choice questions, when the strategy picked one. */
  choice?: number;
  evidence: EvidenceItem[];
  trace: TraceStep[];
  /** Model answers that could not be parsed or named unknown nodes (after the retry). */
  parseFailures?: number;
  /** Set by a strategy that stopped early of its own accord (e.g. "sufficient"). */
  stopReason?: string;
}

// ---------------------------------------------------------------------------------------------
// Records

export interface AnswerScores {
  exactMatch: number;
  f1: number;
  /** null when the gold answer has no number. */
  numericMatch: number | null;
  /** null when the gold answer is not yes/no. */
  yesNo: number | null;
  /** null when the question is not multiple choice. */
  choice: number | null;
  /**
   * The single correct/incorrect verdict used for accuracy (see harness/scoring/answer.ts); null
   * when the rule cannot judge the question (every gold is long or procedural: see `ungradable`).
   */
  correct: number | null;
  /** Set when `correct` is null: why the rule gives no verdict. */
  ungradable?: 'long' | 'procedural';
}

export interface RetrievalScores {
  recall: number;
  precision: number;
  /** Reciprocal rank of the first relevant item within the cutoff k (0 when it ranks below k): MRR@k. */
  mrr: number;
  /** Reciprocal rank over the whole ranked list, as trec_eval's `recip_rank`; absent in records written before it existed. */
  mrrUncut?: number;
  ndcg: number;
}

export interface RecordRetrieval {
  node: RetrievalScores | null;
  page: RetrievalScores | null;
  doc: RetrievalScores | null;
  /** The cutoff of the scores above (`scoring.k`, first value); absent: the whole list (older records). */
  k?: number;
  /**
   * Documents the question left the strategy to choose from (its named documents in the corpus,
   * else the whole corpus); 1 means document recall can only fail by retrieving nothing.
   * Absent in records written before it existed.
   */
  candidateDocs?: number;
  /** Scores at further cutoffs of `scoring.k`, keyed by k. */
  at?: Record<string, { node: RetrievalScores | null; page: RetrievalScores | null; doc: RetrievalScores | null }>;
}

/** What a record keeps of the optional LLM judge. `correct` is null when it failed or gave no verdict. */
export interface RecordJudge {
  correct: 0 | 1 | null;
  reason: string;
  model: string;
  /** The judge prompt (`default` or `financebench`). */
  prompt: string;
  /** The judge's own calls: never counted in the record's calls, tokens, dollars or latency. */
  calls: CallLog[];
  error?: string;
}

/**
 * Is the answer supported by the evidence the strategy retrieved? (harness/scoring/groundedness.ts)
 * Both scores are 0–1, null when there is nothing to measure (no answer, an abstention, no claim).
 */
export interface RecordGroundedness {
  /** Offline lexical proxy: the share of the answer's content words found in the retrieved evidence. */
  lexical: number | null;
  /** LLM-judged (`scoring.groundedness`): supported claims / claims, with the grader's calls (never the strategy's). */
  judge?: { score: number | null; claims: number; supported: number; model: string; calls: CallLog[]; error?: string };
}

export interface RunRecord {
  runId: string;
  strategy: string;
  questionId: string;
  repeat: number;
  question: string;
  /** The question's tags, copied so reports can break results down by tag. */
  tags?: string[];
  answer: string;
  gold: string[];
  scores: AnswerScores | null;
  /** The LLM judge's verdict beside the rule's `scores.correct`, when `scoring.judge` is set. */
  judge?: RecordJudge;
  /** Groundedness of the answer in the retrieved evidence; absent in records written before it existed. */
  groundedness?: RecordGroundedness;
  retrieval: RecordRetrieval | null;
  /** Values of the custom scorers (`scoring.scorers`), by scorer name; null where one does not apply or failed. */
  custom?: Record<string, number | null>;
  /** Why a custom scorer gave no value for this record (it threw, or returned something not a number). */
  customErrors?: Record<string, string>;
  evidence: Array<Omit<EvidenceItem, 'text'> & { chars: number }>;
  calls: number;
  embedCalls: number;
  /** Chat input tokens (embedding tokens are in `embedTokens`: they are priced at another rate). */
  inputTokens: number;
  /** Chat output tokens. */
  outputTokens: number;
  /** Embedding input tokens; absent in records written before it existed. */
  embedTokens?: number;
  /** Dollars for chat and embedding calls together, spent now (cached calls cost 0); null when a call was unpriced. */
  costUsd: number | null;
  /** Calls answered from the response cache; absent when none was. */
  cachedCalls?: number;
  /** What the cached calls cost when they were made (null when unpriced); absent when none was cached. */
  cachedCostUsd?: number | null;
  /** Sum of the latencies the cached calls had when they were made (not measured now). */
  cachedLatencyMs?: number;
  /** Wall time of the question, minus time spent queued for a call slot (see queueMs). */
  latencyMs: number;
  /** Time spent waiting for the run's concurrency limiter; depends on load, not the strategy. */
  queueMs: number;
  nodesVisited: number;
  nodesOpened: number;
  evidenceTokens: number;
  parseFailures: number;
  /** Times the strategy fell back to value search (trace steps `fallback` from `value`): a "tree" answer that was really value search. */
  valueFallbacks?: number;
  budgetExhausted: BudgetName | null;
  stopReason?: string;
  callLog: CallLog[];
  trace: TraceStep[];
  error: string | null;
  finishedAt: string;
}

// ---------------------------------------------------------------------------
// What a run is given: the questions and corpus a dataset loader made (datasets/registry.ts).

/** PDF ingestion figures of a load (extracted vs cached). */
export interface IngestStats {
  documents: number;
  pages: number;
  /** PDFs that had to be read (cache misses at the content level). */
  extracted: number;
  /** What read them (corpus.extractor). */
  extractor?: PdfExtractor;
  /** PDFs whose built tree came from the cache (nothing extracted, nothing built). */
  fromCache: number;
  ms: number;
  /** Documents left out because they could not be read or hold no text (corpus.strict: false). */
  skipped?: SkippedDocument[];
  /** Byte-identical documents: each group's first is the one `corpus.duplicates: merge` keeps. */
  duplicates?: DuplicateDocuments[];
  /** Trees the configured model was asked to build (corpus.tree: model, or auto on a poor offline tree): ingestion cost. */
  treeModel?: ModelTreeStats;
}

/**
 * What building trees with the model cost at ingestion. A tree read from the ingestion cache
 * counts the calls that built it as cached (their tokens as then, no dollars now).
 */
export interface ModelTreeStats {
  /** Documents the model was asked about. */
  documents: number;
  /** Of those, trees the model built (the others kept the offline tree, with a warning). */
  built: number;
  fallbacks: number;
  calls: number;
  cached: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  ms: number;
}

/** Documents whose files hold the same bytes (the first in load order, then its copies). */
export interface DuplicateDocuments {
  docIds: string[];
  files: string[];
  /** Set when the load merged the copies into the first (corpus.duplicates: merge). */
  merged?: boolean;
}

/** A document ingestion left out, and why (an unreadable or truncated PDF, no pages, no text). */
export interface SkippedDocument {
  docId: string;
  file: string;
  reason: string;
}

/** A loaded dataset: its corpus and questions, the files read (hashed into the manifest), what went wrong. */
export interface BenchmarkData {
  name: string;
  corpus: Corpus;
  questions: Question[];
  warnings: string[];
  /** Load summary lines for stderr (records read, filtered, skipped, dropped). */
  notes: string[];
  files: string[];
  /** PDF ingestion figures (extracted vs cached), when PDFs were read. */
  ingest?: IngestStats;
  /**
   * Set when the corpus holds only the documents of the selected questions (--limit, --shard
   * with corpus.only: referenced, or financebench): hashes that do not depend on the selection,
   * so shards of one run and runs of other selections still match. The corpus hash is then of
   * the source files of every available document (and the corpus config), not of built trees.
   */
  identity?: { questionsHash: string; corpusHash: string; basis: 'source files' };
}
