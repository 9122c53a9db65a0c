// SIGKILL at random points followed by resume: the record set must end exactly as an
// uninterrupted run's. Each child is `node bin/treebench.mjs`, exactly what users run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../harness/run/random.ts';
import { answersByKey, cli, keyCounts, recordLines, tmp } from './helpers.ts';
import { killPoint, lineCount, sleep, slowConfig, start } from './processes.ts';

/** Files of a run folder that are present but not whole (JSON that does not parse, empty reports). */
function brokenFiles(folder: string): string[] {
  const broken: string[] = [];
  for (const name of ['manifest.json', 'summary.json', 'report.json', 'report.md', 'report.csv']) {
    const path = join(folder, name);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    if (!text.trim()) broken.push(`${name} is empty`);
    else if (name.endsWith('.json')) {
      try {
        JSON.parse(text);
      } catch {
        broken.push(`${name} is cut short`);
      }
    }
  }
  return broken;
}

/** Kills per test run: at least 20 (raise it locally with TREEBENCH_KILLS=100). */
const KILLS = Math.max(20, Number(process.env.TREEBENCH_KILLS ?? 20));

describe('kill -9 at random points, then resume', () => {
  it(`ends with exactly the uninterrupted record set after ${KILLS} kills`, async () => {
    const dir = tmp();
    // Calls slow enough that a kill lands a few lines after it was aimed, even on a loaded machine.
    const config = slowConfig(dir, 25, 20);
    const ref = await cli('run', config, '--run-id', 'reference', '--quiet');
    expect(ref.code, ref.err).toBe(0);
    const reference = answersByKey(recordLines(join(dir, 'runs', 'reference', 'records.jsonl')));
    expect(reference).toHaveLength(40);

    const target = join(dir, 'runs', 'killed');
    const recordsPath = join(target, 'records.jsonl');
    const rand = mulberry32(Number(process.env.TREEBENCH_KILL_SEED ?? 2026));
    let kills = 0;
    const log: string[] = [];
    for (let spawned = 0; kills < KILLS && spawned < KILLS * 3; spawned++) {
      const started = existsSync(join(target, 'manifest.json'));
      const args = started ? ['run', config, '--resume', target, '--quiet', ...(spawned % 3 === 0 ? ['--retry-errors'] : [])] : ['run', config, '--run-id', 'killed', '--quiet'];
      const t0 = Date.now();
      const linesBefore = lineCount(recordsPath);
      const child = start(args);
      let exited = false;
      void child.exited.then(() => (exited = true));
      const when = killPoint(rand, lineCount(recordsPath), reference.length, t0, target);
      while (!exited && !when.due()) await sleep(3);
      if (!exited) {
        child.proc.kill('SIGKILL');
        const end = await child.exited;
        if (end.signal === 'SIGKILL') {
          kills++;
          // Named by where it landed: a kill aimed at start-up that came after this child had
          // appended records (but not all of them) interrupted the records too.
          const lines = lineCount(recordsPath);
          const landed = when.what === 'start-up' && lines > linesBefore && lines < reference.length ? 'records, aimed at start-up' : when.what;
          log.push(`kill ${kills} (${landed}) after ${Date.now() - t0} ms: ${lines} lines`);
          // Whatever the kill interrupted, every file in the folder is whole: old or new, never cut.
          expect(brokenFiles(target), log.join('\n')).toEqual([]);
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
