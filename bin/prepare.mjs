#!/usr/bin/env node
// `prepare` (npm ci / npm install in a checkout, and installs from git): builds the command
// (bin/build.mjs). An installed package already holds the build and none of the sources or the
// build script, so there it does nothing — should npm ever run `prepare` for an installed
// tarball, the install does not fail on a missing bin/build.mjs.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const build = fileURLToPath(new URL('./build.mjs', import.meta.url));
if (existsSync(build)) await import(build);
