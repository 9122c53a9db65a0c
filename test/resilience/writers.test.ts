// Whole processes against one run folder: two writers at once, and Ctrl-C.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, keyCounts, recordLines, tmp } from './helpers.ts';
import { lineCount, slowConfig, start, waitFor } from './processes.ts';

describe('two writers on one folder', () => {
  it('refuses the second (resume or fresh run) naming the holder; no record is duplicated', async () => {
    const dir = tmp();
    const config = slowConfig(dir, 25);
    const folder = join(dir, 'runs', 'shared');
    const first = start(['run', config, '--run-id', 'shared', '--quiet']);
    await waitFor(() => lineCount(join(folder, 'records.jsonl')) >= 2);
    const resume = await cli('run', config, '--resume', folder, '--quiet');
    expect(resume.code).toBe(2);
    expect(resume.err).toMatch(new RegExp(`in use by another treebench \\(pid ${first.proc.pid} on `));
    const fresh = await cli('run', config, '--run-id', 'shared', '--quiet');
    expect(fresh.code).toBe(2);
    expect(fresh.err).toMatch(/in use by another treebench/);
    const end = await first.exited;
    expect(end.code, end.stderr).toBe(0);
    const records = recordLines(join(folder, 'records.jsonl'));
    expect(records).toHaveLength(80);
    expect([...keyCounts(records).values()].every((n) => n === 1)).toBe(true);
  }, 120_000);
});

describe('Ctrl-C', () => {
  it('stops, keeps finished records, prints the resume command and exits 130; the resume completes', async () => {
    const dir = tmp();
    const config = slowConfig(dir, 25);
    const folder = join(dir, 'runs', 'int');
    const child = start(['run', config, '--run-id', 'int', '--quiet']);
    await waitFor(() => lineCount(join(folder, 'records.jsonl')) >= 3);
    child.proc.kill('SIGINT');
    const end = await child.exited;
    expect(end.code, end.stderr).toBe(130);
    expect(end.stderr).toMatch(/interrupted/);
    expect(end.stderr).toContain(`--resume ${folder}`);
    expect(existsSync(join(folder, '.lock'))).toBe(false);
    const kept = lineCount(join(folder, 'records.jsonl'));
    expect(kept).toBeGreaterThanOrEqual(3);
    expect(kept).toBeLessThan(80);
    const res = await cli('run', config, '--resume', folder, '--quiet');
    expect(res.code, res.err).toBe(0);
    const records = recordLines(join(folder, 'records.jsonl'));
    expect(records).toHaveLength(80);
    expect(records.every((r) => r.error === null)).toBe(true);
  }, 120_000);
});
