// What a summary needs of a record: the runner turns each line it writes to records.jsonl into a
// summary row (a resumed or long run reads the file back, one record at a time), for the run's
// summary and intervals, and keeps nothing else of a finished record. A row is a `SummaryRow`: one
// fixed-shape object holding only the fields summaries read (numbers that are integers stay
// unboxed in the object): about 220 bytes a record, where the parsed record is kilobytes.
//  - What summaries never read (answer, evidence, trace, finishing time, queue time, stop reason,
//    the judge's reason) is not kept: the prototype answers it with shared empties.
//  - The question text and gold answers are kept only when the record failed: only then do
//    summaries look at them (is an unscored question numeric, or yes/no?).
//  - Call logs become shared stand-ins (summaries only count calls, cached calls and estimated
//    calls), and whole call logs made of the same stand-ins in the same order share one array.
//  - Answer and retrieval scores are shared by value: most records score 0 or 1 on most measures,
//    so a run has few distinct score objects, and a row points at one; a record's whole retrieval
//    (its levels at every cutoff) is shared too when its levels are.
// Everything shared is frozen: summaries read rows and never write them.
import { recordFailed } from '../scoring/recordFailed.ts';
import type { AnswerScores, BudgetName, CallLog, RecordGroundedness, RecordJudge, RecordRetrieval, RetrievalScores, RunRecord } from '../types.ts';

/** A record as the run's summary keeps it (a RunRecord: every reader of records reads rows). */
export function summaryRecord(r: RunRecord): RunRecord {
  return new SummaryRow(r);
}

// Shared, frozen empties: a fresh `[]` per row would cost two arrays a record for the whole run.
const NO_GOLD: string[] = Object.freeze([]) as unknown as string[];
const NO_EVIDENCE: RunRecord['evidence'] = Object.freeze([]) as unknown as RunRecord['evidence'];
const NO_TRACE: RunRecord['trace'] = Object.freeze([]) as unknown as RunRecord['trace'];

class SummaryRow implements RunRecord {
  declare readonly runId: string;
  declare readonly strategy: string;
  declare readonly questionId: string;
  declare readonly repeat: number;
  declare readonly question: string;
  declare readonly tags: string[] | undefined;
  declare readonly gold: string[];
  declare readonly scores: AnswerScores | null;
  declare readonly judge: RecordJudge | undefined;
  declare readonly groundedness: RecordGroundedness | undefined;
  declare readonly retrieval: RecordRetrieval | null;
  declare readonly calls: number;
  declare readonly embedCalls: number;
  declare readonly inputTokens: number;
  declare readonly outputTokens: number;
  declare readonly embedTokens: number | undefined;
  declare readonly costUsd: number | null;
  declare readonly cachedCalls: number | undefined;
  declare readonly cachedCostUsd: number | null | undefined;
  declare readonly cachedLatencyMs: number | undefined;
  declare readonly latencyMs: number;
  declare readonly nodesVisited: number;
  declare readonly nodesOpened: number;
  declare readonly evidenceTokens: number;
  declare readonly parseFailures: number;
  declare readonly valueFallbacks: number | undefined;
  declare readonly budgetExhausted: BudgetName | null;
  declare readonly callLog: CallLog[];
  declare readonly error: string | null;
  declare readonly custom: Record<string, number | null> | undefined;
  declare readonly customErrors: Record<string, string> | undefined;

  constructor(r: RunRecord) {
    const failed = recordFailed(r);
    this.runId = r.runId;
    this.strategy = r.strategy;
    this.questionId = r.questionId;
    this.repeat = r.repeat;
    this.question = failed ? r.question : '';
    this.tags = r.tags;
    this.gold = failed ? r.gold : NO_GOLD;
    this.scores = r.scores && SCORES.get(r.scores);
    // The judge's reason is text for people; its calls are counted (cost, tokens, latency).
    this.judge = r.judge && { correct: r.judge.correct, reason: '', model: r.judge.model, prompt: r.judge.prompt, calls: r.judge.calls };
    // Groundedness: the scores, and the grader's calls (counted for its cost), not its claims.
    this.groundedness = r.groundedness && {
      lexical: r.groundedness.lexical,
      ...(r.groundedness.judge ? { judge: { score: r.groundedness.judge.score, claims: r.groundedness.judge.claims, supported: r.groundedness.judge.supported, model: r.groundedness.judge.model, calls: r.groundedness.judge.calls, ...(r.groundedness.judge.error ? { error: r.groundedness.judge.error } : {}) } } : {}),
    };
    this.retrieval = r.retrieval && sharedRetrieval(r.retrieval);
    this.calls = r.calls;
    this.embedCalls = r.embedCalls;
    this.inputTokens = r.inputTokens;
    this.outputTokens = r.outputTokens;
    this.embedTokens = r.embedTokens;
    this.costUsd = r.costUsd;
    this.cachedCalls = r.cachedCalls;
    this.cachedCostUsd = r.cachedCostUsd;
    this.cachedLatencyMs = r.cachedLatencyMs;
    this.latencyMs = r.latencyMs;
    this.nodesVisited = r.nodesVisited;
    this.nodesOpened = r.nodesOpened;
    this.evidenceTokens = r.evidenceTokens;
    this.parseFailures = r.parseFailures;
    this.valueFallbacks = r.valueFallbacks;
    this.budgetExhausted = r.budgetExhausted;
    this.callLog = standInLog(r.callLog);
    this.error = r.error;
    this.custom = r.custom;
    this.customErrors = r.customErrors;
  }

