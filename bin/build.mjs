#!/usr/bin/env node
// `npm run build`: compiles index.ts, harness/, strategies/, datasets/, reports/ and cli/ to JavaScript
// (and type declarations) next to the sources (tsconfig.build.json), after removing the JavaScript of an earlier build (so a
// deleted source leaves no stale module), then stamps the build for bin/treebench.mjs.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { sourceFiles } from './source-dirs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// Only .js and .d.ts are emitted; hand-written modules in these folders are .mjs (datasets/pdf-worker.mjs).
for (const f of sourceFiles(root)) if (f.endsWith('.js') || f.endsWith('.d.ts')) rmSync(join(root, f));
rmSync(join(root, '.build-stamp'), { force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const res = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (res.status !== 0) process.exit(res.status ?? 1);
writeFileSync(join(root, '.build-stamp'), `${new Date().toISOString()}\n`);
