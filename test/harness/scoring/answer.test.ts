import { describe, expect, it } from 'vitest';
import {
  choiceMatch,
  exactMatch,
  inferChoice,
  normalizeAnswer,
  numericMatch,
  scoreAnswer,
  tokenF1,
  yesNoMatch,
} from '../../../harness/scoring/answer.ts';
import type { Question } from '../../../harness/types.ts';

// Reference values: the official SQuAD v1.1 script (evaluate-v1.1.py: normalize_answer,
// exact_match_score, f1_score, metric_max_over_ground_truths) run under Python 3 on these inputs.
const SQUAD_REFERENCE: Array<{ pred: string; golds: string[]; norm: string; em: number; f1: number }> = [
  { pred: 'the cat sat', golds: ['cat sat on mat'], norm: 'cat sat', em: 0, f1: 0.6666666666666666 },
  { pred: 'The Cat, sat!', golds: ['cat sat'], norm: 'cat sat', em: 1, f1: 1 },
  // Counter intersection: min(count) per token, not set overlap.
  { pred: 'a a a b', golds: ['a b b'], norm: 'b', em: 0, f1: 0.6666666666666666 },
  { pred: 'x x y', golds: ['x y y z'], norm: 'x x y', em: 0, f1: 0.5714285714285715 },
  { pred: 'Paris', golds: ['paris, France', 'Paris'], norm: 'paris', em: 1, f1: 1 },
  // v1.1 returns F1 = 0 when nothing is shared, even for two empty answers (v2.0 differs).
  { pred: '', golds: [''], norm: '', em: 1, f1: 0 },
  { pred: 'the', golds: ['an'], norm: '', em: 1, f1: 0 },
  // Python's \b is Unicode-aware: "à" is a word, "a" next to "é" is not an article.
  { pred: 'théâtre a la', golds: ['théâtre à la'], norm: 'théâtre la', em: 0, f1: 0.8 },
  { pred: 'café the', golds: ['café'], norm: 'café', em: 1, f1: 1 },
  { pred: "don't stop", golds: ['dont stop'], norm: 'dont stop', em: 1, f1: 1 },
  { pred: '1,577.00', golds: ['$1577.00'], norm: '157700', em: 1, f1: 1 },
  { pred: 'north  america\u3000tour', golds: ['North America tour'], norm: 'north america tour', em: 1, f1: 1 },
  // Python's str.split() whitespace includes \x1c, and not \ufeff.
  { pred: 'a\x1cb', golds: ['a b'], norm: 'b', em: 1, f1: 1 },
  { pred: '\ufeffhello', golds: ['hello'], norm: '\ufeffhello', em: 0, f1: 0 },
  { pred: 'Élan the end', golds: ['élan end'], norm: 'élan end', em: 1, f1: 1 },
  { pred: 'thea the_a', golds: ['thea the_a'], norm: 'thea thea', em: 1, f1: 1 },
];

describe('SQuAD v1.1 exact match and F1', () => {
  it.each(SQUAD_REFERENCE)('matches the official script on %j', (c) => {
    expect(normalizeAnswer(c.pred)).toBe(c.norm);
    expect(exactMatch(c.pred, c.golds)).toBe(c.em);
    expect(tokenF1(c.pred, c.golds)).toBe(c.f1);
  });

  it('computes F1("the cat sat", "cat sat on mat") by hand: P = 2/2, R = 2/4, F1 = 2·1·0.5/1.5', () => {
    expect(tokenF1('the cat sat', ['cat sat on mat'])).toBeCloseTo((2 * 1 * 0.5) / 1.5, 15);
  });

  it('takes the maximum over gold answers and scores 0 with none', () => {
    expect(tokenF1('red apple', ['green apple', 'red apple pie'])).toBeCloseTo(0.8, 15);
    expect(exactMatch('x', [])).toBe(0);
    expect(tokenF1('x', [])).toBe(0);
  });
});

