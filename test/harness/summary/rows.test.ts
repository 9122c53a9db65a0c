import { describe, expect, it } from 'vitest';
import { summaryRecord } from '../../../harness/summary/rows.ts';
import { summarize } from '../../../harness/summary/summary.ts';
import { withIntervals } from '../../../harness/summary/intervals.ts';
import { mulberry32 } from '../../../harness/run/random.ts';
import type { AnswerScores, RetrievalScores, RunRecord } from '../../../harness/types.ts';
import { record } from './summaryFixture.ts';

// Records as a run makes them: scores mostly 0 or 1, some fractional, retrieval at two cutoffs.
function records(n: number): RunRecord[] {
  const r = mulberry32(11);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const level = (): RetrievalScores | null => (r() < 0.2 ? null : { recall: pick([0, 1, 0.5, 1 / 3]), precision: pick([0, 0.1, 0.2]), mrr: pick([0, 1, 0.5]), ndcg: pick([0, 1, 0.6309297535714575]) });
  return Array.from({ length: n }, (_, i) => {
    const correct = r() < 0.6 ? 1 : 0;
    const scores: AnswerScores = { correct, exactMatch: correct, f1: pick([0, 1, 0.4, 2 / 3]), numericMatch: pick([null, 0, 1]), yesNo: null, choice: null };
    return record({
      strategy: `s${i % 3}`,
      questionId: `q${Math.floor(i / 3)}`,
      question: `question ${i}`,
      answer: `answer ${i}`,
      gold: [`gold ${i}`],
      scores: i % 17 === 0 ? null : scores,
      ...(i % 17 === 0 ? { error: 'boom' } : {}),
      // candidateDocs: absent (older records), 1 (closed) or 12 (open).
      retrieval: { node: level(), page: level(), doc: level(), k: 10, ...(i % 4 === 0 ? {} : { candidateDocs: i % 4 === 1 ? 1 : 12 }), at: { '5': { node: level(), page: level(), doc: level() } } },
      calls: 2,
      inputTokens: 100 + i,
      outputTokens: 7,
      costUsd: 0.0001 * i,
      latencyMs: 12.3 + i,
      callLog: [
        { kind: 'chat', model: 'm', inputTokens: 50, outputTokens: 3, costUsd: 0, latencyMs: 1, cached: i % 2 === 0, retries: 0 },
        { kind: 'chat', model: 'm', inputTokens: 50, outputTokens: 4, costUsd: 0, latencyMs: 1, cached: false, retries: 1, ...(i % 5 === 0 ? { estimated: true } : {}) },
      ],
      trace: [{ kind: 'note', detail: 'x' } as never],
      evidence: [{ docId: 'd', nodeId: 'n', chars: 3 } as never],
    });
  });
}

