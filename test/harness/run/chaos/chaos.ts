// `npm run chaos`: a full run through the real `openai` provider against the fault-injecting
// server (faultServer.ts), then the figures that say whether the harness lost, duplicated or
// wrongly failed any work:
//   - lost: tasks (strategy x question x repeat) with no record
//   - duplicated: keys with more than one line in records.jsonl
//   - error records: records that ended in an error (every injected fault is transient, so 0)
//   - retries counted (sum over every call log) against faults the server injected (equal)
// Hangs here last 1 s and then drop the connection, and the client timeout is 15 s: on a busy
// machine a short timeout would fire on good replies too, adding retries nobody injected. (The
// client timeout itself is tested with endless hangs in test/resilience/faults.test.ts.)
// Options: --records N (default 2000), --faults R (default 0.3), --concurrency C (default 16),
// --seed S. Exit 0 when every figure is as it should be, 1 otherwise.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../../../harness/config/runConfig.ts';
import { runBenchmark } from '../../../../harness/run/runner.ts';
import { recordKey } from '../../../../harness/run/store.ts';
import { loadBenchmarkData } from '../../../../datasets/registry.ts';
import { FaultServer, type FaultServerOptions } from './faultServer.ts';
import { registerBuiltinStrategies } from '../../../../strategies/registry.ts';

registerBuiltinStrategies();

export interface ChaosFigures {
  records: number;
  expected: number;
  lost: number;
  duplicated: number;
  errorRecords: number;
  parseFailures: number;
  calls: number;
  retriesCounted: number;
  faultsInjected: number;
  injected: Record<string, number>;
  enormousReplies: number;
  seconds: number;
}

const STRATEGIES = ['vector', 'node-list', 'layerwise', 'hybrid-beam'];

export async function runChaos(opts: { records: number; faultRate: number; concurrency: number; seed: number; enormousRate?: number; only?: string; timeoutMs?: number; hangMs?: number; faults?: FaultServerOptions['faults'] }): Promise<ChaosFigures> {
  const questionsPerRepeat = 50;
  const repeats = Math.max(1, Math.ceil(opts.records / (STRATEGIES.length * questionsPerRepeat)));
  const server = await FaultServer.start({ faultRate: opts.faultRate, seed: opts.seed, retryAfterSeconds: 1, hangMs: opts.hangMs ?? 1000, enormousRate: opts.enormousRate ?? 0.001, enormousChars: 1_000_000, ...(opts.only ? { faults: { [opts.only]: 1 } } : opts.faults ? { faults: opts.faults } : {}) });
  const dir = mkdtempSync(join(tmpdir(), 'treebench-chaos-'));
  try {
    const configPath = join(dir, 'chaos.yaml');
    writeFileSync(
      configPath,
      [
        'name: chaos',
        'dataset: { format: sample }',
        'model:',
        '  provider: openai',
        '  model: chaos-model',
        `  baseURL: ${server.baseURL}`,
        '  maxRetries: 10        # 0.3^11: no call runs out of attempts at 30% faults',
        `  timeoutMs: ${opts.timeoutMs ?? 15000}      # generous: a busy machine must not add timeouts nobody injected`,
        '  retryBaseMs: 5',
        '  retryMaxMs: 50        # also caps the 429s Retry-After',
        'embedder: hash',
        `strategies: [${STRATEGIES.join(', ')}]`,
        'budget: { calls: 24 }',
        `run: { concurrency: ${opts.concurrency}, repeats: ${repeats}, limit: ${questionsPerRepeat}, seed: ${opts.seed}, outDir: ${JSON.stringify(join(dir, 'runs'))} }`,
        'reports: [json]',
        '',
      ].join('\n'),
    );
    const loaded = loadConfig(configPath);
    const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
    const t0 = performance.now();
    const outcome = await runBenchmark({ loaded, data, runId: 'chaos' });
    const seconds = (performance.now() - t0) / 1000;
    const lines = readFileSync(join(outcome.dir, 'records.jsonl'), 'utf8').split('\n').filter(Boolean);
    const perKey = new Map<string, number>();
    let errorRecords = 0;
    let retries = 0;
    let calls = 0;
    let parseFailures = 0;
    for (const line of lines) {
      const r = JSON.parse(line);
      perKey.set(recordKey(r), (perKey.get(recordKey(r)) ?? 0) + 1);
      if (r.error) errorRecords++;
      parseFailures += r.parseFailures;
      for (const c of r.callLog) {
        retries += c.retries;
        if (c.kind === 'chat') calls++;
      }
    }
    const expected = STRATEGIES.length * questionsPerRepeat * repeats;
    return {
      records: lines.length,
      expected,
      lost: expected - perKey.size,
      duplicated: [...perKey.values()].filter((n) => n > 1).length,
      errorRecords,
      parseFailures,
      calls,
      retriesCounted: retries,
      faultsInjected: server.totalInjected,
      injected: { ...server.injected },
      enormousReplies: server.content.enormous,
      seconds,
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatChaos(f: ChaosFigures, faultRate: number, concurrency: number): string {
  const ok = (b: boolean) => (b ? 'ok' : 'FAIL');
  return [
    `chaos: ${f.expected} tasks, ${(faultRate * 100).toFixed(0)}% injected transient faults, concurrency ${concurrency}, ${f.seconds.toFixed(1)} s`,
    `  records written      ${f.records}`,
    `  lost                 ${f.lost}  ${ok(f.lost === 0)}`,
    `  duplicated           ${f.duplicated}  ${ok(f.duplicated === 0)}`,
    `  error records        ${f.errorRecords}  ${ok(f.errorRecords === 0)}`,
    `  chat calls           ${f.calls} (+ ${f.retriesCounted} retries)`,
    `  retries counted      ${f.retriesCounted}`,
    `  faults injected      ${f.faultsInjected}  ${ok(f.retriesCounted === f.faultsInjected)} (${Object.entries(f.injected).map(([k, v]) => `${k} ${v}`).join(', ')})`,
    `  enormous replies     ${f.enormousReplies} (valid content, not a fault: parse failures, not errors; ${f.parseFailures} parse failures in all)`,
  ].join('\n');
}

export const chaosPassed = (f: ChaosFigures): boolean => f.lost === 0 && f.duplicated === 0 && f.errorRecords === 0 && f.retriesCounted === f.faultsInjected;

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const { values } = parseArgs({
    options: { records: { type: 'string', default: '2000' }, faults: { type: 'string', default: '0.3' }, concurrency: { type: 'string', default: '16' }, seed: { type: 'string', default: '7' }, only: { type: 'string' } },
  });
  const opts = { records: Number(values.records), faultRate: Number(values.faults), concurrency: Number(values.concurrency), seed: Number(values.seed), ...(values.only ? { only: values.only } : {}) };
  const figures = await runChaos(opts);
  process.stdout.write(formatChaos(figures, opts.faultRate, opts.concurrency) + '\n');
  process.exitCode = chaosPassed(figures) ? 0 : 1;
}
