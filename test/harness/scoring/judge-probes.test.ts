// The labelled probes of issue 25 (item 2), each with what a careful reader says, and the
// counter-examples that keep every rule honest: a fix that rejected everything would fail them.
// Rows are [question, gold, answer, verdict]; `null` is "the rule cannot grade this gold".
import { describe, expect, it } from 'vitest';
import { scoreAnswer } from '../../../harness/scoring/answer.ts';
import type { Question } from '../../../harness/types.ts';

type Row = [question: string, gold: string, answer: string, verdict: 0 | 1 | null];
const judge = ([question, gold, answer]: Row) => scoreAnswer({ id: 'q', question, answers: [gold] } as Question, { answer }).correct;

function table(rows: Row[]) {
  it.each(rows)('Q %j gold %j answer %j → %j', (...row) => {
    expect(judge(row as Row)).toBe(row[3]);
  });
}

describe('counts and integers need the same value; measured quantities keep a tolerance', () => {
  table([
    // Issue 25: "a count accepted within 1% (100 for gold 99)".
    ['How many employees work in the lab?', '99', '100', 0],
    ['How many employees work in the lab?', '99', 'There are 100 employees.', 0],
    ['How many stores did it operate?', '982 stores', '981 stores', 0],
    ['How many datasets can an account hold?', '1500', '1,501', 0],
    // Counter-examples: the same count, written another way.
    ['How many employees work in the lab?', '99', '99', 1],
    ['How many employees work in the lab?', '99', 'ninety-nine employees', 1],
    ['How many stores did it operate?', '982 stores', 'It operated 982 stores.', 1],
    ['How many datasets can an account hold?', '1500', '1,500', 1],
    // Measured quantities (decimals, percentages, scale words, an approximation) keep 1%, or
    // accept the gold rounded to the answer's last digit.
    ['What was capex?', '$1577.00', 'about 1,590', 1],
    ['What is the DPO?', '93.86', '93.9', 1], // the gold rounded to one decimal
    ['What is the DPO?', '93.86', '95', 0], // 1.2% off, and 93.86 does not round to 95
    ['What share of revenue?', '36%', '35.8%', 1],
    ['What was the gain?', 'approximately $20 billion', '$19.6 billion', 1], // rounds to the gold's $20 billion
    ['What was the gain?', 'approximately $20 billion', '$18 billion', 0],
    ['How loud is it overnight?', 'about 22 dB', '22 dB', 1],
    ['How loud is it overnight?', 'about 22 dB', '30 dB', 0],
  ]);
});

describe('times, dates and ranges compare as values', () => {
  table([
    // Issue 25: "2:30 PM for 2 PM", "3-5 days for 3 days".
    ['When does the office open?', '2 PM', '2:30 PM', 0],
    ['How long does delivery take?', '3 days', '3-5 days', 0],
    ['How long does delivery take?', '3 days', 'between 3 and 5 days', 0],
    ['How long does delivery take?', '3-5 days', '3 days', 0],
    ['How long does delivery take?', '3-5 days', '5 days', 0],
    ['What PM2.5 range does an orange ring indicate?', '36 to 55 µg/m³', '36 µg/m³', 0],
    ['When does the office open?', '2 PM', '2 PM or 3 PM', 0],
    // Counter-examples: the same time or range, written another way.
    ['When does the office open?', '2 PM', '14:00', 1],
    ['When does the office open?', '2 PM', 'It opens at 2 p.m.', 1],
    ['When does the office open?', '2 PM', '2:00 PM', 1],
    ['How long does delivery take?', '3 days', 'Delivery takes 3 days.', 1],
    ['How long does delivery take?', '3-5 days', '3 to 5 days', 1],
    ['How long does delivery take?', '3-5 days', 'between three and five days', 1],
    ['What PM2.5 range does an orange ring indicate?', '36 to 55 µg/m³', '36–55 µg/m³', 1],
    ['What PM2.5 range does an orange ring indicate?', '36 to 55 µg/m³', 'An orange ring means 36 to 55 µg/m³.', 1],
    // Each range tied to its colour answers the question (sample-023's strategies' answer); bare lists and alternatives do not.
    ['What PM2.5 range does an orange ring indicate?', '36 to 55 µg/m³', 'The ring shows PM2.5: blue for 0–12 µg/m³ (good), green for 13–35 µg/m³ (moderate), orange for 36–55 µg/m³ (poor) and red above 55 µg/m³.', 1],
    ['What PM2.5 range does an orange ring indicate?', '36 to 55 µg/m³', '0–12, 13–35, 36–55 or 56–150 µg/m³', 0],
    ['What PM2.5 range does an orange ring indicate?', '36 to 55 µg/m³', '36–55 µg/m³ or 56–150 µg/m³', 0],
    // A change over time is not a range: "from $5.0 billion to $5.4 billion" states $5.4 billion.
    ['What was revenue in 2022?', '$5.4 billion', 'Revenue rose from $5.0 billion to $5.4 billion.', 1],
    ['When did the fiscal year end?', 'December 31, 2017', '31 December 2017', 1],
    ['When did the fiscal year end?', 'December 31, 2017', 'December 30, 2017', 0],
  ]);
});

