import { describe, expect, it } from 'vitest';
import { paretoFrontier } from '../../../harness/summary/pareto.ts';
import { Xoshiro128 } from '../../../harness/stats/rng.ts';

type P = { id: string; cost: number; value: number };
const cost = (p: P) => p.cost;
const value = (p: P) => p.value;

/** The definition, checked point by point (O(n²)): the reference the fast version must match. */
function bruteForce(points: P[]): P[] {
  const dominated = (p: P) => points.some((q) => q !== p && q.cost <= p.cost && q.value >= p.value && (q.cost < p.cost || q.value > p.value));
  return points.filter((p) => !dominated(p)).sort((a, b) => a.cost - b.cost || b.value - a.value);
}

describe('paretoFrontier', () => {
  it('keeps the strategies a reader would call efficient, cheapest first', () => {
    const pts: P[] = [
      { id: 'vector', cost: 0.0001, value: 0.27 },
      { id: 'node-list', cost: 0.001, value: 0.24 }, // dearer and worse than vector
      { id: 'mcts', cost: 0.0014, value: 0.28 },
      { id: 'hybrid', cost: 0.0018, value: 0.28 }, // as good as mcts but dearer
      { id: 'big', cost: 0.01, value: 0.4 },
    ];
    expect(paretoFrontier(pts, cost, value).map((p) => p.id)).toEqual(['vector', 'mcts', 'big']);
  });

  it('keeps exact duplicates, drops a point beaten on one side and tied on the other', () => {
    const pts: P[] = [
      { id: 'a', cost: 1, value: 0.5 },
      { id: 'b', cost: 1, value: 0.5 },
      { id: 'c', cost: 1, value: 0.4 },
      { id: 'd', cost: 2, value: 0.5 },
    ];
    expect(paretoFrontier(pts, cost, value).map((p) => p.id)).toEqual(['a', 'b']);
  });

  it('leaves out points that cannot be placed and handles the empty set', () => {
    expect(paretoFrontier([], cost, value)).toEqual([]);
    const pts: P[] = [{ id: 'nan', cost: NaN, value: 1 }, { id: 'ok', cost: 1, value: 0.1 }];
    expect(paretoFrontier(pts, cost, value).map((p) => p.id)).toEqual(['ok']);
  });

  it('matches the definition on random sets with many ties', () => {
    const rng = new Xoshiro128(7);
    for (let t = 0; t < 300; t++) {
      const pts: P[] = Array.from({ length: 1 + rng.int(25) }, (_, i) => ({ id: String(i), cost: rng.int(6), value: rng.int(6) }));
      expect(paretoFrontier(pts, cost, value).map((p) => p.id).sort()).toEqual(bruteForce(pts).map((p) => p.id).sort());
      const front = paretoFrontier(pts, cost, value);
      for (let i = 1; i < front.length; i++) expect(front[i]!.cost).toBeGreaterThanOrEqual(front[i - 1]!.cost);
    }
  });
});
