// The Pareto frontier of cost against value: the points no other point beats on both.
//
// A point is dominated when another point costs no more and is worth no less, and is strictly
// better on at least one of the two. The frontier is every point that is not dominated, sorted
// by cost ascending (ties by value descending, then input order). Exact duplicates do not
// dominate each other, so both stay. Points whose cost or value is not a finite number cannot be
// placed and are left out.
export function paretoFrontier<T>(points: T[], cost: (p: T) => number /* lower is better */, value: (p: T) => number /* higher is better */): T[] {
  const placed = points
    .map((p, i) => ({ p, i, c: cost(p), v: value(p) }))
    .filter((x) => Number.isFinite(x.c) && Number.isFinite(x.v))
    .sort((a, b) => a.c - b.c || b.v - a.v || a.i - b.i);
  // Sorted by cost (then value descending), a point is on the frontier iff its value beats every
  // cheaper point's — or equals the best so far with the same cost and value (a duplicate).
  const out: typeof placed = [];
  let best = -Infinity;
  for (const x of placed) {
    const last = out[out.length - 1];
    if (x.v > best) {
      out.push(x);
      best = x.v;
    } else if (last && x.v === last.v && x.c === last.c) {
      out.push(x);
    }
  }
  return out.map((x) => x.p);
}
