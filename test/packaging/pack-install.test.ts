// The published package, as a user gets it: build, `npm pack`, install the tarball into an empty
// folder (dependencies from the npm registry), then run the quickstart with the installed
// command. Slow (a build and an install: about a minute), so it runs when TREEBENCH_PACK_TEST=1,
// which .ci/run sets.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatCompletion, FakeOpenAIServer } from '../helpers/fake-openai-server.ts';

const ROOT = process.cwd();
const enabled = process.env.TREEBENCH_PACK_TEST === '1';

function duBytes(dir: string): number {
  let total = 0;
  for (const f of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (f.isFile()) total += statSync(join(f.parentPath, f.name)).size;
  }
  return total;
}

/** Builds, packs and installs the tarball into an empty folder, once for the tests below. */
let packedApp: { app: string; files: string[]; size: number } | null = null;
function installed(): { app: string; files: string[]; size: number } {
  if (packedApp) return packedApp;
  execFileSync(process.execPath, ['bin/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
  const dest = mkdtempSync(join(tmpdir(), 'treebench-pack-'));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], { cwd: ROOT, encoding: 'utf8' })) as Array<{ filename: string; files: Array<{ path: string }>; size: number }>;
  const app = mkdtempSync(join(tmpdir(), 'treebench-app-'));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', join(dest, packed[0]!.filename)], { cwd: app, stdio: 'pipe' });
  return (packedApp = { app, files: packed[0]!.files.map((f) => f.path), size: packed[0]!.size });
}

/**
 * `bin args` run in `cwd` against a fake OpenAI-compatible server (test/helpers): asynchronously,
 * as the server answers on this process's event loop. Its chat replies say "loopback".
 */
async function runAgainstFakeServer(bin: string, args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string; chatRequests: number }> {
  const server = await FakeOpenAIServer.start();
  server.onChat = chatCompletion('loopback', { prompt: 10, completion: 1 });
  try {
    const env = { ...process.env, OPENAI_API_KEY: `sk-${'loopback-not-a-key'}`, OPENAI_BASE_URL: server.baseURL };
    const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b));
    child.stderr.on('data', (b: Buffer) => (stderr += b));
    const status = await new Promise<number | null>((done) => child.on('close', done));
    return { status, stdout, stderr, chatRequests: server.requestsTo('/v1/chat/completions').length };
  } finally {
    await server.close();
  }
}

