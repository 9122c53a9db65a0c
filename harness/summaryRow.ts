// What a summary needs of a record: the runner keeps one summary row per finished record in
// memory for the run's summary and intervals, and writes the full record to disk. A row drops
// the heavy parts (trace, evidence, question and answer texts, the finishing time, the gold
// answers unless the record failed, as only then do summaries look at them) and shares what
// records have in common, so a run's memory grows by a few hundred bytes per record:
//  - call logs become shared stand-ins (summaries only count calls, cached calls and estimated
//    calls), and whole call logs made of the same stand-ins in the same order share one array;
//  - answer and retrieval scores are shared by value: most records score 0 or 1 on most measures,
//    so a run has few distinct score objects, and a row points at one.
// Everything shared is frozen: summaries read rows and never write them.
import { recordFailed } from './metrics/summary.ts';
import type { AnswerScores, CallLog, RecordRetrieval, RetrievalScores, RunRecord } from './types.ts';

/** A record as the run's summary keeps it (same type: every reader of records reads rows). */
export function summaryRecord(r: RunRecord): RunRecord {
  return {
    ...r,
    question: '',
    answer: '',
    gold: recordFailed(r) ? r.gold : NO_GOLD,
    scores: r.scores && SCORES.get(r.scores, valueKey),
    retrieval: r.retrieval && sharedRetrieval(r.retrieval),
    evidence: NO_EVIDENCE,
    trace: NO_TRACE,
    finishedAt: '',
    callLog: standInLog(r.callLog),
  };
}

// Shared, frozen empties: a fresh `[]` per row would cost two arrays a record for the whole run.
const NO_GOLD: string[] = Object.freeze([]) as unknown as string[];
const NO_EVIDENCE: RunRecord['evidence'] = Object.freeze([]) as unknown as RunRecord['evidence'];
const NO_TRACE: RunRecord['trace'] = Object.freeze([]) as unknown as RunRecord['trace'];

/**
 * Frozen copies shared by key. Bounded: past LIMIT distinct keys (scores of a long run with many
 * fractional values) a value is kept as it is, unshared; rows then cost more, never less right.
 */
class Shared<T extends object> {
  private readonly byKey = new Map<string, T>();
  constructor(private readonly limit: number) {}
  get(value: T, key: (v: T) => string): T {
    const k = key(value);
    const hit = this.byKey.get(k);
    if (hit) return hit;
    if (this.byKey.size >= this.limit) return value;
    const frozen = Object.freeze({ ...value });
    this.byKey.set(k, frozen);
    return frozen;
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
const SCORES = new Shared<AnswerScores>(LIMIT);
const RETRIEVAL_SCORES = new Shared<RetrievalScores>(LIMIT);

type Levels = Pick<RecordRetrieval, 'node' | 'page' | 'doc'>;
function sharedLevels(r: Levels): Levels {
  const level = (s: RetrievalScores | null) => s && RETRIEVAL_SCORES.get(s, valueKey);
  return { node: level(r.node), page: level(r.page), doc: level(r.doc) };
}

// Field by field, not by spreading: spread copies here gave each object a hidden class of its own.
function sharedRetrieval(r: RecordRetrieval): RecordRetrieval {
  const out: RecordRetrieval = sharedLevels(r);
  if (r.k !== undefined) out.k = r.k;
  if (r.at) out.at = Object.fromEntries(Object.entries(r.at).map(([k, v]) => [k, sharedLevels(v)]));
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
