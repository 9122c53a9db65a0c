// The Pareto frontier of a cost (lower is better) against a value (higher is better): the points
// no other point beats on both. A point is dominated when another has cost <= and value >= with
// at least one strictly better; exact duplicates (same cost and value) do not dominate each
// other, so both stay. Points with a non-finite cost or value are never on the frontier.
//
// Sort by cost ascending, then value descending; walk once keeping the best value seen so far:
// a point is on the frontier iff its value beats every strictly cheaper point's value, and it
// is not beaten by a point of the same cost with a higher value. O(n log n).

export function paretoFrontier<T>(points: T[], cost: (p: T) => number, value: (p: T) => number): T[] {
  const items = points
    .map((p, i) => ({ p, i, c: cost(p), v: value(p) }))
    .filter((x) => Number.isFinite(x.c) && Number.isFinite(x.v))
    .sort((a, b) => a.c - b.c || b.v - a.v || a.i - b.i);
  const out: T[] = [];
  let bestBefore = -Infinity; // best value among strictly cheaper points
  let k = 0;
  while (k < items.length) {
    // One group of equal cost: only its top value can be on the frontier (ties all kept).
    let end = k;
    while (end < items.length && items[end].c === items[k].c) end++;
    const top = items[k].v;
    if (top > bestBefore) {
      for (let j = k; j < end && items[j].v === top; j++) out.push(items[j].p);
      bestBefore = top;
    }
    k = end;
  }
  return out;
}
