// In-process plugins (`module:`) and the strategy entries of a config: what loads, and the errors
// a user gets for what does not, each naming the field and the file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBenchmark } from '../../../index.ts';
import { validateConfig } from '../../../harness/config/runConfig.ts';
import { configHashOf } from '../../../harness/config/overrides.ts';

const INDEX = new URL('../../../index.ts', import.meta.url).pathname;
const ROOT = new URL('../../../', import.meta.url).pathname;

function dir(files: Record<string, string>): string {
  const d = mkdtempSync(join(tmpdir(), 'treebench-module-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(d, name), text);
  return d;
}

const base = (d: string, strategies: unknown[]) => ({
  name: 'module-test',
  dataset: { format: 'sample' },
  strategies,
  run: { outDir: join(d, 'runs') },
  index: { cache: { enabled: false } },
  reports: [],
});

const PLUGIN = `
import { defineStrategy, z } from '${INDEX}';
export default defineStrategy({
  name: 'first-hit',
  params: z.object({ k: z.number().int().min(1).default(2) }).strict(),
  async run(request, ctx) {
    const hits = await ctx.valueSearch(request.question, { topK: request.params.k });
    const reply = await ctx.chat([{ role: 'user', content: 'Question: ' + request.question + '\\n' + hits.map((h) => h.text).join('\\n') }]);
    return { answer: reply.text, evidence: [...hits.map((h) => ({ docId: h.docId, nodeId: h.nodeId })), { docId: 'nope', nodeId: 'x' }] };
  },
});
`;

describe('module plugins', () => {
  it('run in-process with the metered context, params parsed by their schema', async () => {
    const d = dir({ 'plugin.ts': PLUGIN });
    const out = await runBenchmark(base(d, [{ id: 'mine', module: './plugin.ts', params: { k: 1 } }]), { baseDir: d, limit: 3 });
    for (const r of out.records) {
      expect(r.error).toBeNull();
      expect(r.calls).toBe(1);
      expect(r.embedCalls).toBe(1);
      expect(r.evidence).toHaveLength(1); // the unknown node is dropped and counted
      expect(r.parseFailures).toBe(1);
      expect(r.trace.some((t) => t.action === 'skip' && t.reason === 'evidence[1] names no node of the corpus (nope/x; no document "nope"): dropped')).toBe(true);
    }
  }, 30_000);

  it('refuses params that break the schema, naming the field and the plugin file', async () => {
    const d = dir({ 'plugin.ts': PLUGIN });
    await expect(runBenchmark(base(d, [{ id: 'mine', module: './plugin.ts', params: { k: 0 } }]), { baseDir: d, limit: 1 })).rejects.toThrow(/strategies\[0\]\.params\.k: .*first-hit, .*plugin\.ts/);
  });

  it('says what is wrong with a module that is not a plugin', async () => {
    const d = dir({ 'plain.mjs': 'export default { name: "x", run() {} };\n', 'none.mjs': 'export const x = 1;\n', 'broken.mjs': 'export default (;\n' });
    await expect(runBenchmark(base(d, [{ id: 'a', module: './plain.mjs' }]), { baseDir: d })).rejects.toThrow(/strategies\[0\]\.module: .*plain\.mjs: its default export is an object not made with defineStrategy/);
    await expect(runBenchmark(base(d, [{ id: 'a', module: './none.mjs' }]), { baseDir: d })).rejects.toThrow(/it has no default export/);
    await expect(runBenchmark(base(d, [{ id: 'a', module: './broken.mjs' }]), { baseDir: d })).rejects.toThrow(/broken\.mjs failed to load: .*(SyntaxError|invalid JS syntax)/); // (vitest parses it itself)
  });

  it('says where a scorer listed as a strategy belongs, and a strategy listed as a scorer', async () => {
    const d = dir({
      'scorer.ts': `import { defineScorer } from '${INDEX}';\nexport default defineScorer({ name: 'len', score: (i) => i.answer.length });\n`,
      'plugin.ts': PLUGIN,
    });
    await expect(runBenchmark(base(d, [{ id: 'a', module: './scorer.ts' }]), { baseDir: d, limit: 1 })).rejects.toThrow(/strategies\[0\]\.module: .*scorer\.ts is a scorer \(made with defineScorer\), not a strategy: list it under scoring\.scorers/);
    await expect(runBenchmark({ ...base(d, ['vector']), scoring: { scorers: ['./plugin.ts'] } }, { baseDir: d, limit: 1 })).rejects.toThrow(/plugin\.ts is a strategy \(made with defineStrategy\), not a scorer: list it under strategies/);
  });
  it('loads a .ts plugin of a CommonJS package (`npm init -y`), which tsx compiles as CommonJS', async () => {
    // Its exports arrive as the default export, the plugin one level down. Vitest (and a process
    // already under tsx) unwraps that itself, so the loader is bundled as the published package
    // runs it and imported in a plain Node process, where a .ts file goes through tsx.tsImport.
    const plugin = `export default { name: 'cjs-first', [Symbol.for('treebench.plugin')]: 'strategy', async run() { return { answer: 'x', evidence: [] }; } };
export const helper = 1;
`;
    const d = dir({ 'package.json': '{ "name": "user-project", "type": "commonjs" }\n', 'plugin.ts': plugin });
    // Inside the checkout, so that the bundle's import('tsx/esm/api') resolves.
    const out = mkdtempSync(join(ROOT, 'node_modules', '.treebench-test-'));
    try {
      const { build } = await import('esbuild');
      await build({ entryPoints: [join(ROOT, 'harness/plugins/load.ts')], bundle: true, format: 'esm', platform: 'node', outfile: join(out, 'load.mjs'), external: ['tsx', 'tsx/*'], logLevel: 'silent' });
      const probe = `const { loadPlugin } = await import(${JSON.stringify(join(out, 'load.mjs'))}); const p = await loadPlugin(process.argv[1], 'strategy', 'strategies[0].module'); console.log('loaded ' + p.name);`;
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe, join(d, 'plugin.ts')], { encoding: 'utf8' });
      expect(run.stderr).not.toMatch(/not made with defineStrategy/);
      expect(run.stdout.trim()).toBe('loaded cjs-first');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 30_000);
});

// A module's own code may await something that never settles (a tester's plugin did): the run
// must neither hang on it nor make a Ctrl-C wait for ever.
const HANGS = `
import { defineStrategy } from '${INDEX}';
export default defineStrategy({
  name: 'hangs-on-two',
  async run(request) {
    if (request.questionId === 'sample-002') await new Promise(() => {});
    return { answer: 'x', evidence: [] };
  },
});
`;

describe('a module that never returns', () => {
  it('is an error record after its timeoutMs, and the run goes on', async () => {
    const d = dir({ 'hangs.ts': HANGS });
    const started = performance.now();
    const out = await runBenchmark(base(d, [{ id: 'h', module: './hangs.ts', timeoutMs: 300 }]), { baseDir: d, limit: 3 });
    expect(performance.now() - started).toBeLessThan(20_000);
    const byQ = Object.fromEntries(out.records.map((r) => [r.questionId, r.error]));
    expect(byQ['sample-002']).toBe('StrategyTimeoutError: the module did not return within timeoutMs (300 ms); its work was abandoned');
    expect(byQ['sample-001']).toBeNull();
    expect(byQ['sample-003']).toBeNull();
  }, 30_000);

  it('does not hold an interrupted run: the task is left for --resume', async () => {
    const d = dir({ 'hangs.ts': HANGS });
    const stop = new AbortController();
    // Interrupt once the other questions are written (the default timeoutMs, 120 s, is far off).
    const out = runBenchmark(base(d, [{ id: 'h', module: './hangs.ts' }]), {
      baseDir: d,
      limit: 3,
      signal: stop.signal,
      onProgress: (p) => {
        if (p.phase === 'run' && p.done === 2) setTimeout(() => stop.abort(new Error('interrupted (Ctrl-C)')), 50);
      },
    });
    const result = await out;
    expect(result.stopped?.interrupted).toBe(true);
    expect(result.stopped?.notRun).toBe(1);
    expect(result.records.map((r) => r.questionId).sort()).toEqual(['sample-001', 'sample-003']);
  }, 30_000);

  it('a module path that is a folder is a config error naming the field', () => {
    const d = dir({ 'hangs.ts': HANGS });
    expect(() => validateConfig(base(d, [{ id: 'h', module: '.' }]), () => 'x.yaml', d)).toThrow(/strategies\[0\]\.module: \.: not a file/);
  });
});

describe('plugin errors found when the run starts', () => {
  it('name the config file and line of the entry, like the errors of the config itself', async () => {
    const d = dir({ 'broken.mjs': 'export default (;\n' });
    const yaml = (entry: string) => `name: t\ndataset: { format: sample }\nstrategies:\n  - vector\n${entry}\nrun: { outDir: ${JSON.stringify(join(d, 'runs'))} }\nreports: []\n`;
    writeFileSync(join(d, 'a.yaml'), yaml('  - id: b\n    module: ./broken.mjs'));
    writeFileSync(join(d, 'b.yaml'), yaml('  - id: w\n    command: [no-such-program-tb, --serve]'));
    await expect(runBenchmark(join(d, 'a.yaml'), { limit: 1 })).rejects.toThrow(/a\.yaml:6 strategies\[1\]\.module: .*broken\.mjs failed to load/);
    await expect(runBenchmark(join(d, 'b.yaml'), { limit: 1 })).rejects.toThrow(/b\.yaml:6 strategies\[1\]\.command\[0\]: "no-such-program-tb" is not a program on PATH/);
  });
});

describe('strategy entries', () => {
  const d = dir({ 'plugin.ts': PLUGIN, 'w.py': 'print(1)\n', 'p.md': 'Pick at most {{max_nodes}} nodes for {{question}}.' });
  const errorOf = (strategies: unknown[]) => {
    try {
      validateConfig(base(d, strategies), () => 'x.yaml', d);
    } catch (err) {
      return (err as Error).message;
    }
    return '';
  };

  it('tells the doors apart and names what is wrong with each', () => {
    expect(errorOf([{ id: 'a', module: './plugin.ts', command: ['python3'] }])).toMatch(/strategies\[0\]: give one of `module`, `command`, not several/);
    expect(errorOf([{ id: 'a', params: {} }])).toMatch(/strategies\[0\]: name the strategy with one of `strategy: <built-in>`, `module: \.\/file\.ts`/);
    expect(errorOf([{ module: './missing.ts' }])).toMatch(/strategies\[0\]\.module: \.\/missing\.ts: no such file/);
    expect(errorOf([{ command: ['python3', './w.py'] }])).toMatch(/strategies\[0\]\.id: required: a command or url entry names its strategy with `id`/);
    expect(errorOf([{ id: 'w', comand: ['python3', './w.py'] }])).toMatch(/strategies\[0\]: unknown key "comand" \(did you mean "command"\?\); name the strategy with one of/);
    expect(errorOf([{ id: 'w', command: ['python3', './wrker.py', '--port', '8'] }])).toMatch(/x\.yaml strategies\[0\]\.command\[1\]: \.\/wrker\.py: no such file \(paths are relative to the config's folder/);
    expect(errorOf([{ id: 'w', command: ['python3', './w.py', '--out', './later/'] }])).toBe(''); // not a script
    expect(errorOf([{ id: 'w', command: 'python3 ./w.py' }])).toMatch(/strategies\[0\]\.command: expected the program and its arguments as a list/);
    expect(errorOf([{ id: 'u', url: 'ftp://x' }])).toMatch(/strategies\[0\]\.url: expected an http:\/\/ or https:\/\/ URL/);
    expect(errorOf([{ id: 'u', url: 'http://127.0.0.1:1/x', tiemoutMs: 5 }])).toMatch(/strategies\[0\]: unknown key "tiemoutMs" \(did you mean "timeoutMs"\?\)/);
    expect(errorOf(['./plugin/dir/x'])).toMatch(/no such file/); // a path-looking string is a module
    expect(errorOf(['vectr'])).toMatch(/unknown strategy "vectr"/);
  });

  it('accepts a module path as a bare string, with its file name as id', () => {
    const { strategies } = validateConfig(base(d, ['./plugin.ts', 'vector']), () => 'x.yaml', d);
    expect(strategies.map((s) => [s.id, s.strategy, s.source?.kind ?? 'builtin'])).toEqual([
      ['plugin', 'module:./plugin.ts', 'module'],
      ['vector', 'vector', 'builtin'],
    ]);
  });

  it('hashes the plugin files and prompt templates into the config hash', () => {
    const a = validateConfig(base(d, [{ id: 'w', command: ['python3', './w.py'] }]), () => 'x', d);
    writeFileSync(join(d, 'w.py'), 'print(2)\n');
    const b = validateConfig(base(d, [{ id: 'w', command: ['python3', './w.py'] }]), () => 'x', d);
    expect(Object.keys(a.sources!)).toEqual(['w.py']);
    expect(configHashOf(a)).not.toBe(configHashOf(b));
    expect(configHashOf({ config: a.config })).toBe(configHashOf({ config: b.config })); // the YAML alone is the same
  });
});
