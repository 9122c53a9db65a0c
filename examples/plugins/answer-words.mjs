// A custom scorer in plain JavaScript, one where lower is better: words in the answer. A
// strategy that pads its answers pays for it in output tokens and in the reader's time.
//
//   scoring:
//     scorers: [./answer-words.mjs]
import { defineScorer } from 'treebench';

export default defineScorer({
  name: 'answerWords',
  description: 'words in the answer',
  higherIsBetter: false,
  score: ({ answer, record }) => (record.error ? null : (answer.match(/\S+/g) ?? []).length),
});
