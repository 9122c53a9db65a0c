// The rule judge against a careful reader on analyst-style answers to real FinanceBench questions
// (issue 25, item 2). The answers and verdicts are ours (test/fixtures/judge/); the questions and
// golds are read from the shared dataset. Where the rule grades, it must agree with the reader —
// except on the answers marked `ruleMisses`, which pin its known limits; where it cannot grade
// (long sentence golds), it must say so (null), never guess.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreAnswer } from '../../../harness/scoring/answer.ts';
import { SHARED } from '../../datasets/helpers.ts';
import type { Question } from '../../../harness/types.ts';

interface Labelled {
  id: string;
  answer: string;
  verdict: 0 | 1;
  note?: string;
  ruleMisses?: string;
}

const HERE = path.dirname(new URL(import.meta.url).pathname);
const labelled: Labelled[] = JSON.parse(fs.readFileSync(path.join(HERE, '../../fixtures/judge/financebench-analyst-answers.json'), 'utf8')).answers;
const questions = new Map<string, Question>(
  fs
    .readFileSync(path.join(SHARED, 'financebench', 'financebench_open_source.subset.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
    .map((r) => [r.financebench_id, { id: r.financebench_id, question: r.question, answers: [r.answer] }]),
);

const verdictOf = (x: Labelled) => scoreAnswer(questions.get(x.id)!, { answer: x.answer }).correct;

describe('rule judge vs a careful reader on analyst-style FinanceBench answers', () => {
  it('every labelled answer names a question of the shared subset', () => {
    expect(labelled.length).toBeGreaterThanOrEqual(60);
    expect(labelled.filter((x) => !questions.has(x.id)).map((x) => x.id)).toEqual([]);
  });

  it.each(labelled.map((x, i) => [i, x.id, x.answer, x.verdict, x] as const))('#%i %s %j → reader %i', (_i, _id, _answer, verdict, x) => {
    const rule = verdictOf(x);
    if (rule === null) return; // ungradable: checked below
    if (x.ruleMisses) expect(rule, x.ruleMisses).toBe(1 - verdict);
    else expect(rule).toBe(verdict);
  });

  it('agrees on every answer it grades but the pinned misses, and grades every short or numeric gold', () => {
    const graded = labelled.filter((x) => verdictOf(x) !== null);
    const agree = graded.filter((x) => verdictOf(x) === x.verdict);
    const ungraded = labelled.filter((x) => verdictOf(x) === null);
    // Measured on this set: 57 of 58 graded answers agree (the one miss is pinned above); 9 fall
    // on sentence golds to questions that ask for no quantity, which the rule leaves ungraded.
    expect({ graded: graded.length, agree: agree.length, ungraded: ungraded.length }).toEqual({ graded: 58, agree: 57, ungraded: 9 });
    // Ungraded golds are all long sentences; every one of them has a verdict a reader could give.
    for (const x of ungraded) expect(scoreAnswer(questions.get(x.id)!, { answer: x.answer }).ungradable).toBe('long');
  });
});
