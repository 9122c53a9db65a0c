#!/usr/bin/env node
// `npm run build`: compiles harness/, strategies/, datasets/, reports/ and cli/ to JavaScript next to
// the sources (tsconfig.build.json), after removing the JavaScript of an earlier build (so a
// deleted source leaves no stale module), then stamps the build for bin/treebench.mjs.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { sourceDirs } from './source-dirs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const DIRS = sourceDirs(root);
// Only .js is emitted; hand-written modules in these folders are .mjs (datasets/pdf-worker.mjs).
for (const dir of DIRS) {
  for (const f of readdirSync(join(root, dir), { recursive: true })) if (String(f).endsWith('.js')) rmSync(join(root, dir, String(f)));
}
rmSync(join(root, '.build-stamp'), { force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const res = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (res.status !== 0) process.exit(res.status ?? 1);
writeFileSync(join(root, '.build-stamp'), `${new Date().toISOString()}\n`);
