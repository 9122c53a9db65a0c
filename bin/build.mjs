#!/usr/bin/env node
// `npm run build`: compiles harness/, strategies/, datasets/, reports/ and cli/ to JavaScript next to
// the sources (tsconfig.build.json), after removing the JavaScript of an earlier build (so a
// deleted source leaves no stale module), then stamps the build for bin/treebench.mjs.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const root = fileURLToPath(new URL('..', import.meta.url));
// The folders of tsconfig.json's `include` but tests and benchmarks. tsconfig.build.json starts
// from the five below; tsc also compiles any module they import, wherever it lives.
function sourceDirs() {
  try {
    const text = readFileSync(join(root, 'tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    return JSON.parse(text).include.filter((d) => !['test', 'bench'].includes(d) && existsSync(join(root, d)));
  } catch {
    return ['harness', 'strategies', 'datasets', 'reports', 'cli'];
  }
}
const DIRS = sourceDirs();
// Only .js is emitted; hand-written modules in these folders are .mjs (datasets/pdf-worker.mjs).
for (const dir of DIRS) {
  for (const f of readdirSync(join(root, dir), { recursive: true })) if (String(f).endsWith('.js')) rmSync(join(root, dir, String(f)));
}
rmSync(join(root, '.build-stamp'), { force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const res = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (res.status !== 0) process.exit(res.status ?? 1);
writeFileSync(join(root, '.build-stamp'), `${new Date().toISOString()}\n`);
