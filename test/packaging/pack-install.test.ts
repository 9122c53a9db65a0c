// The published package, as a user gets it: build, `npm pack`, install the tarball into an empty
// folder (dependencies from the npm registry), then run the quickstart with the installed
// command. Slow (a build and an install: about a minute), so it runs when TREEBENCH_PACK_TEST=1,
// which .ci/run sets.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const enabled = process.env.TREEBENCH_PACK_TEST === '1';

function duBytes(dir: string): number {
  let total = 0;
  for (const f of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (f.isFile()) total += statSync(join(f.parentPath, f.name)).size;
  }
  return total;
}

describe.skipIf(!enabled)('npm pack, install in an empty folder, run the quickstart', () => {
  it('ships compiled JavaScript only, installs under 40 MB and runs offline', () => {
    execFileSync(process.execPath, ['bin/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
    const dest = mkdtempSync(join(tmpdir(), 'treebench-pack-'));
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], { cwd: ROOT, encoding: 'utf8' })) as Array<{ filename: string; files: Array<{ path: string }>; size: number }>;
    const files = packed[0]!.files.map((f) => f.path);
    expect(files).toContain('cli/main.js');
    expect(files).toContain('datasets/sample/questions.jsonl');
    expect(files).toContain('configs/quickstart.yaml');
    // The README's guides travel with it, so its links work where the package is installed.
    expect(files).toContain('docs/configs.md');
    expect(files.filter((f) => f.endsWith('.ts') || f.startsWith('test/') || f.startsWith('.ci/') || f.startsWith('bench/'))).toEqual([]);

    const app = mkdtempSync(join(tmpdir(), 'treebench-app-'));
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', join(dest, packed[0]!.filename)], { cwd: app, stdio: 'pipe' });
    const installed = duBytes(join(app, 'node_modules'));
    expect(installed).toBeLessThan(40 * 1024 * 1024);
    // TypeScript tooling and the optional PDF / OpenAI packages stay out of a default install.
    for (const dev of ['tsx', 'typescript', 'pdfjs-dist', '@napi-rs/canvas', 'openai']) expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false);

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
    // A real-model config without the optional openai package fails clearly (exit 2), not with a stack.
    writeFileSync(join(app, 'real.yaml'), 'name: real\ndataset:\n  format: sample\nmodel:\n  provider: openai\n  model: gpt-4o-mini\nstrategies: [vector]\n');
    const real = spawnSync(bin, ['run', 'real.yaml', '--limit', '1', '--quiet'], { cwd: app, encoding: 'utf8', env: { ...process.env, OPENAI_API_KEY: `sk-${'test-not-used'}` } });
    expect(real.status).toBe(2);
    expect(real.stderr).toMatch(/npm install openai/);
    console.log(`pack: ${packed[0]!.size} bytes, ${files.length} files; installed node_modules: ${(installed / 1024 / 1024).toFixed(1)} MB`);
  }, 600_000);
});
