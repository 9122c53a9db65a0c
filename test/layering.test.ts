// Layering: the sources form a layered house, and no module imports one of a higher layer or of
// a sibling layer. From the bottom:
//   1. harness/ (core): the data model (types.ts), the metered model door (context, budgets,
//      providers, tokenizer, prices), the contracts strategies and models share
//      (strategyContext.ts, protocol/), trees, text, metrics, statistics, run store, caches.
//   2. datasets/ and strategies/: siblings on the core; neither imports the other.
//   3. orchestration: the harness modules that assemble a run from the strategy registry and the
//      dataset loaders — config.ts (validates strategy params and dataset sections), runner.ts,
//      runFlags.ts, modelSummaries.ts and tune/. They stay in harness/ and are named here; a new
//      harness module that needs a strategy or a loader joins this list or is wrong.
//   4. reports/: formats runs, summaries, comparisons and tune results.
//   5. cli/: the command, above everything (nothing imports it).
// No import cycles either. Tests and benchmarks may import anything. See
// test/helpers/importGraph.ts for what counts as an import.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, importsInto, layerOf, layerViolations, reachable, type Layer } from './helpers/importGraph.ts';

const SOURCES = ['cli', 'harness', 'strategies', 'datasets', 'reports'];

/** The layers above, bottom first. A file belongs to the layer with the longest path that holds it. */
const LAYERS: Layer[] = [
  { name: 'harness core', rank: 0, paths: ['harness/'] },
  { name: 'datasets', rank: 1, paths: ['datasets/'] },
  { name: 'strategies', rank: 1, paths: ['strategies/'] },
  { name: 'orchestration', rank: 2, paths: ['harness/config.ts', 'harness/runner.ts', 'harness/runFlags.ts', 'harness/modelSummaries.ts', 'harness/tune/'] },
  { name: 'reports', rank: 3, paths: ['reports/'] },
  { name: 'cli', rank: 4, paths: ['cli/'] },
];

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

  it('places every source file in a layer, each named orchestration module included', () => {
    expect([...graph.keys()].filter((f) => !layerOf(f, LAYERS))).toEqual([]);
    // A renamed or removed orchestration module must leave the list, not linger in it.
    const named = LAYERS.flatMap((l) => l.paths).filter((p) => !p.endsWith('/'));
    expect(named.filter((p) => !graph.has(p))).toEqual([]);
    expect(layerOf('harness/runner.ts', LAYERS)?.name).toBe('orchestration');
    expect(layerOf('harness/tune/run.ts', LAYERS)?.name).toBe('orchestration');
    expect(layerOf('harness/context.ts', LAYERS)?.name).toBe('harness core');
  });

  it('imports nothing from a higher layer or a sibling layer', () => {
    expect(layerViolations(graph, LAYERS)).toEqual([]);
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

  it('reports an import into a higher layer or a sibling, by the layers above, and allows the downward ones', () => {
    const root = project({
      // Downward and within a layer: allowed.
      'harness/types.ts': 'export type T = string;\n',
      'harness/context.ts': "import type { T } from './types.ts';\n",
      'strategies/s.ts': "import type { T } from '../harness/types.ts';\nimport { c } from '../harness/context.ts';\n",
      'datasets/d.ts': "import type { T } from '../harness/types.ts';\n",
      'harness/runner.ts': "import { s } from '../strategies/s.ts';\nimport { d } from '../datasets/d.ts';\n",
      'harness/tune/run.ts': "import { r } from '../runner.ts';\n",
      'reports/r.ts': "import { t } from '../harness/tune/run.ts';\n",
      'cli/main.ts': "import { r } from '../reports/r.ts';\nimport { s } from '../strategies/s.ts';\n",
      // Planted: the core reaching up to a strategy (type-only), to orchestration (lazily) and to
      // reports; a loader importing a strategy (siblings); a strategy importing the runner.
      'harness/valueIndex.ts': "import type { S } from '../strategies/s.ts';\nexport const lazy = () => import('./tune/run.ts');\n",
      'harness/metrics/m.ts': "import { r } from '../../reports/r.ts';\n",
      'datasets/e.ts': "import { s } from '../strategies/s.ts';\n",
      'strategies/t.ts': "import { r } from '../harness/runner.ts';\n",
    });
    const graph = importGraph(root, SOURCES);
    expect(layerViolations(graph, LAYERS)).toEqual([
      'datasets/e.ts (datasets) -> strategies/s.ts (strategies)',
      'harness/metrics/m.ts (harness core) -> reports/r.ts (reports)',
      'harness/valueIndex.ts (harness core) -> harness/tune/run.ts (orchestration)',
      'harness/valueIndex.ts (harness core) -> strategies/s.ts (strategies)',
      'strategies/t.ts (strategies) -> harness/runner.ts (orchestration)',
    ]);
  });
});
