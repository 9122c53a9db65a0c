// Hand-written SVG charts, drawn when the report is written, so the page needs no charting code
// and no network: a scatter of strategies with interval whiskers and the Pareto frontier, a
// latency box plot, and a forest plot of paired differences. Labels go through `esc`.
import { esc } from './escape.ts';
import { placeLabels, tickAnchor } from './labels.ts';
import { linearScale } from './scale.ts';
import { paretoFrontier } from '../../harness/summary/pareto.ts';

export const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
export const colour = (i: number) => PALETTE[i % PALETTE.length]!;

export interface ScatterPoint {
  label: string;
  colour: string;
  x: number;
  y: number;
  /** Interval on each axis, drawn as whiskers when present. */
  xCi?: { lo: number; hi: number };
  yCi?: { lo: number; hi: number };
}

export interface ScatterSpec {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  xFmt: (v: number) => string;
  yFmt: (v: number) => string;
  points: ScatterPoint[];
  /** Lower x is better (cost, latency) and higher y is better: draws the Pareto frontier. */
  frontier?: boolean;
}

const W = 460;
const H = 300;
const M = { top: 28, right: 16, bottom: 44, left: 58 };
const n = (v: number) => Number(v.toFixed(1));

/** One point per strategy with interval whiskers; the frontier as a dashed step line. */
export function scatterChart(spec: ScatterSpec): string {
  const pts = spec.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  const head = `<figure class="chart" id="${esc(spec.id)}"><figcaption>${esc(spec.title)}</figcaption>`;
  if (!pts.length) return `${head}<p class="empty">nothing to plot</p></figure>`;
  const xs = pts.flatMap((p) => [p.x, p.xCi?.lo ?? p.x, p.xCi?.hi ?? p.x]).filter(Number.isFinite);
  const ys = pts.flatMap((p) => [p.y, p.yCi?.lo ?? p.y, p.yCi?.hi ?? p.y]).filter(Number.isFinite);
  const x = linearScale(Math.min(0, ...xs), Math.max(...xs), M.left, W - M.right);
  const y = linearScale(Math.min(...ys), Math.max(...ys), H - M.bottom, M.top);
  const parts: string[] = [];
  parts.push(axes(x, y, spec));
  if (spec.frontier) {
    const front = paretoFrontier(pts, (p) => p.x, (p) => p.y);
    if (front.length > 1) {
      const d = front.map((p, i) => `${i ? 'L' : 'M'}${n(x(p.x))},${n(y(p.y))}`).join(' ');
      parts.push(`<path class="frontier" d="${d}" fill="none" stroke="#555" stroke-dasharray="4 3"/>`);
    }
    for (const p of front) parts.push(`<circle class="frontier-mark" cx="${n(x(p.x))}" cy="${n(y(p.y))}" r="8" fill="none" stroke="#555"/>`);
  }
  // Labels are placed after every point is known, so none covers another label or marker.
  const labels = placeLabels(
    pts.map((p) => ({ x: x(p.x), y: y(p.y), text: p.label })),
    { left: M.left + 1, right: W - 2, top: 2, bottom: H - M.bottom },
  );
  pts.forEach((p, i) => {
    const cx = n(x(p.x));
    const cy = n(y(p.y));
    const at = labels[i]!;
    const g: string[] = [];
    if (p.xCi) g.push(`<line x1="${n(x(p.xCi.lo))}" x2="${n(x(p.xCi.hi))}" y1="${cy}" y2="${cy}" stroke="${p.colour}"/>`);
    if (p.yCi) g.push(`<line x1="${cx}" x2="${cx}" y1="${n(y(p.yCi.lo))}" y2="${n(y(p.yCi.hi))}" stroke="${p.colour}"/>`);
    g.push(`<circle cx="${cx}" cy="${cy}" r="4.5" fill="${p.colour}"><title>${esc(`${p.label}: ${spec.xLabel} ${spec.xFmt(p.x)}, ${spec.yLabel} ${spec.yFmt(p.y)}`)}</title></circle>`);
    if (at.leader) g.push(`<line class="leader" x1="${cx}" y1="${cy}" x2="${n(at.leader.x)}" y2="${n(at.leader.y)}" stroke="#999" stroke-width="0.75"/>`);
    g.push(`<text x="${n(at.x)}" y="${n(at.y)}" font-size="11">${esc(p.label)}</text>`);
    parts.push(`<g class="point" data-label="${esc(p.label)}">${g.join('')}</g>`);
  });
  return `${head}<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(spec.title)}">${parts.join('')}</svg></figure>`;
}

