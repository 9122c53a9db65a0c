// A custom scorer: does every number in the answer appear in the evidence the strategy read?
// An answer that states a figure its own evidence does not contain made the figure up (or
// computed it: a careful reader checks those by hand). 1 when every number is found, 0 when one
// is not, null when the answer states no number (the metric does not apply).
//
//   scoring:
//     scorers: [./numbers-in-evidence.ts]
//
// Its mean is `custom.numbersInEvidence` in the summary, `compare`, gate rules and `history`.
import { defineScorer } from 'treebench';

/** Numbers as written ("1,234.5", "12%", "-3") reduced to their digits and point: "1234.5". */
const numbers = (text: string): string[] => (text.match(/-?\d[\d,]*(?:\.\d+)?/g) ?? []).map((n) => n.replace(/,/g, '').replace(/^-/, '')).filter((n) => n.replace(/\D/g, '').length > 0);

export default defineScorer({
  name: 'numbersInEvidence',
  description: 'share of answers whose every number appears in the retrieved evidence',
  score({ answer, evidence, record }) {
    if (record.error) return 0; // a failed question cited nothing
    const stated = numbers(answer);
    if (stated.length === 0) return null;
    const found = new Set(evidence.flatMap((e) => numbers(e.text)));
    return stated.every((n) => found.has(n)) ? 1 : 0;
  },
});
