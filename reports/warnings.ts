// Load warnings on the console without the flood: a corpus of hundreds of PDFs gives a warning per
// page-less page range, unlocated contents entry and skipped file. Up to LIMIT warnings are shown
// as they are; past it, the first few are shown, then a count per kind (the warning with its
// file name, numbers and quoted titles taken out, so "a.pdf: 3 of 75 pages have no extractable
// text" and "b.pdf: 1 of 9 pages …" are one kind) and where the whole list is written.

/** Warnings shown in full before they are summarised. */
export const WARNINGS_SHOWN = 10;
/** Warnings shown before the per-kind counts, once they are summarised. */
const FIRST = 5;

/** The kind of a warning: its text without a leading path, quoted text, numbers and lists. */
export function warningKind(w: string): string {
  return w
    .replace(/^(?:[^\s:]*[/\\])?[^\s:]+\.[A-Za-z0-9]{1,8}(?::\d+)?: /, '')
    .replace(/"[^"]*"|“[^”]*”/g, '"…"')
    .replace(/\d+(?:[.,]\d+)*/g, 'N')
    .replace(/: .*$/, '')
    .slice(0, 100);
}

/**
 * The console lines for a list of warnings (without the `warning: ` prefix the caller adds to
 * each). `file` names where the whole list is written, for the line that points to it.
 */
export function warningLines(warnings: readonly string[], file: string): string[] {
  if (warnings.length <= WARNINGS_SHOWN) return [...warnings];
  const kinds = new Map<string, number>();
  for (const w of warnings) kinds.set(warningKind(w), (kinds.get(warningKind(w)) ?? 0) + 1);
  const counts = [...kinds].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return [
    ...warnings.slice(0, FIRST),
    `${warnings.length - FIRST} more, ${warnings.length} in all, of ${kinds.size} kind(s); every one is in ${file}:`,
    ...counts.map(([kind, n]) => `  ${n} × ${kind}`),
  ];
}