function axes(x: ReturnType<typeof linearScale>, y: ReturnType<typeof linearScale>, spec: Pick<ScatterSpec, 'xLabel' | 'yLabel' | 'xFmt' | 'yFmt'>): string {
  const out: string[] = ['<g class="axes" font-size="10" fill="#444">'];
  for (const t of x.ticks) {
    const tx = n(x(t));
    const label = spec.xFmt(t);
    out.push(`<line x1="${tx}" x2="${tx}" y1="${M.top}" y2="${H - M.bottom}" stroke="#eee"/><text x="${tx}" y="${H - M.bottom + 14}" text-anchor="${tickAnchor(tx, label, W)}">${esc(label)}</text>`);
  }
  for (const t of y.ticks) {
    const ty = n(y(t));
    out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${ty}" y2="${ty}" stroke="#eee"/><text x="${M.left - 6}" y="${ty + 3}" text-anchor="end">${esc(spec.yFmt(t))}</text>`);
  }
  out.push(`<text x="${(M.left + W - M.right) / 2}" y="${H - 8}" text-anchor="middle" font-size="11">${esc(spec.xLabel)}</text>`);
  out.push(`<text transform="translate(14 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle" font-size="11">${esc(spec.yLabel)}</text>`);
  out.push('</g>');
  return out.join('');
}

export interface BoxRow {
  label: string;
  colour: string;
  values: number[];
}

function q(sorted: number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return sorted[lo]! + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? sorted[lo]!) - sorted[lo]!);
}

/** Horizontal box plots: box p25–p75, bar at the median, whiskers p5–p95, min and max as ticks. */
export function boxPlot(id: string, title: string, rows: BoxRow[], fmt: (v: number) => string): string {
  const head = `<figure class="chart" id="${esc(id)}"><figcaption>${esc(title)}</figcaption>`;
  const usable = rows.filter((r) => r.values.some(Number.isFinite));
  if (!usable.length) return `${head}<p class="empty">nothing to plot</p></figure>`;
  const left = 110;
  const rowH = 26;
  const h = M.top + usable.length * rowH + 36;
  const all = usable.flatMap((r) => r.values.filter(Number.isFinite));
  const x = linearScale(0, Math.max(...all), left, W * 2 - M.right, 8);
  const parts: string[] = ['<g class="axes" font-size="10" fill="#444">'];
  for (const t of x.ticks) parts.push(`<line x1="${n(x(t))}" x2="${n(x(t))}" y1="${M.top - 6}" y2="${h - 30}" stroke="#eee"/><text x="${n(x(t))}" y="${h - 16}" text-anchor="${tickAnchor(x(t), fmt(t), W * 2)}">${esc(fmt(t))}</text>`);
  parts.push('</g>');
  usable.forEach((r, i) => {
    const s = r.values.filter(Number.isFinite).sort((a, b) => a - b);
    const cy = M.top + i * rowH + rowH / 2;
    const [p5, p25, p50, p75, p95] = [0.05, 0.25, 0.5, 0.75, 0.95].map((p) => n(x(q(s, p))));
    const tip = `${r.label}: n ${s.length}, median ${fmt(q(s, 0.5))}, p95 ${fmt(q(s, 0.95))}, max ${fmt(s[s.length - 1]!)}`;
    parts.push(
      `<g class="box" data-label="${esc(r.label)}"><title>${esc(tip)}</title>` +
        `<text x="${left - 8}" y="${cy + 4}" text-anchor="end" font-size="11">${esc(r.label)}</text>` +
        `<line x1="${p5}" x2="${p95}" y1="${cy}" y2="${cy}" stroke="${r.colour}"/>` +
        `<rect x="${p25}" y="${cy - 8}" width="${n(Math.max(1, p75! - p25!))}" height="16" fill="${r.colour}" fill-opacity="0.35" stroke="${r.colour}"/>` +
        `<line x1="${p50}" x2="${p50}" y1="${cy - 8}" y2="${cy + 8}" stroke="${r.colour}" stroke-width="2"/>` +
        `<line x1="${n(x(s[0]!))}" x2="${n(x(s[0]!))}" y1="${cy - 3}" y2="${cy + 3}" stroke="${r.colour}"/>` +
        `<line x1="${n(x(s[s.length - 1]!))}" x2="${n(x(s[s.length - 1]!))}" y1="${cy - 3}" y2="${cy + 3}" stroke="${r.colour}"/></g>`,
    );
  });
  return `${head}<svg viewBox="0 0 ${W * 2} ${h}" width="${W * 2}" height="${h}" role="img" aria-label="${esc(title)}">${parts.join('')}</svg><p class="note">box: 25th–75th percentile, bar: median, whiskers: 5th–95th, ticks: min and max</p></figure>`;
}