  // Not kept (see the top): one shared answer for every row, on the prototype.
  get answer(): string {
    return '';
  }
  get evidence(): RunRecord['evidence'] {
    return NO_EVIDENCE;
  }
  get trace(): RunRecord['trace'] {
    return NO_TRACE;
  }
  get queueMs(): number {
    return 0;
  }
  get finishedAt(): string {
    return '';
  }
}

/**
 * Frozen copies shared by key, each with a small id (so objects made of shared parts can be keyed
 * by their parts' ids). Bounded: past LIMIT distinct keys (scores of a long run with many
 * fractional values) a value is kept as it is, unshared and without an id; rows then cost more,
 * never less right.
 */
class Shared<T extends object> {
  private readonly byKey = new Map<string, T>();
  private readonly ids = new Map<T, number>();
  constructor(private readonly key: (v: T) => string) {}
  get(value: T): T {
    const k = this.key(value);
    const hit = this.byKey.get(k);
    if (hit) return hit;
    if (this.byKey.size >= LIMIT) return value;
    const frozen = Object.freeze({ ...value });
    this.byKey.set(k, frozen);
    this.ids.set(frozen, this.ids.size);
    return frozen;
  }
  /** The id of a shared copy; undefined for a value that is not one (past the limit). */
  idOf(value: T): number | undefined {
    return this.ids.get(value);
  }
}

const LIMIT = 50_000;
/**
 * Every field and value, so only objects summaries cannot tell apart share. A number's key is its
 * exact JavaScript text, with -0 kept apart from 0 (`String(-0)` is "0").
 */
const valueKey = (o: object) =>
  Object.entries(o)
    .map(([k, v]) => `${k}=${typeof v === 'number' ? (Object.is(v, -0) ? '-0' : String(v)) : JSON.stringify(v)}`)
    .join(',');
const SCORES = new Shared<AnswerScores>(valueKey);
const RETRIEVAL_SCORES = new Shared<RetrievalScores>(valueKey);

type Levels = Pick<RecordRetrieval, 'node' | 'page' | 'doc'>;
function sharedLevels(r: Levels): Levels {
  const level = (s: RetrievalScores | null) => s && RETRIEVAL_SCORES.get(s);
  return { node: level(r.node), page: level(r.page), doc: level(r.doc) };
}

/** A whole retrieval's key from its shared levels' ids; null when a level is not shared. */
function retrievalKey(r: RecordRetrieval): string | null {
  const ids = (l: Levels) => {
    const id = (s: RetrievalScores | null) => (s === null ? 'n' : RETRIEVAL_SCORES.idOf(s));
    const a = id(l.node);
    const b = id(l.page);
    const c = id(l.doc);
    return a === undefined || b === undefined || c === undefined ? null : `${a},${b},${c}`;
  };
  let key = ids(r);
  if (key === null) return null;
  key += `|${r.k}|${r.candidateDocs}`;
  for (const [k, v] of Object.entries(r.at ?? {})) {
    const part = ids(v);
    if (part === null) return null;
    key += `|${k}:${part}`;
  }
  return r.at ? key : `${key}|-`;
}
const RETRIEVALS = new Map<string, RecordRetrieval>();

// Field by field, not by spreading: spread copies here gave each object a hidden class of its own.
function sharedRetrieval(r: RecordRetrieval): RecordRetrieval {
  const out: RecordRetrieval = sharedLevels(r);
  if (r.k !== undefined) out.k = r.k;
  if (r.candidateDocs !== undefined) out.candidateDocs = r.candidateDocs;
  if (r.at) out.at = Object.fromEntries(Object.entries(r.at).map(([k, v]) => [k, sharedLevels(v)]));
  const key = retrievalKey(out);
  if (key === null) return out;
  const hit = RETRIEVALS.get(key);
  if (hit) return hit;
  if (RETRIEVALS.size < LIMIT) RETRIEVALS.set(key, Object.freeze(out));
  return out;
}

const STAND_INS = new Map<string, CallLog>();
const STAND_IN_LOGS = new Map<string, CallLog[]>();
const standInKey = (c: CallLog) => `${c.kind}|${c.cached ? 1 : 0}|${c.estimated ? 1 : 0}`;
function standInFor(c: CallLog): CallLog {
  const key = standInKey(c);
  let hit = STAND_INS.get(key);
  if (!hit) {
    hit = Object.freeze({ kind: c.kind, model: '', inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0, cached: c.cached, retries: 0, ...(c.estimated ? { estimated: true } : {}) });
    STAND_INS.set(key, hit);
  }
  return hit;
}
function standInLog(log: CallLog[]): CallLog[] {
  const key = log.map(standInKey).join(',');
  let hit = STAND_IN_LOGS.get(key);
  if (!hit) {
    hit = Object.freeze(log.map(standInFor)) as CallLog[];
    // Bounded: a strategy's call patterns are few, but a budget sweep could make many.
    if (STAND_IN_LOGS.size < 10_000) STAND_IN_LOGS.set(key, hit);
  }
  return hit;
}
