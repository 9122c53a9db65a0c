// `npm run bench`: runs every `bench:*` script of package.json in turn (each prints its figures
// as ratios to an ideal measured in the same run) and says which failed.
//
//   npm run bench                 every piece at its default size
//   npm run bench -- --large      pieces that know --large also run their large part (1M chunks,
//                                 20,000 questions): several more minutes and ~8 GB of memory
//   npm run bench -- --only http,search
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { benchArgs, exitWithUsageError } from './lib/args.ts';

const args = benchArgs(import.meta.url, {
  large: { type: 'boolean', default: false, help: 'pieces that know --large also run their large part' },
  only: { type: 'string', help: 'the pieces to run, comma-separated (http, search, …: the bench:* scripts of package.json)' },
});
const large = args.flag('large');
const onlyArg = args.string('only');
/** Pieces that accept --large. */
const LARGE = new Set(['bench:http', 'bench:search', 'bench:reports']);

const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
const only = onlyArg ? new Set(onlyArg.split(',').map((s) => (s.startsWith('bench:') ? s : `bench:${s}`))) : null;
const all = Object.keys(scripts).filter((s) => s.startsWith('bench:'));
const unknown = [...(only ?? [])].filter((s) => !all.includes(s));
if (unknown.length) exitWithUsageError(`--only: no such piece: ${unknown.join(', ')} (the pieces: ${all.map((s) => s.slice('bench:'.length)).join(', ')})`);
const pieces = all.filter((s) => !only || only.has(s));
const failed: string[] = [];
for (const name of pieces) {
  console.log(`\n=== npm run ${name}${large && LARGE.has(name) ? ' -- --large' : ''}`);
  const npmArgs = ['run', '--silent', name, ...(large && LARGE.has(name) ? ['--', '--large'] : [])];
  const r = spawnSync('npm', npmArgs, { stdio: 'inherit' });
  if (r.status !== 0) failed.push(`${name} (exit ${r.status ?? r.signal})`);
}
if (failed.length) {
  console.error(`\nfailed: ${failed.join(', ')}`);
  process.exit(1);
}