describe('units must agree', () => {
  table([
    // Issue 25: "12 MP accepted for 12 hours".
    ['How long does the battery last?', '12 hours', '12 MP', 0],
    ['How long does the battery last?', '12 hours', 'The camera has 12 MP.', 0],
    ['How heavy is it?', '5 kg', '5 days', 0],
    ['How long is the cable?', '2 m', '2 ft', 0],
    ['What is the maximum bandwidth per VPN tunnel?', '1.25 Gbps', '1.25 GB', 0],
    // Counter-examples: the same quantity in the same or a converted unit, or no unit at all.
    ['How long does the battery last?', '12 hours', '12 hrs', 1],
    ['How long does the battery last?', '12 hours', 'about half a day: 12 hours', 1],
    ['How long does the battery last?', '12 hours', '720 minutes', 1],
    ['How long does the battery last?', '12 hours', '12', 1],
    ['How long is the cable?', '2 m', '200 cm', 1],
    ['What is the maximum bandwidth per VPN tunnel?', '1.25 Gbps', '1,250 Mbps', 1],
    ['How many people were employed?', '1,940 employees', '1,940 people', 1], // neither word is a unit
  ]);
});

describe('negation and correction: the asserted value counts', () => {
  table([
    // Issue 25: "It is not 25; it is 10." for 25.
    ['What is the limit?', '25', 'It is not 25; it is 10.', 0],
    ['What is the limit?', '25', "The limit isn't 25 but 10.", 0],
    ['What is the limit?', '25', 'It is 10 rather than 25.', 0],
    ['What is the limit?', '25', 'Not 25.', 0],
    // Counter-examples: the corrected value is the claim; a bound is not a denial.
    ['What is the limit?', '10', 'It is not 25; it is 10.', 1],
    ['What is the limit?', '25', 'It is 25, not 10.', 1],
    ['What is the limit?', '25', 'not more than 25', 1],
    ['What is the limit?', '25', 'The limit is 25.', 1],
  ]);
});

describe('number words equal digits', () => {
  table([
    // Issue 25: "five working days" rejected for "5 working days".
    ['How far ahead are customers told about planned service windows?', '5 working days', 'five working days', 1],
    ['How far ahead are customers told about planned service windows?', '5 working days', 'Customers get five working days of notice.', 1],
    ['How far ahead are customers told about planned service windows?', 'five business days', '5 business days', 1],
    ['How many devices can be paired at once?', '3 devices', 'three devices', 1],
    ['How many seats?', '25', 'twenty-five', 1],
    ['How many seats?', '250', 'two hundred and fifty', 1],
    ['How long is the grace period?', '14 days', 'two weeks', 1],
    // Counter-examples: other numbers in words, and "one" as a pronoun.
    ['How far ahead are customers told about planned service windows?', '5 working days', 'four working days', 0],
    ['How many seats?', '25', 'twenty-six', 0],
    ['How many devices can be paired at once?', '1', 'Only one of them works', 0],
    ['How many devices can be paired at once?', '1', 'one device', 1],
  ]);
});

