// Hand-made run records for the summary and report tests. Expected values are worked out by hand
// in summary.test.ts.
import type { AnswerScores, RecordRetrieval, RetrievalScores, RunRecord } from '../../../harness/types.ts';

const rs = (recall: number, precision: number, mrr: number, ndcg: number): RetrievalScores => ({ recall, precision, mrr, ndcg });
const scores = (correct: number, exactMatch: number, f1: number, numericMatch: number | null, yesNo: number | null): AnswerScores => ({
  correct,
  exactMatch,
  f1,
  numericMatch,
  yesNo,
  choice: null,
});

export function record(over: Partial<RunRecord> & Pick<RunRecord, 'strategy' | 'questionId'>): RunRecord {
  return {
    runId: 'run-1',
    repeat: 0,
    question: `question ${over.questionId}?`,
    answer: '',
    gold: ['gold'],
    scores: null,
    retrieval: null,
    evidence: [],
    calls: 0,
    embedCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    latencyMs: 0,
    queueMs: 0,
    nodesVisited: 0,
    nodesOpened: 0,
    evidenceTokens: 0,
    parseFailures: 0,
    budgetExhausted: null,
    callLog: [],
    trace: [],
    error: null,
    finishedAt: '2025-01-01T00:00:00.000Z',
    ...over,
  };
}

const call = (cached: boolean) => ({
  kind: 'chat' as const,
  model: 'm',
  inputTokens: 1,
  outputTokens: 1,
  costUsd: 0,
  latencyMs: 1,
  cached,
  retries: 0,
});

const retrieval = (r: Partial<RecordRetrieval>): RecordRetrieval => ({ node: null, page: null, doc: null, ...r });

/** Strategies appear in the order vector, tree ("tree" is listed first in the config, see reports tests). */
export function fixtureRecords(): RunRecord[] {
  return [
    record({
      strategy: 'vector',
      questionId: 'q1',
      gold: ['$5'],
      scores: scores(1, 1, 1, 1, null),
      retrieval: retrieval({ node: rs(1, 0.5, 1, 1), doc: rs(1, 1, 1, 1) }),
      calls: 2,
      embedCalls: 1,
      inputTokens: 100,
      outputTokens: 20,
      costUsd: 0.01,
      latencyMs: 100,
      evidenceTokens: 300,
      callLog: [call(true), call(false), call(false)],
    }),
    record({
      strategy: 'tree',
      questionId: 'q1',
      gold: ['$5'],
      scores: scores(1, 0, 0.8, 1, null),
      retrieval: retrieval({ node: rs(1, 1, 1, 1), page: rs(0.5, 0.25, 0.5, 0.6), doc: rs(1, 1, 1, 1) }),
      calls: 5,
      inputTokens: 1000,
      outputTokens: 100,
      costUsd: 0.1,
      latencyMs: 1000,
      nodesVisited: 10,
      nodesOpened: 3,
      budgetExhausted: 'timeMs',
    }),
    record({
      strategy: 'vector',
      questionId: 'q2',
      gold: ['No'],
      scores: scores(0, 0, 0.5, null, 0),
      retrieval: retrieval({ node: rs(0, 0, 0, 0), doc: rs(1, 0.5, 1, 1) }),
      calls: 4,
      embedCalls: 1,
      inputTokens: 300,
      outputTokens: 40,
      costUsd: 0.03,
      latencyMs: 300,
      budgetExhausted: 'calls',
      parseFailures: 1,
    }),
    // Superseded below by a retried record with the same strategy × question × repeat.
    record({ strategy: 'tree', questionId: 'q2', gold: ['Yes'], error: 'Error: first attempt failed', calls: 9, latencyMs: 9999 }),
    // An error without scores: counts as wrong on accuracy/EM/F1, and on numeric match because the gold has a number.
    record({
      strategy: 'vector',
      questionId: 'q3',
      gold: ['$5 million'],
      error: 'Error: boom',
      calls: 1,
      inputTokens: 50,
      costUsd: 0.005,
      latencyMs: 50,
    }),
    record({
      strategy: 'vector',
      questionId: 'q1',
      repeat: 1,
      gold: ['$5'],
      scores: scores(1, 1, 1, 1, null),
      retrieval: retrieval({ node: rs(1, 1, 1, 1), doc: rs(1, 1, 1, 1) }),
      calls: 2,
      embedCalls: 1,
      inputTokens: 100,
      outputTokens: 20,
      costUsd: 0.01,
      latencyMs: 200,
    }),
    record({
      strategy: 'tree',
      questionId: 'q2',
      gold: ['Yes'],
      scores: scores(1, 1, 1, null, 1),
      retrieval: retrieval({}),
      calls: 3,
      inputTokens: 500,
      outputTokens: 50,
      costUsd: 0.05,
      latencyMs: 500,
      nodesVisited: 6,
      nodesOpened: 2,
    }),
  ];
}
