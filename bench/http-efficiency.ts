// HTTP harness efficiency: treebench's runner against a loopback OpenAI-compatible server
// (test/bench/loopback-openai-server.ts, its own process) that answers every chat call after a
// fixed latency, beside the floor measured in the same run: the openai SDK with p-limit alone,
// making the same number of calls at the same concurrency against the same server.
//
//   ideal wall time = calls × latency / concurrency;  efficiency = ideal / measured wall time
//   CPU ms per call = process CPU time during the call phase / calls
// treebench's own cost is printed as the difference to the floor (CPU) and the ratio of
// efficiencies. Each piece runs in its own process (so its CPU and peak RSS are its own), and the
// pieces are interleaved: floor, vector, node-list at each concurrency.
//
//   npm run bench:http                          2,000 calls, 100 ms, concurrency 16 and 64
//   npm run bench:http -- --calls 500 --concurrency 8,32
//   npm run bench:http -- --large               also vector at 2,000 and 20,000 questions (RSS flat?)
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildIsCurrent } from '../bin/source-dirs.mjs';
import { startLoopback } from './lib/loopback.ts';
import { benchArgs } from './lib/args.ts';

/** What one piece measured (printed by bench/http/worker.mjs as one JSON line). */
interface Result {
  calls: number;
  wallMs: number;
  cpuMs: number;
  /** Process peak RSS (includes index build and the summary's bootstrap after the calls). */
  maxRssMb: number;
  /** Highest RSS sampled (every 50 ms) while calls were in flight. */
  callRssMb: number;
  errors: number;
  records?: number;
}

const args = benchArgs(import.meta.url, {
  calls: { type: 'string', default: '2000', number: 'positive-integer', help: 'chat calls per piece (node-list makes twice as many: two per question)' },
  latency: { type: 'string', default: '100', number: 'positive', help: "the loopback server's latency per call, ms" },
  concurrency: { type: 'string', default: '16,64', number: 'positive-integer-list', help: 'concurrency levels to measure, comma-separated' },
  large: { type: 'boolean', default: false, help: 'also vector at c=64 with 2,000 and 20,000 questions (is RSS flat?)' },
  before: {
    type: 'string',
    help: 'another checkout (e.g. `git worktree add <dir> <commit>`, node_modules linked): its runner is measured too, right after this one',
  },
});
const calls = args.number('calls');
const latency = args.number('latency');
const levels = args.numbers('concurrency');
const before = args.string('before');
const beforeDir = before ? resolve(before) : null;
if (beforeDir) mkdirSync(join(beforeDir, 'bench/http'), { recursive: true });
// The pieces run treebench's compiled JavaScript, as `npx treebench` does: build it when stale.
for (const dir of [process.cwd(), ...(beforeDir ? [beforeDir] : [])]) {
  if (!(await buildIsCurrent(dir))) {
    console.error(`building ${dir} (its compiled JavaScript is older than its sources)…`);
    execFileSync(process.execPath, ['bin/build.mjs'], { cwd: dir, stdio: 'inherit' });
  }
}

/** A piece's figures as the worker reports them, plus the server's count of connections. */
interface Piece extends Result {
  /** TCP connections the piece opened to the server (keep-alive reuse: ≈ concurrency). */
  sockets?: number;
}

const server = await startLoopback(latency);
const port = server.port;

/** Connections the server has accepted, not counting this request's own. */
async function connections(): Promise<number> {
  return (await server.stats()).connections! - 1;
}