export interface ForestRow {
  label: string;
  delta: number;
  lo: number;
  hi: number;
  /** 'better' | 'worse' when significant, else 'ns'. */
  mark: 'better' | 'worse' | 'ns';
}

/** Paired differences (candidate − baseline) with intervals around a zero line, one row each. */
export function forestPlot(id: string, title: string, rows: ForestRow[], fmt: (v: number) => string): string {
  const head = `<figure class="chart" id="${esc(id)}"><figcaption>${esc(title)}</figcaption>`;
  const usable = rows.filter((r) => [r.delta, r.lo, r.hi].every(Number.isFinite));
  if (!usable.length) return `${head}<p class="empty">nothing to plot</p></figure>`;
  const left = 200;
  const rowH = 22;
  const h = M.top + usable.length * rowH + 30;
  const all = usable.flatMap((r) => [r.lo, r.hi, 0]);
  const x = linearScale(Math.min(...all), Math.max(...all), left, W - M.right);
  const tone = { better: '#2a7d2a', worse: '#c0392b', ns: '#777' };
  const parts: string[] = ['<g class="axes" font-size="10" fill="#444">'];
  for (const t of x.ticks) parts.push(`<text x="${n(x(t))}" y="${h - 12}" text-anchor="${tickAnchor(x(t), fmt(t), W)}">${esc(fmt(t))}</text>`);
  parts.push(`<line x1="${n(x(0))}" x2="${n(x(0))}" y1="${M.top - 6}" y2="${h - 26}" stroke="#999"/></g>`);
  usable.forEach((r, i) => {
    const cy = M.top + i * rowH + rowH / 2;
    parts.push(
      `<g class="forest-row" data-mark="${r.mark}"><text x="${left - 8}" y="${cy + 4}" text-anchor="end" font-size="11">${esc(r.label)}</text>` +
        `<line x1="${n(x(r.lo))}" x2="${n(x(r.hi))}" y1="${cy}" y2="${cy}" stroke="${tone[r.mark]}"/>` +
        `<circle cx="${n(x(r.delta))}" cy="${cy}" r="4" fill="${tone[r.mark]}"><title>${esc(`${r.label}: ${fmt(r.delta)} [${fmt(r.lo)}, ${fmt(r.hi)}]`)}</title></circle></g>`,
    );
  });
  return `${head}<svg viewBox="0 0 ${W} ${h}" width="${W}" height="${h}" role="img" aria-label="${esc(title)}">${parts.join('')}</svg></figure>`;
}

export interface BandSeries {
  label: string;
  colour: string;
  points: Array<{ value: number | null; lo: number | null; hi: number | null; flag: 'better' | 'worse' | null }>;
}

