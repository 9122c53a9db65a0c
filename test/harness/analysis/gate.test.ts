import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGate, DEFAULT_GATE_RULES } from '../../../cli/handlers/gate.ts';
import { loadGateRules, rulesFor, validateGateRules } from '../../../harness/analysis/gate/rules.ts';
import { evaluateGate, raw, type GateCheck } from '../../../harness/analysis/gate/evaluate.ts';
import { runCli } from '../../cli/runCli.ts';
import { manifest, outcomes, records, tempDir, writeRun, type Outcome } from './compare/runFixtures.ts';

/** The metric rules' checks (coverage and presence checks left out), in order. */
const ruleChecks = (r: { evaluation: { checks: GateCheck[] } }) => r.evaluation.checks.filter((c) => c.kind === 'rule');

function rulesFile(dir: string, yaml: string): string {
  const p = join(dir, 'gates.yaml');
  writeFileSync(p, yaml);
  return p;
}

function twoRuns(a: { vector: Outcome[]; tree?: Outcome[] }, b: { vector: Outcome[]; tree?: Outcome[] }, over: { b?: Parameters<typeof manifest>[0] } = {}) {
  const root = tempDir();
  const ma = manifest();
  const mb = manifest({ runId: 'run-b', ...over.b });
  const recs = (run: string, x: { vector: Outcome[]; tree?: Outcome[] }) => [...records(run, 'vector', x.vector), ...(x.tree ? records(run, 'tree', x.tree) : [])];
  return {
    root,
    a: writeRun(join(root, 'a'), ma, recs('run-a', a)),
    b: writeRun(join(root, 'b'), mb, recs('run-b', b)),
  };
}

