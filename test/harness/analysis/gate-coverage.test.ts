// The gate's coverage rule and power notes (issue 25, item 1), on hand-made runs: what a
// careful reviewer of a CI gate would say about each candidate.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGate } from '../../../cli/handlers/gate.ts';
import type { GateCheck } from '../../../harness/analysis/gate/evaluate.ts';
import { minQuestionsForSignificance } from '../../../harness/analysis/gate/power.ts';
import { loadGateRules, validateGateRules } from '../../../harness/analysis/gate/rules.ts';
import { renderGateMarkdown, renderGateText } from '../../../reports/gate.ts';
import { buildComparison } from '../../../harness/analysis/compare/build.ts';
import { renderCompare } from '../../../reports/compare.ts';
import type { RunRecord } from '../../../harness/types.ts';
import type { RunManifest } from '../../../harness/run/store.ts';
import { manifest, outcomes, records, tempDir, writeRun, type Outcome } from './compare/runFixtures.ts';

const oneStrategy = (m: Partial<RunManifest> = {}) => manifest({ strategies: [{ id: 'vector', strategy: 'vector', params: {}, budget: {} }], ...m });

function gate(a: RunRecord[], b: RunRecord[], yaml: string, mb: Partial<RunManifest> = {}) {
  const root = tempDir();
  const rules = join(root, 'gates.yaml');
  writeFileSync(rules, yaml);
  const da = writeRun(join(root, 'a'), oneStrategy(), a);
  const db = writeRun(join(root, 'b'), oneStrategy({ runId: 'run-b', ...mb }), b);
  return buildGate({ baseline: da, candidate: db, rules });
}

const coverage = (r: ReturnType<typeof gate>): GateCheck => r.evaluation.checks.find((c) => c.kind === 'coverage')!;
const accuracyRule = 'rules:\n  accuracy: { maxDrop: 0.02 }\n';
const base = (n = 60, k = 40, extra: Partial<Outcome> = {}) => records('run-a', 'vector', outcomes(n, k, extra));
const cand = (n = 60, k = 40, extra: Partial<Outcome> = {}) => records('run-b', 'vector', outcomes(n, k, extra));