describe('multiple choice by letter or by the exact text of a choice', () => {
  const q: Question = { id: 'mc', question: 'Which gas do plants absorb for photosynthesis?', answers: [], choices: ['Oxygen', 'Carbon dioxide', 'Nitrogen', 'Helium'], label: 1 };
  const labelled: Question = { id: 'mc2', question: 'Which city is the capital of the UK?', answers: [], choices: ['A. Paris', 'B. London', 'C. Rome'], label: 1 };
  it.each([
    // Issue 25: "a multiple-choice answer giving the exact text of the right choice rejected".
    [q, 'Carbon dioxide', undefined, 1],
    [q, 'carbon dioxide.', undefined, 1],
    [q, 'Carbon dioxide', 0, 1], // the text names the right choice; a wrong index with it does not outvote it
    [q, 'The answer is carbon dioxide.', undefined, 1],
    [q, 'Carbon dioxide, because plants fix it into sugars.', undefined, 1],
    [labelled, 'London', undefined, 1], // the choice's own "B." label is not part of its text
    [labelled, 'B. London', undefined, 1],
    [q, 'B', undefined, 1],
    [q, 'Answer: B', undefined, 1],
    [q, '(b)', undefined, 1],
    // Counter-examples.
    [q, 'Oxygen', undefined, 0],
    [q, 'Oxygen', 1, 0], // the text names a wrong choice
    [q, 'A', undefined, 0],
    [q, 'Oxygen or carbon dioxide', undefined, 0], // names two: no choice, and no index
    [q, 'Carbon dioxide or oxygen', undefined, 0],
    [q, 'something else entirely', 1, 1], // the text names none: the strategy's index decides
    [labelled, 'Paris', undefined, 0],
  ] as Array<[Question, string, number | undefined, number]>)('%# %j → %j', (question, answer, choice, verdict) => {
    expect(scoreAnswer(question, { answer, ...(choice !== undefined ? { choice } : {}) }).correct).toBe(verdict);
  });
});

describe("the question's stated unit scales a bare gold", () => {
  const CAPEX = 'What is the FY2018 capital expenditure amount (in USD millions) for 3M?';
  table([
    // Issue 25: "$5.8 billion for gold $5818.00 in a question asking for USD millions".
    ['What is the FY2019 revenue (in USD millions)?', '$5818.00', '$5.8 billion', 1],
    ['What is the FY2019 revenue (in USD millions)?', '$5818.00', 'Revenue was $5,818 million.', 1],
    ['What is the FY2019 revenue (in USD millions)?', '$5818.00', '5,818', 1],
    ['What is the FY2019 revenue (in USD millions)?', '$5818.00', '$5,818,000,000', 1],
    // Issue 25: "$59,268 thousand accepted for the same kind of gold" — a 1000× error.
    ['What is the total cost (in USD millions)?', '$59268.00', '$59,268 thousand', 0],
    ['What is the total cost (in USD millions)?', '$59268.00', '$59.268 million', 0],
    ['What is the total cost (in USD millions)?', '$59268.00', '$59.3 billion', 1],
    [CAPEX, '$1577.00', '$1.6 billion', 1], // the gold rounded to two significant digits
    [CAPEX, '$1577.00', '$2 billion', 0], // one significant digit is not the gold's value
    [CAPEX, '$1577.00', '$1,577 thousand', 0],
    ['What is the year end FY2018 net PPNE for 3M? Answer in USD billions.', '$8.70', '$8.7 billion', 1],
    ['What is the year end FY2018 net PPNE for 3M? Answer in USD billions.', '$8.70', '$8,738 million', 1],
    ['What is the year end FY2018 net PPNE for 3M? Answer in USD billions.', '$8.70', '$8.7 million', 0],
    // Counter-example: no unit in the question, the gold's scale is unknown: the value as written.
    ['What was capex?', '$1577.00', '$1,577 million', 1],
  ]);
});

