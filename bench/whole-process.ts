// Whole-process wall time, side by side against the same loopback OpenAI-compatible server
// (test/bench/loopback-openai-server.ts, a fixed latency per call): `treebench run` from start to
// exit (Node's start, module loading, the tokenizer, the index, the calls, the records, the
// reports), and a bare openai SDK + p-limit process making the same number of chat calls at the
// same concurrency (bench/http/worker.mjs --mode sdk, also timed from spawn to exit). The two
// alternate, so both see the same machine; the medians are compared.
//
// treebench runs the vector strategy (one chat call per question) over the sample corpus with
// its questions repeated to `--calls` questions, embedder `hash` (no embedding calls), as the
// installed command does (bin/treebench.mjs, the bundle).
// Target (issue #28): treebench's wall ≤ 1.15× the bare SDK's. Exits 1 when missed.
//
//   npm run bench:process                    2,000 calls, 100 ms, concurrency 64, 3 rounds
//   npm run bench:process -- --rounds 5 --calls 500
//   npm run bench:process -- --phases       also each side's start / calls / end split and CPU
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIsCurrent } from '../bin/source-dirs.mjs';
import { startLoopback } from './lib/loopback.ts';
import { percentile } from '../harness/summary/percentile.ts';
import { benchArgs } from './lib/args.ts';

const args = benchArgs(import.meta.url, {
  calls: { type: 'string', default: '2000', number: 'positive-integer', help: 'chat calls per process (questions of the treebench run)' },
  latency: { type: 'string', default: '100', number: 'positive', help: "the loopback server's latency per call, ms" },
  concurrency: { type: 'string', default: '64', number: 'positive-integer', help: 'calls in flight' },
  rounds: { type: 'string', default: '3', number: 'positive-integer', help: 'rounds of the pair (the medians are compared)' },
  phases: { type: 'boolean', default: false, help: 'split each process into start (to its first request), calls and end (after its last response), with its CPU (bench/lib/phases.mjs)' },
});
const calls = args.number('calls');
const latency = args.number('latency');
const concurrency = args.number('concurrency');
const rounds = args.number('rounds');
const phases = args.flag('phases');
const root = process.cwd();
if (!(await buildIsCurrent(root))) {
  console.error('building (the compiled JavaScript is older than the sources)…');
  execFileSync(process.execPath, ['bin/build.mjs'], { stdio: 'inherit' });
}

const median = (xs: number[]): number => percentile(xs, 50);

/** A sample-format dataset: the bundled corpus, its questions repeated to `n` (ids made unique). */
function dataset(dir: string, n: number): string {
  const sample = join(root, 'datasets', 'sample');
  const data = join(dir, 'data');
  mkdirSync(data, { recursive: true });
  symlinkSync(join(sample, 'corpus'), join(data, 'corpus'));
  const questions = readFileSync(join(sample, 'questions.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: string });
  const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ ...questions[i % questions.length]!, id: `${questions[i % questions.length]!.id}-${Math.floor(i / questions.length)}` }));
  writeFileSync(join(data, 'questions.jsonl'), lines.join('\n') + '\n');
  return data;
}

/** One process's split (bench/lib/phases.mjs), in seconds. */
interface Phases {
  start: number;
  calls: number;
  end: number;
  cpu: number;
}
const phasesOf = { sdk: [] as Phases[], treebench: [] as Phases[] };
const preload = ['--import', pathToFileURL(join(root, 'bench', 'lib', 'phases.mjs')).href];

/** Wall time (ms) of `node args` from spawn to exit; with --phases, its split goes to `into`. */
function timed(argv: string[], cwd: string, env: NodeJS.ProcessEnv, into: Phases[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, phases ? [...preload, ...argv] : argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`node ${argv.join(' ')} exited with ${r.status}: ${r.stderr}`);
  const line = /^PHASES (.*)$/m.exec(r.stderr);
  if (phases && line) into.push(JSON.parse(line[1]!) as Phases);
  return ms;
}

// The machine's load as the rounds start and end: the ratio is only as steady as the machine.
const loadBefore = loadavg()[0];
const server = await startLoopback(latency);
const work = mkdtempSync(join(tmpdir(), 'treebench-bench-process-'));
const sdk: number[] = [];
const tb: number[] = [];
try {
  const data = dataset(work, calls);
  const config = join(work, 'process.yaml');
  writeFileSync(
    config,
    [
      'name: bench-process',
      'dataset:',
      '  format: sample',
      `  path: ${JSON.stringify(data)}`,
      'model:',
      '  provider: openai',
      '  model: loopback',
      `  baseURL: http://127.0.0.1:${server.port}/v1`,
      '  priceAs: gpt-4o-mini',
      'embedder: hash',
      'strategies: [vector]',
      'run:',
      `  concurrency: ${concurrency}`,
      '  seed: 1',
      '',
    ].join('\n'),
  );
  // No key is sent anywhere but the loopback server; the provider asks for one to be set.
  const env = { ...process.env, OPENAI_API_KEY: 'sk-loopback-not-a-key' };
  const bin = resolve(root, 'bin', 'treebench.mjs');
  for (let i = 0; i < rounds; i++) {
    sdk.push(timed([join(root, 'bench', 'http', 'worker.mjs'), '--mode', 'sdk', '--port', String(server.port), '--concurrency', String(concurrency), '--calls', String(calls)], root, env, phasesOf.sdk));
    // Its own working folder each round: no response or embedding cache carried over.
    const cwd = join(work, `round-${i}`);
    mkdirSync(cwd);
    tb.push(timed([bin, 'run', config, '--out', join(cwd, 'runs'), '--quiet'], cwd, env, phasesOf.treebench));
    rmSync(cwd, { recursive: true, force: true });
  }
} finally {
  server.stop();
  rmSync(work, { recursive: true, force: true });
}

const ideal = (calls * latency) / concurrency;
const s = median(sdk);
const t = median(tb);
const ok = t <= 1.15 * s;
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`.padStart(8);
console.log(`whole process against a loopback server: ${calls} chat calls, ${latency} ms each, concurrency ${concurrency}; medians of ${rounds} rounds (ideal calls phase ${fmt(ideal)}); load average ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
console.log(`  openai SDK + p-limit process  ${fmt(s)}   (rounds: ${sdk.map((x) => (x / 1000).toFixed(2)).join(', ')})`);
console.log(`  treebench run (vector)        ${fmt(t)}   (rounds: ${tb.map((x) => (x / 1000).toFixed(2)).join(', ')})`);
console.log(`  treebench / SDK               ${(t / s).toFixed(2)}×   target ≤ 1.15×: ${ok ? 'PASS' : 'FAIL'}`);
if (phases) {
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`.padStart(10);
  console.log('  phases, s (min–max over rounds)   start→first request   calls     end→exit     CPU');
  for (const [side, ps] of Object.entries(phasesOf)) {
    if (ps.length === 0) continue;
    console.log(`    ${side.padEnd(30)} ${range(ps.map((p) => p.start))}        ${range(ps.map((p) => p.calls))} ${range(ps.map((p) => p.end))} ${range(ps.map((p) => p.cpu))}`);
  }
}
if (!ok) process.exitCode = 1;
