// The gate's verdict: each rule × strategy passes, fails or is skipped.
//
// Semantics (documented in docs/ci-gating.md):
//   - Quality rules (maxDrop): fail only when the drop (baseline − candidate) exceeds maxDrop
//     AND the change is statistically significant (Holm-adjusted p < alpha; McNemar exact for
//     correct/incorrect, paired permutation for continuous means). A drop of two questions in
//     sixty is noise and passes; a real regression fails.
//   - Cost/latency rules (maxIncrease): the increase of the mean (or of the p95 for latencyP95)
//     is compared with the threshold, absolute or relative to the baseline ("10%"), and must also
//     be significant (permutation test for means, paired bootstrap for percentiles).
//   - `requireSignificance: false` makes a rule a plain threshold; `ignoreBelow` ignores
//     absolute changes smaller than it (timer noise in milliseconds).
//   - A rule is skipped when its metric was not measured on both sides (no gold evidence,
//     unpriced model for cost).
//   - A strategy in the baseline but not in the candidate fails (it silently disappeared).
//   - Holm correction runs over every tested rule × strategy together (unless `correction: none`).
import { adjustHolm, compareMetric, type MetricComparison } from '../compare/paired.ts';
import type { RunRecord } from '../../types.ts';
import type { EffectiveRule, GateFile } from './rules.ts';
import { rulesFor } from './rules.ts';
import type { RetrievalLevel } from '../../summary/summary.ts';

export type GateStatus = 'pass' | 'fail' | 'skip';

export interface GateCheck {
  strategy: string;
  /** null for the "strategy missing from the candidate" check. */
  rule: EffectiveRule | null;
  status: GateStatus;
  comparison: MetricComparison | null;
  /** The drop (maxDrop) or increase (maxIncrease), in the threshold's terms (relative if it is). */
  change: number | null;
  /** Interval of `change`, same terms. */
  changeLo: number | null;
  changeHi: number | null;
  exceeded: boolean;
  significant: boolean;
  message: string;
}

export interface GateInputStrategy {
  strategy: string;
  a: readonly RunRecord[];
  b: readonly RunRecord[];
}

export interface GateEvaluation {
  checks: GateCheck[];
  passed: boolean;
  counts: { pass: number; fail: number; skip: number };
  alpha: number;
  correction: 'holm' | 'none';
  resamples: number;
  seed: number;
}

/** Plain numbers for messages, in the rule's units: 0.120, 0.00123, 850.2. */
export function raw(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? '∞' : x < 0 ? '−∞' : 'n/a';
  const abs = Math.abs(x);
  if (abs === 0) return '0';
  if (abs >= 100) return x.toFixed(1);
  if (abs >= 0.1) return x.toFixed(3);
  return x.toPrecision(3);
}

const pctText = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : raw(x));

export function fmtPValue(p: number, holm: boolean): string {
  const s = p < 0.001 ? 'p<0.001' : `p=${p.toFixed(3)}`;
  return holm ? `${s} (Holm)` : s;
}

interface Options {
  priced: boolean;
  level: RetrievalLevel;
  seed: number;
  missing?: string[];
}

