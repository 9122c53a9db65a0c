// `merge` survives a kill at any moment, like `run`: whatever state a kill leaves, no command
// takes the folder for a finished run until it is one, and the same merge run again finishes it
// with exactly the records and summary of an uninterrupted merge. Every file of a merge appears
// atomically and in order (plan, records, summary, manifest, then the plan is removed), so the
// states a kill can leave are that sequence cut at each step, plus the temporary file of the
// write in flight and a lock whose holder is dead: each is built and resumed below, then real
// SIGKILLs land at random points of `node bin/treebench.mjs merge`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync, cpSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shardQuestions } from '../../harness/run/runner.ts';
import { mulberry32 } from '../../harness/run/random.ts';
import { LOCK_FILE } from '../../harness/run/lock.ts';
import { MERGE_MARKER, mergePlan } from '../../harness/run/merge.ts';
import { manifest, outcomes, records, writeRun } from '../harness/analysis/compare/runFixtures.ts';
import { cli, tmp } from './helpers.ts';
import { sleep, start } from './processes.ts';

const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

/** n shards of a `total`-question run of two strategies, with long answers so writes take a while. */
function shards(root: string, count: number, total: number): string[] {
  const all = Array.from({ length: total }, (_, i) => `q${i + 1}`);
  return Array.from({ length: count }, (_, k) => {
    const index = k + 1;
    const ids = shardQuestions(all, { index, count });
    const runId = `shard-${index}`;
    const recs = ['vector', 'tree'].flatMap((s) =>
      records(runId, s, outcomes(total, Math.floor(total / 2)))
        .filter((r) => ids.includes(r.questionId))
        .map((r) => ({ ...r, answer: `${s} answer to ${r.questionId}: ${'lorem ipsum '.repeat(150)}` })),
    );
    return writeRun(join(root, runId), manifest({ runId, shard: { index, count }, questionIds: ids }), recs);
  });
}

/** The pid in a folder's lock file, if any. */
function lockHolder(dir: string): number | null {
  try {
    return JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid;
  } catch {
    return null;
  }
}

const folderFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);
const comparable = (dir: string) => ({
  records: readFileSync(join(dir, 'records.jsonl'), 'utf8'),
  summary: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')),
  manifest: { ...JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')), mergedFrom: undefined },
});

describe('merge: every state a kill can leave', () => {
  it('is refused by report until the merge finished, and the same merge again finishes it exactly', async () => {
    const root = tmp();
    const dirs = shards(root, 3, 30);
    const reference = join(root, 'reference');
    const ref = await cli('merge', ...dirs, '--out', reference, '--run-id', 'merged');
    expect(ref.code, ref.err).toBe(0);
    expect(folderFiles(reference)).toEqual(['manifest.json', 'records.jsonl', 'report.md', 'summary.json']);
    const expected = comparable(reference);

    // The folder after a kill at each step: the files written so far (+ the temporary file in flight).
    const written = [MERGE_MARKER, 'records.jsonl', 'summary.json', 'manifest.json'];
    const states: Array<{ name: string; keep: string[]; temp?: string; finished: boolean }> = [
      { name: 'lock only', keep: [], finished: false },
      { name: 'plan', keep: [MERGE_MARKER], finished: false },
      { name: 'plan, records in flight', keep: [MERGE_MARKER], temp: 'records.jsonl', finished: false },
      { name: 'plan, records', keep: [MERGE_MARKER, 'records.jsonl'], finished: false },
      { name: 'plan, records, summary in flight', keep: [MERGE_MARKER, 'records.jsonl'], temp: 'summary.json', finished: false },
      { name: 'plan, records, summary', keep: [MERGE_MARKER, 'records.jsonl', 'summary.json'], finished: false },
      { name: 'plan, records, summary, manifest in flight', keep: [MERGE_MARKER, 'records.jsonl', 'summary.json'], temp: 'manifest.json', finished: false },
      { name: 'plan, records, summary, manifest', keep: written, finished: true },
      { name: 'finished, report in flight', keep: written.slice(1), temp: 'report.md', finished: true },
      // What an older treebench left when killed after its manifest: a "finished" run without records.
      { name: 'manifest only (older treebench)', keep: ['manifest.json'], finished: false },
    ];
    for (const state of states) {
      const out = join(root, `killed-${states.indexOf(state)}`);
      cpSync(reference, out, { recursive: true });
      writeFileSync(join(out, MERGE_MARKER), JSON.stringify(mergePlan(dirs, 'merged')));
      for (const f of readdirSync(out)) if (!state.keep.includes(f)) unlinkSync(join(out, f));
      if (state.temp) writeFileSync(join(out, `${state.temp}.${deadPid()}.0badf00d.tmp`), '{"cut sh');
      writeFileSync(join(out, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: hostname(), startedAt: 'x', token: 'killed' }));

      const report = await cli('report', out, '--format', 'csv');
      if (state.finished) expect(report.code, state.name).toBe(0);
      else if (state.name.startsWith('manifest only')) expect(report.code, state.name).toBe(0); // an older version's folder
      else expect(report.code, `${state.name}: report must not read a merge in progress as a run`).toBe(2);

      const again = await cli('merge', ...dirs, '--out', out, '--run-id', 'merged');
      expect(again.code, `${state.name}: ${again.err}`).toBe(0);
      expect(folderFiles(out), state.name).toEqual(['manifest.json', 'records.jsonl', 'report.md', 'summary.json']);
      expect(comparable(out), state.name).toEqual(expected);
    }
  }, 120_000);

  it('refuses a folder holding another merge in progress, or records it did not write', async () => {
    const root = tmp();
    const dirs = shards(root, 2, 10);
    const out = join(root, 'out');
    expect((await cli('merge', ...dirs, '--out', out)).code).toBe(0);
    // A merge in progress under another run id: not this merge's to finish.
    unlinkSync(join(out, 'manifest.json'));
    writeFileSync(join(out, MERGE_MARKER), JSON.stringify({ format: 'treebench.merge/1', runId: 'other', shards: [] }));
    const other = await cli('merge', ...dirs, '--out', out);
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/holds an unfinished merge of other shards/);
    rmSync(join(out, MERGE_MARKER));
    const stray = await cli('merge', ...dirs, '--out', out);
    expect(stray.code).toBe(2);
    expect(stray.err).toMatch(/holds records but no manifest and no merge in progress/);
    // Run twice into a finished folder: nothing to do, exit 0.
    const fresh = join(root, 'fresh');
    expect((await cli('merge', ...dirs, '--out', fresh)).code).toBe(0);
    const twice = await cli('merge', ...dirs, '--out', fresh);
    expect(twice.code).toBe(0);
    expect(twice.err).toMatch(/already holds this merge/);
  }, 60_000);
});

