// The import graph of the TypeScript sources, for the layering test. Every relative import
// counts: static, type-only (`import type`, `export … from`) and dynamic (`await import('…')`),
// since a type-only cycle still ties two modules' design together and a lazy import of an upper
// folder is still an upward dependency. Specifiers are read with TypeScript's own pre-processor
// (no regular expressions over code), bare package names are ignored.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** file → the files it imports, as paths relative to the root with `/` separators. */
export type ImportGraph = Map<string, string[]>;

const posix = (p: string) => p.split(sep).join('/');

/** With `staticOnly`, imports written `import('…')` (loaded when the code runs) are left out. */
export function importGraph(root: string, folders: readonly string[], opts: { staticOnly?: boolean } = {}): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const folder of folders) {
    if (!existsSync(join(root, folder))) continue;
    // An entry may be a folder or a single file (the root's index.ts).
    const entries = statSync(join(root, folder)).isDirectory() ? readdirSync(join(root, folder), { recursive: true }).map((e) => posix(join(folder, String(e)))) : [folder];
    for (const file of entries) {
      if (!/\.m?ts$/.test(file) || file.endsWith('.d.ts') || file.includes('node_modules/')) continue;
      const text = readFileSync(join(root, file), 'utf8');
      const info = ts.preProcessFile(text, true, true);
      // `pos` is where the specifier starts: its opening quote.
      const dynamic = (pos: number) => /\bimport\s*\(\s*$/.test(text.slice(Math.max(0, pos - 40), pos));
      const deps = info.importedFiles
        .filter((i) => !(opts.staticOnly && dynamic(i.pos)))
        .map((i) => i.fileName)
        .filter((spec) => spec.startsWith('./') || spec.startsWith('../'))
        .map((spec) => posix(relative(root, resolve(root, dirname(file), spec))));
      graph.set(file, [...new Set(deps)]);
    }
  }
  return graph;
}

/**
 * Every import cycle, one per strongly connected component of two or more files (or a file that
 * imports itself), each as the files of one concrete loop: a → b → … → a.
 */
export function importCycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || graph.get(v)!.includes(v)) components.push(c);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return components.map((c) => loopIn(graph, new Set(c)));
}

/** A shortest loop from the first file (in sorted order) of a component back to itself. */
function loopIn(graph: ImportGraph, members: Set<string>): string[] {
  const start = [...members].sort()[0]!;
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = prev.get(u)!) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/** Every file `start` reaches through the graph, itself included. */
export function reachable(graph: ImportGraph, start: string): Set<string> {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length) for (const d of graph.get(queue.shift()!) ?? []) if (!seen.has(d)) (seen.add(d), queue.push(d));
  return seen;
}

/** Imports into `upper` (a folder) from files outside it: `file -> imported file`. */
export function importsInto(graph: ImportGraph, upper: string): string[] {
  const inside = (f: string) => f === upper || f.startsWith(`${upper}/`);
  const out: string[] = [];
  for (const [file, deps] of graph) if (!inside(file)) for (const d of deps) if (inside(d)) out.push(`${file} -> ${d}`);
  return out.sort();
}

/**
 * A layer of the sources: the files under any of its paths (a folder ending in `/`, or one file).
 * A file belongs to the layer with the longest path that holds it, so a named file or sub-folder
 * can sit in another layer than the folder around it.
 */
export interface Layer {
  name: string;
  /** Position from the bottom; layers of the same rank are siblings that must not import each other. */
  rank: number;
  paths: string[];
}

/** The layer a file belongs to, or undefined when no layer holds it. */
export function layerOf(file: string, layers: readonly Layer[]): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined;
  for (const layer of layers) {
    for (const p of layer.paths) {
      const holds = p.endsWith('/') ? file.startsWith(p) : file === p;
      if (holds && (!best || p.length > best.length)) best = { layer, length: p.length };
    }
  }
  return best?.layer;
}

/**
 * Imports that break the order: into a higher layer, or into a sibling layer of the same rank.
 * Each as `file (its layer) -> imported file (its layer)`. Files no layer holds are not judged here.
 */
export function layerViolations(graph: ImportGraph, layers: readonly Layer[]): string[] {
  const out: string[] = [];
  for (const [file, deps] of graph) {
    const from = layerOf(file, layers);
    if (!from) continue;
    for (const d of deps) {
      const to = layerOf(d, layers);
      if (!to || to === from || to.rank < from.rank) continue;
      out.push(`${file} (${from.name}) -> ${d} (${to.name})`);
    }
  }
  return out.sort();
}
