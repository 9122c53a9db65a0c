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
let main, markCommandProcess;
if (fromSources) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main, markCommandProcess } = await import('../cli/main.ts'));
} else {
  ({ main, markCommandProcess } = await import('../cli/main.js'));
}
// This process is the command: runs that call a model over the network may tune its garbage
// collector (cli/heapGrowth.ts), which `main()` called in-process by a program or test never does.
markCommandProcess();
process.exitCode = await main(process.argv.slice(2));
