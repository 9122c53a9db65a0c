// A reader that goes away (`treebench run … | head -2`) never stops a run: the output stops, the
// run writes every record, its summary and reports, releases its lock, exits as the run ended,
// and says on stderr (while stderr is open) that output was cut short. The shell pipelines are
// the user's own commands, run by bash.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmp } from './helpers.ts';

const BIN = resolve('bin/treebench.mjs');
const QUICKSTART = resolve('configs/quickstart.yaml');

function pipeline(cwd: string, command: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-c', `${command}; exit \${PIPESTATUS[0]}`], { cwd, encoding: 'utf8', timeout: 180_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function runFolder(cwd: string): string {
  const runs = readdirSync(join(cwd, 'runs'));
  expect(runs).toHaveLength(1);
  return join(cwd, 'runs', runs[0]!);
}

describe('a closed stdout or stderr (EPIPE)', () => {
  it('`run quickstart 2>&1 | head -2`: the run still ends complete (450 records, summary, reports, no lock), exit 0', () => {
    const cwd = tmp();
    const r = pipeline(cwd, `node ${BIN} run ${QUICKSTART} 2>&1 | head -2`);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(2);
    const folder = runFolder(cwd);
    expect(readFileSync(join(folder, 'records.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(450);
    for (const f of ['summary.json', 'report.md', 'report.csv', 'report.json']) expect(existsSync(join(folder, f)), f).toBe(true);
    expect(existsSync(join(folder, '.lock'))).toBe(false);
    expect(JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')).finishedAt).not.toBeNull();
  }, 200_000);

  it('stdout closed at once (`| true`): the run finishes and says so on stderr, exit 0', () => {
    const cwd = tmp();
    const r = pipeline(cwd, `node ${BIN} run ${QUICKSTART} --limit 8 --strategies vector,node-list | true`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/stdout was closed before the output ended.*the command itself ran to its end/);
    expect(r.stderr).not.toMatch(/EPIPE\n\s+at /); // no stack trace
    const folder = runFolder(cwd);
    expect(readFileSync(join(folder, 'records.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(16);
    expect(existsSync(join(folder, 'summary.json'))).toBe(true);
    expect(existsSync(join(folder, '.lock'))).toBe(false);
  }, 200_000);
});
