// The JSON that treebench writes (summaries, tune and compare results, reports): two-space
// indented, one newline at the end. JSON has no NaN or Infinity; JSON.stringify writes them as
// null, which is how these files say "not defined" (a rate over no questions, an interval that
// could not be computed).
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}