describe.skipIf(!enabled)('npm pack, install in an empty folder, run the quickstart', () => {
  it('ships compiled JavaScript only, installs under 45 MB, runs offline and calls a model without the openai package', async () => {
    const { app, files, size } = installed();
    expect(files).toContain('cli/main.js');
    expect(files).toContain('index.js');
    expect(files).toContain('index.d.ts');
    expect(files).toContain('datasets/sample/questions.jsonl');
    expect(files).toContain('configs/quickstart.yaml');
    // The README's guides travel with it, so its links work where the package is installed.
    expect(files).toContain('docs/configs.md');
    // TypeScript ships as declarations only; the plugin examples are sources by nature.
    expect(files.filter((f) => (f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('examples/')) || f.startsWith('test/') || f.startsWith('.ci/') || f.startsWith('bench/') || f.includes('__pycache__'))).toEqual([]);
    const bytes = duBytes(join(app, 'node_modules'));
    // (The type declarations of the library API add about 2 MB.)
    expect(bytes).toBeLessThan(45 * 1024 * 1024);
    // TypeScript tooling and the optional PDF / OpenAI packages stay out of a default install.
    for (const dev of ['tsx', 'typescript', 'pdfjs-dist', '@napi-rs/canvas', 'openai', 'gpt-tokenizer']) expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false);

    // Its `prepare` script, should npm run it for an installed tarball, finds no build script and
    // does nothing (exit 0) instead of failing the install.
    const prepare = spawnSync(process.execPath, [join(app, 'node_modules', 'treebench', 'bin', 'prepare.mjs')], { cwd: join(app, 'node_modules', 'treebench'), encoding: 'utf8' });
    expect(prepare.status, prepare.stderr).toBe(0);
    expect(files).not.toContain('bin/build.mjs');

    const bin = join(app, 'node_modules', '.bin', 'treebench');
    const version = spawnSync(bin, ['--version'], { cwd: app, encoding: 'utf8' });
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    const config = join(app, 'node_modules', 'treebench', 'configs', 'quickstart.yaml');
    const run = spawnSync(bin, ['run', config, '--limit', '5', '--out', 'runs', '--run-id', 'qs', '--quiet', '--format', 'json'], { cwd: app, encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.summary.strategies.map((s: { strategy: string }) => s.strategy)).toEqual(['vector', 'node-list', 'layerwise', 'hybrid-beam', 'mcts', 'agent']);
    expect(report.summary.strategies.every((s: { records: number }) => s.records === 5)).toBe(true);
    const html = spawnSync(bin, ['report', join('runs', 'qs'), '--format', 'html', '--out', 'qs.html'], { cwd: app, encoding: 'utf8' });
    expect(html.status).toBe(0);
    expect(readFileSync(join(app, 'qs.html'), 'utf8')).toMatch(/<svg/);
    // The command carries the openai SDK in its bundle (dist/vendor/http.cjs): a real-model run
    // works without the optional openai package, here against a fake server.
    writeFileSync(join(app, 'real.yaml'), 'name: real\ndataset:\n  format: sample\nmodel:\n  provider: openai\n  model: loopback\nembedder: hash\nstrategies: [vector]\n');
    const real = await runAgainstFakeServer(bin, ['run', 'real.yaml', '--limit', '2', '--out', 'runs', '--run-id', 'real', '--quiet', '--format', 'json'], app);
    expect(real.status, real.stderr).toBe(0);
    const realRow = JSON.parse(real.stdout).summary.strategies[0];
    expect(realRow.records).toBe(2);
    expect(realRow.errors).toBe(0);
    // Every call the records count reached the server.
    expect(real.chatRequests).toBeGreaterThanOrEqual(2);
    expect(realRow.callsPerQuestion * realRow.records).toBe(real.chatRequests);
    // The bundled packages' licences travel with them.
    const licences = readFileSync(join(app, 'node_modules', 'treebench', 'dist', 'THIRD-PARTY-LICENSES.txt'), 'utf8');
    for (const pkg of ['openai@', 'undici@', 'yargs@', 'zod@', 'yaml@']) expect(licences, pkg).toContain(pkg);
    console.log(`pack: ${size} bytes, ${files.length} files; installed node_modules: ${(bytes / 1024 / 1024).toFixed(1)} MB`);
  }, 600_000);

  it('benchmarks a TypeScript module, a Python worker and an HTTP service beside vector, and types a user\'s plugin and script', async () => {
    const { app } = installed();
    // A .ts plugin needs tsx (an optional peer); type-checking needs TypeScript and Node's types.
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', 'tsx@4.23.15', 'typescript@5.9.3', '@types/node@20.19.43'], { cwd: app, stdio: 'pipe' });
    cpSync(join(app, 'node_modules', 'treebench', 'examples', 'plugins'), join(app, 'plugins'), { recursive: true });
    const bin = join(app, 'node_modules', '.bin', 'treebench');
    const service = spawn('python3', [join(app, 'plugins', 'http_service.py'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const url = await new Promise<string>((resolve) => service.stdout.once('data', (b: Buffer) => resolve(/http:\/\/\S+/.exec(b.toString())![0])));
      const env = { ...process.env, TREEBENCH_SERVICE_URL: url };
      const run = spawnSync(bin, ['run', 'plugins/plugins.yaml', '--limit', '6', '--out', 'runs', '--run-id', 'plug', '--quiet', '--format', 'json'], { cwd: app, encoding: 'utf8', env });
      expect(run.stderr).not.toMatch(/error|warning/i);
      expect(run.status).toBe(0);
      const rows = JSON.parse(run.stdout).summary.strategies as Array<{ strategy: string; records: number; errors: number; callsPerQuestion: number; tokensPerQuestion: number; costPerQuestion: number; latencyMs: { p50: number } }>;
      expect(rows.map((r) => r.strategy)).toEqual(['vector', 'ts-keyword', 'py-keyword', 'py-service']);
      for (const r of rows) {
        expect(r.records, r.strategy).toBe(6);
        expect(r.errors, r.strategy).toBe(0);
        expect(r.callsPerQuestion, r.strategy).toBeGreaterThan(0);
        expect(r.tokensPerQuestion, r.strategy).toBeGreaterThan(0);
        expect(r.costPerQuestion, r.strategy).toBeGreaterThan(0);
        expect(r.latencyMs.p50, r.strategy).toBeGreaterThan(0);
      }
      for (const args of [
        ['report', 'runs/plug', '--format', 'html', '--out', 'plug.html'],
        ['compare', 'runs/plug', '--within'],
        ['gate', '--baseline', 'runs/plug', '--candidate', 'runs/plug'],
        ['trace', 'runs/plug', '--question', 'sample-001', '--strategy', 'py-keyword'],
      ]) {
        const r = spawnSync(bin, args, { cwd: app, encoding: 'utf8' });
        expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      }
      expect(readFileSync(join(app, 'plug.html'), 'utf8')).toContain('py-service');
      expect(spawnSync(bin, ['trace', 'runs/plug', '--question', 'sample-001', '--strategy', 'py-keyword'], { cwd: app, encoding: 'utf8' }).stdout).toMatch(/score/);
    } finally {
      service.kill();
    }
    // Custom scorers (a TypeScript and a JavaScript one) from the installed examples.
    const scored = spawnSync(bin, ['run', 'plugins/scorers.yaml', '--limit', '4', '--out', 'runs', '--run-id', 'scored', '--quiet', '--format', 'json'], { cwd: app, encoding: 'utf8' });
    expect(scored.status, scored.stderr).toBe(0);
    const custom = JSON.parse(scored.stdout).summary.strategies.map((s: { custom?: Record<string, { n: number }> }) => s.custom);
    for (const c of custom) expect(c?.answerWords?.n).toBe(4);

    // A user's plugin and script compile against the installed package's types (strict)...
    const src = join(app, 'typed');
    mkdirSync(src);
    writeFileSync(join(src, 'plugin.ts'), "import { defineStrategy, z, type StrategyResponse } from 'treebench';\nexport default defineStrategy({\n  name: 'typed',\n  params: z.object({ k: z.number().default(3) }),\n  async run(request, ctx): Promise<StrategyResponse> {\n    const k: number = request.params.k;\n    const hits = await ctx.valueSearch(request.question, { topK: k });\n    const reply = await ctx.chat([{ role: 'user', content: request.question }]);\n    return { answer: reply.text, evidence: hits.map((h) => ({ docId: h.docId, nodeId: h.nodeId })) };\n  },\n});\n");
    writeFileSync(join(src, 'script.ts'), "import { compareRuns, runBenchmark, stats, type RunSummary } from 'treebench';\nconst { summary, runDir }: { summary: RunSummary; runDir: string } = await runBenchmark('node_modules/treebench/configs/quickstart.yaml', { limit: 2, onProgress: (p) => void p.done });\nconst ci = stats.wilson(3, 10);\nconsole.log(runDir, summary.strategies.length, ci);\nconst cmp = compareRuns(runDir, { within: true, metrics: ['accuracy', 'custom.words'] });\nconst d: number = cmp.result.comparisons[0]!.metrics[0]!.delta;\nconsole.log(d);\n");
    writeFileSync(join(src, 'scorer.ts'), "import { defineScorer, type ScorerInput } from 'treebench';\nexport default defineScorer({\n  name: 'words',\n  higherIsBetter: false,\n  score: (input: ScorerInput): number | null => (input.record.error ? null : input.answer.split(/\\s+/).length + input.evidence.reduce((n, e) => n + e.text.length * 0, 0)),\n});\n");
    const tsconfig = { compilerOptions: { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', skipLibCheck: false, types: ['node'] }, include: ['*.ts'] };
    writeFileSync(join(src, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = join(app, 'node_modules', '.bin', 'tsc');
    const ok = spawnSync(tsc, ['-p', src], { cwd: app, encoding: 'utf8' });
    expect(ok.stdout + ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    // ... and the types are real: a response without a string answer does not compile.
    writeFileSync(join(src, 'wrong.ts'), "import type { StrategyResponse } from 'treebench';\nexport const r: StrategyResponse = { answer: 42 };\n");
    const wrong = spawnSync(tsc, ['-p', src], { cwd: app, encoding: 'utf8' });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toMatch(/wrong\.ts.*Type 'number' is not assignable to type 'string'/);
  }, 600_000);
});
