/**
 * A pure function of a string, remembered: answers by key from a Map, bounded by its number of
 * entries and cleared wholesale when full (cheap, rare, and its memory predictable). For work
 * repeated on the same short texts across a run, such as reading each gold answer once per
 * answer judged against it.
 */
export function memoByText<V>(compute: (text: string) => V, maxEntries = 50_000): (text: string) => V {
  const memo = new Map<string, V>();
  return (text) => {
    if (memo.has(text)) return memo.get(text) as V;
    const value = compute(text);
    if (memo.size >= maxEntries) memo.clear();
    memo.set(text, value);
    return value;
  };
}
