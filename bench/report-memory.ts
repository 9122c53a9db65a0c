// Report memory: the peak RSS of `treebench run` writing every report of a 40,000-record run
// (20,000 questions × 2 strategies, offline reasoner), with the HTML report and without it
// (the reference, measured in the same run). The HTML report streams its records from
// records.jsonl, so it should cost little beyond the other reports; issue 27's budget is 400 MB
// for all reports, the HTML one included (it was 1.09 GB when the page was built in memory).
//
// Each folder is a finished run: a real run of the 75 sample questions, whose records are then
// copied to the 20,000 questions of a dataset that cycles them (ids `sample-001#0` … ), in an
// order unlike the run's (as completion order is). `treebench run --resume` of a finished folder
// runs nothing and then does what every run ends with: the summary read back from records.jsonl
// and every report file written. Runs the compiled JavaScript (built first when stale).
//
//   npm run bench:reports                    20,000 questions × 2 strategies
//   npm run bench:reports -- --questions 5000
//   npm run bench:reports -- --large         also a whole run from scratch with the HTML report (~3 min)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildIsCurrent } from '../bin/source-dirs.mjs';
import { benchArgs } from './lib/args.ts';

const args = benchArgs(import.meta.url, {
  questions: { type: 'string', default: '20000', number: 'positive-integer', help: 'questions (each run by 2 strategies)' },
  large: { type: 'boolean', default: false, help: 'also time and measure a whole run from scratch (every record computed)' },
  keep: { type: 'boolean', default: false, help: 'keep the temporary folder (its path is printed)' },
});
const nQuestions = args.number('questions');
const BUDGET_MB = 400;
/** The HTML report may add this much to the peak of the other reports (a ratio: same machine, same run). */
const MAX_RATIO = 1.25;

const root = process.cwd();
if (!(await buildIsCurrent(root))) {
  const build = spawnSync(process.execPath, ['bin/build.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'treebench-bench-reports-'));
const sample = join(root, 'datasets', 'sample');
const baseQuestions = readFileSync(join(sample, 'questions.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { id: string });
const ids = Array.from({ length: nQuestions }, (_, i) => `${baseQuestions[i % baseQuestions.length]!.id}#${Math.floor(i / baseQuestions.length)}`);
mkdirSync(join(work, 'dataset'));
symlinkSync(join(sample, 'corpus'), join(work, 'dataset', 'corpus'));
writeFileSync(join(work, 'dataset', 'questions.jsonl'), ids.map((id, i) => JSON.stringify({ ...baseQuestions[i % baseQuestions.length], id }) + '\n').join(''));

function config(name: string, reports: string[]): string {
  const path = join(work, `${name}.yaml`);
  writeFileSync(
    path,
    [
      `name: ${name}`,
      'dataset: { format: sample, path: ./dataset }',
      'model: { provider: offline, priceAs: gpt-4o-mini }',
      'embedder: hash',
      'strategies: [vector, node-list]',
      'run: { concurrency: 8, seed: 42 }',
      `reports: [${reports.join(', ')}]`,
      '',
    ].join('\n'),
  );
  return path;
}

/** `treebench …` in a child process: its wall time and peak RSS (MB). */
function treebench(argv: string[]): { ms: number; peakMb: number } {
  const rssFile = join(work, 'peak-rss');
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', resolve(root, 'bench/lib/peakRss.mjs'), join(root, 'bin/treebench.mjs'), ...argv], {
    cwd: work,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, TREEBENCH_PEAK_RSS_FILE: rssFile, TREEBENCH_QUIET: '1' },
    maxBuffer: 64 << 20,
  });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`treebench ${argv.join(' ')} exited with ${r.status ?? r.signal}:\n${r.stderr.toString().slice(-2000)}`);
  return { ms, peakMb: Number(readFileSync(rssFile, 'utf8')) / 1024 };
}

/** A finished run folder of nQuestions × 2 records, made from a real run of the sample's questions. */
function finishedRun(cfg: string, runId: string): string {
  treebench(['run', cfg, '--limit', String(baseQuestions.length), '--out', 'runs', '--run-id', runId, '--quiet', '--format', 'json']);
  const dir = join(work, 'runs', runId);
  const seed = readFileSync(join(dir, 'records.jsonl'), 'utf8').split('\n').filter((l) => l.trim());
  const copies = Math.ceil(nQuestions / baseQuestions.length);
  const fd = openSync(join(dir, 'records.jsonl'), 'w');
  try {
    // Copy-major order (every question of copy k, both strategies interleaved as the seed run
    // finished them): not the run's order, so the report has to sort.
    for (let k = 0; k < copies; k++) {
      const lines: string[] = [];
      for (const line of seed) {
        const id = /"questionId":"([^"]+)#0"/.exec(line)![1]!;
        const i = k * baseQuestions.length + baseQuestions.findIndex((q) => q.id === id);
        if (i < nQuestions) lines.push(line.replace(`"questionId":"${id}#0"`, `"questionId":"${id}#${k}"`));
      }
      writeSync(fd, lines.join('\n') + '\n');
    }
  } finally {
    closeSync(fd);
  }
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { questionIds: string[]; dataset: { questions: number } };
  manifest.questionIds = ids;
  manifest.dataset.questions = ids.length;
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

