// The last few texts' results, for pure functions of a text that one scoring calls on the same
// text several times: `scoreAnswer` reads each gold for exact match, F1, numeric match and the
// verdict, and each reading normalised or parsed the gold (and the answer) again. Small on
// purpose: it holds one scoring's texts, not a run's. Results are shared, so they must not be
// changed by callers (strings, or readonly in the callers' types).

/** Results are kept for at most this many distinct texts; then the memory starts afresh. */
const KEEP = 32;

export class RecentTexts<T> {
  private readonly byText = new Map<string, T>();
  constructor(private readonly compute: (text: string) => T) {}

  get(text: string): T {
    let hit = this.byText.get(text);
    if (hit === undefined) {
      if (this.byText.size >= KEEP) this.byText.clear();
      hit = this.compute(text);
      this.byText.set(text, hit);
    }
    return hit;
  }
}