describe('gate rules', () => {
  it('the default rules file is valid and has the documented rules', () => {
    const file = loadGateRules(DEFAULT_GATE_RULES);
    const names = rulesFor(file, 'vector', 'node').map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['accuracy', 'f1', 'evidenceRecall', 'callsPerQuestion', 'tokensPerQuestion', 'costPerQuestion', 'latencyP95']));
  });

  it('errors name the file, line and field', () => {
    const dir = tempDir();
    const p = rulesFile(dir, 'rules:\n  accuracy: { maxDrop: -1 }\n  latencyP95: { maxIncrease: "twenty" }\n');
    expect(() => loadGateRules(p)).toThrow(/gates\.yaml:2 rules\.accuracy\.maxDrop: must be >= 0/);
    expect(() => loadGateRules(p)).toThrow(/gates\.yaml:3 rules\.latencyP95\.maxIncrease: .*percentage/);
    const q = rulesFile(dir, 'rules:\n  acuracy: { maxDrop: 0.02 }\n  costPerQuestion: { maxDrop: 0.1 }\n  f1: { alpha: 0.1 }\nbogus: 1\n');
    expect(() => loadGateRules(q)).toThrow(/bogus/);
    const r = rulesFile(dir, 'rules:\n  acuracy: { maxDrop: 0.02 }\n  costPerQuestion: { maxDrop: 0.1 }\n  f1: { alpha: 0.1 }\n');
    const msg = (() => {
      try {
        loadGateRules(r);
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(msg).toMatch(/gates\.yaml:2 rules\.acuracy: unknown metric "acuracy"/);
    expect(msg).toMatch(/gates\.yaml:3 rules\.costPerQuestion\.maxDrop: costPerQuestion is better when lower: use maxIncrease/);
    expect(msg).toMatch(/gates\.yaml:4 rules\.f1: needs maxDrop/);
  });

  it('per-strategy overrides merge over the rules; off switches a rule off', () => {
    const file = validateGateRules({
      alpha: 0.05,
      rules: { accuracy: { maxDrop: 0.02, alpha: 0.01 }, latencyP95: { maxIncrease: '20%' } },
      strategies: { vector: { accuracy: { maxDrop: 0.05 }, latencyP95: 'off', f1: { maxDrop: 0.1 } } },
    });
    const vector = rulesFor(file, 'vector', 'node');
    expect(vector.map((r) => [r.name, r.threshold.value, r.alpha])).toEqual([
      ['accuracy', 0.05, 0.01],
      ['f1', 0.1, 0.05],
    ]);
    const tree = rulesFor(file, 'tree', 'page');
    expect(tree.map((r) => [r.name, r.metric, r.threshold.relative])).toEqual([
      ['accuracy', 'accuracy', false],
      ['latencyP95', 'latencyMs.p95', true],
    ]);
  });
});

describe('gate evaluation', () => {
  const rules = (yaml: string) => {
    const dir = tempDir();
    return rulesFile(dir, yaml);
  };

  it('passes two identical runs', () => {
    const { a, b } = twoRuns({ vector: outcomes(60, 40), tree: outcomes(60, 20) }, { vector: outcomes(60, 40), tree: outcomes(60, 20) });
    const report = buildGate({ baseline: a, candidate: b });
    expect(report.evaluation.passed).toBe(true);
    expect(report.evaluation.counts.fail).toBe(0);
  });

  it('fails a significant drop larger than maxDrop, naming metric, drop, interval and p', () => {
    const { a, b } = twoRuns({ vector: outcomes(60, 42) }, { vector: outcomes(60, 30) });
    const report = buildGate({ baseline: a, candidate: b, rules: rules('rules:\n  accuracy: { maxDrop: 0.02 }\n') });
    const [check] = ruleChecks(report);
    expect(check!.status).toBe('fail');
    expect(check!.comparison!.test).toBe('mcnemar');
    expect(check!.message).toMatch(/^accuracy dropped 0\.200 \(95% CI \[0\.\d{3}, 0\.\d{3}\]\) p<0\.001 > maxDrop 0\.02$/);
  });

  it('passes a drop above maxDrop that is not significant (two questions of sixty is noise)', () => {
    const { a, b } = twoRuns({ vector: outcomes(60, 40) }, { vector: outcomes(60, 38) });
    const report = buildGate({ baseline: a, candidate: b, rules: rules('rules:\n  accuracy: { maxDrop: 0.02 }\n') });
    const [check] = ruleChecks(report);
    expect(check!.exceeded).toBe(true);
    expect(check!.significant).toBe(false);
    expect(check!.status).toBe('pass');
    expect(check!.message).toMatch(/exceeds maxDrop 0\.02 but is not significant/);
  });

  it('requireSignificance: false makes the rule a plain threshold', () => {
    const { a, b } = twoRuns({ vector: outcomes(60, 40) }, { vector: outcomes(60, 38) });
    const report = buildGate({ baseline: a, candidate: b, rules: rules('rules:\n  accuracy: { maxDrop: 0.02, requireSignificance: false }\n') });
    expect(ruleChecks(report)[0]!.status).toBe('fail');
  });

  it('relative cost and latency rules; cost is skipped when a run is unpriced', () => {
    const base = outcomes(40, 20, { cost: 0.001, latency: 1000 });
    const dearer = base.map((o, i) => ({ ...o, cost: 0.0013 + (i % 3) * 1e-5, latency: 1100 + (i % 5) }));
    const yaml = 'rules:\n  costPerQuestion: { maxIncrease: "10%" }\n  latencyP95: { maxIncrease: "20%" }\n';
    const { a, b } = twoRuns({ vector: base }, { vector: dearer });
    const report = buildGate({ baseline: a, candidate: b, rules: rules(yaml) });
    const [cost, latency] = ruleChecks(report);
    expect(cost!.status).toBe('fail');
    expect(cost!.message).toMatch(/^costPerQuestion increased 31\.\d% \(95% CI \[3\d\.\d%, 3\d\.\d%\]\) p<0\.001 \(Holm\) > maxIncrease 10% \(0\.00100 → 0\.00131\)$/);
    expect(latency!.status).toBe('pass'); // +10% p95 is within 20%
    const unpriced = twoRuns({ vector: base }, { vector: dearer }, { b: { model: { ...manifest().model, priced: false } } });
    const r2 = buildGate({ baseline: unpriced.a, candidate: unpriced.b, rules: rules(yaml) });
    expect(ruleChecks(r2)[0]!.status).toBe('skip');
    expect(ruleChecks(r2)[0]!.message).toMatch(/unpriced/);
  });

  it('ignoreBelow keeps millisecond noise from failing a relative latency rule', () => {
    const base = outcomes(40, 20, { latency: 2 });
    const slower = outcomes(40, 20, { latency: 4 });
    const { a, b } = twoRuns({ vector: base.map((o, i) => ({ ...o, latency: 2 + (i % 3) })) }, { vector: slower.map((o, i) => ({ ...o, latency: 4 + (i % 3) })) });
    const strict = buildGate({ baseline: a, candidate: b, rules: rules('rules:\n  latencyP95: { maxIncrease: "20%" }\n') });
    expect(ruleChecks(strict)[0]!.status).toBe('fail');
    const lenient = buildGate({ baseline: a, candidate: b, rules: rules('rules:\n  latencyP95: { maxIncrease: "20%", ignoreBelow: 250 }\n') });
    expect(ruleChecks(lenient)[0]!.status).toBe('pass');
  });

  it('a baseline strategy missing from the candidate fails; rules not measured are skipped', () => {
    const root = tempDir();
    const a = writeRun(join(root, 'a'), manifest(), [...records('run-a', 'vector', outcomes(20, 10)), ...records('run-a', 'tree', outcomes(20, 10))]);
    const noRetrieval = records('run-b', 'vector', outcomes(20, 10)).map((r) => ({ ...r, retrieval: null }));
    const b = writeRun(join(root, 'b'), manifest({ runId: 'run-b' }), noRetrieval);
    const report = buildGate({ baseline: a, candidate: b, rules: rulesFile(root, 'rules:\n  accuracy: { maxDrop: 0.02 }\n  evidenceRecall: { maxDrop: 0.02 }\n') });
    const byKey = Object.fromEntries(report.evaluation.checks.map((c) => [`${c.strategy}:${c.rule?.name ?? c.kind}`, c.status]));
    expect(byKey).toEqual({ 'vector:coverage': 'pass', 'vector:accuracy': 'pass', 'vector:evidenceRecall': 'skip', 'tree:presence': 'fail' });
  });

  it('Holm runs over every tested rule × strategy', () => {
    const { a, b } = twoRuns({ vector: outcomes(60, 40), tree: outcomes(60, 40) }, { vector: outcomes(60, 33), tree: outcomes(60, 40) });
    const yaml = (c: string) => rules(`correction: ${c}\nrules:\n  accuracy: { maxDrop: 0.02 }\n`);
    const holmReport = buildGate({ baseline: a, candidate: b, rules: yaml('holm') });
    const none = buildGate({ baseline: a, candidate: b, rules: yaml('none') });
    const p = (r: typeof none) => ruleChecks(r)[0]!.comparison!.pAdjusted;
    expect(p(holmReport)).toBeCloseTo(Math.min(1, 2 * p(none)), 12);
  });

  it('evaluateGate works on record sets directly', () => {
    const file = validateGateRules({ rules: { accuracy: { maxDrop: 0.02 } } });
    const a = records('A', 'vector', outcomes(60, 42));
    const e = evaluateGate(file, [{ strategy: 'vector', a, b: a }], { priced: true, level: 'node', seed: 1 });
    expect(e.passed).toBe(true);
  });
});

describe('treebench gate (CLI)', () => {
  it('exit 0 on identical runs, 1 on a regression, 2 on different datasets; writes Markdown, JUnit and the step summary', async () => {
    const same = twoRuns({ vector: outcomes(60, 40) }, { vector: outcomes(60, 40) });
    expect((await runCli(['gate', '--baseline', same.a, '--candidate', same.b])).code).toBe(0);

    const worse = twoRuns({ vector: outcomes(60, 42) }, { vector: outcomes(60, 30) });
    const md = join(worse.root, 'out', 'gate.md');
    const junit = join(worse.root, 'out', 'gate.xml');
    const stepSummary = join(worse.root, 'step-summary.md');
    writeFileSync(stepSummary, '# earlier step\n');
    const before = process.env.GITHUB_STEP_SUMMARY;
    process.env.GITHUB_STEP_SUMMARY = stepSummary;
    try {
      const r = await runCli(['gate', '--baseline', worse.a, '--candidate', worse.b, '--summary-md', md, '--junit', junit]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/FAIL vector: accuracy dropped 0\.200 \(95% CI \[0\.100, 0\.300\]\) p=0\.003 \(Holm\) > maxDrop 0\.02/);
    } finally {
      if (before === undefined) delete process.env.GITHUB_STEP_SUMMARY;
      else process.env.GITHUB_STEP_SUMMARY = before;
    }
    expect(readFileSync(md, 'utf8')).toMatch(/## treebench gate: ❌/);
    expect(readFileSync(junit, 'utf8')).toMatch(/<failure message="accuracy dropped 0\.200/);
    const summary = readFileSync(stepSummary, 'utf8');
    expect(summary.startsWith('# earlier step\n')).toBe(true);
    expect(summary).toContain('## treebench gate');

    const other = twoRuns({ vector: outcomes(60, 40) }, { vector: outcomes(60, 40) }, { b: { dataset: { ...manifest().dataset, questionsHash: 'q-hash-2' } } });
    const refused = await runCli(['gate', '--baseline', other.a, '--candidate', other.b]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/different datasets/);
    expect((await runCli(['gate', '--baseline', other.a, '--candidate', other.b, '--force'])).code).toBe(0);
  });

  it('exit 2 on a bad rules file or a missing run', async () => {
    const { root, a, b } = twoRuns({ vector: outcomes(10, 5) }, { vector: outcomes(10, 5) });
    const bad = rulesFile(root, 'rules:\n  accuracy: { maxDrop: "lots" }\n');
    const r = await runCli(['gate', '--baseline', a, '--candidate', b, '--rules', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/gates\.yaml:2 rules\.accuracy\.maxDrop/);
    const missing = await runCli(['gate', '--baseline', join(root, 'nope'), '--candidate', b, '--baselines-dir', join(root, 'bl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/neither a run folder .* nor a baseline/);
  });

  it('prints negative figures with a minus sign, as it prints −∞', () => {
    expect([raw(-0.25), raw(-1234.5), raw(-0.00123), raw(0.25), raw(-Infinity)]).toEqual(['−0.250', '−1234.5', '−0.00123', '0.250', '−∞']);
  });
});
