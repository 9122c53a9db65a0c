// "Did you mean --format?" for a mistyped option. yargs suggests commands (recommendCommands)
// but not options; this finds the closest known option by edit distance.

/** Levenshtein distance (insert, delete, substitute; each costs 1). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** The closest known name within a third of the typed length (at least 1, at most 3 edits), or null. */
export function closest(typed: string, known: readonly string[]): string | null {
  const limit = Math.min(3, Math.max(1, Math.floor(typed.length / 3)));
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(typed.toLowerCase(), k.toLowerCase());
    if (d < bestD && d <= limit) [best, bestD] = [k, d];
  }
  return best;
}

/** Appends suggestions to yargs' "Unknown argument(s): a, b" message; other messages pass through. */
export function suggestOptions(message: string, knownOptions: readonly string[]): string {
  const m = /^Unknown arguments?: (.+)$/.exec(message);
  if (!m) return message;
  const hints = m[1]!
    .split(', ')
    .map((arg) => ({ arg, near: closest(arg.replace(/^-+/, ''), knownOptions) }))
    .filter((h) => h.near)
    .map((h) => `--${h.arg.replace(/^-+/, '')} → did you mean --${h.near}?`);
  return hints.length ? `${message} (${hints.join('; ')})` : message;
}
