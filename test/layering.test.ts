// Layering: no import cycles among the sources, and the CLI (cli/) stands above everything else
// — no module of harness/, strategies/, datasets/ or reports/ imports it. Tests and benchmarks
// may import anything. See test/helpers/importGraph.ts for what counts as an import.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, importsInto, reachable } from './helpers/importGraph.ts';

const SOURCES = ['cli', 'harness', 'strategies', 'datasets', 'reports'];

describe('layering of the sources', () => {
  const graph = importGraph(process.cwd(), SOURCES);

  it('reads the real sources', () => {
    // A walk that found nothing would pass every rule below.
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('cli/handlers/run.ts')).toContain('harness/runner.ts');
    expect(graph.get('cli/commands.ts')).toContain('cli/handlers/compare.ts'); // a dynamic import
  });

  it('has no import cycle', () => {
    expect(importCycles(graph).map((loop) => loop.join(' -> '))).toEqual([]);
  });

  it('imports cli/ from nowhere below it', () => {
    expect(importsInto(graph, 'cli')).toEqual([]);
  });

  it('starts the CLI without loading a command, a dataset loader, a strategy or the runner', () => {
    // `treebench --help` loads cli/main.ts and what it imports statically; each command's module
    // is imported (dynamically) only when that command runs. Timing: npm run bench:startup.
    const atStart = [...reachable(importGraph(process.cwd(), SOURCES, { staticOnly: true }), 'cli/main.ts')];
    expect(atStart).toContain('cli/commands.ts');
    const heavy = atStart.filter((f) => f.startsWith('cli/handlers/') || f.startsWith('strategies/') || (f.startsWith('datasets/') && f !== 'datasets/errors.ts') || /^harness\/(runner|config|context|providers\/)/.test(f) || /^reports\/(index|html\/)/.test(f));
    expect(heavy).toEqual([]);
  });
});

describe('the import-graph walk finds what it must', () => {
  function project(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'treebench-layering-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  it('reports a cycle through a type-only import and one through a dynamic import', () => {
    const root = project({
      'harness/a.ts': "import type { B } from './b.ts';\nexport type A = B;\n",
      'harness/b.ts': "import { c } from './sub/c.ts';\nexport type B = string;\n",
      'harness/sub/c.ts': "export const c = () => import('../a.ts');\n",
      'harness/d.ts': "export { e } from './e.ts';\n",
      'harness/e.ts': "import { d } from './d.ts';\nexport const e = 1;\n",
      'harness/ok.ts': "import { z } from 'zod';\nimport type { A } from './a.ts';\n",
    });
    const graph = importGraph(root, ['harness']);
    const cycles = importCycles(graph);
    expect(cycles.map((l) => l.join(' -> ')).sort()).toEqual([
      'harness/a.ts -> harness/b.ts -> harness/sub/c.ts -> harness/a.ts',
      'harness/d.ts -> harness/e.ts -> harness/d.ts',
    ]);
    // Without the lazy import there is no loop through c.ts, and a.ts is not reached from it.
    const staticGraph = importGraph(root, ['harness'], { staticOnly: true });
    expect(importCycles(staticGraph).map((l) => l.join(' -> '))).toEqual(['harness/d.ts -> harness/e.ts -> harness/d.ts']);
    expect([...reachable(staticGraph, 'harness/sub/c.ts')]).toEqual(['harness/sub/c.ts']);
    expect([...reachable(graph, 'harness/sub/c.ts')].sort()).toEqual(['harness/a.ts', 'harness/b.ts', 'harness/sub/c.ts']);
  });

  it('reports an import of cli/ from a lower folder, and not one from cli/ itself', () => {
    const root = project({
      'cli/main.ts': "import { x } from '../harness/x.ts';\nimport { y } from './y.ts';\n",
      'cli/y.ts': 'export const y = 1;\n',
      'harness/x.ts': "export const x = 1;\nexport const lazy = () => import('../cli/y.ts');\n",
      'clipboard/z.ts': "import { y } from '../cli/y.ts';\n",
    });
    const graph = importGraph(root, ['cli', 'harness', 'clipboard']);
    expect(importsInto(graph, 'cli')).toEqual(['clipboard/z.ts -> cli/y.ts', 'harness/x.ts -> cli/y.ts']);
    expect(importCycles(graph)).toEqual([]);
  });
});
