// Bounded top-k selection: keeps the k best (score, id) pairs seen so far in a binary heap whose
// root is the worst kept pair, so a scan over n candidates costs O(n log k) and allocates two
// typed arrays of size k, not an object per candidate. "Better" means a higher score, and on
// equal scores the lower id (chunk order), so rankings are deterministic.

export class TopK {
  private readonly scores: Float64Array;
  private readonly ids: Int32Array;
  private n = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(Math.max(0, k));
    this.ids = new Int32Array(Math.max(0, k));
  }

  get size(): number {
    return this.n;
  }

  /** True when (s1, id1) ranks strictly worse than (s2, id2). */
  private static worse(s1: number, id1: number, s2: number, id2: number): boolean {
    return s1 < s2 || (s1 === s2 && id1 > id2);
  }

  /** Lowest score a new candidate must beat (or tie with a lower id) once the heap is full. */
  get threshold(): number {
    return this.n < this.k ? -Infinity : this.scores[0];
  }

  push(score: number, id: number): void {
    const { scores, ids, k } = this;
    if (k <= 0) return;
    if (this.n < k) {
      // Sift up from the end.
      let i = this.n++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!TopK.worse(score, id, scores[p], ids[p])) break;
        scores[i] = scores[p];
        ids[i] = ids[p];
        i = p;
      }
      scores[i] = score;
      ids[i] = id;
      return;
    }
    if (!TopK.worse(scores[0], ids[0], score, id)) return;
    // Replace the root and sift down.
    let i = 0;
    const n = this.n;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && TopK.worse(scores[r], ids[r], scores[l], ids[l])) c = r;
      if (!TopK.worse(scores[c], ids[c], score, id)) break;
      scores[i] = scores[c];
      ids[i] = ids[c];
      i = c;
    }
    scores[i] = score;
    ids[i] = id;
  }

  /** The kept pairs, best first. */
  sorted(): Array<{ id: number; score: number }> {
    const out: Array<{ id: number; score: number }> = [];
    for (let i = 0; i < this.n; i++) out.push({ id: this.ids[i], score: this.scores[i] });
    out.sort((a, b) => b.score - a.score || a.id - b.id);
    return out;
  }
}
