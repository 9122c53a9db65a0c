// Console behaviour of the CLI: `report` reproduces the run's own intervals, tables fit 80
// columns, --version, --format json for the commands, trace --full, typo suggestions.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from './runCli.ts';

let dir: string;
const run = () => join(dir, 'q');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'treebench-console-'));
  const res = await runCli(['run', 'configs/quickstart.yaml', '--limit', '12', '--out', dir, '--run-id', 'q', '--quiet']);
  expect(res.code).toBe(0);
}, 120_000);

afterEach(() => {
  delete process.env.COLUMNS;
});

describe('treebench report', () => {
  it("prints exactly the run's intervals even when records.jsonl is in another order", async () => {
    // Completion order varies from run to run; reverse the file to make the point.
    const file = join(run(), 'records.jsonl');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    writeFileSync(file, [...lines].reverse().join('\n') + '\n');
    const res = await runCli(['report', run(), '--format', 'json']);
    expect(res.code).toBe(0);
    const fromReport = JSON.parse(res.stdout).summary.strategies.map((s: { strategy: string; intervals: unknown }) => [s.strategy, s.intervals]);
    const fromRun = JSON.parse(readFileSync(join(run(), 'summary.json'), 'utf8')).strategies.map((s: { strategy: string; intervals: unknown }) => [s.strategy, s.intervals]);
    expect(fromReport).toEqual(fromRun);
    writeFileSync(file, lines.join('\n') + '\n');
  });

  it('fits an 80-column terminal without wrapping, and says what it left out', async () => {
    process.env.COLUMNS = '80';
    const res = await runCli(['report', run()]);
    expect(res.code).toBe(0);
    for (const line of res.stdout.trimEnd().split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(res.stdout).toMatch(/accuracy/);
    expect(res.stdout).toMatch(/hidden to fit 80 columns: .*tokens\/q/);
    // Piped without a width: the full table, no colour codes.
    delete process.env.COLUMNS;
    const full = await runCli(['report', run()]);
    expect(full.stdout).toMatch(/tokens\/q/);
    expect(full.stdout).not.toMatch(/\x1b\[/);
  });

  it('writes a self-contained HTML page with --format html --out', async () => {
    const out = join(dir, 'r.html');
    const res = await runCli(['report', run(), '--format', 'html', '--out', out]);
    expect(res.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toMatch(/Content-Security-Policy" content="default-src &#39;none&#39;; /);
    expect(html).not.toMatch(/(src|href)="https?:/);
  });
});

describe('reports: [html] in a config', () => {
  it('writes report.html into the run folder, with the matrix of that run', async () => {
    const cfg = join(dir, 'html.yaml');
    writeFileSync(cfg, readFileSync('configs/quickstart.yaml', 'utf8').replace('reports: [md, csv, json]', 'reports: [md, html]').replace('format: sample', `format: sample\n  path: ${join(process.cwd(), 'datasets/sample')}`));
    const res = await runCli(['run', cfg, '--limit', '3', '--strategies', 'vector,node-list', '--out', dir, '--run-id', 'h', '--quiet']);
    expect(res.stderr).toBe(`run folder: ${join(dir, 'h')}\n`);
    const html = readFileSync(join(dir, 'h', 'report.html'), 'utf8');
    expect(html.match(/<button type="button" class="cell-/g)).toHaveLength(6);
  }, 60_000);
});

describe('every command speaks JSON; --version; trace --full; suggestions', () => {
  it('--version prints the package version', async () => {
    // yargs prints the version with console.log.
    let logged = '';
    const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void (logged += a.join(' ') + '\n'));
    const res = await runCli(['--version']);
    log.mockRestore();
    expect(res.code).toBe(0);
    expect((res.stdout + logged).trim()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });

  it('strategies, gate and trace print JSON with --format json', async () => {
    const strategies = JSON.parse((await runCli(['strategies', '--format', 'json'])).stdout);
    expect(strategies.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['vector', 'node-list', 'layerwise', 'hybrid-beam', 'mcts']));
    const gate = await runCli(['gate', '--baseline', run(), '--candidate', run(), '--format', 'json']);
    expect(gate.code).toBe(0);
    expect(JSON.parse(gate.stdout)).toMatchObject({ format: 'treebench-gate', evaluation: { passed: true } });
    const trace = await runCli(['trace', run(), '--question', 'sample-001', '--strategy', 'layerwise', '--format', 'json']);
    const recs = JSON.parse(trace.stdout);
    expect(recs).toHaveLength(1);
    expect(recs[0]).toMatchObject({ questionId: 'sample-001', strategy: 'layerwise' });
    expect(recs[0].trace.length).toBeGreaterThan(0);
  });

  it('trace cuts long lines to the terminal, and --full prints them whole', async () => {
    const file = join(run(), 'records.jsonl');
    const original = readFileSync(file, 'utf8');
    const long = 'because ' + 'the section title and the question share several rare words '.repeat(5) + 'END';
    const edited = original
      .trim()
      .split('\n')
      .map((l) => {
        const r = JSON.parse(l);
        if (r.questionId === 'sample-001' && r.strategy === 'layerwise') r.trace[0].reason = long;
        return JSON.stringify(r);
      });
    writeFileSync(file, edited.join('\n') + '\n');
    try {
      const cut = await runCli(['trace', run(), '--question', 'sample-001', '--strategy', 'layerwise']);
      expect(cut.stdout).not.toContain('END');
      expect(cut.stdout).toContain('…');
      const full = await runCli(['trace', run(), '--question', 'sample-001', '--strategy', 'layerwise', '--full']);
      expect(full.stdout).toContain(long);
    } finally {
      writeFileSync(file, original);
    }
  });

  it('suggests a command or an option for a typo, exit 2', async () => {
    const cmd = await runCli(['reprot', run()]);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toMatch(/Did you mean report/);
    const opt = await runCli(['report', run(), '--fromat', 'md']);
    expect(opt.code).toBe(2);
    expect(opt.stderr).toMatch(/--fromat → did you mean --format\?/);
    // A command line that does not parse points to the help; a refused file does not (the help cannot fix it).
    expect(opt.stderr).toMatch(/Run `treebench --help` for usage/);
    const missing = await runCli(['report', join(dir, 'no-such-run')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no-such-run/);
    expect(missing.stderr).not.toMatch(/--help/);
  });
});
