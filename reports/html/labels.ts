// Where a chart's point labels go so that no two overlap and none leaves the plot.
//
// Greedy placement, the one a careful hand would do: each label (in the order given) tries the
// eight spots around its point — right, left, above right, above left, below right, below left,
// above, below — first at the nearest ring, then at rings further out. The first spot whose box
// overlaps no label already placed and no point's marker, lies inside the bounds and, on the
// nearest ring, is nearer its own point than any other (else it reads as that point's), wins. A
// label placed beyond the nearest ring gets a leader line back to its point. Boxes are estimated
// from the text length (no layout engine when the report is written): the per-character width is
// set wide enough for the browsers' UI fonts at that size, and the browser test measures the real
// boxes. If no spot is free the label takes the least-overlapping spot of the outermost ring.

export interface LabelPoint {
  x: number;
  y: number;
  text: string;
}

export interface Bounds {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export interface PlacedLabel {
  /** The text's start (SVG `x`, baseline `y`; the text runs rightwards from it). */
  x: number;
  y: number;
  /** Where a leader line from the point ends (the label's nearest edge), when the label sits away from it. */
  leader: { x: number; y: number } | null;
}

interface Box {
  l: number;
  r: number;
  t: number;
  b: number;
}

const overlap = (a: Box, b: Box): number => Math.max(0, Math.min(a.r, b.r) - Math.max(a.l, b.l)) * Math.max(0, Math.min(a.b, b.b) - Math.max(a.t, b.t));

const distance = (b: Box, p: { x: number; y: number }): number => Math.hypot(Math.max(b.l - p.x, 0, p.x - b.r), Math.max(b.t - p.y, 0, p.y - b.b));

/** Estimated width of `text` at `fontSize` px: generous (0.62 em a character) so real text fits inside it. */
export const textWidth = (text: string, fontSize: number): number => [...text].length * fontSize * 0.62 + 2;

export function placeLabels(points: readonly LabelPoint[], bounds: Bounds, opts: { fontSize?: number; markerRadius?: number } = {}): PlacedLabel[] {
  const fs = opts.fontSize ?? 11;
  const r = opts.markerRadius ?? 5;
  const h = fs + 2;
  const markers: Box[] = points.map((p) => ({ l: p.x - r, r: p.x + r, t: p.y - r, b: p.y + r }));
  const placed: Box[] = [];
  const rings = [0, 14, 28, 42, 60];
  return points.map((p) => {
    const w = textWidth(p.text, fs);
    let best: { box: Box; label: PlacedLabel; cost: number } | null = null;
    for (const [ri, ring] of rings.entries()) {
      const gap = 10 + ring;
      // Each spot: the label box's left and top edges.
      const spots: Array<[number, number]> = [
        [p.x + gap, p.y - h / 2],
        [p.x - gap - w, p.y - h / 2],
        [p.x + gap, p.y - gap - h + 4],
        [p.x - gap - w, p.y - gap - h + 4],
        [p.x + gap, p.y + gap - 4],
        [p.x - gap - w, p.y + gap - 4],
        [p.x - w / 2, p.y - gap - h],
        [p.x - w / 2, p.y + gap],
      ];
      for (const [l, t] of spots) {
        const box = { l, r: l + w, t, b: t + h };
        const outside = box.l < bounds.left || box.r > bounds.right || box.t < bounds.top || box.b > bounds.bottom;
        if (outside) continue;
        // Beside its point, a label nearer another point reads as that one's: not acceptable, and
        // only a tie-break among overlapping spots. Further out a leader line says whose it is.
        const misleading = ri === 0 && points.some((q) => q !== p && distance(box, q) < distance(box, p));
        const cost = placed.reduce((s, o) => s + overlap(box, o), 0) + markers.reduce((s, m) => s + overlap(box, m), 0) + (misleading ? 0.5 : 0);
        const near = { x: Math.min(Math.max(p.x, box.l), box.r), y: Math.min(Math.max(p.y, box.t), box.b) };
        const label: PlacedLabel = { x: l + 1, y: t + h - 3, leader: ri > 0 ? near : null };
        if (cost === 0) {
          placed.push(box);
          return label;
        }
        if (!best || cost < best.cost) best = { box, label, cost };
      }
    }
    if (best) {
      placed.push(best.box);
      return best.label;
    }
    // A label wider than the plot: left-aligned at the plot's edge, on its point's line.
    const l = Math.max(bounds.left, Math.min(p.x + 7, bounds.right - w));
    placed.push({ l, r: l + w, t: p.y - h, b: p.y });
    return { x: l + 1, y: p.y - 3, leader: null };
  });
}

/** Where an axis tick's label is anchored so it stays inside `[0, width]`: centred, or flush at an edge. */
export function tickAnchor(x: number, text: string, width: number, fontSize = 10): 'start' | 'middle' | 'end' {
  const half = textWidth(text, fontSize) / 2;
  if (x + half > width) return 'end';
  if (x - half < 0) return 'start';
  return 'middle';
}
