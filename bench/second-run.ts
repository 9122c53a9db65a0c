// The second run of a config: with the embedding cache, embedding should cost ~0 (ideal: 0 ms,
// 0 embed calls). Each config runs twice with a fresh cache folder (first run fills it), the
// offline reasoner and a few questions; printed per run: data loading (document extraction —
// PDFs and Markdown go through the ingestion cache, issue 7), chunking, embedding + indexing, embed calls and
// chunks served from the cache.
//
//   npm run bench:second-run                      aws-docs and financebench (quickstart if absent)
//   npm run bench:second-run -- --configs configs/quickstart.yaml
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, validateConfig, type LoadedConfig } from '../harness/config/runConfig.ts';
import { runBenchmark } from '../harness/run/runner.ts';
import { loadBenchmarkData } from '../datasets/registry.ts';
import { startLoopback } from './lib/loopback.ts';
import { benchArgs, exitWithUsageError } from './lib/args.ts';
import { registerBuiltinStrategies } from '../strategies/registry.ts';

registerBuiltinStrategies();

const args = benchArgs(import.meta.url, {
  configs: { type: 'string', help: 'configs to run twice, comma-separated (default: aws-docs and financebench, or the quickstart when their data is absent)' },
  questions: { type: 'string', default: '3', number: 'positive-integer', help: 'questions each run answers' },
  // One round, run by the parent in a child process of its own.
  child: { type: 'string', internal: true, help: 'the config of the round' },
  cache: { type: 'string', internal: true, help: 'the cache folder of the round' },
  out: { type: 'string', internal: true, help: 'the runs folder of the round' },
  embedder: { type: 'string', internal: true, help: "the round's embedder" },
});
const questions = args.number('questions');
const embedderId = args.string('embedder');
const child = args.string('child');

interface Round {
  loadMs: number;
  chunkMs: number;
  embedMs: number;
  embedCalls: number;
  cached: number;
  chunks: number;
  embedder: string;
}

/** One run of `path` with the cache in `cacheDir` (in a child process: nothing carries over in memory). */
async function round(path: string, cacheDir: string, outDir: string): Promise<Round> {
  const base = loadConfig(path);
  // Same config, one vector strategy (indexing is what is measured), cache under a temp folder.
  const raw = {
    ...JSON.parse(JSON.stringify(base.config)),
    ...(embedderId ? { embedder: embedderId } : {}),
    strategies: ['vector'],
    model: { provider: 'offline' },
    index: { ...base.config.index, cache: { enabled: true, dir: cacheDir } },
  };
  const { config, strategies } = validateConfig(raw);
  const loaded: LoadedConfig = { ...base, raw: JSON.stringify(raw), config, strategies };
  const t0 = performance.now();
  const data = await loadBenchmarkData(config, base.baseDir);
  const loadMs = performance.now() - t0;
  const outcome = await runBenchmark({ loaded, data: { ...data, questions: data.questions.slice(0, questions) }, outDir });
  const ix = outcome.manifest.index as { ms: number; chunkMs?: number; embedCalls: number; cachedChunks?: number; chunks: number };
  return { loadMs, chunkMs: ix.chunkMs ?? 0, embedMs: ix.ms - (ix.chunkMs ?? 0), embedCalls: ix.embedCalls, cached: ix.cachedChunks ?? 0, chunks: ix.chunks, embedder: config.embedder };
}

if (child) {
  process.stdout.write(JSON.stringify(await round(child, args.string('cache')!, args.string('out')!)) + '\n');
} else {
  // Configs asked for must exist; of the default ones, those whose data is present run.
  const given = args.string('configs')?.split(',').map((c) => c.trim());
  const missing = given?.filter((c) => !existsSync(c)) ?? [];
  if (missing.length) exitWithUsageError(`--configs: no such file: ${missing.join(', ')}`);
  const configs = given ?? ['configs/aws-docs.yaml', 'configs/financebench.yaml'].filter((c) => existsSync(c));
  if (!configs.length) configs.push('configs/quickstart.yaml');
  console.log('second run of a config (embedding cache; each run in its own process): ideal second-run embedding = 0 ms, 0 calls');
  // The same first config once more with an `openai:` embedder against the loopback server (20 ms
  // per request): the case the cache is for, where every embedding is a paid request.
  const server = await startLoopback(20);
  const port = server.port;
  const requests = async () => (await server.stats()).embeddingRequests!;
  const cases: Array<{ path: string; embedder?: string }> = [...configs.map((path) => ({ path })), { path: configs[0], embedder: 'openai:loopback-embed' }];
  try {
    for (const { path, embedder } of cases) {
      const cacheDir = mkdtempSync(join(tmpdir(), 'treebench-bench-emb-'));
      const outDir = mkdtempSync(join(tmpdir(), 'treebench-bench-runs-'));
      try {
        const runs: Array<Round & { requests: number }> = [];
        for (let i = 0; i < 2; i++) {
          const before = await requests();
          const childArgs = ['bin/run-ts.mjs', 'bench/second-run.ts', '--child', path, '--cache', cacheDir, '--out', outDir, '--questions', String(questions), ...(embedder ? ['--embedder', embedder] : [])];
          const out = execFileSync(process.execPath, childArgs, {
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'inherit'],
            env: { ...process.env, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
          });
          runs.push({ ...(JSON.parse(out.trim().split('\n').pop()!) as Round), requests: (await requests()) - before });
        }
        const [a, b] = runs;
        console.log(`  ${path} (${a.chunks} chunks, embedder ${a.embedder})${embedder ? `: embedding requests to the server ${a.requests}, then ${b.requests}` : ''}`);
        for (const [label, r] of [['first run ', a], ['second run', b]] as const) {
          console.log(
            `    ${label}  load/extract ${(r.loadMs / 1000).toFixed(2)} s  chunking ${(r.chunkMs / 1000).toFixed(2)} s  embedding+index ${(r.embedMs / 1000).toFixed(2)} s  embed calls ${r.embedCalls}  chunks from cache ${r.cached}`,
          );
        }
        console.log(`    second/first: embedding+index ${(b.embedMs / a.embedMs).toFixed(3)}, embed calls ${b.embedCalls}/${a.embedCalls}`);
      } finally {
        rmSync(cacheDir, { recursive: true, force: true });
        rmSync(outDir, { recursive: true, force: true });
      }
    }
  } finally {
    server.stop(); // also when a case throws: no server left behind
  }
}
