#!/usr/bin/env node
// The treebench command. Runs the bundled JavaScript (dist/main.js, built by `npm run build`,
// which `prepare` runs at `npm ci` and `npm pack`: bin/bundle.mjs); an installed package has
// only that. In a checkout where a TypeScript source is newer than the last build, it runs the
// sources through tsx instead (a development dependency), so an edit is never hidden behind a
// stale build.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));

// The staleness check (a stat per source file) is loaded only in a checkout.
const fromSources = existsSync(join(root, 'cli', 'main.ts')) && !(await import('./source-dirs.mjs')).buildIsCurrent(root);
let main, markCommandProcess;
if (fromSources) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main, markCommandProcess } = await import('../cli/main.ts'));
} else {
  ({ main, markCommandProcess } = await import('../dist/main.js'));
}
// This process is the command: runs that call a model over the network may tune its garbage
// collector (cli/heapGrowth.ts), which `main()` called in-process by a program or test never does.
markCommandProcess();
process.exitCode = await main(process.argv.slice(2));
