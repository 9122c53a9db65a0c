// A second round of rule-judge verdicts graded as a careful human reader would: currency words,
// contradictory yes/no answers, multiple-choice text that names a wrong choice, denied dates,
// basis points, and text golds that the answer denies or hedges. Each table holds the reader's
// verdict on the tester's cases and counter-examples that must keep their verdict, so a fix
// cannot pass by rejecting (or accepting) everything.
import { describe, expect, it } from 'vitest';
import { inferChoice, scoreAnswer } from '../../../harness/scoring/answer.ts';
import { parseNumbers } from '../../../harness/scoring/numbers.ts';
import { predictionPolarity } from '../../../harness/scoring/yesNo.ts';
import type { Question } from '../../../harness/types.ts';

type Row = [question: string, gold: string, answer: string, verdict: 0 | 1];
const judge = ([question, gold, answer]: Row) => scoreAnswer({ id: 'q', question, answers: [gold] } as Question, { answer }).correct;

function table(rows: Row[]) {
  it.each(rows)('Q %j gold %j answer %j → %j', (...row) => {
    expect(judge(row as Row)).toBe(row[3]);
  });
}

describe('1. a currency written as a word or code is a currency', () => {
  const Q = 'How much did the company raise?';
  table([
    [Q, '$1.2 billion', '1.2 billion euros', 0],
    [Q, '$1.2 billion', '1.2 billion yen', 0],
    [Q, '$1.2 billion', '1.2 billion pounds sterling', 0],
    [Q, '$1.2 billion', 'It raised EUR 1.2 billion.', 0],
    [Q, '$1.2 billion', '1.2 billion JPY', 0],
    [Q, '1.2 billion euros', '$1.2 billion', 0],
    [Q, '1.2 billion euros', '1.2 billion dollars', 0],
    [Q, '¥500 million', '500 million dollars', 0],
    // Counter-examples: the same currency, written another way.
    [Q, '$1.2 billion', '1.2 billion dollars', 1],
    [Q, '$1.2 billion', 'USD 1.2 billion', 1],
    [Q, '$1.2 billion', '1.2 billion US dollars', 1],
    [Q, '$1.2 billion', '1.2 billion USD', 1],
    [Q, '$1.2 billion', '$1.2 billion', 1],
    [Q, '$1.2 billion', '1.2 billion', 1], // no currency stated: not compared
    [Q, '1.2 billion euros', '€1.2 billion', 1],
    [Q, '1.2 billion euros', 'EUR 1.2 billion', 1],
    [Q, '£3 million', '3 million pounds', 1],
    [Q, '£3 million', '3 million GBP', 1],
    ['How heavy is the package?', '3 pounds', '3 pounds', 1], // a pound that is not money: as before
    ['How many employees?', '1,940 employees', '1,940 people', 1],
  ]);
  it('reads the currency of a word after the number', () => {
    const [n] = parseNumbers('1.2 billion euros');
    expect(n!.currency).toBe('EUR');
    expect(n!.magnitude).toBe(1e9);
    expect(parseNumbers('1.2 billion dollars')[0]!.currency).toBe('USD');
    expect(parseNumbers('1.2 billion yen')[0]!.currency).toBe('JPY');
    expect(parseNumbers('USD 1.2 billion')[0]!.currency).toBe('USD');
    expect(parseNumbers('1.2 billion pounds sterling')[0]!.currency).toBe('GBP');
  });
});

describe('2. yes/no: a contradictory answer is neither', () => {
  const REMOTE = 'Is remote work permitted?';
  const TRANSFER = 'Is the warranty transferable?';
  table([
    [REMOTE, 'Yes', 'Yes. Actually, no: remote work is not permitted.', 0],
    [REMOTE, 'Yes', 'Yes; on reflection, no.', 0],
    [REMOTE, 'Yes', 'Yes, but no.', 0],
    [TRANSFER, 'No', 'No. Yes, it is transferable.', 0],
    [REMOTE, 'Yes', 'No evidence suggests otherwise, so yes.', 1],
    [TRANSFER, 'No', 'Nope.', 1],
    [TRANSFER, 'No', 'Nope, it is not.', 1],
    [REMOTE, 'Yes', 'Yep.', 1],
    [REMOTE, 'Yes', 'Yeah, it is allowed.', 1],
    [REMOTE, 'Yes', 'Nope.', 0],
    [REMOTE, 'Yes', 'Correct.', 1],
    [REMOTE, 'Yes', 'Incorrect, it is not.', 0],
    [REMOTE, 'Yes', 'Correct, remote work is allowed.', 1],
    [REMOTE, 'No', 'Incorrect, it is not.', 1],
    // Counter-examples that keep their verdict.
    [REMOTE, 'Yes', 'Yes.', 1],
    [REMOTE, 'Yes', 'No.', 0],
    [TRANSFER, 'No', 'No.', 1],
    [TRANSFER, 'No', 'Yes.', 0],
    [REMOTE, 'Yes', 'Yes, it is allowed under the policy.', 1],
    [REMOTE, 'Yes', 'There is no evidence of a ban, so yes.', 1],
    [REMOTE, 'Yes', 'Yes, with no restrictions.', 1],
    [REMOTE, 'Yes', 'Yes — no manager approval is needed.', 1],
    [REMOTE, 'No', 'No, not without approval.', 1],
    [TRANSFER, 'No', 'No, it is not transferable.', 1],
    [REMOTE, 'Yes', 'Overall, yes: employees may work remotely two days a week.', 1],
    [REMOTE, 'No', 'Overall, no: it is not permitted.', 1],
  ]);
  it('a yes and a no, each answering, give no polarity', () => {
    expect(predictionPolarity('Yes. Actually, no.')).toBeNull();
    expect(predictionPolarity('No. Yes, it is transferable.')).toBeNull();
    expect(predictionPolarity('Yes, no restrictions apply.')).toBe('yes');
    expect(predictionPolarity('No evidence suggests otherwise, so yes.')).toBe('yes');
  });
});

