// Loading a user's module by path (`module: ./my-strategy.ts`).
// JavaScript (.js, .mjs, .cjs) is imported as it is. TypeScript (.ts, .mts, .cts) needs no build
// step on the user's side: when the running process cannot import it natively (plain Node 20), it
// goes through tsx (an optional peer dependency: `npm install tsx`), and a missing tsx is a clear
// error saying so. Every error names the file and the config field that named it.
import { existsSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../errors.ts';
import { isPlugin } from './define.ts';

const JS = new Set(['.js', '.mjs', '.cjs']);
const TS = new Set(['.ts', '.mts', '.cts']);

/** Imports `path` (absolute) and returns its default export, checked to be a plugin of `kind`. */
export async function loadPlugin<T>(path: string, kind: 'strategy' | 'scorer', where: string): Promise<T> {
  const ext = extname(path);
  if (!JS.has(ext) && !TS.has(ext)) throw new ConfigError(`${where}: ${path}: a plugin module is a .ts, .mts, .cts, .js, .mjs or .cjs file`);
  if (!existsSync(path)) throw new ConfigError(`${where}: ${path}: no such file`);
  if (!statSync(path).isFile()) throw new ConfigError(`${where}: ${path}: not a file`);
  let mod: Record<string, unknown>;
  try {
    mod = await importModule(path, TS.has(ext), where);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    const e = err as Error;
    throw new ConfigError(`${where}: ${path} failed to load: ${e.name === 'Error' ? '' : `${e.name}: `}${e.message}`);
  }
  // A module compiled to CommonJS (a .ts file in a package without "type": "module", which tsx
  // compiles as CommonJS; a .cjs file with `exports.default = ...`) arrives with its exports as
  // the default: its own default export is one level down.
  const outer = mod.default as { default?: unknown } | undefined;
  const value = !isPlugin(outer, kind) && typeof outer === 'object' && outer !== null && isPlugin(outer.default, kind) ? outer.default : outer;
  if (!isPlugin(value, kind)) {
    // The other kind of plugin in the wrong list says where it belongs.
    const other = kind === 'scorer' ? 'strategy' : 'scorer';
    if (isPlugin(value, other)) {
      throw new ConfigError(
        other === 'scorer'
          ? `${where}: ${path} is a scorer (made with defineScorer), not a strategy: list it under scoring.scorers`
          : `${where}: ${path} is a strategy (made with defineStrategy), not a scorer: list it under strategies (module: ${path})`,
      );
    }
    const maker = kind === 'scorer' ? 'defineScorer' : 'defineStrategy';
    const got = value === undefined ? 'it has no default export' : `its default export is ${typeof value === 'object' ? 'an object' : typeof value} not made with ${maker}`;
    throw new ConfigError(`${where}: ${path}: ${got}; write \`export default ${maker}({ ... })\` with \`import { ${maker} } from 'treebench'\``);
  }
  return value as T;
}

async function importModule(path: string, typescript: boolean, where: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path).href;
  if (!typescript) return (await import(url)) as Record<string, unknown>;
  // Under tsx or vitest a .ts file imports natively; plain Node 20 refuses the extension.
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
  }
  let tsx: { tsImport(specifier: string, parent: string): Promise<Record<string, unknown>> };
  try {
    tsx = (await import('tsx/esm/api')) as typeof tsx;
  } catch {
    throw new ConfigError(`${where}: ${path}: a TypeScript plugin loads through tsx, which is not installed: \`npm install tsx\` (or compile the plugin to .js)`);
  }
  return tsx.tsImport(url, import.meta.url);
}
