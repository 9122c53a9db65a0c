// The rule judge, case by case: each row is what a careful reader says about (question, gold,
// answer). D1–D7 are the defects of issue 8; every table also holds counter-examples that must
// stay correct, so a fix cannot pass by rejecting everything.
import { describe, expect, it } from 'vitest';
import { scoreAnswer } from '../../../harness/scoring/answer.ts';
import { parseNumbers } from '../../../harness/scoring/numbers.ts';
import { goldPolarity, predictionPolarity } from '../../../harness/scoring/yesNo.ts';
import { numericGoldKind } from '../../../harness/scoring/numericJudge.ts';
import type { Question } from '../../../harness/types.ts';

type Row = [question: string, gold: string, answer: string, correct: 0 | 1];
const judge = ([question, gold, answer]: Row) => scoreAnswer({ id: 'q', question, answers: [gold] } as Question, { answer }).correct;

function table(rows: Row[]) {
  it.each(rows)('Q %j gold %j answer %j → %j', (...row) => {
    expect(judge(row as Row)).toBe(row[3]);
  });
}

const YOY = "What is Amazon's year-over-year change in revenue from FY2016 to FY2017 (in units of percents and round to one decimal place)?";

describe('D1: a numeric gold is matched by the claimed value, not by any number in the answer', () => {
  table([
    // financebench_id_08135: unrelated sentences used to score via the 31 of "December 31".
    [YOY, '30.8%', 'Year Ended December 31, 2016 (1)', 0],
    [YOY, '30.8%', 'Consolidated Statements of Comprehensive Income for each of the three years ended December 31, 2017', 0],
    // An answer that lists every option claims none of them (sample-023).
    ['What is the retention period?', '30 days', 'It could be 7 days, 14 days, 30 days, 60 days or 90 days.', 0],
    ['What share of revenue?', '30.8%', '12.1%, 30.8%, 25.0%, 41.2%', 0],
    ['Which is larger?', '30%', '30% or 40%', 0],
    ['Within how long must support respond to a Severity 1 outage?', '4 hours', 'Target first response times are: Severity 1, 4 hours; Severity 2, 8 business hours; Severity 3, 2 Business Days.', 0],
    // Counter-examples that stay correct.
    [YOY, '30.8%', '30.8%', 1],
    [YOY, '30.8%', 'Revenue grew 30.8% year over year.', 1],
    [YOY, '30.8%', 'Revenue rose from $135,987 million to $177,866 million, a change of 30.8%.', 1],
    [YOY, '30.8%', '(177,866 - 135,987) / 135,987 = 30.8%', 1], // a marked result among many numbers
    [YOY, '30.8%', 'Answer: 30.8%. Revenues were $135,987 million in 2016 and $177,866 million in 2017 (31% growth).', 1],
    ['What was capex in FY2022 (USD millions)?', '$1577.00', 'Capital expenditure was $1,577 million in FY2022.', 1],
    ['What was revenue?', '$5.4 billion', 'Revenue went from $5.0 billion in 2021 to $5.4 billion in 2022.', 1],
    ['What was revenue?', '$5.4 billion', 'Revenue went from $5.0 billion in 2021 to $5.9 billion in 2022.', 0],
    ['What was capex?', '$1577.00', 'about 1,590', 1], // 0.8% off, within 1%
    // Context numbers around a stated value: the first stated value is the claim.
    ['How many people did it employ at the end of 2023?', '1,940', 'At 31 December 2023 the group had 1,940 employees (2022: 1,760), of whom 412 worked in research.', 1],
    ['How many people did it employ at the end of 2023?', '1,760', 'At 31 December 2023 the group had 1,940 employees (2022: 1,760), of whom 412 worked in research.', 0],
  ]);
});