describe('merge: kill -9 at random points, then the same merge again', () => {
  it('ends with exactly the uninterrupted merge, no lock, no plan, no temporary file', async () => {
    const root = tmp();
    const dirs = shards(root, 4, 400);
    const reference = join(root, 'reference');
    expect((await cli('merge', ...dirs, '--out', reference, '--run-id', 'merged')).code).toBe(0);
    const expected = comparable(reference);
    const rand = mulberry32(Number(process.env.TREEBENCH_KILL_SEED ?? 9));
    const target = join(root, 'killed');
    // How long a merge works once it holds the lock, to its exit: kills are spread over that stretch.
    const timed = start(['merge', ...dirs, '--out', join(root, 'timed'), '--run-id', 'merged']);
    let timedExit = false;
    void timed.exited.then(() => (timedExit = true));
    while (!timedExit && lockHolder(join(root, 'timed')) !== timed.proc.pid) await sleep(1);
    const planAt = Date.now();
    await timed.exited;
    const window = Math.max(20, Date.now() - planAt);
    const log: string[] = [`writing window ${window} ms`];
    let kills = 0;
    for (let attempt = 0; kills < 6 && attempt < 24; attempt++) {
      const child = start(['merge', ...dirs, '--out', target, '--run-id', 'merged']);
      let exited = false;
      void child.exited.then(() => (exited = true));
      // Kill once this merge holds the folder's lock, at a random moment of its writes.
      while (!exited && lockHolder(target) !== child.proc.pid) await sleep(1);
      const wait = rand() * window;
      const t0 = Date.now();
      while (!exited && Date.now() - t0 < wait) await sleep(1);
      if (exited) {
        rmSync(target, { recursive: true, force: true }); // finished before the kill: start over
        continue;
      }
      child.proc.kill('SIGKILL');
      await child.exited;
      kills++;
      log.push(`kill ${kills} after ${wait.toFixed(1)} ms: ${folderFiles(target).join(' ')}`);
      const report = await cli('report', target, '--format', 'csv');
      // Until the manifest is written nobody reads it as a run; once it is, it is the whole run.
      if (existsSync(join(target, 'manifest.json'))) expect(report.out.split(/\r?\n/).filter(Boolean).length, `${report.code} ${report.err}\n${log.join('\n')}`).toBe(3);
      else expect(report.code, log.join('\n')).toBe(2);
    }
    expect(kills, log.join('\n')).toBeGreaterThanOrEqual(4);
    // Kills landed in more than one state of the merge, not only before its first file.
    expect(new Set(log.slice(1).map((l) => l.split(': ')[1])).size, log.join('\n')).toBeGreaterThanOrEqual(2);
    const final = await cli('merge', ...dirs, '--out', target, '--run-id', 'merged');
    expect(final.code, `${final.err}\n${log.join('\n')}`).toBe(0);
    expect(folderFiles(target)).toEqual(['manifest.json', 'records.jsonl', 'report.md', 'summary.json']);
    expect(comparable(target)).toEqual(expected);
    if (process.env.TREEBENCH_KILL_LOG) console.log(log.join('\n'));
  }, 300_000);
});
