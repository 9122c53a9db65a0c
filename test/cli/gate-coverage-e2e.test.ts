// Issue 25, item 1, end to end: the quickstart run on every question is the baseline; the gate
// must fail a candidate that answered 5 of the 75 questions under a 3-call budget (it used to
// print "PASSED (42 passed)"), fail an unfinished candidate (a run killed after 407 of 450
// records), and still pass a second full run of the same config.
import { beforeAll, describe, expect, it } from 'vitest';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../harness/analysis/compare/runFixtures.ts';
import { runCli } from './runCli.ts';

const QUICKSTART = fileURLToPath(new URL('../../configs/quickstart.yaml', import.meta.url));

describe('gate coverage on real quickstart runs', () => {
  const out = tempDir();
  const full = join(out, 'full');
  beforeAll(async () => {
    const r = await runCli(['run', QUICKSTART, '--out', out, '--run-id', 'full', '--quiet']);
    expect(r.code).toBe(0);
  }, 120_000);

  it('a candidate of 5 questions under a 3-call budget fails (exit 1), naming the 70 missing questions', async () => {
    const small = await runCli(['run', QUICKSTART, '--limit', '5', '--set', 'budget.calls=3', '--set', 'strategies.vector.params.topK=1', '--out', out, '--run-id', 'small', '--quiet']);
    expect(small.code).toBe(0);
    const r = await runCli(['gate', '--baseline', full, '--candidate', join(out, 'small')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^treebench gate: FAILED: 6 coverage failures/);
    for (const s of ['vector', 'node-list', 'layerwise', 'hybrid-beam', 'mcts', 'agent']) {
      expect(r.stdout).toContain(`FAIL ${s}: coverage: 70 of 75 baseline questions missing from the candidate (sample-006, sample-007`);
    }
    // The 3-call budget shows too, for the strategies that need more calls.
    expect(r.stdout).toMatch(/FAIL mcts: coverage: .*5 budget-exhausted records against the baseline's 0 on the paired questions/);
    // Five questions cannot show any drop: the power note says so instead of a silent pass.
    expect(r.stdout).toMatch(/accuracy: 5 paired questions cannot make any drop significant \(at least 11 must move the same way/);
  }, 120_000);

  it('an unfinished candidate fails (407 of 450 records, finishedAt unset)', async () => {
    const cut = join(out, 'cut');
    cpSync(full, cut, { recursive: true });
    const lines = readFileSync(join(cut, 'records.jsonl'), 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(450);
    writeFileSync(join(cut, 'records.jsonl'), lines.slice(0, 407).map((l) => JSON.stringify({ ...JSON.parse(l), runId: 'cut' })).join('\n') + '\n');
    const m = JSON.parse(readFileSync(join(cut, 'manifest.json'), 'utf8'));
    writeFileSync(join(cut, 'manifest.json'), JSON.stringify({ ...m, runId: 'cut', finishedAt: null }));
    const r = await runCli(['gate', '--baseline', full, '--candidate', cut]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('the candidate run did not finish (407 of 450 records');
  }, 120_000);

  // What a tester did to fool the gate (issue 25's "cannot be fooled", continued): a rules file
  // whose resamples can never reject, records copied in from another run or appended twice, and
  // a baseline that stopped part-way. Each is refused (exit 2) with what to do, not passed.
  it('refuses a rules file whose resamples cannot reject a rule (a 164% rise in tokens passed at resamples 100)', async () => {
    const rules = join(out, 'few-resamples.yaml');
    writeFileSync(rules, readFileSync('configs/gates.yaml', 'utf8').replace(/^resamples:.*$/m, 'resamples: 100'));
    expect(readFileSync(rules, 'utf8')).toMatch(/^resamples: 100$/m);
    const r = await runCli(['gate', '--baseline', full, '--candidate', full, '--rules', rules]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(/few-resamples\.yaml: resamples: 100 cannot fail rules .*tokens.*set resamples to \d+ or more/);
    // The shipped rules (10,000) reach significance over the same family: the gate runs.
    const ok = await runCli(['gate', '--baseline', full, '--candidate', full, '--quiet']);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
  }, 120_000);

  it('refuses records copied in from another run, or appended a second time', async () => {
    const lines = readFileSync(join(full, 'records.jsonl'), 'utf8').split('\n').filter(Boolean);
    const forged = join(out, 'forged');
    cpSync(full, forged, { recursive: true });
    // another run's vector record for the first question, appended after the real one
    writeFileSync(join(forged, 'records.jsonl'), [...lines, JSON.stringify({ ...JSON.parse(lines[0]!), runId: 'elsewhere' })].join('\n') + '\n');
    const r = await runCli(['gate', '--baseline', full, '--candidate', forged]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`records\\.jsonl:451: a record of run "elsewhere" among the records of run "full"`));
    const doubled = join(out, 'doubled');
    cpSync(full, doubled, { recursive: true });
    writeFileSync(join(doubled, 'records.jsonl'), [...lines, ...lines].join('\n') + '\n');
    const d = await runCli(['compare', full, doubled]);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/records\.jsonl:451: a second record for strategy \S+, question \S+, repeat 0 replaces one that succeeded \(line 1\)/);
  }, 120_000);

  it('refuses a baseline that did not finish unless --force', async () => {
    const partial = join(out, 'partial-base');
    cpSync(full, partial, { recursive: true });
    const lines = readFileSync(join(partial, 'records.jsonl'), 'utf8').split('\n').filter(Boolean);
    writeFileSync(join(partial, 'records.jsonl'), lines.slice(0, 200).join('\n') + '\n');
    const m = JSON.parse(readFileSync(join(partial, 'manifest.json'), 'utf8'));
    writeFileSync(join(partial, 'manifest.json'), JSON.stringify({ ...m, finishedAt: null }));
    const r = await runCli(['gate', '--baseline', partial, '--candidate', full]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the baseline .* did not finish \(200 of 450 records\): resume it with treebench run --resume/);
    const forced = await runCli(['gate', '--baseline', partial, '--candidate', full, '--force', '--quiet']);
    expect(forced.code).not.toBe(2);
  }, 120_000);

  it('a second full run of the same config passes (exit 0), coverage included', async () => {
    const again = await runCli(['run', QUICKSTART, '--out', out, '--run-id', 'again', '--quiet']);
    expect(again.code).toBe(0);
    // The shipped rules without latency: two real runs on a loaded machine differ in p95 latency
    // for reasons of the machine, and this test is about coverage.
    const rules = join(out, 'no-latency.yaml');
    writeFileSync(rules, readFileSync('configs/gates.yaml', 'utf8').replace(/^\s*latencyP95:.*$/m, ''));
    const r = await runCli(['gate', '--baseline', full, '--candidate', join(out, 'again'), '--rules', rules, '--format', 'json']);
    expect(r.code, r.stdout.slice(0, 2000)).toBe(0);
    const report = JSON.parse(r.stdout);
    const coverage = report.evaluation.checks.filter((c: { kind: string }) => c.kind === 'coverage');
    expect(coverage).toHaveLength(6);
    expect(coverage.every((c: { status: string; message: string }) => c.status === 'pass' && c.message.startsWith('coverage: 75 of 75 baseline questions paired'))).toBe(true);
  }, 120_000);
});
