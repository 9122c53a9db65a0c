// Prompts of the LLM judge. The judge sees the question, the reference answer(s) and the
// answer to grade — never the documents, the evidence or the strategy — and answers with one
// JSON object `{ "correct": true|false, "reason": "..." }`.
import type { ChatMessage } from '../../types.ts';
import type { JudgePromptName } from './config.ts';
import { parseJsonObject } from '../../protocol/jsonReply.ts';

export interface JudgeItem {
  question: string;
  gold: readonly string[];
  answer: string;
}

const OUTPUT = 'Reply with one JSON object and nothing else: {"correct": true or false, "reason": "<one sentence>"}.';

const SYSTEM: Record<JudgePromptName, string> = {
  default: [
    'You grade answers to questions against reference answers.',
    'An answer is correct when it states the same fact as a reference answer; extra words or a full sentence are fine.',
    'It is incorrect when it states something else, offers several candidates without committing to one, contradicts itself, or declines to answer.',
    OUTPUT,
  ].join('\n'),
  // After FinanceBench's evaluation guidance (Islam et al., 2023): graded by meaning, numbers may
  // be rounded or written in other units, refusals and hallucinations are wrong.
  financebench: [
    'You grade answers to questions about company financial filings against the reference answer of a financial analyst.',
    'The answer is correct when it reaches the same conclusion or value as the reference. Numbers may be rounded (small rounding differences are fine) or written in other units or scales ($1,577 million = $1.577 billion) as long as the value is the same.',
    'For yes/no questions the answer must take the same side as the reference; the justification need not match word for word.',
    'The answer is incorrect when the value or conclusion differs, when it lists several values without committing to one, when it refuses or says the information is not available, or when it answers a different question.',
    OUTPUT,
  ].join('\n'),
};

/** The chat messages for one grading; the inputs are a JSON payload, as every treebench prompt. */
export function judgeMessages(item: JudgeItem, prompt: JudgePromptName): ChatMessage[] {
  const payload = { task: 'judge.grade', question: item.question, reference_answers: item.gold, answer: item.answer };
  return [
    { role: 'system', content: SYSTEM[prompt] },
    { role: 'user', content: `Grade this answer.\n\n${JSON.stringify(payload, null, 2)}` },
  ];
}

/** `{ correct, reason }` from the judge's reply; correct is null when the reply cannot be read. */
export function parseVerdict(text: string): { correct: 0 | 1 | null; reason: string } {
  // The strategies' reply reader: fences, prose around the object, a second object after it.
  const parsed = parseJsonObject(text);
  if (parsed.ok) {
    const obj = parsed.value;
    const c = obj.correct;
    const correct = c === true || c === 'true' || c === 'yes' || c === 1 ? 1 : c === false || c === 'false' || c === 'no' || c === 0 ? 0 : null;
    return { correct, reason: typeof obj.reason === 'string' ? obj.reason : '' };
  }
  return { correct: null, reason: `unreadable judge reply: ${text.slice(0, 200)}` };
}
