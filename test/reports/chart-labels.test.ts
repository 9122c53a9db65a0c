// Chart label placement: no two labels overlap, none leaves the plot, none sits nearer another
// point than its own; a crowded cluster falls back to leader lines. Tick labels stay on the chart.
import { describe, expect, it } from 'vitest';
import { placeLabels, textWidth, tickAnchor, type Bounds, type LabelPoint } from '../../reports/html/labels.ts';
import { withInterval } from '../../reports/html/page.ts';

const BOUNDS: Bounds = { left: 58, right: 458, top: 2, bottom: 256 };
const FS = 11;
const H = FS + 2;

function boxes(points: LabelPoint[]) {
  return placeLabels(points, BOUNDS).map((l, i) => ({ ...l, l: l.x - 1, r: l.x - 1 + textWidth(points[i]!.text, FS), t: l.y + 3 - H, b: l.y + 3 }));
}
const overlaps = (a: { l: number; r: number; t: number; b: number }, b: typeof a) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;

describe('placeLabels', () => {
  it('puts a lone label beside its point, no leader', () => {
    const [l] = boxes([{ x: 200, y: 100, text: 'vector' }]);
    expect(l!.leader).toBeNull();
    expect(l!.l).toBeGreaterThan(200);
    expect(l!.t).toBeLessThan(100);
    expect(l!.b).toBeGreaterThan(100);
  });

  it('two points a few pixels apart (the "vector" over "node-list" case) get labels that do not overlap', () => {
    const pts = [
      { x: 120, y: 150, text: 'vector' },
      { x: 126, y: 153, text: 'node-list' },
    ];
    const [a, b] = boxes(pts);
    expect(overlaps(a!, b!)).toBe(false);
  });

  it('a label near the right edge turns left instead of leaving the plot', () => {
    const [l] = boxes([{ x: 450, y: 100, text: 'hybrid-beam' }]);
    expect(l!.r).toBeLessThanOrEqual(BOUNDS.right);
    expect(l!.l).toBeGreaterThanOrEqual(BOUNDS.left);
  });

  it('a crowded cluster of eight: no overlaps, all inside, some with leader lines ending at their label', () => {
    const pts = Array.from({ length: 8 }, (_, i) => ({ x: 250 + (i % 3) * 4, y: 120 + Math.floor(i / 3) * 4, text: `strategy-${i}` }));
    const placed = boxes(pts);
    for (const [i, a] of placed.entries()) {
      expect(a.l).toBeGreaterThanOrEqual(BOUNDS.left);
      expect(a.r).toBeLessThanOrEqual(BOUNDS.right);
      for (const b of placed.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
      if (a.leader) {
        expect(a.leader.x).toBeGreaterThanOrEqual(a.l - 0.01);
        expect(a.leader.x).toBeLessThanOrEqual(a.r + 0.01);
      }
    }
    expect(placed.some((p) => p.leader)).toBe(true);
  });

  it('does not place a label nearer another point than its own (it would read as that point\'s)', () => {
    // Beside the left point, to its right, lies the right point: the label must go elsewhere.
    const pts = [
      { x: 150, y: 150, text: 'layerwise' },
      { x: 190, y: 150, text: 'x' },
    ];
    const [a] = boxes(pts);
    const dist = (p: LabelPoint) => Math.hypot(Math.max(a!.l - p.x, 0, p.x - a!.r), Math.max(a!.t - p.y, 0, p.y - a!.b));
    expect(dist(pts[0]!)).toBeLessThan(dist(pts[1]!));
  });
});

describe('tickAnchor and withInterval', () => {
  it('centres a tick label unless it would cross an edge', () => {
    expect(tickAnchor(200, '$0.001', 460)).toBe('middle');
    expect(tickAnchor(444, '$0.0025', 460)).toBe('end');
    expect(tickAnchor(3, '0 ms', 460)).toBe('start');
  });

  it('moves "[lo, hi]" to its own line, escaping both parts', () => {
    expect(withInterval('25.3% [16.9, 36.2]')).toBe('25.3%<span class="ci">[16.9, 36.2]</span>');
    expect(withInterval('<b> [1, 2]')).toBe('&lt;b&gt;<span class="ci">[1, 2]</span>');
    expect(withInterval('n/a')).toBe('n/a');
  });
});
