// Gate reports: console text, Markdown (PR comment / $GITHUB_STEP_SUMMARY) and JUnit XML
// (one test case per strategy × rule).
import { fitTable, type FitColumn } from './fit.ts';
import { wrapText } from './console.ts';
import type { GateCheck, GateEvaluation } from '../harness/analysis/gate/evaluate.ts';
import { powerText, raw } from '../harness/analysis/gate/evaluate.ts';
import type { RunLabel } from './compare.ts';
import { fmtDeltaCi, fmtValue, metricLabel } from './compareFormat.ts';
import { renderJunit, type JunitSuite } from './junit.ts';
import { escapeMarkdown } from './markdown.ts';

export interface GateReport {
  baseline: RunLabel;
  candidate: RunLabel;
  rulesPath: string;
  notes: string[];
  forced: string[];
  evaluation: GateEvaluation;
}

const STATUS_TEXT = { pass: 'pass', fail: 'FAIL', skip: 'skip' } as const;
const STATUS_MD = { pass: '✅ pass', fail: '❌ **FAIL**', skip: '➖ skip' } as const;

export function ruleLabel(c: GateCheck): string {
  if (c.kind === 'coverage') return 'coverage';
  return c.rule ? `${c.rule.name} ${c.rule.kind} ${c.rule.threshold.text}` : 'present in candidate';
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function verdict(e: GateEvaluation): string {
  const { pass, fail, skip } = e.counts;
  const failed = e.checks.filter((c) => c.status === 'fail');
  const coverage = failed.filter((c) => c.kind === 'coverage').length;
  const underpowered = failed.filter((c) => c.kind === 'rule' && c.power && !c.exceeded).length;
  const regressions = fail - coverage - underpowered;
  const what = [regressions ? plural(regressions, 'regression') : '', coverage ? plural(coverage, 'coverage failure') : '', underpowered ? `${underpowered} underpowered` : ''].filter(Boolean).join(', ');
  return `${fail ? `FAILED: ${what}` : 'PASSED'} (${pass} passed, ${fail} failed, ${skip} skipped)`;
}

/** Power notes, one line per rule name: the strategies it concerns and the detectable change. */
export function powerLines(e: GateEvaluation): string[] {
  const byRule = new Map<string, GateCheck[]>();
  for (const c of e.checks) {
    if (!c.power || !c.rule || c.status === 'fail') continue;
    const key = `${c.rule.name} ${c.rule.kind} ${c.rule.threshold.text}`;
    byRule.set(key, [...(byRule.get(key) ?? []), c]);
  }
  return [...byRule.values()].map((cs) => {
    // The strategy with the weakest test speaks for the rule; the others are named.
    const worst = cs.reduce((w, c) => (c.power!.detectable > w.power!.detectable ? c : w));
    const others = cs.filter((c) => c !== worst).map((c) => c.strategy);
    return `${worst.strategy}${others.length ? ` (also ${others.join(', ')})` : ''}: ${powerText(worst.rule!, worst.power!)}`;
  });
}

function coverageCells(c: GateCheck): string[] {
  const v = c.coverage!;
  return [c.strategy, ruleLabel(c), `${v.baselineQuestions} q`, `${v.paired} paired`, v.missing.length ? `−${v.missing.length} q` : '0', '–', c.message];
}

function cells(c: GateCheck, priced: boolean): string[] {
  const m = c.comparison;
  if (c.kind === 'coverage' && c.coverage) return coverageCells(c);
  if (!m || !c.rule) return [c.strategy, ruleLabel(c), '–', '–', '–', '–', c.message];
  const cost = m.metric === 'costPerQuestion' && !priced;
  const p = `${m.pAdjusted < 0.001 ? '<0.001' : m.pAdjusted.toFixed(3)}`;
  return [
    c.strategy,
    ruleLabel(c),
    cost ? 'unpriced' : fmtValue(m.metric, m.a),
    cost ? 'unpriced' : fmtValue(m.metric, m.b),
    cost ? 'unpriced' : fmtDeltaCi(m.metric, m.delta, m.lo, m.hi),
    p,
    c.message,
  ];
}

const HEAD = ['strategy', 'rule', 'baseline', 'candidate', 'Δ [CI]', 'p', 'detail'];

/** Column priorities for a narrow terminal (status, strategy, rule and Δ stay longest). */
const GATE_PRIORITY = [0, 0, 1, 4, 4, 2, 3];

export function renderGateText(r: GateReport, width = Infinity): string {
  const priced = r.baseline.priced && r.candidate.priced;
  const rows = r.evaluation.checks.map((c) => [STATUS_TEXT[c.status], ...cells(c, priced).slice(0, 6)]);
  const columns: FitColumn[] = ['', ...HEAD.slice(0, 6)].map((head, i) => ({
    head,
    priority: GATE_PRIORITY[i]!,
    align: i >= 3 ? 'right' : 'left',
    cells: rows.map((row) => row[i]!),
    ...(i === 5 ? { condensed: rows.map((row) => row[i]!.replace(/ \[.*\]$/, '')) } : {}),
  }));
  const fitted = fitTable(columns, rows.length, width);
  const table = { toString: () => fitted.text };
  const lines = [
    `treebench gate: ${verdict(r.evaluation)}`,
    `baseline:  ${r.baseline.ref} (${r.baseline.runId})`,
    `candidate: ${r.candidate.ref} (${r.candidate.runId})`,
    `rules: ${r.rulesPath}`,
  ];
  if (r.forced.length) lines.push(`FORCED despite: ${r.forced.join('; ')}`);
  if (r.notes.length) lines.push(`differences: ${r.notes.join('; ')}`);
  lines.push(table.toString());
  if (fitted.dropped.length || fitted.condensed.length) lines.push(`narrowed to fit ${width} columns:${fitted.condensed.length ? ` Δ without interval;` : ''}${fitted.dropped.length ? ` hidden ${fitted.dropped.join(', ')};` : ''} full table: --summary-md or --format json`);
  for (const c of r.evaluation.checks.filter((x) => x.status === 'fail')) lines.push(`FAIL ${c.strategy}: ${c.message}`);
  const power = powerLines(r.evaluation);
  if (power.length) lines.push(`power (these questions are too few to detect the margin of ${plural(power.length, 'rule')}; a pass there is weak evidence):`, ...power.map((l) => `  ${l}`));
  if (Number.isFinite(width)) return lines.flatMap((l) => (l === fitted.text ? [l] : wrapText(l, width))).join('\n');
  return lines.join('\n');
}

export function renderGateMarkdown(r: GateReport): string {
  const priced = r.baseline.priced && r.candidate.priced;
  const e = r.evaluation;
  const line = (xs: string[]) => `| ${xs.join(' | ')} |`;
  const head = ['result', ...HEAD];
  const parts = [
    `## treebench gate: ${e.passed ? '✅' : '❌'} ${escapeMarkdown(verdict(e))}`,
    '',
    `- **baseline**: ${escapeMarkdown(`${r.baseline.ref} (${r.baseline.runId}) · ${r.baseline.model}`)}`,
    `- **candidate**: ${escapeMarkdown(`${r.candidate.ref} (${r.candidate.runId}) · ${r.candidate.model}`)}`,
    `- **dataset**: ${escapeMarkdown(r.candidate.dataset)}`,
    `- **rules**: ${escapeMarkdown(r.rulesPath)} (alpha ${e.alpha}, ${e.correction === 'holm' ? 'Holm-corrected' : 'no correction'}, ${e.resamples} resamples, seed ${e.seed})`,
  ];
  if (r.forced.length) parts.push(`- **forced despite**: ${escapeMarkdown(r.forced.join('; '))}`);
  if (r.notes.length) parts.push(`- **differences**: ${escapeMarkdown(r.notes.join('; '))}`);
  parts.push('', line(head), line(head.map((_, i) => (i >= 3 && i <= 6 ? '---:' : '---'))));
  for (const c of e.checks) {
    const row = cells(c, priced);
    // A clean pass needs no sentence; failures, near misses and skips keep theirs.
    if (c.status === 'pass' && !c.exceeded && c.rule) row[6] = `within ${c.rule.kind} ${c.rule.threshold.text}${c.power ? ' (underpowered, see below)' : ''}`;
    parts.push(line([STATUS_MD[c.status], ...row.map(escapeMarkdown)]));
  }
  const power = powerLines(e);
  if (power.length) parts.push('', `**Power.** These questions are too few to detect the margin of ${plural(power.length, 'rule')}; a pass there is weak evidence:`, '', ...power.map((l) => `- ${escapeMarkdown(l)}`));
  parts.push(
    '',
    'A quality rule fails only when the drop exceeds its threshold **and** is significant (McNemar exact for correct/incorrect, paired permutation for means, paired bootstrap for percentiles; Holm-adjusted p < alpha). Δ is candidate − baseline with its paired bootstrap interval. The coverage rule fails a candidate that lacks baseline questions, did not finish, or has more error or budget-exhausted records than the baseline.',
  );
  return parts.join('\n') + '\n';
}

/** One suite per strategy, one test case per rule. */
export function gateJunitSuites(r: GateReport, timestamp = new Date().toISOString().replace(/\.\d+Z$/, '')): JunitSuite[] {
  const byStrategy = new Map<string, GateCheck[]>();
  for (const c of r.evaluation.checks) {
    const g = byStrategy.get(c.strategy);
    if (g) g.push(c);
    else byStrategy.set(c.strategy, [c]);
  }
  return [...byStrategy].map(([strategy, checks]) => ({
    name: `treebench gate: ${strategy}`,
    timestamp,
    properties: { baseline: r.baseline.runId, candidate: r.candidate.runId, dataset: r.candidate.dataset, rules: r.rulesPath },
    cases: checks.map((c) => {
      const m = c.comparison;
      const detail = m
        ? [
            c.message,
            `metric: ${metricLabel(m.metric)} (${m.metric}), ${m.n} paired questions`,
            `baseline ${raw(m.a)}, candidate ${raw(m.b)}, delta ${raw(m.delta)} [${raw(m.lo)}, ${raw(m.hi)}]`,
            `test: ${m.test}, p=${m.p.toPrecision(3)}, adjusted p=${m.pAdjusted.toPrecision(3)}, wins/ties/losses ${m.wins}/${m.ties}/${m.losses}`,
            ...(c.power && c.rule ? [`power: ${powerText(c.rule, c.power)}`] : []),
          ].join('\n')
        : c.message;
      return {
        name: ruleLabel(c),
        classname: `treebench.gate.${strategy}`,
        ...(c.status === 'fail' ? { failure: { message: c.message, type: 'regression', body: detail } } : {}),
        ...(c.status === 'skip' ? { skipped: { message: c.message } } : {}),
        ...(c.status === 'pass' ? { systemOut: detail } : {}),
      };
    }),
  }));
}

export function renderGateJunit(r: GateReport): string {
  return renderJunit(gateJunitSuites(r), 'treebench gate');
}