describe('numericMatch', () => {
  const cases: Array<[string, string[], number | null]> = [
    ['The answer is $1,577 million', ['$1577.00'], 1], // magnitude only on one side: raw values compare
    ['1577', ['$1577.00'], 1],
    ['about 1,590', ['$1577.00'], 1], // 0.82% off, within 1%
    ['1,600', ['$1577.00'], 0], // 1.46% off
    ['$1.2 billion', ['1,200 million'], 1],
    ['1200000000', ['$1.2 billion'], 1],
    ['1.2 million', ['$1.2 billion'], 0], // both state a magnitude, and they differ
    ['$3.7B in revenue', ['3.7 billion'], 1],
    ['$3,700 mn', ['$3.7B'], 1],
    ['450 million', ['$450M'], 1],
    ['24.5 percent', ['24.5%'], 1],
    ['24.5', ['24.5%'], 1],
    ['0.245', ['24.5%'], 1], // fraction ↔ percentage
    ['24.5%', ['0.245'], 1],
    ['2.45%', ['24.5%'], 0],
    ['-1,234', ['(1,234)'], 1],
    ['$(1,234)', ['(1,234)'], 1],
    ['1,234', ['(1,234)'], 0], // signs must agree
    ['It takes 14 days.', ['14 days'], 1],
    ['two weeks', ['14 days'], 1], // number words are read: two weeks = 14 days
    ['three weeks', ['14 days'], 0],
    ['5.4 billion', ['In 2022, revenue was $5.4B'], 1], // main number skips the year
    ['2022', ['In 2022, revenue was $5.4B'], 0],
    ['FY2022 was strong', ['2022'], 0], // FY2022 is a name, not a number
    ['anything', ['Paris'], null],
    ['42', [], null],
    ['7', ['Paris', '7 days'], 1],
  ];
  it.each(cases)('%j vs %j → %j', (pred, golds, expected) => {
    expect(numericMatch(pred, golds)).toBe(expected);
  });

  it('honours relTol and absTol', () => {
    expect(numericMatch('95', ['93.86'])).toBe(0); // 1.21% off
    expect(numericMatch('95', ['93.86'], { relTol: 0.02 })).toBe(1);
    expect(numericMatch('0.5', ['0'])).toBe(0);
    expect(numericMatch('0.5', ['0'], { absTol: 1 })).toBe(1);
    expect(numericMatch('93.86', ['93.86'], { relTol: 0 })).toBe(1);
  });
});

describe('yesNoMatch', () => {
  const cases: Array<[string, string[], number | null]> = [
    ['Yes, it did.', ['Yes, the FCF conversion has improved'], 1],
    ['No.', ['Yes'], 0],
    ['True', ['yes'], 1],
    ['false', ['No, margins declined'], 1],
    ['It is not clear', ['No'], 0], // no yes/no word in the prediction
    ['Overall, no: it declined', ['No'], 1], // first yes/no word anywhere
    ['anything', ['Paris'], null],
    ['yes', ['Paris', 'No'], 0],
  ];
  it.each(cases)('%j vs %j → %j', (pred, golds, expected) => {
    expect(yesNoMatch(pred, golds)).toBe(expected);
  });
});

describe('choiceMatch and inferChoice', () => {
  it('compares indices', () => {
    expect(choiceMatch(2, 2)).toBe(1);
    expect(choiceMatch(1, 2)).toBe(0);
    expect(choiceMatch(undefined, 0)).toBe(0);
    expect(choiceMatch(null, 0)).toBe(0);
  });
  it('reads a letter or a choice text', () => {
    const choices = ['Paris', 'London', 'Rome'];
    expect(inferChoice('B', choices)).toBe(1);
    expect(inferChoice('(c)', choices)).toBe(2);
    expect(inferChoice('A) Paris', choices)).toBe(0);
    expect(inferChoice('the London', choices)).toBe(1);
    expect(inferChoice('D', choices)).toBeUndefined();
    expect(inferChoice('I think London or Rome', choices)).toBeUndefined();
  });
});

