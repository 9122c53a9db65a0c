// Whole processes against one run folder: SIGKILL at random points followed by resume, two
// writers at once, and Ctrl-C. Each child is `node bin/treebench.mjs`, exactly what users run.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../harness/random.ts';
import { answersByKey, cli, keyCounts, recordLines, tmp, writeConfig } from './helpers.ts';

const BIN = resolve('bin/treebench.mjs');
/** Kills per test run: at least 20 (raise it locally with TREEBENCH_KILLS=100). */
const KILLS = Math.max(20, Number(process.env.TREEBENCH_KILLS ?? 20));

interface Child {
  proc: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function start(args: string[]): Child {
  const proc = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((done) =>
    proc.on('exit', (code, signal) => done({ code, signal, stderr })),
  );
  return { proc, exited };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(cond: () => boolean, timeoutMs = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error('timed out waiting');
    await sleep(20);
  }
}

/** An offline run slow enough (simulated latency) to be interrupted while it writes records. */
function slowConfig(dir: string, latencyMs: number): string {
  return writeConfig(dir, {
    model: { provider: 'offline', latency: { meanMs: latencyMs, jitterMs: latencyMs / 2, seed: 3 } },
    strategies: ['node-list', 'layerwise'],
    reports: ['md', 'csv', 'json'],
    run: { limit: 40, concurrency: 2, outDir: join(dir, 'runs') },
  });
}

/**
 * Where to kill the next child, drawn at random among the windows a kill can hit:
 *   start-up  a random moment in the first seconds (before or while the manifest is written)
 *   records   a few milliseconds after the records file grew by 1-8 lines (mid-append)
 *   end       a few milliseconds after the final manifest is written (summary and report writes)
 */
function killPoint(rand: () => number, linesNow: number, t0: number, folder: string): { what: string; due: () => boolean } {
  const mode = rand();
  if (mode < 0.25) {
    const at = t0 + rand() * 4000;
    return { what: 'start-up', due: () => Date.now() >= at };
  }
  if (mode < 0.8 && linesNow < 80) {
    const want = linesNow + 1 + Math.floor(rand() * 8);
    const extra = rand() * 15;
    let seenAt = 0;
    return {
      what: 'records',
      due: () => {
        if (!seenAt && lineCount(join(folder, 'records.jsonl')) >= want) seenAt = Date.now();
        return seenAt > 0 && Date.now() - seenAt >= extra;
      },
    };
  }
  const extra = rand() * 40;
  let seenAt = 0;
  return {
    what: 'end',
    due: () => {
      if (!seenAt && finishedSince(join(folder, 'manifest.json'), t0)) seenAt = Date.now();
      return seenAt > 0 && Date.now() - seenAt >= extra;
    },
  };
}

function finishedSince(manifestPath: string, t0: number): boolean {
  try {
    if (statSync(manifestPath).mtimeMs < t0) return false;
    return JSON.parse(readFileSync(manifestPath, 'utf8')).finishedAt !== null;
  } catch {
    return false;
  }
}

const lineCount = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).length : 0);

describe('kill -9 at random points, then resume', () => {
  it(`ends with exactly the uninterrupted record set after ${KILLS} kills`, async () => {
    const dir = tmp();
    const config = slowConfig(dir, 12);
    const ref = await cli('run', config, '--run-id', 'reference', '--quiet');
    expect(ref.code, ref.err).toBe(0);
    const reference = answersByKey(recordLines(join(dir, 'runs', 'reference', 'records.jsonl')));
    expect(reference).toHaveLength(80);

    const target = join(dir, 'runs', 'killed');
    const recordsPath = join(target, 'records.jsonl');
    const rand = mulberry32(Number(process.env.TREEBENCH_KILL_SEED ?? 2026));
    let kills = 0;
    const log: string[] = [];
    for (let spawned = 0; kills < KILLS && spawned < KILLS * 3; spawned++) {
      const started = existsSync(join(target, 'manifest.json'));
      const args = started ? ['run', config, '--resume', target, '--quiet', ...(spawned % 3 === 0 ? ['--retry-errors'] : [])] : ['run', config, '--run-id', 'killed', '--quiet'];
      const t0 = Date.now();
      const child = start(args);
      let exited = false;
      void child.exited.then(() => (exited = true));
      const when = killPoint(rand, lineCount(recordsPath), t0, target);
      while (!exited && !when.due()) await sleep(3);
      if (!exited) {
        child.proc.kill('SIGKILL');
        const end = await child.exited;
        if (end.signal === 'SIGKILL') {
          kills++;
          log.push(`kill ${kills} (${when.what}) after ${Date.now() - t0} ms: ${lineCount(recordsPath)} lines`);
          continue;
        }
      }
      const end = await child.exited;
      expect(end.code, `${args.join(' ')}\n${end.stderr}\n${log.join('\n')}`).toBe(0);
    }
    expect(kills).toBeGreaterThanOrEqual(KILLS);
    if (process.env.TREEBENCH_KILL_LOG) console.log(log.join('\n'));
    // Some kills must land while records were being written, not only at start-up or the end.
    expect(log.filter((l) => l.includes('(records)')).length, log.join('\n')).toBeGreaterThanOrEqual(5);

    const final = await cli('run', config, '--resume', target, '--quiet');
    expect(final.code, `${final.err}\n${log.join('\n')}`).toBe(0);
    const records = recordLines(join(target, 'records.jsonl'));
    const dupes = [...keyCounts(records).entries()].filter(([, n]) => n > 1);
    expect(dupes, log.join('\n')).toEqual([]);
    expect(answersByKey(records)).toEqual(reference);
    expect(JSON.parse(readFileSync(join(target, 'manifest.json'), 'utf8')).finishedAt).not.toBeNull();
  }, 600_000);
});

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
