// Start-up: how long `treebench --help` and `--version` take, against the ideal of starting
// Node itself (`node -e ""`) measured in the same run. Target: --help under 0.5 s on the
// development machine. Runs the compiled JavaScript (built first when a source is newer than
// the build), as an installed package does.
//
//   npm run bench:startup            10 runs each
//   npm run bench:startup -- --runs 20
import { buildIsCurrent } from '../bin/source-dirs.mjs';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { benchArgs } from './lib/args.ts';

const runs = benchArgs(import.meta.url, {
  runs: { type: 'string', default: '10', number: 'positive-integer', help: 'runs of each command (the median is printed)' },
}).number('runs');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

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

/** Median wall time and median CPU time; CPU time moves less when other work shares the cores. */
function time(args: string[]): { wall: number; cpu: number | null } {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = childCpuMs();
    const t = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
    walls.push(performance.now() - t);
    const c1 = childCpuMs();
    if (c0 !== null && c1 !== null) cpus.push(c1 - c0);
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}`);
  }
  return { wall: median(walls), cpu: cpus.length ? median(cpus) : null };
}

const line = (label: string, m: { wall: number; cpu: number | null }, ideal: { wall: number; cpu: number | null }, note = '') =>
  `  ${label.padEnd(20)} wall ${m.wall.toFixed(0).padStart(5)} ms (${(m.wall / ideal.wall).toFixed(1)}x)` +
  (m.cpu !== null && ideal.cpu ? `   cpu ${m.cpu.toFixed(0).padStart(5)} ms (${(m.cpu / ideal.cpu).toFixed(1)}x)` : '') +
  note;

if (!buildIsCurrent(process.cwd())) {
  const build = spawnSync(process.execPath, ['bin/build.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}
const ideal = time(['-e', '']);
const help = time(['bin/treebench.mjs', '--help']);
const version = time(['bin/treebench.mjs', '--version']);
console.log(`start-up (compiled JavaScript, median of ${runs} runs; ratios to the ideal, Node's own start)`);
console.log(line('node -e ""', ideal, ideal, '  ideal'));
console.log(line('treebench --help', help, ideal, `  target < 500 ms wall${help.wall < 500 ? '' : ' — MISSED on this run'}`));
console.log(line('treebench --version', version, ideal));
