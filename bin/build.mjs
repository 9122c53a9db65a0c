#!/usr/bin/env node
// `npm run build`: compiles index.ts, harness/, strategies/, datasets/, reports/ and cli/ to JavaScript
// (and type declarations) next to the sources (tsconfig.build.json), after removing the JavaScript of an earlier build (so a
// deleted source leaves no stale module); bundles the command into dist/ (bin/bundle.mjs); then
// stamps the build for bin/treebench.mjs, with the commit and state of the sources it was built
// from (harness/run/codeVersion.ts reads them, so a run starts no git process) and their listing.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { sourceFiles, sourceListing } from './source-dirs.mjs';
import { bundleCli } from './bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// Only .js and .d.ts are emitted; hand-written modules in these folders are .mjs (datasets/pdf-worker.mjs).
for (const f of sourceFiles(root)) if (f.endsWith('.js') || f.endsWith('.d.ts')) rmSync(join(root, f));
rmSync(join(root, '.build-stamp'), { force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const res = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (res.status !== 0) process.exit(res.status ?? 1);
await bundleCli(root);
// The tokenizer's rank tables as binary rank files, which load as a file read rather than a
// parse of megabytes of gpt-tokenizer's JavaScript (harness/models/bpeRanks.ts).
const { rankFiles, RANKS_DIR } = await import('../harness/models/tokenizer.js');
rmSync(RANKS_DIR, { recursive: true, force: true });
mkdirSync(RANKS_DIR, { recursive: true });
for (const [name, bytes] of Object.entries(rankFiles())) writeFileSync(join(RANKS_DIR, `${name}.bin`), bytes);
// The shipped price table, parsed once here (harness/models/prices.ts reads it while the YAML is unchanged).
const { priceSnapshot, PRICES_SNAPSHOT_PATH } = await import('../harness/models/prices.js');
writeFileSync(PRICES_SNAPSHOT_PATH, priceSnapshot());

/** The checkout's commit and whether tracked files differ from it; nulls outside a git checkout. */
function gitState() {
  const git = (args) => spawnSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  // Only the package's own repository: an installed copy inside someone's project is not it.
  const top = git(['rev-parse', '--show-toplevel']);
  if (top.status !== 0 || resolve(top.stdout.trim()) !== resolve(root)) return { commit: null, dirty: null };
  const head = git(['rev-parse', 'HEAD']);
  const status = git(['status', '--porcelain', '--untracked-files=no']);
  if (head.status !== 0 || status.status !== 0) return { commit: null, dirty: null };
  return { commit: head.stdout.trim(), dirty: status.stdout.trim() !== '' };
}
// The listing of the sources lets the command check its build with a stat per source and
// folder (bin/source-dirs.mjs, buildIsCurrent); written last, so the stamp is newer than all of them.
writeFileSync(join(root, '.build-stamp'), `${JSON.stringify({ builtAt: new Date().toISOString(), ...gitState(), sources: sourceListing(root) })}\n`);