describe('scoreAnswer', () => {
  const q = (over: Partial<Question>): Question => ({ id: 'q', question: '?', answers: [], ...over });

  it('multiple choice: the choice named in the text decides, else the index; EM/F1 use the right choice text', () => {
    const mc = q({ choices: ['Paris', 'London', 'Rome'], label: 1 });
    expect(scoreAnswer(mc, { answer: 'whatever', choice: 1 })).toMatchObject({ choice: 1, correct: 1, exactMatch: 0 });
    // The reader sees "London", the right choice, whatever index came with it.
    expect(scoreAnswer(mc, { answer: 'London', choice: 0 })).toMatchObject({ choice: 1, correct: 1, exactMatch: 1 });
    expect(scoreAnswer(mc, { answer: 'Paris', choice: 1 })).toMatchObject({ choice: 0, correct: 0 });
    expect(scoreAnswer(mc, { answer: 'B' })).toMatchObject({ choice: 1, correct: 1 });
    expect(scoreAnswer(mc, { answer: 'C) Rome' })).toMatchObject({ choice: 0, correct: 0 });
  });

  it('yes/no gold: polarity decides even when F1 is low', () => {
    const s = scoreAnswer(q({ answers: ['No the operating margins of Adobe have recently declined from 36.8% in FY 2021 to 34.6% in FY2022.'] }), {
      answer: 'No, they declined.',
    });
    expect(s.yesNo).toBe(1);
    expect(s.correct).toBe(1);
    expect(s.choice).toBeNull();
    expect(s.f1).toBeLessThan(0.5);
  });

  it('short numeric gold: numeric match decides', () => {
    const s = scoreAnswer(q({ answers: ['$1577.00'] }), { answer: 'Capital expenditure was $1,577 million.' });
    expect(s).toMatchObject({ numericMatch: 1, yesNo: null, choice: null, exactMatch: 0, correct: 1 });
    expect(scoreAnswer(q({ answers: ['$1577.00'] }), { answer: '$1,700 million' }).correct).toBe(0);
  });

  it('long gold with numbers, to a question that asks for no quantity: ungradable, not judged by a number', () => {
    const gold = 'The quick ratio has slightly improved from 0.67 times to 0.69 times between FY 2023 and FY 2022.';
    const s = scoreAnswer(q({ answers: [gold] }), { answer: '0.67' });
    expect(s.numericMatch).toBeNull();
    expect(s.correct).toBeNull();
    expect(s.ungradable).toBe('long');
  });

  it('free text: F1 threshold (default 0.5, configurable)', () => {
    const text = q({ answers: ['Use Smart Switch to transfer contacts'] });
    // pred [smart switch transfers contacts] vs gold [use smart switch to transfer contacts]: 3 shared, P = 3/4, R = 3/6, F1 = 0.6
    const s = scoreAnswer(text, { answer: 'Smart Switch transfers contacts' });
    expect(s.f1).toBeCloseTo(0.6, 15);
    expect(s.correct).toBe(1);
    expect(scoreAnswer(text, { answer: 'Smart Switch transfers contacts' }, { f1Threshold: 0.7 }).correct).toBe(0);
    expect(scoreAnswer(text, { answer: 'use smart switch to transfer contacts!' }, { f1Threshold: 1 }).correct).toBe(1);
  });

  it('each gold is judged by its own kind; any acceptance is correct', () => {
    const s = scoreAnswer(q({ answers: ['14 days', 'Paris'] }), { answer: 'paris' });
    expect(s.numericMatch).toBe(0);
    expect(s.exactMatch).toBe(1);
    expect(s.correct).toBe(1);
  });

  it('an empty answer is incorrect', () => {
    expect(scoreAnswer(q({ answers: ['$1577.00'] }), { answer: '' })).toMatchObject({ correct: 0, numericMatch: 0, f1: 0 });
    expect(scoreAnswer(q({ answers: ['Yes'] }), { answer: '' })).toMatchObject({ correct: 0, yesNo: 0 });
  });
});
