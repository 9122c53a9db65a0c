// One measured piece of the HTTP efficiency benchmark, in its own process so its CPU time and
// peak RSS are its own. Prints one JSON line (see `Result` in bench/http-efficiency.ts).
//
//   --mode sdk                the floor: the openai SDK + p-limit alone, `--calls` chat calls
//   --mode vector|node-list   treebench's runner over the sample questions cycled to `--questions`
// Wall and CPU time cover the call phase only: from the first request to the last reply.
//
// Plain JavaScript on treebench's compiled modules (the parent builds them when stale): the
// pieces run as `npx treebench run` does, without the TypeScript loader's own memory and CPU,
// and the floor loads nothing of treebench.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'sdk' },
    port: { type: 'string' },
    concurrency: { type: 'string', default: '16' },
    calls: { type: 'string', default: '2000' },
    questions: { type: 'string', default: '2000' },
  },
});
const baseURL = `http://127.0.0.1:${values.port}/v1`;
const concurrency = Number(values.concurrency);

let callRss = 0;
let sampler = null;
const startSampling = () => {
  sampler = setInterval(() => (callRss = Math.max(callRss, process.memoryUsage.rss())), 50);
};
const stopSampling = () => {
  if (sampler) clearInterval(sampler);
  callRss = Math.max(callRss, process.memoryUsage.rss());
};
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const peakRssMb = () => process.resourceUsage().maxRSS / 1024;

async function sdkFloor() {
  const { default: OpenAI } = await import('openai');
  const { default: pLimit } = await import('p-limit');
  const client = new OpenAI({ apiKey: 'no-key-needed', baseURL, maxRetries: 0 });
  const limit = pLimit(concurrency);
  const n = Number(values.calls);
  let errors = 0;
  const t0 = performance.now();
  const c0 = cpuNow();
  startSampling();
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      limit(() =>
        client.chat.completions
          .create({ model: 'loopback', messages: [{ role: 'user', content: `question ${i}: what does the loopback server say?` }], max_tokens: 64 })
          .catch(() => void errors++),
      ),
    ),
  );
  const wallMs = performance.now() - t0;
  const cpuMs = cpuNow() - c0;
  stopSampling();
  return { calls: n, wallMs, cpuMs, maxRssMb: peakRssMb(), callRssMb: callRss / 2 ** 20, errors };
}

async function harness(strategy) {
  // As `treebench run` does for a config whose model is called over the network (cli/heapGrowth.ts):
  // heap flags as the calls start (below). (An older checkout measured with --before may also
  // widen the young generation when the calls start: then it does so here too.)
  const heap = await import('../../cli/heapGrowth.js');
  const widenWhenCallsStart = heap.widenWhenCallsStart ?? ((next) => next);
  // The layout since harness/ was split into rooms, else the flat one of an older checkout (--before).
  const layout = await import('../../harness/run/runner.js').then(
    async (runner) => {
      (await import('../../strategies/registry.js')).registerBuiltinStrategies();
      return { runner, config: await import('../../harness/config/runConfig.js'), providers: await import('../../harness/models/providers/registry.js') };
    },
    async () => ({ runner: await import('../../harness/runner.js'), config: await import('../../harness/config.js'), providers: await import('../../harness/providers/registry.js') }),
  );
  const { validateConfig } = layout.config;
  const { runBenchmark } = layout.runner;
  const { createProvider } = layout.providers;
  const { loadBenchmarkData } = await import('../../datasets/registry.js');
  const raw = {
    name: 'bench-http',
    dataset: { format: 'sample' },
    model: { provider: 'openai', model: 'loopback', baseURL, priceAs: 'gpt-4o-mini' },
    strategies: [strategy],
    run: { concurrency, seed: 1 },
  };
  const { config, strategies } = validateConfig(raw);
  const loaded = { path: 'bench/http/worker.mjs', baseDir: process.cwd(), raw: JSON.stringify(raw), config, strategies };
  const data = await loadBenchmarkData(config, process.cwd());
  const n = Number(values.questions);
  const questions = Array.from({ length: n }, (_, i) => {
    const q = data.questions[i % data.questions.length];
    return { ...q, id: `${q.id}#${Math.floor(i / data.questions.length)}` };
  });
  // The configured provider, wrapped only to note when the first call starts.
  const real = createProvider(config.model);
  let t0 = 0;
  let c0 = 0;
  let tEnd = 0;
  let cEnd = 0;
  const provider = Object.assign(Object.create(Object.getPrototypeOf(real)), real, {
    chat: async (...args) => {
      if (!t0) {
        t0 = performance.now();
        c0 = cpuNow();
        startSampling();
      }
      return real.chat(...args);
    },
  });
  const outDir = mkdtempSync(join(tmpdir(), 'treebench-bench-http-'));
  try {
    const outcome = await runBenchmark({
      loaded,
      data: { ...data, questions },
      outDir,
      provider,
      onProgress: widenWhenCallsStart((p) => {
        if (p.phase === 'run' && p.done === 0) heap.limitHeapGrowth();
        if (p.phase === 'run' && p.done === p.total) {
          tEnd = performance.now();
          cEnd = cpuNow();
          stopSampling();
          if (globalThis.gc && process.env.BENCH_HEAP) {
            globalThis.gc();
            process.stderr.write(`live heap after the last record: ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(1)} MB\n`);
          }
        }
      }),
    });
    const calls = outcome.summary.strategies.reduce((s, x) => s + x.callsPerQuestion * x.records, 0);
    const errors = outcome.summary.strategies.reduce((s, x) => s + x.errors, 0);
    return { calls: Math.round(calls), wallMs: tEnd - t0, cpuMs: cEnd - c0, maxRssMb: peakRssMb(), callRssMb: callRss / 2 ** 20, errors, records: n };
  } finally {
    if (process.env.KEEP_BENCH_RUN) process.stderr.write(`kept ${outDir}\n`);
    else rmSync(outDir, { recursive: true, force: true });
  }
}

const result = values.mode === 'sdk' ? await sdkFloor() : await harness(values.mode);
process.stdout.write(JSON.stringify(result) + '\n');