describe('a sentence gold yields its numeric claims', () => {
  const PROCEEDS = 'What is the amount of the cash proceeds that JnJ realised from the separation of Kenvue (formerly Consumer Health business segment), as of August 30, 2023?';
  const GOLD = 'JnJ realised $13.2 billion in cash proceeds from the separation of Kenvue.';
  table([
    // Issue 25: "rejected the exact value when the gold is a sentence".
    [PROCEEDS, GOLD, '$13.2 billion', 1],
    [PROCEEDS, GOLD, 'JnJ received about $13.2 billion in cash.', 1],
    [PROCEEDS, GOLD, '$13,200 million', 1],
    // Counter-examples: another value, a denied value, alternatives, no value.
    [PROCEEDS, GOLD, '$12.1 billion', 0],
    [PROCEEDS, GOLD, 'Not $13.2 billion: $12.1 billion.', 0],
    [PROCEEDS, GOLD, '$13.2 billion or $12.1 billion', 0],
    [PROCEEDS, GOLD, 'The filing does not say.', 0],
    // Several claims: every one must be stated.
    ['What were the two segment margins (in percents)?', 'Segment A had a margin of 12.5% and segment B a margin of 8.1% in the year.', 'A 12.5%, B 8.1%', 1],
    ['What were the two segment margins (in percents)?', 'Segment A had a margin of 12.5% and segment B a margin of 8.1% in the year.', 'A 12.5%', 0],
    // A sentence gold to a question that does not ask for a quantity is not judged by its numbers.
    ['Which region had the worst topline performance for MGM during FY2022?', 'MGM China experienced the worst topline performance amongst the other regions presented. Its revenue declined 44% in FY2022.', '44%', null],
  ]);
});

describe('long or procedural golds: the rule gives no verdict', () => {
  const STEPS = 'You can set the screen to turn off after a set amount of time. From Settings, tap Display > Screen timeout, and tap a time limit to set it.';
  table([
    ['How do I change the screen timeout?', STEPS, 'Settings > Display > Screen timeout, then pick a time limit.', null],
    ['How do I change the screen timeout?', STEPS, 'Open the camera.', null],
    ['How do I change the screen timeout?', STEPS, STEPS, null], // even a copy: the rule does not grade such golds
    ['What industry does AMCOR primarily operate in?', 'Amcor is a global leader in packaging production for various use cases.', 'Packaging', null],
    // Counter-examples: short phrases stay gradable, right and wrong.
    ['How do I stop my toddler from changing the settings?', 'press and hold the padlock key for 3 seconds', 'Hold the padlock key for 3 seconds.', 1],
    ['How do I stop my toddler from changing the settings?', 'press and hold the padlock key for 3 seconds', 'Unplug it.', 0],
    ['Where do lab staff meet after leaving the building?', 'assembly point C in the staff car park', 'At assembly point C.', 1],
    ['Where do lab staff meet after leaving the building?', 'assembly point C in the staff car park', 'In the canteen.', 0],
  ]);

  it('says why, and a question with any gradable gold is graded by it', () => {
    const s = scoreAnswer({ id: 'q', question: 'How do I change the screen timeout?', answers: [STEPS] }, { answer: 'x' });
    expect(s).toMatchObject({ correct: null, ungradable: 'procedural' });
    expect(s.f1).toBeGreaterThanOrEqual(0); // F1 is still reported
    const mixed = scoreAnswer({ id: 'q', question: 'How do I change the screen timeout?', answers: [STEPS, 'Display > Screen timeout'] }, { answer: 'Open the camera.' });
    expect(mixed.correct).toBe(0);
  });
});