describe('summary rows', () => {
  it('give the same summary and intervals as the full records', () => {
    const full = records(300);
    const rows = full.map(summaryRecord);
    expect(summarize(rows)).toEqual(summarize(full));
    expect(withIntervals(summarize(rows), rows, { seed: 5, resamples: 200 })).toEqual(withIntervals(summarize(full), full, { seed: 5, resamples: 200 }));
    // A failed record keeps its gold answers (summaries ask whether the question was scorable).
    const failed = [...full, record({ strategy: 's0', questionId: 'x1', error: 'boom', scores: null, gold: ['yes'] }), record({ strategy: 's0', questionId: 'x2', error: 'boom', scores: null, gold: ['12 apples'] })];
    expect(summarize(failed.map(summaryRecord))).toEqual(summarize(failed));
  });

  it('keep the question of a failed record: whether its gold is a yes/no answer depends on it', () => {
    // "No, it deferred the vote" answers a wh-question: not a yes/no gold. Read without the
    // question it would be one (a leading "No," then punctuation), and yesNoN would count it.
    const whQuestion = record({ strategy: 's0', questionId: 'w', question: 'What did the board decide?', error: 'boom', scores: null, gold: ['No, it deferred the vote'] });
    const yesNoQuestion = record({ strategy: 's0', questionId: 'y', question: 'Did the board approve it?', error: 'boom', scores: null, gold: ['No, it deferred the vote'] });
    const full = [whQuestion, yesNoQuestion];
    const fromRows = summarize(full.map(summaryRecord)).strategies[0]!;
    expect(fromRows.yesNoN).toBe(1);
    expect(fromRows).toEqual(summarize(full).strategies[0]);
    // A record that did not fail keeps neither (its scores already say what applies).
    const ok = summaryRecord(record({ strategy: 's0', questionId: 'z', question: 'Did it?', gold: ['yes'], scores: { correct: 1, exactMatch: 1, f1: 1, numericMatch: null, yesNo: 1, choice: null } }));
    expect([ok.question, ok.gold]).toEqual(['', []]);
  });

  it('keep what the judge summary counts and drop the judge\'s reason', () => {
    const judged = records(40).map((r, i) => ({
      ...r,
      judge: { correct: i % 4 === 0 ? null : ((i % 3 === 0 ? 0 : 1) as 0 | 1), reason: `a long reason ${i}`.repeat(20), model: 'judge-m', prompt: 'default', calls: [{ kind: 'chat' as const, model: 'judge-m', inputTokens: 90 + i, outputTokens: 3, costUsd: 0.00001 * i, latencyMs: 40 + i, cached: false, retries: 0 }] },
    }));
    const rows = judged.map(summaryRecord);
    expect(summarize(rows)).toEqual(summarize(judged));
    expect(rows[1]!.judge!.reason).toBe('');
  });

  it('share a whole retrieval when its levels are shared, and not when they differ', () => {
    const level = { recall: 1, precision: 0.1, mrr: 1, ndcg: 1 };
    const a = summaryRecord(record({ strategy: 's', questionId: 'a', retrieval: { node: null, page: { ...level }, doc: { ...level }, k: 10 } }));
    const b = summaryRecord(record({ strategy: 's', questionId: 'b', retrieval: { node: null, page: { ...level }, doc: { ...level }, k: 10 } }));
    const otherK = summaryRecord(record({ strategy: 's', questionId: 'c', retrieval: { node: null, page: { ...level }, doc: { ...level }, k: 5 } }));
    const withAt = summaryRecord(record({ strategy: 's', questionId: 'd', retrieval: { node: null, page: { ...level }, doc: { ...level }, k: 10, at: { '5': { node: null, page: { ...level }, doc: null } } } }));
    const swapped = summaryRecord(record({ strategy: 's', questionId: 'e', retrieval: { node: { ...level }, page: { ...level }, doc: null, k: 10 } }));
    expect(b.retrieval).toBe(a.retrieval);
    expect(Object.isFrozen(a.retrieval)).toBe(true);
    const open = summaryRecord(record({ strategy: 's', questionId: 'f', retrieval: { node: null, page: { ...level }, doc: { ...level }, k: 10, candidateDocs: 12 } }));
    for (const other of [otherK, withAt, swapped, open]) expect(other.retrieval).not.toBe(a.retrieval);
    expect(open.retrieval!.candidateDocs).toBe(12);
    expect(a.retrieval!.candidateDocs).toBeUndefined();
    expect(otherK.retrieval!.k).toBe(5);
    expect(withAt.retrieval!.at!['5']!.doc).toBeNull();
    expect(swapped.retrieval!.node).toEqual(level);
    expect(swapped.retrieval!.doc).toBeNull();
  });

  it('share equal score objects, frozen, and keep unequal ones apart', () => {
    const a = record({ strategy: 's', questionId: 'a', scores: { correct: 1, exactMatch: 1, f1: 0.5, numericMatch: null, yesNo: null, choice: null }, retrieval: { node: null, page: { recall: 1, precision: 0.1, mrr: 1, ndcg: 1 }, doc: null, k: 10 } });
    const b = record({ strategy: 's', questionId: 'b', scores: { ...a.scores! }, retrieval: { node: null, page: { ...a.retrieval!.page! }, doc: null, k: 10 } });
    // Counter-examples: a field differing only by null vs 0, by -0 vs 0, or by a tiny amount.
    const c = record({ strategy: 's', questionId: 'c', scores: { ...a.scores!, numericMatch: 0 } });
    const d = record({ strategy: 's', questionId: 'd', scores: { ...a.scores!, f1: 0.5000000000000001 } });
    const e = record({ strategy: 's', questionId: 'e', retrieval: { node: null, page: { ...a.retrieval!.page!, mrr: -0 }, doc: null, k: 10 } });
    const [ra, rb, rc, rd, re] = [a, b, c, d, e].map(summaryRecord);
    expect(rb!.scores).toBe(ra!.scores);
    expect(rb!.retrieval!.page).toBe(ra!.retrieval!.page);
    expect(Object.isFrozen(ra!.scores)).toBe(true);
    expect(() => {
      'use strict';
      (ra!.scores as { f1: number }).f1 = 0;
    }).toThrow(TypeError);
    expect(rc!.scores).not.toBe(ra!.scores);
    expect(rc!.scores!.numericMatch).toBe(0);
    expect(rd!.scores).not.toBe(ra!.scores);
    expect(rd!.scores!.f1).toBe(0.5000000000000001);
    expect(re!.retrieval!.page).not.toBe(ra!.retrieval!.page);
    expect(Object.is(re!.retrieval!.page!.mrr, -0)).toBe(true);
    // The record itself is left as it was.
    expect(Object.isFrozen(a.scores)).toBe(false);
    expect(a.question).toBe('question a?');
  });

  it('drop the heavy parts and share call-log stand-ins', () => {
    const [w, x, y] = records(3).map(summaryRecord);
    expect(x!.trace).toEqual([]);
    expect(x!.evidence).toEqual([]);
    expect(x!.question).toBe('');
    expect(x!.evidence).toBe(y!.evidence);
    expect(w!.callLog.map((c) => [c.kind, c.cached, c.estimated ?? false])).toEqual([['chat', true, false], ['chat', false, true]]);
    expect(x!.callLog.map((c) => [c.kind, c.cached, c.estimated ?? false])).toEqual([['chat', false, false], ['chat', false, false]]);
    expect(x!.callLog[1]).toBe(y!.callLog[1]);
  });
});