describe('3. multiple choice: a text that names a wrong choice is wrong, whatever the index', () => {
  const q: Question = { id: 'mc', question: 'What is the capital of France?', answers: [], choices: ['Paris', 'London', 'Rome', 'Berlin'], label: 0 };
  const mc = (answer: string, choice?: number) => scoreAnswer(q, choice === undefined ? { answer } : { answer, choice }).correct;
  it.each([
    ['B is correct.', 0, 0],
    ['I think B', 0, 0],
    ['I would pick B.', 0, 0],
    ['Definitely not A.', 0, 0],
    ['Not A.', 0, 0],
    ['The answer is not B; it is A.', undefined, 1],
    ['Not B, A.', undefined, 1],
    ['I think A', undefined, 1],
    ['A is correct.', undefined, 1],
    // Counter-examples.
    ['Definitely not Paris.', 0, 0],
    ['A and B are both wrong, C', 0, 0],
    ['A and B are both wrong, C', undefined, 0],
    ['A', 0, 1],
    ['A', undefined, 1],
    ['A. Paris', 0, 1],
    ['The answer is A (Paris).', 0, 1],
    ['The answer is A (Paris).', undefined, 1],
    ['B', 0, 0],
    ['Paris', 1, 1],
    ['Paris is the capital.', 0, 1], // names no choice by letter: the index decides
    ['Paris is the capital.', 1, 0],
    ['It is a city in Europe.', 0, 1], // the English article "a" is not choice A
    ['It is a city in Europe.', 1, 0],
  ] as Array<[string, number | undefined, 0 | 1]>)('%j with index %j → %j', (answer, choice, verdict) => {
    expect(mc(answer, choice)).toBe(verdict);
  });
  it('to a question about what is not so, a denial names the choice', () => {
    const neg: Question = { id: 'neg', question: 'Which of these is NOT a mammal?', answers: [], choices: ['Whale', 'Shark', 'Bat'], label: 1 };
    expect(scoreAnswer(neg, { answer: 'B is not a mammal.', choice: 1 }).correct).toBe(1);
    expect(scoreAnswer(neg, { answer: 'B is not a mammal.' }).correct).toBe(1);
    expect(scoreAnswer(neg, { answer: 'Shark is not a mammal.', choice: 1 }).correct).toBe(1);
  });
  it('reads a letter the sentence asserts, and not one it denies', () => {
    const choices = ['Paris', 'London', 'Rome', 'Berlin'];
    expect(inferChoice('B is correct.', choices)).toBe(1);
    expect(inferChoice('I think B', choices)).toBe(1);
    expect(inferChoice('The answer is not B; it is A.', choices)).toBe(0);
    expect(inferChoice('Either A or B.', choices)).toBeUndefined();
    expect(inferChoice('It is a city in Europe.', choices)).toBeUndefined();
    expect(inferChoice('A city in Europe.', choices)).toBeUndefined();
    expect(inferChoice('The embassy is in Washington, D.C.', choices)).toBeUndefined();
    expect(inferChoice('A and B are both wrong, C', choices)).toBe(2);
    expect(inferChoice('The capital is London (B).', choices)).toBe(1);
  });
});