describe('D2: years and dates match exactly', () => {
  table([
    ['In which year was it founded?', '2019', '2000', 0],
    ['In which year was it founded?', '2019', '2039', 0],
    ['In which year was it founded?', '2019', '2020', 0],
    ['In which year did it open?', '1940', '1925', 0],
    ['When did the fiscal year end?', 'December 31, 2017', 'December 30, 2017', 0],
    ['When did the fiscal year end?', 'December 31, 2017', 'It ended on December 31, 2018.', 0],
    // Counter-examples.
    ['In which year was it founded?', '2019', 'It was founded in 2019.', 1],
    ['In which year did it open?', '1940', '1940', 1],
    ['When did the fiscal year end?', 'December 31, 2017', 'The fiscal year ended Dec. 31, 2017.', 1],
    ['When did the fiscal year end?', 'December 31, 2017', '2017-12-31', 1],
    ['How many stores?', '2,019 stores', 'There were 2,019 stores.', 1],
  ]);
});

describe('D3: units, scales and percentages must agree when both state one', () => {
  table([
    ['How large is the limit?', '250 GB', '250 MB', 0],
    ['How long is the timeout?', '900 seconds', '900 minutes', 0],
    ['What was the margin?', '24.5%', '24.5 million', 0],
    ['What was revenue?', '$3.7B', '3.7%', 0],
    ['What was revenue?', '$1.2 billion', '$1.2 million', 0],
    ['What was the price?', '$25', '25 days', 0],
    ['What was the price?', '€25', '$25', 0],
    // Counter-examples.
    ['How long is the timeout?', '900 seconds', '15 minutes', 1],
    ['How large is the limit?', '250 GB', '250 gigabytes', 1],
    ['How large is the limit?', '250 GB', '250', 1], // the answer states no unit: values compare
    ['What was the margin?', '24.5%', '24.5 percent', 1],
    ['What was the margin?', '24.5%', '0.245', 1],
    ['What was revenue?', '$3.7B', '$3,700 mn', 1],
    ['What was revenue?', '$3.7B', 'USD 3.7 billion', 1],
    ['How many days?', '14 days', 'It takes 14 days.', 1],
    ['How high may the sash be lifted?', '450 mm', 'Work at least 150 mm inside the front edge, and keep the sash at or below the marked working height of 450 mm.', 1],
    ['How high may the sash be lifted?', '450 mm', 'Keep it below 45 cm.', 1],
    ['How high may the sash be lifted?', '450 mm', 'Keep it below 450 m.', 0],
  ]);
});

describe('D4: yes/no by the question form and the whole gold; negation and abstention', () => {
  table([
    ['How many devices can be paired at once?', 'No more than 3 devices', '3 devices', 1],
    ['How many devices can be paired at once?', 'No more than 3 devices', 'no', 0],
    ['What kind of display does it have?', 'True Tone display', 'yes', 0],
    ['What kind of display does it have?', 'True Tone display', 'A True Tone display.', 1],
    ['Did revenue grow?', 'Yes', 'not yes', 0],
    ['Did revenue grow?', 'No', 'not yes', 1],
    ['Did revenue grow?', 'No', 'No information is given.', 0],
    ['Did revenue grow?', 'Yes', 'It is not stated in the filing.', 0],
    ['Did revenue grow?', 'Yes', 'This cannot be determined from the document.', 0],
    ['Did revenue grow?', 'Yes', 'Yes and no.', 0],
    ['Has Boeing reported ongoing legal battles?', 'Yes. Multiple lawsuits have been filed.', 'There is no evidence of that.', 0],
    // Counter-examples.
    ['Does Adobe have an improving FCF conversion?', 'Yes, the FCF conversion improved from 143% to 156%.', 'yes', 1],
    ['Did margins improve?', 'No the operating margins declined from 36.8% to 34.6%.', 'No, they declined.', 1],
    ['Did margins improve?', 'No', 'Overall, no: it declined.', 1],
    ['Is the statement true?', 'False', 'false', 1],
    ['Did revenue grow?', 'Yes', 'Yes, by 8%.', 1],
    ['Did revenue grow?', 'No', 'The answer is no.', 1],
    ['Did revenue grow?', 'No', 'It is not true.', 1],
    ['Based on the cash flow statement, does Adobe have improving FCF conversion?', 'Yes, conversion improved from 143% to 156%.', 'Yes.', 1],
    ['If gross margin is not a useful metric, explain why. Otherwise, is it improving?', 'No, it declined by 1.1%.', 'no', 1],
  ]);

  it('reads gold polarity by the question, or by the gold alone when the question is unknown', () => {
    expect(goldPolarity('No more than 3 devices')).toBeNull();
    expect(goldPolarity('No more than 3 devices', 'Can I pair four devices?')).toBe('no');
    expect(goldPolarity('True Tone display')).toBeNull();
    expect(goldPolarity('True.')).toBe('yes');
    expect(goldPolarity('No', 'How many?')).toBe('no');
    expect(goldPolarity('Yes, it did', 'What, if any, is the change?')).toBeNull();
    expect(predictionPolarity('not yes')).toBe('no');
    expect(predictionPolarity('No information is given.')).toBeNull();
    expect(predictionPolarity('There is no evidence of decline')).toBeNull();
  });
});

