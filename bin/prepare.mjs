#!/usr/bin/env node
// `prepare` (npm ci / npm install in a checkout, and installs from git): builds the command
// (bin/build.mjs). An installed package already holds the build and none of the sources or the
// build script, so there it does nothing — should npm ever run `prepare` for an installed
// tarball, the install does not fail on a missing bin/build.mjs.
//
// `npx treebench` in a checkout runs `prepare` too: npm (11) executes a project's own bin by
// installing the project into its npx cache (~/.npm/_npx, once per checkout path), and that
// install prepares the checkout again. A build as new as the sources is kept then (the first
// `npx treebench` of a fresh clone took 11–14 s, all of it this second build); `npm ci`,
// `npm install` and `npm pack` always build.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const build = fileURLToPath(new URL('./build.mjs', import.meta.url));
const underNpx = process.env.npm_command === 'exec';
const keep = underNpx && (await (await import('./source-dirs.mjs')).buildIsCurrent(fileURLToPath(new URL('..', import.meta.url))));
if (existsSync(build) && !keep) await import(build);
