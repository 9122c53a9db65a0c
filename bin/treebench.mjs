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

// In a checkout, the staleness check (a stat per source file, by libuv's threads) runs while the
// bundle loads; only a stale build then loads the sources instead (the bundle loaded for nothing).
const checkout = existsSync(join(root, 'cli', 'main.ts'));
const current = checkout ? import('./source-dirs.mjs').then((m) => m.buildIsCurrent(root)) : Promise.resolve(true);
// A checkout may have no build yet: that failure only matters if the build is taken.
const compiled = import('../dist/main.js').then(
  (m) => ({ m }),
  (err) => ({ err }),
);
let main, markCommandProcess;
if (await current) {
  const loaded = await compiled;
  if (loaded.err) throw loaded.err;
  ({ main, markCommandProcess } = loaded.m);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main, markCommandProcess } = await import('../cli/main.ts'));
}
// This process is the command: runs that call a model over the network may tune its garbage
// collector (cli/heapGrowth.ts), which `main()` called in-process by a program or test never does.
markCommandProcess();
process.exitCode = await main(process.argv.slice(2));
// Once the event loop is empty (every write and fsync done) and the other 'exit' listeners have
// run, end as process.exit() ends a process: without Node's teardown of the heap and the
// environment, which took 20–90 ms after a 2,000-call run (`npm run bench:process`).
process.once('exit', (code) => process.exit(code));
