#!/usr/bin/env node
// The treebench command. Runs the compiled JavaScript (cli/main.js, built by `npm run build`,
// which `prepare` runs at `npm ci` and `npm pack`); an installed package has only that. In a
// checkout where a TypeScript source is newer than the last build, it runs the sources through
// tsx instead (a development dependency), so an edit is never hidden behind a stale build.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { buildIsCurrent } from './source-dirs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const fromSources = existsSync(join(root, 'cli', 'main.ts')) && !buildIsCurrent(root);
let main, limitHeapGrowth;
if (fromSources) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main, limitHeapGrowth } = await import('../cli/main.ts'));
} else {
  ({ main, limitHeapGrowth } = await import('../cli/main.js'));
}
// The command's process only (not `main()` called in-process by tests): see cli/heapGrowth.ts.
limitHeapGrowth();
process.exitCode = await main(process.argv.slice(2));