describe('4. a denied date is no claim', () => {
  const Q = 'When did the branch close?';
  table([
    [Q, 'March 5, 2021', 'Not March 5, 2021; it closed on April 9, 2021.', 0],
    [Q, 'March 5, 2021', 'It did not close on March 5, 2021; it closed on April 9, 2021.', 0],
    [Q, 'March 5, 2021', 'It closed on April 9, 2021, not March 5, 2021.', 0],
    [Q, 'April 9, 2021', 'Not March 5, 2021; it closed on April 9, 2021.', 1],
    [Q, 'April 9, 2021', 'It closed on April 9, 2021, not March 5, 2021.', 1],
    // Counter-examples.
    [Q, 'March 5, 2021', 'March 5, 2021', 1],
    [Q, 'March 5, 2021', 'It closed on March 5, 2021.', 1],
    [Q, 'March 5, 2021', 'It closed no later than March 5, 2021.', 1],
    [Q, 'March 5, 2021', 'It closed on April 9, 2021.', 0],
    ['When does it open?', '2 PM', 'Not 2 PM; it opens at 3 PM.', 0],
    ['When does it open?', '3 PM', 'Not 2 PM; it opens at 3 PM.', 1],
    ['When does it open?', '2 PM', 'It opens at 2 PM.', 1],
    ['When does it open?', '2 PM', 'It opens not before 2 PM.', 1], // a bound, not a denial
  ]);
});

describe('5. basis points are hundredths of a percentage point', () => {
  const Q = 'By how much did the central bank raise the rate?';
  table([
    [Q, '0.15%', '15 basis points', 1],
    [Q, '0.15%', '15 bps', 1],
    [Q, '0.15%', 'It rose by 15 bp.', 1],
    [Q, '15%', '15 basis points', 0],
    [Q, '15%', '15 bps', 0],
    [Q, '15 basis points', '0.15%', 1],
    [Q, '15 basis points', '0.15 percentage points', 1],
    [Q, '15 basis points', '15%', 0],
    [Q, '15 bps', '15 basis points', 1],
    [Q, '25 basis points', '0.25 percent', 1],
    // Counter-examples.
    [Q, '0.15%', '0.15%', 1],
    [Q, '15%', '15%', 1],
    [Q, '15 basis points', '25 basis points', 0],
    ['What is the bandwidth?', '15 Mbps', '15 Mbps', 1],
  ]);
  it('reads a basis-point figure as a percentage', () => {
    const [n] = parseNumbers('15 basis points');
    expect(n!.percent).toBe(true);
    expect(n!.scaled).toBeCloseTo(0.15, 12);
  });
});

describe('6. a text gold the answer denies or hedges is not contained in it', () => {
  const Q = 'What is the capital of Australia?';
  table([
    [Q, 'Canberra', 'It is not Canberra.', 0],
    [Q, 'Canberra', 'Not Canberra; it is Sydney.', 0],
    [Q, 'Canberra', 'Canberra is not the capital; Sydney is.', 0],
    [Q, 'Canberra', 'Either Canberra or Sydney.', 0],
    [Q, 'Canberra', 'Sydney, Melbourne, or Canberra', 0],
    [Q, 'Canberra', 'Canberra or Sydney', 0],
    [Q, 'Canberra', 'It is Sydney rather than Canberra.', 0],
    [Q, 'Canberra', "It isn't Canberra.", 0],
    // Counter-examples that stay correct.
    [Q, 'Canberra', 'Canberra', 1],
    [Q, 'Canberra', 'The capital is Canberra.', 1],
    [Q, 'Canberra', 'Canberra, not Sydney.', 1],
    [Q, 'Canberra', 'It is Canberra, the capital since 1913.', 1],
    [Q, 'Canberra', 'It is Canberra, not Sydney or Melbourne.', 1],
    [Q, 'Canberra', 'Not Sydney; it is Canberra.', 1],
    [Q, 'Canberra', 'The capital is not Sydney but Canberra.', 1],
    [Q, 'Canberra', 'Canberra is the capital and Sydney is the largest city.', 1],
    ['Which organisation runs the shelter?', 'Red Cross', 'The Red Cross runs it, not the city.', 1],
    ['Which school conceived it?', 'Gestalt psychology', 'Gestalt psychology was conceived in the Berlin School.', 1],
    [Q, 'Canberra', 'The capital is Canberra; Sydney or Melbourne are often guessed.', 1], // the `or` is not beside Canberra
    [Q, 'Canberra', 'Canberra, or more precisely the Australian Capital Territory.', 1], // a refinement, not an alternative
    [Q, 'Canberra', 'Canberra is not only the capital but also a planned city.', 1],
    // To a question about what is not so, a denial states the answer.
    ['Which feature is not supported?', 'Bluetooth', 'Bluetooth is not supported.', 1],
    ['What does the warranty exclude?', 'water damage', 'It does not cover water damage.', 1],
    ['Which feature is not supported?', 'Bluetooth', 'Bluetooth or NFC', 0], // alternatives still hedge
    // The documented near-miss of the F1 threshold stays as it is.
    ['Which organisation runs the shelter?', 'Red Cross', 'Blue Cross', 1],
  ]);
});