describe('coverage rule', () => {
  it('is on by default, with the documented tolerances', () => {
    const file = validateGateRules({ rules: {} });
    expect(file.coverage).toEqual({ maxMissing: 0, requireFinished: true, maxExtraErrors: '1%', maxExtraBudgetExhausted: '5%' });
    expect(file.power).toEqual({ onLow: 'note', level: 0.8 });
    expect(validateGateRules({ coverage: 'off' }).coverage).toBeNull();
    expect(validateGateRules({ power: 'fail' }).power).toEqual({ onLow: 'fail', level: 0.8 });
    // The shipped rules file keeps it on.
    expect(loadGateRules(fileURLToRules()).coverage).not.toBeNull();
  });

  it('fails a candidate that lacks baseline questions, naming how many and which', () => {
    const r = gate(base(75, 20), cand(5, 1), accuracyRule);
    const c = coverage(r);
    expect(c.status).toBe('fail');
    expect(c.message).toBe('coverage: 70 of 75 baseline questions missing from the candidate (q6, q7, q8, q9, q10, … (+65 more); maxMissing 0)');
    expect(r.evaluation.passed).toBe(false);
    // The metric rule on the 5 paired questions passes; the gate fails anyway.
    expect(r.evaluation.checks.find((x) => x.kind === 'rule')!.status).toBe('pass');
    expect(renderGateText(r).split('\n')[0]).toBe('treebench gate: FAILED: 1 coverage failure (1 passed, 1 failed, 0 skipped)');
  });

  it('maxMissing takes a count or a share of the baseline questions', () => {
    const lacking6 = cand(54, 36);
    expect(coverage(gate(base(), lacking6, `coverage: { maxMissing: 6 }\n${accuracyRule}`)).status).toBe('pass');
    expect(coverage(gate(base(), lacking6, `coverage: { maxMissing: "10%" }\n${accuracyRule}`)).status).toBe('pass');
    expect(coverage(gate(base(), cand(53, 36), `coverage: { maxMissing: "10%" }\n${accuracyRule}`)).message).toMatch(/7 of 60 baseline questions missing .*maxMissing 10% of 60 = 6\)$/);
  });

  it('fails an unfinished candidate, even one holding every record, unless requireFinished is false', () => {
    const r = gate(base(), cand(), accuracyRule, { finishedAt: null });
    expect(coverage(r).status).toBe('fail');
    expect(coverage(r).message).toBe('coverage: the candidate run did not finish (60 of 60 records; resume it, or set coverage.requireFinished: false)');
    expect(coverage(gate(base(), cand(), `coverage: { requireFinished: false }\n${accuracyRule}`, { finishedAt: null })).status).toBe('pass');
  });

  it('fails more error records than the baseline beyond the tolerance (default 1% of the records)', () => {
    const withErrors = (k: number) => cand().map((r, i) => (i >= 60 - k ? { ...r, error: 'Error: boom' } : r));
    const one = gate(base(), withErrors(1), accuracyRule);
    expect(coverage(one).status).toBe('fail'); // 1 > 1% of 60 = 0.6
    expect(coverage(one).message).toBe("coverage: 1 error records against the baseline's 0 on the paired questions (+1 where the baseline had none; maxExtraErrors 1% of 60 = 0.6)");
    expect(coverage(gate(base(), withErrors(3), `coverage: { maxExtraErrors: 3 }\n${accuracyRule}`)).status).toBe('pass');
    // Errors the baseline had as well are not "more".
    const both = base().map((r, i) => (i >= 57 ? { ...r, error: 'Error: boom' } : r));
    expect(coverage(gate(both, withErrors(3), accuracyRule)).status).toBe('pass');
    // New errors count, not the net change: fixing the baseline's three errors and failing three
    // other questions is three new errors (it passed when counts were compared).
    const elsewhere = cand().map((r, i) => (i < 3 ? { ...r, error: 'Error: boom' } : r));
    const swapped = coverage(gate(both, elsewhere, accuracyRule));
    expect(swapped.status).toBe('fail');
    expect(swapped.message).toBe("coverage: 3 error records against the baseline's 3 on the paired questions (+3 where the baseline had none; maxExtraErrors 1% of 60 = 0.6)");
  });

  it('fails more budget-exhausted records than the baseline beyond 5% of the records', () => {
    const exhausted = (k: number) => cand().map((r, i) => (i < k ? { ...r, budgetExhausted: 'calls' as const } : r));
    expect(coverage(gate(base(), exhausted(3), accuracyRule)).status).toBe('pass'); // 3 = 5% of 60
    const four = coverage(gate(base(), exhausted(4), accuracyRule));
    expect(four.status).toBe('fail');
    expect(four.message).toMatch(/4 budget-exhausted records against the baseline's 0 .*\(\+4 where the baseline had none; maxExtraBudgetExhausted 5% of 60 = 3\)/);
  });

  it('passes a full, identical candidate, and says what it covered', () => {
    const r = gate(base(), cand(), accuracyRule);
    expect(coverage(r).status).toBe('pass');
    expect(coverage(r).message).toBe('coverage: 60 of 60 baseline questions paired, errors 0 → 0, budget-exhausted 0 → 0');
    expect(r.evaluation.passed).toBe(true);
  });

  it('coverage: off leaves only the note it used to print', () => {
    const r = gate(base(75, 20), cand(5, 1), `coverage: off\n${accuracyRule}`);
    expect(r.evaluation.checks.some((c) => c.kind === 'coverage')).toBe(false);
    expect(r.evaluation.passed).toBe(true);
    expect(r.notes.join('; ')).toMatch(/vector: 70 baseline questions missing from the candidate \(excluded; the coverage rule is off\)/);
  });

  it('compare says how much of the baseline it paired', () => {
    const root = tempDir();
    const da = writeRun(join(root, 'a'), oneStrategy(), base(75, 20));
    const db = writeRun(join(root, 'b'), oneStrategy({ runId: 'run-b' }), cand(5, 1));
    const report = buildComparison({ runA: da, runB: db, metrics: ['accuracy'] });
    expect(report.result.comparisons[0]!.coverage.missing).toHaveLength(70);
    for (const format of ['table', 'md'] as const) {
      expect(renderCompare(format, report)).toContain('vector: 5 of 75 questions of A paired (6.7%; 70 missing from B: q6, q7, q8, q9, q10, … (+65 more))');
    }
  });
});

