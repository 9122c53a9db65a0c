// Layering: the sources form a layered house, and no module imports one of a higher layer or of
// a sibling layer. From the bottom:
//   1. harness/ (the engine): rooms named for what they do (run/, models/, retrieval/, scoring/,
//      summary/, stats/, analysis/, config/, trees/, text/, protocol/, strategy/, files/), the
//      shared data model (types.ts, errors.ts) and its public face (index.ts). It imports nothing
//      above it: strategies and dataset loaders reach it through its registries and types.
//   2. datasets/ and strategies/: siblings on the engine; neither imports the other.
//   3. reports/: formats runs, summaries, comparisons and tune results.
//   4. the package's library face (index.ts at the root): the engine with the built-ins wired in.
//   5. cli/: the command, above everything (nothing imports it).
// No import cycles either. Tests and benchmarks may import anything. See
// test/helpers/importGraph.ts for what counts as an import.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, importsInto, layerOf, layerViolations, reachable, type Layer } from './helpers/importGraph.ts';

const SOURCES = ['cli', 'harness', 'strategies', 'datasets', 'reports', 'index.ts'];

/** The layers above, bottom first. A file belongs to the layer with the longest path that holds it. */
const LAYERS: Layer[] = [
  { name: 'harness', rank: 0, paths: ['harness/'] },
  { name: 'datasets', rank: 1, paths: ['datasets/'] },
  { name: 'strategies', rank: 1, paths: ['strategies/'] },
  { name: 'reports', rank: 2, paths: ['reports/'] },
  { name: 'library face', rank: 3, paths: ['index.ts'] },
  { name: 'cli', rank: 4, paths: ['cli/'] },
];

/** The only files on harness/'s floor: its public face and the shared data model. */
const HARNESS_FLOOR = ['harness/errors.ts', 'harness/index.ts', 'harness/types.ts'];

describe('layering of the sources', () => {
  const graph = importGraph(process.cwd(), SOURCES);

  it('reads the real sources', () => {
    // A walk that found nothing would pass every rule below.
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('cli/handlers/run.ts')).toContain('harness/run/runner.ts');
    expect(graph.get('cli/commands.ts')).toContain('cli/handlers/compare.ts'); // a dynamic import
  });

  it('has no import cycle', () => {
    expect(importCycles(graph).map((loop) => loop.join(' -> '))).toEqual([]);
  });

  it('imports cli/ from nowhere below it', () => {
    expect(importsInto(graph, 'cli')).toEqual([]);
  });

  it('places every source file in a layer', () => {
    expect([...graph.keys()].filter((f) => !layerOf(f, LAYERS))).toEqual([]);
    expect(layerOf('harness/run/runner.ts', LAYERS)?.name).toBe('harness');
  });

  it('keeps harness/ in rooms: no loose file but its public face and the shared types', () => {
    const loose = [...graph.keys()].filter((f) => /^harness\/[^/]+$/.test(f));
    expect(loose.filter((f) => !HARNESS_FLOOR.includes(f))).toEqual([]);
    expect(loose).toContain('harness/types.ts');
  });

  it('imports nothing above harness/ from inside it', () => {
    const up = [...graph].flatMap(([from, tos]) => (from.startsWith('harness/') ? tos.filter((t) => !t.startsWith('harness/')).map((t) => `${from} -> ${t}`) : []));
    expect(up).toEqual([]);
  });

  it('imports nothing from a higher layer or a sibling layer', () => {
    expect(layerViolations(graph, LAYERS)).toEqual([]);
  });

  it('starts the CLI without loading a command, a dataset loader, a strategy or the runner', () => {
    // `treebench --help` loads cli/main.ts and what it imports statically; each command's module
    // is imported (dynamically) only when that command runs. Timing: npm run bench:startup.
    const atStart = [...reachable(importGraph(process.cwd(), SOURCES, { staticOnly: true }), 'cli/main.ts')];
    expect(atStart).toContain('cli/commands.ts');
    const heavy = atStart.filter((f) => f.startsWith('cli/handlers/') || f.startsWith('strategies/') || (f.startsWith('datasets/') && f !== 'datasets/errors.ts') || /^harness\/(run\/runner|config\/runConfig|run\/context|models\/providers\/)/.test(f) || /^reports\/(index|html\/)/.test(f));
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
      'harness/run/context.ts': "import type { T } from '../types.ts';\n",
      'strategies/s.ts': "import type { T } from '../harness/types.ts';\nimport { c } from '../harness/run/context.ts';\n",
      'datasets/d.ts': "import type { T } from '../harness/types.ts';\n",
      'reports/r.ts': "import { c } from '../harness/run/context.ts';\n",
      'index.ts': "export { s } from './strategies/s.ts';\nexport { d } from './datasets/d.ts';\nexport { r } from './reports/r.ts';\n",
      'cli/main.ts': "import { r } from '../reports/r.ts';\nimport { s } from '../index.ts';\n",
      // Planted: the engine reaching up to a strategy (type-only), to a loader (lazily), to
      // reports and to the library face; a loader importing a strategy (siblings); a strategy
      // importing a report.
      'harness/retrieval/valueIndex.ts': "import type { S } from '../../strategies/s.ts';\nexport const lazy = () => import('../../datasets/d.ts');\n",
      'harness/scoring/m.ts': "import { r } from '../../reports/r.ts';\nimport { x } from '../../index.ts';\n",
      'datasets/e.ts': "import { s } from '../strategies/s.ts';\n",
      'strategies/t.ts': "import { r } from '../reports/r.ts';\n",
    });
    const graph = importGraph(root, SOURCES);
    expect(layerViolations(graph, LAYERS)).toEqual([
      'datasets/e.ts (datasets) -> strategies/s.ts (strategies)',
      'harness/retrieval/valueIndex.ts (harness) -> datasets/d.ts (datasets)',
      'harness/retrieval/valueIndex.ts (harness) -> strategies/s.ts (strategies)',
      'harness/scoring/m.ts (harness) -> index.ts (library face)',
      'harness/scoring/m.ts (harness) -> reports/r.ts (reports)',
      'strategies/t.ts (strategies) -> reports/r.ts (reports)',
    ]);
  });
});
