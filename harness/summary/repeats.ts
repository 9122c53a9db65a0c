// Spread across repeats and flaky questions, for runs with `--repeats N` (N > 1).
//
// Two different kinds of uncertainty, kept apart on purpose:
//   - the confidence intervals (intervals.ts) describe sampling of *questions*: would the mean
//     hold on other questions like these? With repeats they resample whole questions.
//   - the spread here describes run-to-run variation on the *same* questions: how much does
//     accuracy move when the model is asked again? `sd` is the sample standard deviation
//     (n − 1) of the per-repeat accuracies.
// A question is flaky when its correctness differs between repeats (an error counts as
// incorrect, as everywhere in the summary).
import type { RunRecord } from '../types.ts';
import { RECORD_METRICS } from './summary.ts';

export type { FlakyQuestion, RepeatStats, SpreadStats } from './repeatTypes.ts';
import type { FlakyQuestion, RepeatStats, SpreadStats } from './repeatTypes.ts';

function spread(values: number[]): SpreadStats {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const min = Math.min(...values);
  const max = Math.max(...values);
  // Equal values have no spread; summing (v − mean)² of a rounded mean would print 3.4e-17.
  const sd = n < 2 ? NaN : min === max ? 0 : Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  return { mean, sd, min, max };
}

/** Repeat statistics of one strategy's records; null when there is only one repeat. */
export function repeatStats(records: readonly RunRecord[]): RepeatStats | null {
  const byRepeat = new Map<number, RunRecord[]>();
  for (const r of records) {
    const g = byRepeat.get(r.repeat);
    if (g) g.push(r);
    else byRepeat.set(r.repeat, [r]);
  }
  if (byRepeat.size < 2) return null;
  const acc = RECORD_METRICS.accuracy;
  const f1 = RECORD_METRICS.f1;
  // Accuracy over the records the rule can grade (ungradable golds have no verdict: NaN when none is).
  const meanOf = (xs: Array<number | null>) => {
    const v = xs.filter((x): x is number => x !== null);
    return v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN;
  };
  const perRepeat = [...byRepeat]
    .sort(([a], [b]) => a - b)
    .map(([repeat, rs]) => ({
      repeat,
      records: rs.length,
      accuracy: meanOf(rs.map(acc)),
      f1: rs.reduce((s, r) => s + (f1(r) ?? 0), 0) / rs.length,
    }));

  const byQuestion = new Map<string, number[]>();
  for (const r of records) {
    const v = acc(r);
    if (v === null) continue;
    const g = byQuestion.get(r.questionId);
    if (g) g.push(v);
    else byQuestion.set(r.questionId, [v]);
  }
  const flaky: FlakyQuestion[] = [];
  let questionsRepeated = 0;
  for (const [questionId, vs] of byQuestion) {
    if (vs.length < 2) continue;
    questionsRepeated++;
    const correct = vs.filter((v) => v > 0).length;
    if (vs.some((v) => v !== vs[0])) flaky.push({ questionId, correct, repeats: vs.length });
  }
  return {
    repeats: byRepeat.size,
    perRepeat,
    accuracy: spread(perRepeat.map((p) => p.accuracy).filter((x) => Number.isFinite(x)).concat(perRepeat.every((p) => !Number.isFinite(p.accuracy)) ? [NaN] : [])),
    f1: spread(perRepeat.map((p) => p.f1)),
    questionsRepeated,
    flaky,
  };
}
