// Linear scales and "nice" tick values for the hand-drawn SVG charts.

export interface Scale {
  (v: number): number;
  ticks: number[];
}

/** 1, 2 or 5 × a power of ten: the tick step for about `count` ticks over [lo, hi]. */
export function niceStep(lo: number, hi: number, count = 5): number {
  const span = hi - lo;
  if (!(span > 0)) return 1;
  const raw = span / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const m = raw / pow;
  return (m >= 5 ? 10 : m >= 2 ? 5 : m >= 1 ? 2 : 1) * pow;
}

/**
 * Maps [lo, hi] (widened to tick boundaries) onto [r0, r1]. A zero-width domain is widened so a
 * single value lands mid-axis instead of dividing by zero.
 */
export function linearScale(lo: number, hi: number, r0: number, r1: number, count = 5): Scale {
  if (!(hi > lo)) {
    const pad = Math.abs(lo) > 0 ? Math.abs(lo) * 0.5 : 1;
    lo -= pad;
    hi += pad;
  }
  const step = niceStep(lo, hi, count);
  const d0 = Math.floor(lo / step) * step;
  const d1 = Math.ceil(hi / step) * step;
  const f = ((v: number) => r0 + ((v - d0) / (d1 - d0)) * (r1 - r0)) as Scale;
  const ticks: number[] = [];
  for (let t = d0; t <= d1 + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  f.ticks = ticks;
  return f;
}
