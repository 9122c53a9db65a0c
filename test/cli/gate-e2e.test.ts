// End to end: the real runner (offline reasoner) produces the runs, `treebench gate` judges them.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { validateConfig, type LoadedConfig } from '../../harness/config/runConfig.ts';
import { runBenchmark } from '../../harness/run/runner.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { tempDir } from '../harness/analysis/compare/runFixtures.ts';
import { runCli } from './runCli.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const S10 = resolve(repoRoot, '../shared/datasets/emanual-s10');

function vectorConfig(name: string, dataset: Record<string, unknown>, topK: number): LoadedConfig {
  const raw = { name, dataset, model: { provider: 'offline', priceAs: 'gpt-4o-mini' }, embedder: 'hash', strategies: [{ id: 'vector', strategy: 'vector', params: { topK } }], run: { concurrency: 4, seed: 42 } };
  const { config, strategies } = validateConfig(raw);
  // The YAML text is what the manifest hashes; a stable rendering of the object does here.
  return { path: join(repoRoot, 'configs', `${name}.yaml`), baseDir: repoRoot, raw: JSON.stringify(raw), config, strategies };
}

async function run(loaded: LoadedConfig, outDir: string, runId: string): Promise<string> {
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
  return (await runBenchmark({ loaded, data, outDir, runId })).dir;
}

describe('gate on real runs', () => {
  it('two runs of the same config pass (exit 0)', async () => {
    const out = tempDir();
    const cfg = vectorConfig('sample-k8', { format: 'sample' }, 8);
    const a = await run(cfg, out, 'a');
    const b = await run(cfg, out, 'b');
    const r = await runCli(['gate', '--baseline', a, '--candidate', b]);
    expect(r.stdout).toMatch(/^treebench gate: PASSED/);
    expect(r.code).toBe(0);
  });

  it('vector topK 1 against topK 8 on the S10 set fails (exit 1) naming metric, drop, interval and p', async () => {
    const out = tempDir();
    const dataset = { format: 'emanual-s10', path: S10 };
    const base = await run(vectorConfig('s10-k8', dataset, 8), out, 'k8');
    const weak = await run(vectorConfig('s10-k1', dataset, 1), out, 'k1');
    const junit = join(out, 'gate.xml');
    const r = await runCli(['gate', '--baseline', base, '--candidate', weak, '--junit', junit]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL vector: evidenceRecall dropped 0\.\d{3} \(95% CI \[0\.\d{3}, 0\.\d{3}\]\) p(<0\.001|=0\.\d{3})( \(Holm\))? > maxDrop 0\.03/);
    const xml = readFileSync(junit, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    expect(Number(doc.testsuites.failures)).toBeGreaterThanOrEqual(1);
  });
});
