// Harness efficiency: how close the runner gets to the ideal wall time when every model call
// takes a fixed simulated latency. ideal = chat calls x latency / concurrency; efficiency =
// ideal / measured. Anything lost is harness overhead: queueing, local work, record writing.
//
//   npm run bench                          500 questions x 2 strategies, 100 ms, concurrency 16
//   npm run bench -- --questions 200 --latency 50 --concurrency 8
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig, type LoadedConfig } from '../harness/config/runConfig.ts';
import { runBenchmark } from '../harness/run/runner.ts';
import { loadBenchmarkData } from '../datasets/registry.ts';
import { benchArgs } from './lib/args.ts';
import { registerBuiltinStrategies } from '../strategies/registry.ts';

registerBuiltinStrategies();

const args = benchArgs(import.meta.url, {
  questions: { type: 'string', default: '500', number: 'positive-integer', help: 'questions per strategy' },
  latency: { type: 'string', default: '100', number: 'positive', help: 'simulated latency of each model call, ms' },
  concurrency: { type: 'string', default: '16', number: 'positive-integer', help: 'model calls in flight' },
});
const nQuestions = args.number('questions');
const latencyMs = args.number('latency');
const concurrency = args.number('concurrency');

const raw = {
  name: 'bench-efficiency',
  dataset: { format: 'sample' },
  model: { provider: 'offline', latency: { meanMs: latencyMs, jitterMs: 0, seed: 1 } },
  strategies: ['vector', 'node-list'],
  run: { concurrency, seed: 1 },
};
const { config, strategies } = validateConfig(raw);
const loaded: LoadedConfig = { path: 'bench/harness-efficiency.ts', baseDir: process.cwd(), raw: JSON.stringify(raw), config, strategies };
const data = await loadBenchmarkData(config, process.cwd());
// Cycle the sample questions up to the requested count (ids stay unique).
const questions = Array.from({ length: nQuestions }, (_, i) => {
  const q = data.questions[i % data.questions.length];
  return { ...q, id: `${q.id}#${Math.floor(i / data.questions.length)}` };
});

const outDir = mkdtempSync(join(tmpdir(), 'treebench-bench-'));
let runMs = 0;
try {
  const outcome = await runBenchmark({
    loaded,
    data: { ...data, questions },
    outDir,
    onProgress: (p) => {
      if (p.phase === 'run') runMs = p.elapsedMs;
    },
  });
  const calls = outcome.records.reduce((n, r) => n + r.calls, 0);
  const errors = outcome.records.filter((r) => r.error).length;
  const ideal = (calls * latencyMs) / concurrency;
  const efficiency = ideal / runMs;
  console.log(`harness efficiency (offline reasoner, simulated ${latencyMs} ms per chat call, concurrency ${concurrency})`);
  console.log(`  records            ${outcome.records.length} (${nQuestions} questions x ${strategies.length} strategies), errors ${errors}`);
  console.log(`  chat calls         ${calls}`);
  console.log(`  ideal wall time    ${(ideal / 1000).toFixed(2)} s  (calls x latency / concurrency)`);
  console.log(`  measured wall time ${(runMs / 1000).toFixed(2)} s  (run phase, index build excluded: ${(outcome.manifest.index!.ms / 1000).toFixed(2)} s)`);
  console.log(`  efficiency         ${efficiency.toFixed(3)}  (target >= 0.90)`);
  console.log(`  throughput         ${((outcome.records.length / runMs) * 1000).toFixed(1)} records/s`);
  if (efficiency < 0.9) console.log("  below the 0.90 target: see where the time goes with --cpu-prof");
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
