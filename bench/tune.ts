// Successive halving on a problem whose best variant is known (bench/lib/syntheticTune.ts):
// over many seeds, how often `tune` recommends the known best or a variant not significantly
// worse than it, and what share of the full grid's model calls it spent. The full grid is run
// once for real in the same process, to check the analytic call count the ratios divide by.
// Every prompt of this problem is unique to its variant, so the response cache could not lower
// the spend; it is off here to keep thousands of cache files off the disk.
//
//   npm run bench:tune                         20 seeds, 120 questions, eta 3
//   npm run bench:tune -- --seeds 40 --questions 240 --eta 2
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBenchmark } from '../harness/run/runner.ts';
import { runTune } from '../harness/analysis/tune/run.ts';
import { fullGridCalls, judgeRecommendation, KNOWN_BEST, syntheticConfig, syntheticData, syntheticProvider } from './lib/syntheticTune.ts';
import { benchArgs } from './lib/args.ts';
import { registerBuiltinStrategies } from '../strategies/registry.ts';

registerBuiltinStrategies();

const args = benchArgs(import.meta.url, {
  seeds: { type: 'string', default: '20', number: 'positive-integer', help: 'seeds of the synthetic problem to tune' },
  questions: { type: 'string', default: '120', number: 'positive-integer', help: 'questions of the synthetic dataset' },
  eta: { type: 'string', default: '3', number: 'positive', help: "successive halving's eta (the share of variants kept each rung is 1/eta)" },
  'min-questions': { type: 'string', default: '12', number: 'positive-integer', help: 'questions in the first rung' },
});
const seeds = args.number('seeds');
const n = args.number('questions');
const eta = args.number('eta');
const minQuestions = args.number('min-questions');

const dir = mkdtempSync(join(tmpdir(), 'treebench-bench-tune-'));
try {
  const data = syntheticData(n);
  const first = syntheticConfig(1, { outDir: dir, cacheDir: join(dir, 'cache') });
  const full = await runBenchmark({ loaded: first, data, provider: syntheticProvider(1), outDir: dir, runId: 'full-grid', cache: false });
  const measuredFull = full.records.reduce((s, r) => s + r.calls, 0);
  const rows = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const loaded = syntheticConfig(seed, { outDir: dir, cacheDir: join(dir, `cache-${seed}`) });
    const t = await runTune({ loaded, data, provider: syntheticProvider(seed), outDir: dir, runId: `tune-${seed}`, cache: false, tune: { objective: 'accuracy', eta, minQuestions }, intervals: false });
    const recommended = t.recommendation?.recommended ?? '(none)';
    rows.push({ seed, recommended, spent: t.result.spent.calls, ...judgeRecommendation(seed, data.questions.map((q) => q.id), recommended) });
  }
  const full1 = fullGridCalls(n);
  const fractions = rows.map((r) => r.spent / full1);
  const mean = fractions.reduce((s, x) => s + x, 0) / fractions.length;
  console.log(`successive halving on a synthetic problem (known best ${KNOWN_BEST}; ${n} questions, 12 variants, eta ${eta}, first rung >= ${minQuestions})`);
  console.log(`  full grid calls      ${full1} (analytic) / ${measuredFull} (measured, seed 1): ratio ${(measuredFull / full1).toFixed(3)}`);
  console.log(`  seeds                ${seeds}`);
  console.log(`  known best exactly   ${rows.filter((r) => r.exact).length} / ${seeds}`);
  console.log(`  acceptable           ${rows.filter((r) => r.acceptable).length} / ${seeds}  (known best, or not significantly worse on all questions: one-sided exact McNemar, alpha 0.05)`);
  console.log(`  calls spent / full   mean ${(mean * 100).toFixed(1)}%, max ${(Math.max(...fractions) * 100).toFixed(1)}%  (target <= 40%)`);
  for (const r of rows.filter((x) => !x.exact)) console.log(`    seed ${r.seed}: ${r.recommended} (p worse ${r.pWorse.toFixed(3)})`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
