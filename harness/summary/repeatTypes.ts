// The shape of a strategy's spread across repeats (computed by repeats.ts, carried in its
// summary by summary.ts). Types apart from the computation, so that summary.ts can name them
// without importing repeats.ts, which imports summary.ts's metric extractors.

export interface FlakyQuestion {
  questionId: string;
  /** Repeats in which the answer was correct. */
  correct: number;
  /** Repeats recorded for the question. */
  repeats: number;
}

export interface SpreadStats {
  mean: number;
  /** Sample standard deviation across repeats (NaN with one repeat). */
  sd: number;
  min: number;
  max: number;
}

export interface RepeatStats {
  /** Distinct repeat indices. */
  repeats: number;
  /** Accuracy and F1 of each repeat, in repeat order. */
  perRepeat: Array<{ repeat: number; records: number; accuracy: number; f1: number }>;
  accuracy: SpreadStats;
  f1: SpreadStats;
  /** Questions answered in at least two repeats. */
  questionsRepeated: number;
  /** Questions whose correctness differs between repeats, in first-seen order. */
  flaky: FlakyQuestion[];
}