/** Lines across runs (x = run index) with a translucent interval band; flagged runs get a ▲/▼ marker. */
export function bandChart(id: string, title: string, xLabels: string[], series: BandSeries[], fmt: (v: number) => string): string {
  const head = `<figure class="chart" id="${esc(id)}"><figcaption>${esc(title)}</figcaption>`;
  const vals = series.flatMap((s) => s.points.flatMap((p) => [p.value, p.lo, p.hi])).filter((v): v is number => v !== null && Number.isFinite(v));
  if (!vals.length) return `${head}<p class="empty">nothing to plot</p></figure>`;
  // Wider right margin than the scatter: the last run's date label is centred on its point.
  // A label may have a second line (the run id under its time): same-day runs stay apart.
  // Each run gets room for its longest line, so neighbouring labels never overlap.
  const lines = xLabels.map((l) => l.split('\n'));
  const slot = Math.max(64, 6.2 * Math.max(...lines.flat().map((l) => l.length)) + 10);
  const right = Math.max(40, slot / 2);
  const w = Math.max(W, slot * Math.max(1, xLabels.length - 1) + M.left + right + slot / 2);
  const x = (i: number) => M.left + slot / 2 + (xLabels.length === 1 ? (w - M.left - right) / 2 : (i / (xLabels.length - 1)) * (w - M.left - right - slot / 2));
  const y = linearScale(Math.min(...vals), Math.max(...vals), H - M.bottom, M.top);
  const parts: string[] = ['<g class="axes" font-size="10" fill="#444">'];
  for (const t of y.ticks) parts.push(`<line x1="${M.left}" x2="${w - right}" y1="${n(y(t))}" y2="${n(y(t))}" stroke="#eee"/><text x="${M.left - 6}" y="${n(y(t)) + 3}" text-anchor="end">${esc(fmt(t))}</text>`);
  lines.forEach((ls, i) => parts.push(`<text x="${n(x(i))}" y="${H - M.bottom + 14}" text-anchor="middle">${ls.map((l, k) => `<tspan x="${n(x(i))}" dy="${k ? 12 : 0}">${esc(l)}</tspan>`).join('')}</text>`));
  parts.push('</g>');
  for (const s of series) {
    const idx = s.points.map((p, i) => ({ p, i })).filter(({ p }) => p.value !== null);
    const banded = idx.filter(({ p }) => p.lo !== null && p.hi !== null);
    const g: string[] = [];
    if (banded.length > 1) {
      const top = banded.map(({ p, i }) => `${n(x(i))},${n(y(p.hi!))}`);
      const bottom = banded.map(({ p, i }) => `${n(x(i))},${n(y(p.lo!))}`).reverse();
      g.push(`<polygon class="band" points="${[...top, ...bottom].join(' ')}" fill="${s.colour}" fill-opacity="0.15" stroke="none"/>`);
    }
    if (idx.length > 1) g.push(`<polyline points="${idx.map(({ p, i }) => `${n(x(i))},${n(y(p.value!))}`).join(' ')}" fill="none" stroke="${s.colour}" stroke-width="1.5"/>`);
    for (const { p, i } of idx) {
      const tip = `${s.label} ${xLabels[i]!.replace('\n', ' ')}: ${fmt(p.value!)}${p.lo !== null && p.hi !== null ? ` [${fmt(p.lo)}, ${fmt(p.hi)}]` : ''}${p.flag ? ` — significant change (${p.flag})` : ''}`;
      g.push(`<circle cx="${n(x(i))}" cy="${n(y(p.value!))}" r="3" fill="${s.colour}"><title>${esc(tip)}</title></circle>`);
      if (p.flag) {
        const cx = n(x(i));
        const cy = n(y(p.value!));
        const tri = p.flag === 'better' ? `${cx},${cy - 14} ${cx - 6},${cy - 5} ${cx + 6},${cy - 5}` : `${cx},${cy + 14} ${cx - 6},${cy + 5} ${cx + 6},${cy + 5}`;
        g.push(`<polygon class="flag flag-${p.flag}" points="${tri}" fill="${p.flag === 'better' ? '#2a7d2a' : '#c0392b'}"/>`);
      }
    }
    parts.push(`<g class="series" data-label="${esc(s.label)}">${g.join('')}</g>`);
  }
  const legend = series.map((s) => `<span style="color:${s.colour}">■</span> ${esc(s.label)}`).join(' &nbsp; ');
  return `${head}<svg viewBox="0 0 ${w} ${H}" width="${w}" height="${H}" role="img" aria-label="${esc(title)}">${parts.join('')}</svg><p class="note">${legend}</p></figure>`;
}
