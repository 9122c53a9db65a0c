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
//   - Coverage (on by default, `coverage:` in the rules file): the paired tests only see the
//     questions both runs answered, so a candidate that lacks baseline questions (more than
//     `maxMissing`), did not finish (`requireFinished`), or has more error or budget-exhausted
//     records than the baseline on the paired questions (beyond `maxExtraErrors`,
//     `maxExtraBudgetExhausted`) fails its own check, one per strategy, whose message names the
//     counts. It is not a statistical test and is not in the Holm family.
//   - Power (power.ts): a passing rule whose margin is smaller than the change these questions
//     can detect gets a note (`power.onLow: note`), or fails (`fail`).
import { UsageError } from '../../errors.ts';
import { CUSTOM_PREFIX, isCustomMetric } from '../../scoring/scorer.ts';
import { adjustHolm, compareMetric, perQuestion, type MetricComparison } from '../compare/paired.ts';
import { coverageOf, someIds, type Completeness, type Coverage } from '../compare/coverage.ts';
import type { RunRecord } from '../../types.ts';
import type { CoverageRules, EffectiveRule, GateFile } from './rules.ts';
import { parseThreshold, rulesFor } from './rules.ts';
import type { RetrievalLevel } from '../../summary/summary.ts';
import { powerNote, type PowerNote } from './power.ts';

export type GateStatus = 'pass' | 'fail' | 'skip';

export interface GateCheck {
  strategy: string;
  /** null for the "strategy missing from the candidate" and coverage checks. */
  rule: EffectiveRule | null;
  /** What the check is: a metric rule, the coverage rule, or "the strategy is in the candidate". */
  kind: 'rule' | 'coverage' | 'presence';
  /** The coverage check's numbers. */
  coverage?: Coverage & { candidateRun: Completeness };
  /** Set when the rule's margin is below what these questions can detect (see power.ts). */
  power?: PowerNote;
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
  /** Tests in the Holm family (1 without correction): power notes use alpha / family. */
  family?: number;
}

/** Plain numbers for messages, in the rule's units: 0.120, 0.00123, 850.2. */
export function raw(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? '∞' : x < 0 ? '−∞' : 'n/a';
  const abs = Math.abs(x);
  if (abs === 0) return '0';
  return withMinus(abs >= 100 ? x.toFixed(1) : abs >= 0.1 ? x.toFixed(3) : x.toPrecision(3));
}

const pctText = (x: number) => (Number.isFinite(x) ? `${withMinus((x * 100).toFixed(1))}%` : raw(x));

/** A typographic minus (U+2212) for a negative figure, as ∞'s sign has: "−3.2%", not "-3.2%". */
const withMinus = (s: string): string => (s.startsWith('-') ? `−${s.slice(1)}` : s);

export function fmtPValue(p: number, holm: boolean): string {
  const s = p < 0.001 ? 'p<0.001' : `p=${p.toFixed(3)}`;
  return holm ? `${s} (Holm)` : s;
}

interface Options {
  priced: boolean;
  level: RetrievalLevel;
  seed: number;
  missing?: string[];
  /** The candidate run's completeness (finished, records held); without it `requireFinished` is not checked. */
  candidateRun?: Completeness;
}

