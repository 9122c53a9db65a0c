// Start-up: how long `treebench --help` and `--version` take, and a one-question offline run (the
// quickstart, `--limit 1`: six strategies on the offline reasoner), against the ideal of
// starting Node itself (`node -e 0`) measured in the same run, the commands interleaved with it.
// Runs the bundled JavaScript (built first when a source is newer than the build), as an
// installed package does.
//
// Targets (issue #28): `treebench --help` ≤ 3× `node -e 0` (median wall); the one-question run
// ≤ 1 s plus its calls: its median wall time less the time its records took (from the first
// record's start to the last one's end, read from records.jsonl) is its fixed cost, ≤ 1,000 ms.
// Exits 1 when a target is missed. Wall times stretch on a shared machine; CPU time (user +
// system) is printed beside them, with its ratio to Node's own start, as the steadier figure.
//
//   npm run bench:startup            10 runs of each command (5 of the run)
//   npm run bench:startup -- --runs 20
import { buildIsCurrent } from '../bin/source-dirs.mjs';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile } from '../harness/summary/percentile.ts';
import { benchArgs } from './lib/args.ts';

const runs = benchArgs(import.meta.url, {
  runs: { type: 'string', default: '10', number: 'positive-integer', help: 'runs of each command (the median is printed); the one-question run takes half as many' },
}).number('runs');

const median = (xs: number[]): number => percentile(xs, 50);

/** CPU time (user + system, ms) of waited-for children, from /proc/self/stat (Linux); null elsewhere. */
function childCpuMs(): number | null {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    // After "(comm) ": field 3 is state, so cutime (16) and cstime (17) sit at indices 13 and 14.
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return null;
  }
}

interface Timing {
  walls: number[];
  cpus: number[];
  /** The one-question run: how long its records took, per run. */
  calls: number[];
}

/** One run of `node args`; `after` reads what the run left (its records) before the next. */
function once(t: Timing, args: string[], after?: () => number): void {
  const c0 = childCpuMs();
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  t.walls.push(performance.now() - start);
  const c1 = childCpuMs();
  if (c0 !== null && c1 !== null) t.cpus.push(c1 - c0);
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  if (after) t.calls.push(after());
}

const fresh = (): Timing => ({ walls: [], cpus: [], calls: [] });
const wall = (t: Timing) => median(t.walls);
const cpu = (t: Timing) => (t.cpus.length ? median(t.cpus) : null);

if (!(await buildIsCurrent(process.cwd()))) {
  const build = spawnSync(process.execPath, ['bin/build.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}

/** From the first record's start to the last one's end (ms): the time the run spent on its calls. */
function recordsSpanMs(outDir: string): number {
  const [runId] = readdirSync(outDir);
  const records = readFileSync(join(outDir, runId!, 'records.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { queueMs?: number; latencyMs: number });
  // Every record of a one-question run is queued when the calls start: its end is its queueing
  // plus its own time.
  return Math.max(...records.map((r) => (r.queueMs ?? 0) + r.latencyMs));
}

const work = mkdtempSync(join(tmpdir(), 'treebench-bench-startup-'));
const ideal = fresh();
const help = fresh();
const version = fresh();
const oneQuestion = fresh();
try {
  for (let i = 0; i < runs; i++) {
    once(ideal, ['-e', '0']);
    once(help, ['bin/treebench.mjs', '--help']);
    once(version, ['bin/treebench.mjs', '--version']);
    if (i % 2 === 0) {
      const out = join(work, `run-${i}`);
      once(oneQuestion, ['bin/treebench.mjs', 'run', 'configs/quickstart.yaml', '--limit', '1', '--out', out, '--quiet'], () => recordsSpanMs(out));
      rmSync(out, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const ms = (n: number) => `${n.toFixed(0).padStart(5)} ms`;
const ratio = (n: number, d: number) => `${(n / d).toFixed(2)}×`.padStart(7);
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const cpuCell = (t: Timing) => {
  const c = cpu(t);
  const ic = cpu(ideal);
  return c !== null && ic ? `   cpu ${ms(c)} ${ratio(c, ic)}` : '';
};
const line = (label: string, t: Timing, note = '') => `  ${label.padEnd(30)} wall ${ms(wall(t))} ${ratio(wall(t), wall(ideal))}${cpuCell(t)}${note}`;

const helpOk = wall(help) <= 3 * wall(ideal);
const callsMs = median(oneQuestion.calls);
const fixedMs = wall(oneQuestion) - callsMs;
const runOk = fixedMs <= 1000;
console.log(`start-up (bundled JavaScript, medians of ${runs} runs, ${oneQuestion.walls.length} of the run; ratios to the ideal, Node's own start)`);
console.log(line('node -e 0', ideal, '   ideal'));
console.log(line('treebench --help', help, `   target ≤ 3× wall: ${verdict(helpOk)}`));
console.log(line('treebench --version', version));
console.log(line('quickstart --limit 1', oneQuestion));
console.log(`    its calls (records' span) ${ms(callsMs)}; the rest, its fixed cost, ${ms(fixedMs)}   target ≤ 1000 ms: ${verdict(runOk)}`);
if (!helpOk || !runOk) process.exitCode = 1;