describe('D6: signs come only from real minus signs and accounting parentheses', () => {
  it('parses labels, ranges and parentheses', () => {
    expect(parseNumbers('see step (5)').map((n) => [n.value, n.role])).toEqual([[5, 'label']]);
    expect(parseNumbers('pages 5 - 7').map((n) => [n.value, n.role])).toEqual([
      [5, 'label'],
      [7, 'label'],
    ]);
    expect(parseNumbers('between 5 - 7 units').map((n) => n.value)).toEqual([5, 7]);
    expect(parseNumbers('5-7').map((n) => n.value)).toEqual([5, 7]);
    // Counter-examples: real negatives.
    expect(parseNumbers('(1,234)')[0]!.value).toBe(-1234);
    expect(parseNumbers('$(12.5)')[0]!.value).toBe(-12.5);
    expect(parseNumbers('a loss of -5')[0]!.value).toBe(-5);
    expect(parseNumbers('−14.76%')[0]!.value).toBe(-14.76);
  });
  table([
    ['What is the change?', '-5', 'see step (5)', 0],
    ['What is the change?', '-7', 'pages 5 - 7', 0],
    ['What is the change?', '5', 'see step (5)', 0], // a label is not a claimed quantity either
    ['What was the net change?', '(1,234)', 'a decrease of $(1,234)', 1],
    ['What was the net change?', '-1,234', '(1,234)', 1],
    ['What was the change in margin?', '-14.76%', 'The margin declined by 14.76%.', 1],
    ['What was the change in margin?', '-14.76%', 'A decrease of 14.76%.', 1],
    ['What was the change in margin?', '-14.76%', 'The margin grew 14.76%.', 0],
    ['What was the change in margin?', '14.76%', 'The margin fell 14.76%.', 1], // an unsigned gold does not say which way
  ]);
});

describe('long golds and long answers', () => {
  const page = `Gestalt psychology was conceived in the Berlin School. ${'The rest of the page is about other matters entirely and goes on. '.repeat(12)}`;
  table([
    ['What school of thought was conceived in the Berlin School?', 'Gestalt psychology', 'Gestalt psychology was conceived in the Berlin School of experimental psychology.', 1],
    ['What school of thought was conceived in the Berlin School?', 'Gestalt psychology', page, 0], // a pasted page
    ['What school of thought was conceived in the Berlin School?', 'Gestalt psychology', 'Behaviourism, not Gestalt', 0],
    ['How long is a name record?', 'length of attribute name + 1 byte', 'It is the length of attribute name + 1 byte.', 1],
    ['How long is a name record?', 'length of attribute name + 1 byte', '2 bytes', 0],
    ['Who wrote it?', 'Max Wertheimer', 'cannot be determined; Max was not mentioned', 0],
  ]);

  it('a formula with a number is text, not a number', () => {
    expect(numericGoldKind('length of attribute name + 1 byte')).toBeNull();
    expect(numericGoldKind('14 days')).toBe('number');
    expect(numericGoldKind('2019')).toBe('year');
    expect(numericGoldKind('December 31, 2017')).toBe('date');
  });
});