/** Evaluates the rules of `file` for every strategy; see the semantics at the top of the file. */
export function evaluateGate(file: GateFile, strategies: readonly GateInputStrategy[], opts: Options): GateEvaluation {
  const checks: GateCheck[] = [];
  const tested: MetricComparison[] = [];
  const pending: Array<{ check: GateCheck; rule: EffectiveRule; cmp: MetricComparison; a: readonly RunRecord[]; b: readonly RunRecord[] }> = [];
  for (const s of strategies) {
    if (file.coverage) checks.push(coverageCheck(s, file.coverage, opts.candidateRun));
    for (const rule of rulesFor(file, s.strategy, opts.level)) {
      const base = { strategy: s.strategy, rule, kind: 'rule' as const, comparison: null, change: null, changeLo: null, changeHi: null, exceeded: false, significant: false };
      if (rule.metric === 'costPerQuestion' && !opts.priced) {
        checks.push({ ...base, status: 'skip', message: `${rule.name}: skipped, a run is unpriced (no price for its model)` });
        continue;
      }
      // A custom metric's rule says which way is worse: maxDrop guards a metric that should stay high.
      const customDirections = isCustomMetric(rule.metric) ? { [rule.metric.slice(CUSTOM_PREFIX.length)]: rule.kind === 'maxDrop' } : undefined;
      const cmp = compareMetric(s.a, s.b, rule.metric, { alpha: rule.alpha, resamples: file.resamples, seed: opts.seed, ...(customDirections ? { customDirections } : {}) });
      if (cmp.n === 0) {
        const ungradable = rule.metric === 'accuracy' && [...s.a, ...s.b].some((r) => r.scores?.ungradable);
        const why = ungradable ? 'the rule judge cannot grade these golds (accuracy n/a (rule): long or procedural); gate judgeAccuracy with an LLM judge instead' : `not measured on both sides (${rule.metric})`;
        checks.push({ ...base, status: 'skip', message: `${rule.name}: skipped, ${why}` });
        continue;
      }
      const check: GateCheck = { ...base, comparison: cmp, status: 'pass', message: '' };
      checks.push(check);
      tested.push(cmp);
      pending.push({ check, rule, cmp, a: s.a, b: s.b });
    }
  }
  if (file.correction === 'holm') adjustHolm(tested, file.alpha);
  for (const { check, rule, cmp } of pending) evaluateCheck(check, rule, cmp, file.correction === 'holm');
  // Power: over the same family Holm used (every tested rule × strategy).
  const family = file.correction === 'holm' ? tested.length : 1;
  assertResamplesCanReject(file.resamples, family, pending);
  if (file.power.onLow !== 'off') {
    for (const { check, rule, cmp, a, b } of pending) {
      if (check.status === 'fail') continue;
      const va = perQuestion(a, cmp.metric);
      const vb = perQuestion(b, cmp.metric);
      const ids = [...va.keys()].filter((q) => vb.has(q));
      const note = powerNote(rule, cmp, { a: ids.map((q) => va.get(q)!), b: ids.map((q) => vb.get(q)!) }, family, file.power.level);
      if (!note) continue;
      check.power = note;
      if (file.power.onLow === 'fail') {
        check.status = 'fail';
        check.message = `${check.message}; underpowered: ${powerText(rule, note)}`;
      }
    }
  }

  for (const strategy of opts.missing ?? []) {
    checks.push({
      strategy,
      rule: null,
      kind: 'presence',
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
  return { checks, passed: counts.fail === 0, counts, alpha: file.alpha, correction: file.correction, resamples: file.resamples, seed: opts.seed, family };
}

/**
 * A resampled p-value (the permutation test past 20 differing questions, the percentile
 * bootstrap) is never below 1/(R+1), and Holm multiplies the smallest p by the family size m.
 * When m/(R+1) is not below a rule's alpha, that rule cannot fail however large the regression
 * (a 164% rise in tokens passed at `resamples: 100`): a gate that cannot fail is a misconfigured
 * gate, so it is refused (exit 2) with the resamples it needs, not passed. McNemar's exact test
 * does not resample; its floor depends on the questions (the power note's business).
 */
export function assertResamplesCanReject(resamples: number, family: number, tested: ReadonlyArray<{ rule: EffectiveRule; cmp: MetricComparison }>): void {
  const floor = family / (resamples + 1);
  const blind = tested.filter(({ rule, cmp }) => cmp.test !== 'mcnemar' && rule.requireSignificance && floor >= rule.alpha);
  if (!blind.length) return;
  const alpha = Math.min(...blind.map(({ rule }) => rule.alpha));
  // The floor is only reached when no resample is as extreme as the run; ten times it leaves room.
  const needed = Math.max(1000, 10 * Math.floor(family / alpha));
  const names = [...new Set(blind.map(({ rule, cmp }) => `${rule.name} (${cmp.metric})`))];
  throw new UsageError(
    `resamples: ${resamples} cannot fail ${names.length === 1 ? 'rule' : 'rules'} ${names.slice(0, 5).join(', ')}${names.length > 5 ? `, … (${names.length} in all)` : ''}: ` +
      `a resampled p-value is at least 1/(${resamples}+1)${family > 1 ? `, ×${family} under Holm over ${family} tests,` : ''} = ${(floor).toPrecision(3)}, not below alpha ${alpha}; ` +
      `set resamples to ${needed} or more (or gate fewer rules or strategies)`,
  );
}

/** A count or "N%" tolerance against `base` items: the largest acceptable count. */
function allowance(t: number | string, base: number): { limit: number; text: string } {
  const th = parseThreshold(t);
  return th.relative ? { limit: th.value * base, text: `${th.text} of ${base} = ${Number((th.value * base).toFixed(2))}` } : { limit: th.value, text: th.text };
}

/** The coverage rule for one strategy: every shortfall it finds, in one message. */
function coverageCheck(s: GateInputStrategy, rules: CoverageRules, candidateRun: Completeness | undefined): GateCheck {
  const c = coverageOf(s.a, s.b);
  const problems: string[] = [];
  const missing = allowance(rules.maxMissing, c.baselineQuestions);
  if (c.missing.length > missing.limit + 1e-9) {
    problems.push(`${c.missing.length} of ${c.baselineQuestions} baseline questions missing from the candidate (${someIds(c.missing)}; maxMissing ${missing.text})`);
  }
  if (rules.requireFinished && candidateRun && !candidateRun.finished) {
    const held = candidateRun.expected !== null ? `${candidateRun.records} of ${candidateRun.expected} records` : `${candidateRun.records} records`;
    problems.push(`the candidate run did not finish (${held}; resume it, or set coverage.requireFinished: false)`);
  }
  // New failures count, not the net change: fixing the baseline's errors does not pay for failing elsewhere.
  const extra = (what: string, counts: { baseline: number; candidate: number }, fresh: number, t: number | string, field: string) => {
    const allowed = allowance(t, c.records.baseline);
    if (fresh > allowed.limit + 1e-9) problems.push(`${counts.candidate} ${what} records against the baseline's ${counts.baseline} on the paired questions (+${fresh} where the baseline had none; ${field} ${allowed.text})`);
  };
  extra('error', c.errors, c.fresh.errors, rules.maxExtraErrors, 'maxExtraErrors');
  extra('budget-exhausted', c.budgetExhausted, c.fresh.budgetExhausted, rules.maxExtraBudgetExhausted, 'maxExtraBudgetExhausted');
  const summary = `${c.paired} of ${c.baselineQuestions} baseline questions paired`;
  return {
    strategy: s.strategy,
    rule: null,
    kind: 'coverage',
    coverage: { ...c, candidateRun: candidateRun ?? { finished: true, records: s.b.length, expected: null } },
    status: problems.length ? 'fail' : 'pass',
    comparison: null,
    change: null,
    changeLo: null,
    changeHi: null,
    exceeded: problems.length > 0,
    significant: false,
    message: problems.length ? `coverage: ${problems.join('; ')}` : `coverage: ${summary}, errors ${c.errors.baseline} → ${c.errors.candidate}, budget-exhausted ${c.budgetExhausted.baseline} → ${c.budgetExhausted.candidate}`,
  };
}

/** "accuracy on 5 paired questions can only flag a drop ≥ …": the power note in words. */
export function powerText(rule: EffectiveRule, p: PowerNote): string {
  const what = rule.kind === 'maxDrop' ? 'drop' : 'increase';
  const lvl = p.level < 0.001 ? p.level.toExponential(1) : p.level.toPrecision(2);
  if (!Number.isFinite(p.detectable)) {
    return `${rule.name}: ${p.n} paired questions cannot make any ${what} significant (at least ${p.kMin} must move the same way for p < ${lvl}); ${rule.kind} ${rule.threshold.text} is untestable here`;
  }
  if (p.floor) {
    return `${rule.name}: on ${p.n} paired questions no ${what} below ${raw(p.detectable)} can be significant (at least ${p.kMin} questions must be lost and none won for p < ${lvl}); ${rule.kind} ${rule.threshold.text} (${raw(p.margin)}) is below it, so a pass does not rule out a regression of that size`;
  }
  const sdText = `sd of the paired differences ${raw(p.sd)}`;
  return `${rule.name}: on ${p.n} paired questions the smallest ${what} detected with ${Math.round(p.power * 100)}% power at p < ${lvl} is about ${raw(p.detectable)} (${sdText}); ${rule.kind} ${rule.threshold.text} (${raw(p.margin)}) is below it, so a pass does not rule out a regression of that size`;
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
  // The interval is of the quantity the verb names: a worsening's, or, when the metric improved
  // ("rose", "decreased"), the improvement's, [−hi, −lo] of the worsening.
  const [ciLo, ciHi] = change < 0 ? [-hi, -lo] : [lo, hi];
  const ci = Number.isFinite(ciLo) && Number.isFinite(ciHi) ? ` (${level}% CI [${show(ciLo)}, ${show(ciHi)}])` : '';
  const p = fmtPValue(cmp.pAdjusted, holmUsed && cmp.pAdjusted !== cmp.p);
  const values = rule.threshold.relative || rule.ignoreBelow > 0 ? ` (${raw(cmp.a)} → ${raw(cmp.b)})` : '';
  const head = change === 0 ? `${rule.name} unchanged${ci} ${p}` : `${rule.name} ${verb} ${magnitude}${ci} ${p}`;
  const limit = `${rule.kind} ${rule.threshold.text}`;
  if (fail) check.message = `${head} > ${limit}${values}`;
  else if (exceeded) check.message = `${head} exceeds ${limit} but is not significant at alpha=${rule.alpha}: pass${values}`;
  else if (change > rule.threshold.value + 1e-12) check.message = `${head}: below ignoreBelow ${rule.ignoreBelow}, pass${values}`;
  else check.message = `${head} within ${limit}${values}`;
}
