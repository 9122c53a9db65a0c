import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'treebench-tune-cli-'));

describe('treebench tune / --set on the command line', () => {
  it('tunes configs/tune.yaml offline: rungs, spend, drops, frontier, recommendation, parameter columns', { timeout: 300_000 }, async () => {
    const out = tmp();
    const res = await runCli(['tune', 'configs/tune.yaml', '--limit', '30', '--min-questions', '10', '--out', out, '--run-id', 't', '--set', `cache.dir=${join(out, 'cache')}`, '--quiet']);
    expect(res.stderr).toContain('tune folder:');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/rung 1: 14 variants on 10 questions \(10 new\)/);
    expect(res.stdout).toMatch(/rung 2: 5 variants on 30 questions \(20 new\)/);
    expect(res.stdout).toMatch(/Dropped[\s\S]*rung 1 \(10 questions\): accuracy/);
    expect(res.stdout).toMatch(/calls: +[\d,]+ of [\d,]+ \([\d.]+%\)/);
    expect(res.stdout).toContain('Frontier and recommendation (accuracy)');
    expect(res.stdout).toMatch(/Recommended: \S+/);
    expect(res.stdout).toMatch(/strategies:\n {2}- strategy: (hybrid-beam|mcts)/);
    expect(res.stdout).toContain('Offline reasoner');
    const csv = readFileSync(join(out, 't', 'report.csv'), 'utf8').split('\r\n');
    const header = csv[0].split(',');
    for (const c of ['params.beamWidth', 'params.maxCalls', 'params.simulations']) expect(header).toContain(c);
    expect(csv.filter(Boolean).length).toBe(1 + 14);
    const json = JSON.parse(readFileSync(join(out, 't', 'report.json'), 'utf8'));
    expect(json.meta.parameters.columns).toEqual(['params.beamWidth', 'params.maxCalls', 'params.simulations']);
    expect(readFileSync(join(out, 't', 'report.md'), 'utf8')).toContain('## Parameters');
    // The tune folder is a run folder: `report` prints the frontier and recommendation again.
    const rep = await runCli(['report', join(out, 't')]);
    expect(rep.code).toBe(0);
    expect(rep.stdout).toContain('Frontier and recommendation (accuracy)');
  });

  it('records --set in the manifest and in the config hash', { timeout: 120_000 }, async () => {
    const out = tmp();
    const a = await runCli(['run', 'configs/quickstart.yaml', '--strategies', 'vector', '--limit', '2', '--out', out, '--run-id', 'a', '--quiet']);
    const b = await runCli(['run', 'configs/quickstart.yaml', '--strategies', 'vector', '--limit', '2', '--out', out, '--run-id', 'b', '--quiet', '--set', 'run.seed=7', '--set', 'budget.calls=12']);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    const ma = JSON.parse(readFileSync(join(out, 'a', 'manifest.json'), 'utf8'));
    const mb = JSON.parse(readFileSync(join(out, 'b', 'manifest.json'), 'utf8'));
    expect(ma.overrides).toBeUndefined();
    expect(mb.overrides).toEqual({ set: ['run.seed=7', 'budget.calls=12'], env: {} });
    expect(mb.seed).toBe(7);
    expect(mb.configHash).not.toBe(ma.configHash);
  });

  it('bad flags exit 2 with a message naming the flag', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['run', 'configs/quickstart.yaml', '--set', 'budget.calls=-1'], /--set budget\.calls=-1 budget\.calls: Too small/],
      [['run', 'configs/quickstart.yaml', '--set', 'budget.calls'], /--set budget\.calls: expected path=value/],
      [['tune', 'configs/tune.yaml', '--eta', '1'], /--eta must be an integer >= 2 \(got 1\)/],
      [['tune', 'configs/tune.yaml', '--margin', '-0.1'], /--margin must be a number in \[0, 1\)/],
      [['tune', 'configs/tune.yaml', '--max-cost-per-question', '0'], /--max-cost-per-question must be a positive dollar amount/],
      [['tune', 'configs/tune.yaml', '--objective', 'speed'], /objective/],
      [['tune', 'configs/quickstart.yaml', '--strategies', 'x'], /Unknown argument/],
    ];
    for (const [argv, re] of cases) {
      const res = await runCli(argv);
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.stderr).toMatch(re);
    }
  });
});