async function piece(args: string[], cwd = process.cwd()): Promise<Piece> {
  const before = await connections();
  if (cwd !== process.cwd()) copyFileSync('bench/http/worker.mjs', join(cwd, 'bench/http/worker.mjs'));
  const out = execFileSync(process.execPath, ['bench/http/worker.mjs', '--port', String(port), ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const p = JSON.parse(out.trim().split('\n').pop()!) as Piece;
  p.sockets = (await connections()) - before;
  return p;
}

const eff = (p: Piece, c: number) => (p.calls * latency) / c / p.wallMs;
const row = (label: string, p: Piece, c: number, floor?: Piece) => {
  const e = eff(p, c);
  const cpu = p.cpuMs / p.calls;
  const cells = [
    label.padEnd(22),
    String(p.calls).padStart(6),
    `${(p.wallMs / 1000).toFixed(2)} s`.padStart(9),
    `${((p.calls * latency) / c / 1000).toFixed(2)} s`.padStart(9),
    e.toFixed(3).padStart(6),
    `${cpu.toFixed(2)}`.padStart(6),
    `${p.callRssMb.toFixed(0)}/${p.maxRssMb.toFixed(0)} MB`.padStart(12),
    String(p.sockets ?? '').padStart(7),
  ];
  if (floor) {
    const fe = eff(floor, c);
    cells.push(`${(e / fe).toFixed(2)}×`.padStart(7), `${(cpu - floor.cpuMs / floor.calls >= 0 ? '+' : '')}${(cpu - floor.cpuMs / floor.calls).toFixed(2)} ms`.padStart(10));
  }
  if (p.errors) cells.push(`errors ${p.errors}`);
  console.log('  ' + cells.join(' '));
};

try {
  console.log(`HTTP harness efficiency: loopback OpenAI-compatible server, ${latency} ms per chat call, ${calls} calls per piece`);
  console.log(`  ${'piece'.padEnd(22)} ${'calls'.padStart(6)} ${'wall'.padStart(9)} ${'ideal'.padStart(9)} ${'eff'.padStart(6)} ${'CPU/call'.padStart(6)} ${'RSS calls/peak'.padStart(12)} ${'sockets'.padStart(7)} ${'eff/floor'.padStart(7)} ${'CPU - floor'.padStart(10)}`);
  for (const c of levels) {
    console.log(`  concurrency ${c}`);
    const floor = await piece(['--mode', 'sdk', '--concurrency', String(c), '--calls', String(calls)]);
    row('openai SDK + p-limit (floor)', floor, c);
    const vector = await piece(['--mode', 'vector', '--concurrency', String(c), '--questions', String(calls)]);
    row('treebench vector', vector, c, floor);
    if (beforeDir) row('before: vector', await piece(['--mode', 'vector', '--concurrency', String(c), '--questions', String(calls)], beforeDir), c, floor);
    // node-list makes two calls per question (select nodes, answer): the same number of calls as
    // the figure (4,000 for 2,000 questions) needs `calls` questions.
    const nodeList = await piece(['--mode', 'node-list', '--concurrency', String(c), '--questions', String(calls)]);
    const floor2 = await piece(['--mode', 'sdk', '--concurrency', String(c), '--calls', String(nodeList.calls)]);
    row(`openai SDK floor (${nodeList.calls})`, floor2, c);
    row('treebench node-list', nodeList, c, floor2);
    if (beforeDir) row('before: node-list', await piece(['--mode', 'node-list', '--concurrency', String(c), '--questions', String(calls)], beforeDir), c, floor2);
  }
  if (args.flag('large')) {
    const c = levels[levels.length - 1];
    console.log(`  memory against run size (vector, concurrency ${c})`);
    for (const n of [2000, 20000]) {
      // The floor at the same size: its RSS and CPU per call move with run size too (warm-up
      // spread over more calls; its own promise per call made up front).
      const floorN = await piece(['--mode', 'sdk', '--concurrency', String(c), '--calls', String(n)]);
      row(`floor ${n} calls`, floorN, c);
      row(`vector ${n} questions`, await piece(['--mode', 'vector', '--concurrency', String(c), '--questions', String(n)]), c, floorN);
    }
  }
  console.log('  targets: efficiency ≥ 0.9 at c=16 and ≥ 0.8 at c=64; treebench CPU above the floor ≤ 1.5 ms per call; peak RSS ≤ 200 MB');
  console.log('  sockets: TCP connections opened to the server by the piece (keep-alive: about the concurrency, not the calls)');
  console.log('  RSS calls/peak: highest RSS sampled while calls were in flight / process peak (index build and summary bootstrap included)');
} finally {
  server.stop();
}
