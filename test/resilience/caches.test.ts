// Caches after kills: a process killed between writing a cache entry's temporary file and renaming
// it leaves `<entry>.<pid>.<hex>.tmp` behind. The next process that opens that cache removes the
// ones whose writer is gone, so kills never make a cache grow without bound; an entry is whole or
// absent, never torn. Leftovers are planted exactly as a kill leaves them (a dead writer's pid),
// then real SIGKILLs land while `treebench run` fills the ingestion cache.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../harness/run/random.ts';
import { makePdf } from '../datasets/pdf-writer.ts';
import { answersByKey, cli, recordLines, tmp, writeConfig } from './helpers.ts';
import { sleep, start } from './processes.ts';

/** A pid that certainly belongs to no live process: a child that has already exited. */
const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

const temps = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.tmp')) : []);

/** A PDF corpus of `n` documents, a few pages each, and a config that reads it through the ingestion cache. */
function pdfCorpus(dir: string, n: number): string {
  const corpus = join(dir, 'pdfs');
  mkdirSync(corpus, { recursive: true });
  const questions: string[] = [];
  for (let d = 0; d < n; d++) {
    const pages = Array.from({ length: 12 }, (_, p) => [`Chapter ${p + 1} of report ${d}`, ...Array.from({ length: 30 }, (_, l) => `Line ${l} of page ${p + 1}: figure ${d * 1000 + p * 31 + l} for region ${l % 7}.`)]);
    writeFileSync(join(corpus, `report-${d}.pdf`), makePdf(pages));
    questions.push(JSON.stringify({ id: `q${d}`, question: `What figure is on line 3 of page 2 of report ${d}?`, answers: [String(d * 1000 + 31 + 3)], docIds: [`report-${d}`] }));
  }
  writeFileSync(join(dir, 'questions.jsonl'), questions.join('\n') + '\n');
  return writeConfig(dir, {
    dataset: { format: 'jsonl', path: join(dir, 'questions.jsonl') },
    corpus: { format: 'pdf', path: corpus, cacheDir: join(dir, 'ingest') },
    strategies: ['vector'],
    index: { cache: { enabled: true, dir: join(dir, 'embeddings') } },
    cache: { enabled: true, dir: join(dir, 'responses') },
    run: { outDir: join(dir, 'runs') },
  });
}

describe('temporary files a killed cache writer left', () => {
  it('are removed by the next run (ingestion, response and embedding caches); a live writer\'s are kept', async () => {
    const dir = tmp();
    const config = pdfCorpus(dir, 2);
    const first = await cli('run', config, '--run-id', 'warm', '--quiet');
    expect(first.code, first.err).toBe(0);
    const dead = deadPid();
    const planted = [
      join(dir, 'ingest', 'content', `0123abcd-x2.json.gz.${dead}.1a2b3c4d.tmp`),
      join(dir, 'ingest', 'trees', `4567ef01.json.gz.${dead}.5e6f7a8b.tmp`),
      join(dir, 'ingest', 'markdown', `89ab.json.gz.${dead}.0c0d0e0f.tmp`),
      join(dir, 'responses', 'ab', `ab12.json.${dead}.00112233.tmp`),
    ];
    const embeddingDir = readdirSync(join(dir, 'embeddings'))[0]!;
    planted.push(join(dir, 'embeddings', embeddingDir, `0000-${dead}-ff.pack.${dead}.44556677.tmp`));
    // This process is alive and the file is fresh: it may be a write in progress, so it stays...
    const live = join(dir, 'ingest', 'content', `live.json.gz.${process.pid}.99aabbcc.tmp`);
    // ...unless it is more than a day old (its pid may have been reused since).
    const ancient = join(dir, 'ingest', 'trees', `old.json.gz.${process.pid}.ddeeff00.tmp`);
    for (const f of [...planted, live, ancient]) {
      mkdirSync(join(f, '..'), { recursive: true });
      writeFileSync(f, 'half a cache entry');
    }
    const old = (Date.now() - 2 * 24 * 3600 * 1000) / 1000;
    utimesSync(ancient, old, old);

    const again = await cli('run', config, '--run-id', 'again', '--quiet');
    expect(again.code, again.err).toBe(0);
    for (const f of [...planted, ancient]) expect(existsSync(f), f).toBe(false);
    expect(existsSync(live)).toBe(true);
  }, 120_000);
});

describe('kill -9 while the ingestion cache is written, then run again', () => {
  it('never leaves a torn entry, and no temporary file outlives the next run', async () => {
    const dir = tmp();
    const config = pdfCorpus(dir, 6);
    const ingest = join(dir, 'ingest');
    const rand = mulberry32(Number(process.env.TREEBENCH_KILL_SEED ?? 27));
    const log: string[] = [];
    let kills = 0;
    for (let attempt = 0; kills < 6 && attempt < 18; attempt++) {
      const child = start(['run', config, '--quiet', '--run-id', `k${attempt}`]);
      let exited = false;
      void child.exited.then(() => (exited = true));
      // Once the first extraction is in (the cache folder exists), kill within the next stretch of writes.
      while (!exited && !existsSync(join(ingest, 'content'))) await sleep(2);
      const wait = rand() * 120;
      const t0 = Date.now();
      while (!exited && Date.now() - t0 < wait) await sleep(1);
      if (exited) continue;
      child.proc.kill('SIGKILL');
      await child.exited;
      kills++;
      log.push(`kill ${kills} after ${Math.round(wait)} ms: ${temps(ingest).length} temporary files`);
    }
    expect(kills, log.join('\n')).toBeGreaterThanOrEqual(3);
    const final = await cli('run', config, '--run-id', 'final', '--quiet');
    expect(final.code, `${final.err}\n${log.join('\n')}`).toBe(0);
    expect(temps(ingest), log.join('\n')).toEqual([]);
    // What the warm cache gives is what a cold one gives: no entry was torn.
    const cold = await cli('run', config, '--run-id', 'cold', '--quiet', '--set', `corpus.cacheDir=${join(dir, 'cold-ingest')}`);
    expect(cold.code, cold.err).toBe(0);
    expect(answersByKey(recordLines(join(dir, 'runs', 'final', 'records.jsonl')))).toEqual(answersByKey(recordLines(join(dir, 'runs', 'cold', 'records.jsonl'))));
    if (process.env.TREEBENCH_KILL_LOG) console.log(log.join('\n'));
  }, 300_000);
});
