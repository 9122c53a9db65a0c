// Run folders: every state a kill can leave is accepted by resume, one writer at a time, records
// only ever appended, bad folders and flags end in exit 2 with a clear message.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { acquireRunLock, LOCK_FILE, processIdentity } from '../../harness/run/lock.ts';
import { registerStrategy } from '../../strategies/registry.ts';
import { answersByKey, cli, keyCounts, recordLines, tmp, writeConfig } from './helpers.ts';

/** A pid that certainly belongs to no live process: a child that has already exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}

function sampleRun(dir: string, extra: Record<string, unknown> = {}): string {
  return writeConfig(dir, { strategies: ['node-list', 'vector'], run: { limit: 6, outDir: join(dir, 'runs') }, ...extra });
}

describe('run folder lock', () => {
  it('refuses a second writer, naming the holder', () => {
    const dir = tmp();
    const held = acquireRunLock(dir);
    expect(() => acquireRunLock(dir)).toThrow(new RegExp(`in use by another treebench \\(pid ${process.pid} on ${hostname()}`));
    held.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    acquireRunLock(dir).release();
  });

  it('takes over a stale lock from a dead process, and says so', () => {
    const dir = tmp();
    const pid = deadPid();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid, host: hostname(), startedAt: '2026-01-01T00:00:00Z', token: 'old' }));
    const notes: string[] = [];
    const lock = acquireRunLock(dir, { onTakeover: (s) => notes.push(String(s?.pid)) });
    expect(notes).toEqual([String(pid)]);
    expect(lock.tookOver?.pid).toBe(pid);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('sees through pid reuse: its own pid with another token, or a live pid that started at another time, is stale', () => {
    const dir = tmp();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, host: hostname(), startedAt: 'x', token: 'previous-incarnation' }));
    const mine = acquireRunLock(dir);
    expect(mine.tookOver?.token).toBe('previous-incarnation');
    mine.release();

    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      const real = processIdentity(child.pid!);
      if (real === null) return; // not Linux: pid reuse cannot be told apart there
      const lock = (identity: string) => writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: child.pid, host: hostname(), startedAt: 'x', token: 't', identity }));
      lock(`${real.split(':')[0]}:1`);
      acquireRunLock(dir).release(); // same pid, other start time: a reused pid, taken over
      lock(real);
      expect(() => acquireRunLock(dir)).toThrow(new RegExp(`in use by another treebench \\(pid ${child.pid} `));
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('never takes over a lock from another host (it cannot tell whether that run is alive)', () => {
    const dir = tmp();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 1, host: 'other-machine', startedAt: 'x', token: 't' }));
    expect(() => acquireRunLock(dir)).toThrow(/pid 1 on other-machine.*delete .*\.lock/);
  });
});

describe('resume accepts every state a kill can leave', () => {
  it('a folder that never got its manifest (empty, a stale lock, a temp file): run and resume both start it', async () => {
    const dir = tmp();
    const config = sampleRun(dir);
    const folder = join(dir, 'runs', 'r');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: hostname(), startedAt: 'x', token: 'dead' }));
    writeFileSync(join(folder, 'manifest.json.123456'), '{"half');
    const fresh = await cli('run', config, '--run-id', 'r', '--quiet');
    expect(fresh.code, fresh.err).toBe(0);
    expect(fresh.err).toMatch(/took over a stale lock/);
    expect(readdirSync(folder).filter((f) => f.includes('.json.') || f.startsWith('.lock'))).toEqual([]);

    const other = join(dir, 'runs', 'empty');
    mkdirSync(other);
    const resumed = await cli('run', config, '--resume', other, '--quiet');
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toMatch(/had not started/);
    expect(answersByKey(recordLines(join(other, 'records.jsonl')))).toEqual(answersByKey(recordLines(join(folder, 'records.jsonl'))));
  });

  it('manifest only, and records with a last line cut short: resume ends with exactly the full record set', async () => {
    const dir = tmp();
    const config = sampleRun(dir);
    const full = await cli('run', config, '--run-id', 'full', '--quiet');
    expect(full.code).toBe(0);
    const fullLines = readFileSync(join(dir, 'runs', 'full', 'records.jsonl'), 'utf8').split('\n').filter(Boolean);

    const cut = join(dir, 'runs', 'cut');
    mkdirSync(cut);
    writeFileSync(join(cut, 'manifest.json'), readFileSync(join(dir, 'runs', 'full', 'manifest.json')));
    expect((await cli('run', config, '--resume', cut, '--quiet')).code).toBe(0); // manifest only
    writeFileSync(join(cut, 'records.jsonl'), fullLines.slice(0, 5).join('\n') + '\n' + fullLines[5].slice(0, 40));
    const res = await cli('run', config, '--resume', cut, '--quiet');
    expect(res.code, res.err).toBe(0);
    const after = recordLines(join(cut, 'records.jsonl'));
    expect([...keyCounts(after).values()].every((n) => n === 1)).toBe(true);
    expect(answersByKey(after)).toEqual(answersByKey(fullLines.map((l) => JSON.parse(l))));
  });

  it('a corrupt line in the middle of records.jsonl, an empty manifest: exit 2 naming the file, never a stack trace', async () => {
    const dir = tmp();
    const config = sampleRun(dir);
    await cli('run', config, '--run-id', 'r', '--quiet');
    const folder = join(dir, 'runs', 'r');
    const lines = readFileSync(join(folder, 'records.jsonl'), 'utf8').split('\n');
    lines.splice(2, 0, '{"broken');
    writeFileSync(join(folder, 'records.jsonl'), lines.join('\n'));
    for (const args of [['run', config, '--resume', folder, '--quiet'], ['report', folder]]) {
      const res = await cli(...args);
      expect(res.code).toBe(2);
      expect(res.err).toContain(`${join(folder, 'records.jsonl')}:3: corrupt record line`);
      expect(res.err).not.toMatch(/\n\s+at /);
    }
    writeFileSync(join(folder, 'manifest.json'), '');
    for (const args of [['run', config, '--resume', folder], ['report', folder]]) {
      const res = await cli(...args);
      expect(res.code).toBe(2);
      expect(res.err).toMatch(/manifest\.json: invalid JSON.*unreadable/);
    }
  });

  it('a fresh run over a folder that holds a run is refused and told to resume', async () => {
    const dir = tmp();
    const config = sampleRun(dir);
    await cli('run', config, '--run-id', 'r', '--quiet');
    const again = await cli('run', config, '--run-id', 'r', '--quiet');
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/already holds a run; resume it with --resume/);
  });
});

// Fails every question while `flaky.failing` is set, to make error records on purpose.
const flaky = { failing: true };
registerStrategy({
  name: 'test-resilience-flaky',
  description: 'fails while flaky.failing is set',
  params: z.object({}).strict(),
  async run(question, ctx) {
    if (flaky.failing && question.id !== 'sample-001') throw new Error('failing on purpose');
    await ctx.chat([{ role: 'user', content: question.question }], { task: 'test' });
    return { answer: 'ok', evidence: [], trace: [] };
  },
});

describe('--retry-errors', () => {
  it('appends the new records after the old ones (the file only grows) and the new ones count', async () => {
    const dir = tmp();
    const config = writeConfig(dir, { strategies: ['test-resilience-flaky'], run: { limit: 4, outDir: join(dir, 'runs'), maxErrorRate: 1 } });
    flaky.failing = true;
    expect((await cli('run', config, '--run-id', 'r', '--quiet')).code).toBe(0);
    const path = join(dir, 'runs', 'r', 'records.jsonl');
    const before = readFileSync(path, 'utf8');
    expect(recordLines(path).filter((r) => r.error)).toHaveLength(3);
    flaky.failing = false;
    const res = await cli('run', config, '--resume', join(dir, 'runs', 'r'), '--retry-errors', '--quiet', '--format', 'json');
    expect(res.code, res.err).toBe(0);
    const after = readFileSync(path, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(recordLines(path)).toHaveLength(7);
    const summary = JSON.parse(readFileSync(join(dir, 'runs', 'r', 'summary.json'), 'utf8'));
    expect(JSON.stringify(summary)).toMatch(/"errors":0\b/);
  });
});

describe('config hash', () => {
  it('is over the parsed config: a comment-only edit resumes, a real change is refused', async () => {
    const dir = tmp();
    const config = sampleRun(dir);
    await cli('run', config, '--run-id', 'r', '--limit', '2', '--quiet');
    appendFileSync(config, '# a comment added later\n');
    expect((await cli('run', config, '--resume', join(dir, 'runs', 'r'), '--quiet')).code).toBe(0);
    writeFileSync(config, readFileSync(config, 'utf8').replace('node-list', 'layerwise'));
    const changed = await cli('run', config, '--resume', join(dir, 'runs', 'r'), '--quiet');
    expect(changed.code).toBe(2);
    expect(changed.err).toMatch(/different config/);
  });
});

describe('paths and flags', () => {
  it('keeps --run-id inside its folder', async () => {
    const dir = tmp();
    const config = sampleRun(dir);
    for (const id of ['../../x', '..', 'a/b', '.']) {
      const res = await cli('run', config, '--run-id', id, '--quiet');
      expect(res.code).toBe(2);
      expect(res.err).toMatch(/--run-id .* must be a plain folder name/);
    }
    expect(readdirSync(dir)).toEqual(['config.yaml']);
  });

  it('run.outDir naming a file is exit 2', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'afile'), 'x');
    const config = writeConfig(dir, { run: { outDir: join(dir, 'afile') } });
    const res = await cli('run', config, '--quiet');
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/cannot create run folder .*afile.*run\.outDir.*a file is in the way/);
  });

  it.each([
    [['--limit', '-5'], /--limit: .*>=1/],
    [['--limit', 'abc'], /--limit: .*not a number/],
    [['--repeats', '0'], /--repeats: .*>=1/],
    [['--repeats', '1.5'], /--repeats: .*expected int/],
    [['--concurrency', '0'], /--concurrency: .*>=1/],
    [['--retry-errors'], /--retry-errors only applies with --resume/],
    [['--shard', '80/80'], /--shard 80\/80 of 75 question\(s\) \(limit 6\) selects none/],
  ])('rejects %j with exit 2 naming the flag', async (flags, message) => {
    const dir = tmp();
    const res = await cli('run', sampleRun(dir), ...flags, '--quiet');
    expect(res.code).toBe(2);
    expect(res.err).toMatch(message);
    expect(existsSync(join(dir, 'runs'))).toBe(false);
  });

  it('a missing API key is exit 2 with what to do, not a stack trace', async () => {
    const before = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    try {
      const dir = tmp();
      const res = await cli('run', writeConfig(dir, { model: { provider: 'openai', model: 'gpt-4.1-mini' } }), '--quiet');
      expect(res.code).toBe(2);
      expect(res.err).toMatch(/OPENAI_API_KEY is not set/);
      expect(res.err).not.toMatch(/\n\s+at /);
    } finally {
      if (before.key !== undefined) process.env.OPENAI_API_KEY = before.key;
      if (before.url !== undefined) process.env.OPENAI_BASE_URL = before.url;
    }
  });

  it('a YAML alias before its anchor is exit 2 naming the file', async () => {
    const dir = tmp();
    const path = join(dir, 'alias.yaml');
    writeFileSync(path, 'name: x\nstrategies: *s\ndataset: &s { format: sample }\n');
    const res = await cli('run', path, '--quiet');
    expect(res.code).toBe(2);
    expect(res.err).toContain(`${path}: YAML error: Unresolved alias`);
  });
});

describe('what reaches the terminal and spreadsheets', () => {
  it('strips control characters from data on the terminal and neutralises formulas in CSV', async () => {
    const dir = tmp();
    const evil = '=HYPERLINK("http://evil.example","x")\u001b]0;pwned\u0007\u009b2J';
    const config = writeConfig(dir, { name: evil, strategies: ['vector'], reports: ['csv'], run: { limit: 2, outDir: join(dir, 'runs') } });
    const res = await cli('run', config, '--run-id', 'r', '--quiet', '--format', 'csv');
    expect(res.code, res.err).toBe(0);
    expect(res.out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    const csv = readFileSync(join(dir, 'runs', 'r', 'report.csv'), 'utf8');
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")`);
    expect(csv).not.toMatch(/,=HYPERLINK|,"=HYPERLINK/);
    expect(statSync(join(dir, 'runs', 'r', 'report.csv')).size).toBeGreaterThan(0);
  });
});
