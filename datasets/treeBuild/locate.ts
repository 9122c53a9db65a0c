// Finding a title on a page: the line where a heading with that title starts.
//
// A line matches when its normalised text equals the title, or is the start of the title and
// the next one or two lines complete it (a heading wrapped over lines), or begins with the
// title and adds at most a few words (a page number, "(continued)"). Exact matches win over
// looser ones. Case, punctuation, typographic quotes and blanks are ignored.
import { normText, type Line } from './text.ts';

export interface Match {
  line: Line;
  /** 0 exact, 1 wrapped over lines, 2 with a short tail. */
  quality: number;
}

const MAX_TAIL_CHARS = 16;

// Normalised line texts, computed once per line (a TOC entry is looked up on every page).
const normCache = new WeakMap<Line, string>();
const norm = (l: Line): string => {
  let n = normCache.get(l);
  if (n === undefined) {
    n = normText(l.text);
    normCache.set(l, n);
  }
  return n;
};

export function findTitle(title: string, lines: Line[], skip?: (l: Line) => boolean): Match | null {
  const t = normText(title);
  if (!t) return null;
  let best: Match | null = null;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (skip?.(l)) continue;
    const a = norm(l);
    if (!a) continue;
    let quality = -1;
    if (a === t) quality = 0;
    else if (t.startsWith(a + ' ') && a.length >= Math.min(8, t.length)) {
      let joined = a;
      for (let j = i + 1; j < Math.min(lines.length, i + 3) && joined.length < t.length; j++) {
        joined = `${joined} ${norm(lines[j])}`;
        if (joined === t || (joined.startsWith(t + ' ') && joined.length - t.length <= MAX_TAIL_CHARS)) quality = 1;
      }
    } else if (a.startsWith(t + ' ') && a.length - t.length <= MAX_TAIL_CHARS) quality = 2;
    if (quality >= 0 && (!best || quality < best.quality)) best = { line: l, quality };
    if (best?.quality === 0) break;
  }
  return best;
}