describe('power notes', () => {
  it('k_min: the questions that must all move one way before McNemar or the sign-flip test can reach the level', () => {
    expect(minQuestionsForSignificance(0.05)).toBe(6); // 2·2^-6 = 0.031 < 0.05 ≤ 2·2^-5
    expect(minQuestionsForSignificance(0.05 / 42)).toBe(11); // Holm over 42 rules: 2^-10 < 0.00119 < 2^-9
  });

  it('the floor is exact: with k_min − 1 questions lost and none won the rule cannot fail, with k_min it does', () => {
    const yaml = 'correction: none\ncoverage: off\nrules:\n  accuracy: { maxDrop: 0.02 }\n';
    const lose = (k: number) => cand(75, 40).map((r, i) => (i < k ? { ...r, scores: { ...r.scores!, correct: 0 } } : r));
    const same = gate(base(75, 40), cand(75, 40), yaml).evaluation.checks[0]!;
    expect(same.power).toMatchObject({ kMin: 6, n: 75, floor: true });
    expect(same.power!.detectable).toBeCloseTo(6 / 75, 12);
    const five = gate(base(75, 40), lose(5), yaml);
    const rule5 = five.evaluation.checks[0]!;
    expect(rule5.status).toBe('pass');
    expect(rule5.power!.detectable).toBeGreaterThanOrEqual(6 / 75);
    const six = gate(base(75, 40), lose(6), yaml);
    expect(six.evaluation.checks[0]!.status).toBe('fail');
  });

  it('too few questions for any significance: said in words, in text and Markdown', () => {
    const r = gate(base(5, 3), cand(5, 3), accuracyRule);
    const check = r.evaluation.checks.find((c) => c.kind === 'rule')!;
    expect(check.status).toBe('pass');
    expect(check.power!.detectable).toBe(Infinity);
    const line = 'vector: accuracy: 5 paired questions cannot make any drop significant (at least 6 must move the same way for p < 0.050); maxDrop 0.02 is untestable here';
    expect(renderGateText(r)).toContain(line);
    expect(renderGateMarkdown(r)).toContain('**Power.**');
  });

  it('many questions detect the margin: no note', () => {
    const r = gate(base(2000, 1000), cand(2000, 1000), accuracyRule);
    expect(r.evaluation.checks.find((c) => c.kind === 'rule')!.power).toBeUndefined();
  });

  it('a noisy continuous metric: the 80%-power estimate from the spread of the paired differences', () => {
    // Recall moves ±0.5 on every question, no net change: s = 0.5 (approximately), n = 60.
    const a = base(60, 30, { recall: 0.5 });
    const b = cand(60, 30).map((r, i) => ({ ...r, retrieval: { node: { recall: i % 2 ? 1 : 0, precision: 0.5, mrr: 0.5, ndcg: 0.5 }, page: null, doc: null } }));
    const r = gate(a, b, 'correction: none\nrules:\n  evidenceRecall: { maxDrop: 0.03 }\n');
    const p = r.evaluation.checks.find((c) => c.kind === 'rule')!.power!;
    expect(p.floor).toBe(false);
    // (z_0.975 + z_0.8) · s / √n with s the sample sd of ±0.5
    const s = Math.sqrt((60 * 0.25) / 59);
    expect(p.detectable).toBeCloseTo(((1.959963984540054 + 0.8416212335729143) * s) / Math.sqrt(60), 9);
  });

  it('power: fail fails an underpowered rule, and the verdict says why', () => {
    const r = gate(base(5, 3), cand(5, 3), `power: fail\n${accuracyRule}`);
    expect(r.evaluation.passed).toBe(false);
    expect(renderGateText(r).split('\n')[0]).toBe('treebench gate: FAILED: 1 underpowered (1 passed, 1 failed, 0 skipped)');
  });
});

describe('gate messages', () => {
  it('an improving metric prints the interval of the improvement, with the sign of the verb (both bounds positive)', () => {
    const r = gate(base(60, 30), cand(60, 42), 'correction: none\nrules:\n  accuracy: { maxDrop: 0.02 }\n');
    const msg = r.evaluation.checks.find((c) => c.kind === 'rule')!.message;
    const m = /^accuracy rose 0\.200 \(95% CI \[(\d\.\d{3}), (\d\.\d{3})\]\)/.exec(msg);
    expect(m, msg).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThan(0);
    expect(Number(m![2])).toBeGreaterThan(Number(m![1]));
  });

  it('a cost that fell prints the interval of the fall', () => {
    const r = gate(base(40, 20, { cost: 0.002 }).map((x, i) => ({ ...x, costUsd: 0.002 + (i % 4) * 1e-5 })), cand(40, 20).map((x, i) => ({ ...x, costUsd: 0.001 + (i % 3) * 1e-5 })), 'rules:\n  costPerQuestion: { maxIncrease: "10%" }\n');
    const msg = r.evaluation.checks.find((c) => c.kind === 'rule')!.message;
    expect(msg).toMatch(/^costPerQuestion decreased 4\d\.\d% \(95% CI \[4\d\.\d%, 5\d\.\d%\]\)/);
  });
});

function fileURLToRules(): string {
  return new URL('../../../configs/gates.yaml', import.meta.url).pathname;
}