const mb = (v: number) => `${Math.round(v)} MB`.padStart(8);
const records = nQuestions * 2;
const failures: string[] = [];
try {
  const all = config('with-html', ['md', 'csv', 'json', 'html']);
  const plain = config('without-html', ['md', 'csv', 'json']);
  const withDir = finishedRun(all, 'with-html');
  const withoutDir = finishedRun(plain, 'without-html');
  const without = treebench(['run', plain, '--resume', withoutDir, '--quiet', '--format', 'json']);
  const withHtml = treebench(['run', all, '--resume', withDir, '--quiet', '--format', 'json']);
  const htmlMb = Number(readFileSync(join(withDir, 'report.html')).length) / 1e6;
  const recordsMb = Number(readFileSync(join(withDir, 'records.jsonl')).length) / 1e6;
  const ratio = withHtml.peakMb / without.peakMb;
  console.log(`report memory (${records.toLocaleString('en-US')} records: ${nQuestions.toLocaleString('en-US')} questions × 2 strategies, offline reasoner; records.jsonl ${recordsMb.toFixed(0)} MB, report.html ${htmlMb.toFixed(1)} MB)`);
  console.log('  `treebench run --resume` of a finished run: summary read back, every report written');
  console.log(`  reports md csv json          peak RSS ${mb(without.peakMb)}   ${(without.ms / 1000).toFixed(1)} s   reference`);
  console.log(`  reports md csv json html     peak RSS ${mb(withHtml.peakMb)}   ${(withHtml.ms / 1000).toFixed(1)} s   ratio ${ratio.toFixed(2)} (target ≤ ${MAX_RATIO})`);
  if (ratio > MAX_RATIO) failures.push(`the HTML report's peak is ${ratio.toFixed(2)}× the other reports' (target ≤ ${MAX_RATIO})`);
  // The budget is for 40,000 records: a smaller run only reports it.
  if (withHtml.peakMb > BUDGET_MB) (records >= 40_000 ? failures : []).push(`peak RSS ${Math.round(withHtml.peakMb)} MB with the HTML report, over the ${BUDGET_MB} MB budget`);
  console.log(`  budget (issue 27, 40,000 records): ≤ ${BUDGET_MB} MB with every report${withHtml.peakMb <= BUDGET_MB ? '' : ' — MISSED'}`);
  if (args.flag('large')) {
    const fresh = treebench(['run', all, '--out', 'runs', '--run-id', 'from-scratch', '--quiet', '--format', 'json']);
    console.log(`  whole run from scratch, html  peak RSS ${mb(fresh.peakMb)}   ${(fresh.ms / 1000).toFixed(1)} s   (every record computed, then every report)`);
    if (records >= 40_000 && fresh.peakMb > BUDGET_MB) failures.push(`the whole run peaked at ${Math.round(fresh.peakMb)} MB, over the ${BUDGET_MB} MB budget`);
  }
} finally {
  if (args.flag('keep')) console.log(`  kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
if (failures.length) {
  for (const f of failures) console.error(`MISSED: ${f}`);
  process.exit(1);
}