/** Evaluates the rules of `file` for every strategy; see the semantics at the top of the file. */
export function evaluateGate(file: GateFile, strategies: readonly GateInputStrategy[], opts: Options): GateEvaluation {
  const checks: GateCheck[] = [];
  const tested: MetricComparison[] = [];
  const pending: Array<{ check: GateCheck; rule: EffectiveRule; cmp: MetricComparison }> = [];
  for (const s of strategies) {
    for (const rule of rulesFor(file, s.strategy, opts.level)) {
      const base = { strategy: s.strategy, rule, comparison: null, change: null, changeLo: null, changeHi: null, exceeded: false, significant: false };
      if (rule.metric === 'costPerQuestion' && !opts.priced) {
        checks.push({ ...base, status: 'skip', message: `${rule.name}: skipped, a run is unpriced (no price for its model)` });
        continue;
      }
      const cmp = compareMetric(s.a, s.b, rule.metric, { alpha: rule.alpha, resamples: file.resamples, seed: opts.seed });
      if (cmp.n === 0) {
        checks.push({ ...base, status: 'skip', message: `${rule.name}: skipped, not measured on both sides (${rule.metric})` });
        continue;
      }
      const check: GateCheck = { ...base, comparison: cmp, status: 'pass', message: '' };
      checks.push(check);
      tested.push(cmp);
      pending.push({ check, rule, cmp });
    }
  }
  if (file.correction === 'holm') adjustHolm(tested, file.alpha);
  for (const { check, rule, cmp } of pending) evaluateCheck(check, rule, cmp, file.correction === 'holm');

  for (const strategy of opts.missing ?? []) {
    checks.push({
      strategy,
      rule: null,
      status: 'fail',
      comparison: null,
      change: null,
      changeLo: null,
      changeHi: null,
      exceeded: true,
      significant: false,
      message: `strategy "${strategy}" is in the baseline but missing from the candidate run`,
    });
  }
  const counts = { pass: 0, fail: 0, skip: 0 };
  for (const c of checks) counts[c.status]++;
  return { checks, passed: counts.fail === 0, counts, alpha: file.alpha, correction: file.correction, resamples: file.resamples, seed: opts.seed };
}

function evaluateCheck(check: GateCheck, rule: EffectiveRule, cmp: MetricComparison, holmUsed: boolean): void {
  // Worsening, positive when the candidate is worse: a drop for maxDrop, a rise for maxIncrease.
  const sign = rule.kind === 'maxDrop' ? -1 : 1;
  const absChange = sign * cmp.delta;
  const absLo = sign === 1 ? cmp.lo : -cmp.hi;
  const absHi = sign === 1 ? cmp.hi : -cmp.lo;
  let change = absChange;
  let lo = absLo;
  let hi = absHi;
  if (rule.threshold.relative) {
    if (cmp.a === 0) {
      // No baseline to be relative to: any worsening is unbounded, none is zero.
      change = absChange > 0 ? Infinity : absChange < 0 ? -Infinity : 0;
      lo = NaN;
      hi = NaN;
    } else {
      const rel = cmp.rel!;
      change = sign * rel.delta;
      lo = sign === 1 ? rel.lo : -rel.hi;
      hi = sign === 1 ? rel.hi : -rel.lo;
    }
  }
  const exceeded = change > rule.threshold.value + 1e-12 && Math.abs(absChange) >= rule.ignoreBelow;
  // pAdjusted < this rule's alpha (the Holm family shares one ordering, each rule its own level).
  const significant = cmp.pAdjusted < rule.alpha;
  cmp.significant = significant;
  const fail = exceeded && (significant || !rule.requireSignificance);
  Object.assign(check, { change, changeLo: lo, changeHi: hi, exceeded, significant, status: fail ? 'fail' : 'pass' });

  const show = rule.threshold.relative ? pctText : raw;
  const level = Math.round((1 - rule.alpha) * 100);
  const verb = rule.kind === 'maxDrop' ? (change >= 0 ? 'dropped' : 'rose') : change >= 0 ? 'increased' : 'decreased';
  const magnitude = Number.isFinite(change) ? show(Math.abs(change)) : 'from 0';
  const ci = Number.isFinite(lo) && Number.isFinite(hi) ? ` (${level}% CI [${show(lo)}, ${show(hi)}])` : '';
  const p = fmtPValue(cmp.pAdjusted, holmUsed && cmp.pAdjusted !== cmp.p);
  const values = rule.threshold.relative || rule.ignoreBelow > 0 ? ` (${raw(cmp.a)} → ${raw(cmp.b)})` : '';
  const head = change === 0 ? `${rule.name} unchanged${ci} ${p}` : `${rule.name} ${verb} ${magnitude}${ci} ${p}`;
  const limit = `${rule.kind} ${rule.threshold.text}`;
  if (fail) check.message = `${head} > ${limit}${values}`;
  else if (exceeded) check.message = `${head} exceeds ${limit} but is not significant at alpha=${rule.alpha}: pass${values}`;
  else if (change > rule.threshold.value + 1e-12) check.message = `${head}: below ignoreBelow ${rule.ignoreBelow}, pass${values}`;
  else check.message = `${head} within ${limit}${values}`;
}
