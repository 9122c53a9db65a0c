// Keeps README.md and docs/*.md runnable: every treebench command line in an `sh` block (and in
// the workflow / Kubernetes YAML shown) is parsed by the real CLI — unknown commands and options
// fail — and a cheap, offline subset runs for real (--help, strategies, datasets inspect on the
// sample, the sample's runs with --limit, report and trace of such a run). Every YAML config
// snippet validates with the real config validator (gate rules with the gate's), every relative
// link resolves to a file and heading, `npm run` names real scripts, README stays within 400
// lines and links every docs page. Conventions: test/docs/checkDocs.ts.
//
// "Parsed by the real CLI" means main() with every command's real options (yargs, strict) and a
// Runner that does not call the command's body: cli/commands.ts is wrapped below, nothing else.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { loadConfig } from '../../harness/config/runConfig.ts';
import {
  checkFenceLanguages,
  checkLinks,
  checkTools,
  checkYamlBlocks,
  codeBlocks,
  commandLines,
  readDoc,
  relativeLinks,
  simpleCommands,
  treebenchArgs,
  type CommandLine,
  type Doc,
} from './checkDocs.ts';

const mode = vi.hoisted(() => ({ dry: true }));

vi.mock('../../cli/commands.ts', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../../cli/commands.ts')>();
  return {
    ...orig,
    COMMANDS: orig.COMMANDS.map((c) => ({
      ...c,
      // Every handler (and subcommand handler) reaches its body through the Runner it is given.
      load: async () => {
        const make = await c.load();
        return (run: Parameters<typeof make>[0]) => make(mode.dry ? () => async () => {} : run);
      },
    })),
  };
});

const ROOT = process.cwd();
const MAX_README_LINES = 400;

/** Runs main() with output captured; yargs prints help and versions through console.log. */
async function cli(argv: string[], dry: boolean): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  mode.dry = dry;
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => ((out += String(c)), true)),
    vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => ((err += String(c)), true)),
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void (out += a.join(' ') + '\n')),
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void (err += a.join(' ') + '\n')),
  ];
  try {
    return { code: await main(argv), out, err };
  } finally {
    for (const s of spies) s.mockRestore();
    mode.dry = true;
  }
}

/** The CLI's verdict on a command line: problems ([] when yargs accepts it). */
async function parseProblems(lines: CommandLine[]): Promise<string[]> {
  const problems: string[] = [];
  for (const { at, argv } of lines) {
    const r = await cli(argv, true);
    if (r.code !== 0) problems.push(`${at}: treebench ${argv.join(' ')}: exit ${r.code}: ${r.err.trim().split('\n')[0]}`);
  }
  return problems;
}

const pages = (): Doc[] => ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)].map((f) => readDoc(f));
const DOCS = pages();
const SCRIPTS = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
const ALL_LINES = DOCS.flatMap(commandLines);

describe('README and docs/', () => {
  it(`README is at most ${MAX_README_LINES} lines and links every docs page`, () => {
    const readme = DOCS[0]!;
    expect(readme.text.split('\n').length).toBeLessThanOrEqual(MAX_README_LINES);
    const linked = new Set(relativeLinks(readme).map((l) => l.path));
    const pagesNotLinked = DOCS.slice(1).map((d) => d.file).filter((f) => !linked.has(f));
    expect(pagesNotLinked).toEqual([]);
  });

  it('README keeps the set-up and test commands CI relies on', () => {
    const sh = codeBlocks(DOCS[0]!).filter((b) => b.lang === 'sh').map((b) => b.value);
    expect(sh.join('\n')).toMatch(/^npm ci$/m);
    expect(sh.join('\n')).toMatch(/^npx treebench run configs\/quickstart\.yaml$/m);
    expect(sh.join('\n')).toMatch(/^npm test$/m);
    // .ci/run runs the same test command.
    expect(readFileSync('.ci/run', 'utf8')).toMatch(/\bnpm test\b/);
  });

  it('every fenced block names its language', () => {
    expect(DOCS.flatMap(checkFenceLanguages)).toEqual([]);
  });

  it('every relative link resolves to a file and, with #anchor, to a heading', () => {
    expect(DOCS.flatMap((d) => checkLinks(d, ROOT))).toEqual([]);
  });

  it('every YAML config snippet validates (whole configs as they are, sections over a minimal config; gate rules as rules)', () => {
    const yamlBlocks = DOCS.flatMap((d) => codeBlocks(d).filter((b) => b.lang === 'yaml'));
    expect(yamlBlocks.length).toBeGreaterThanOrEqual(15);
    expect(DOCS.flatMap(checkYamlBlocks)).toEqual([]);
  });

  it('every npm run names a script, every node <file> a file', () => {
    expect(DOCS.flatMap((d) => checkTools(d, SCRIPTS, ROOT))).toEqual([]);
  });

  it('every treebench command line is accepted by the CLI (commands, subcommands, options)', async () => {
    expect(ALL_LINES.length).toBeGreaterThanOrEqual(40);
    // Every command of the CLI is shown somewhere.
    const shown = new Set(ALL_LINES.map((l) => l.argv[0]));
    const { COMMANDS, commandName } = await import('../../cli/commands.ts');
    expect(COMMANDS.map(commandName).filter((c) => !shown.has(c))).toEqual([]);
    expect(await parseProblems(ALL_LINES)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The offline subset, run for real.

const tmp = mkdtempSync(join(tmpdir(), 'treebench-docs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Configs whose dataset is the bundled sample: runs over them are offline and take seconds. */
const onSample = (config: string | undefined): boolean => {
  if (!config?.endsWith('.yaml')) return false;
  try {
    const c = loadConfig(config).config;
    return c.dataset.format === 'sample' && c.model.provider === 'offline' && (!c.scoring.judge);
  } catch {
    return false;
  }
};

/** Flags a `run` line may carry and still be run here with --limit (others only parse). */
const RUN_FLAGS = new Set(['--strategies', '--limit', '--concurrency', '--format', '--quiet', '--set', '--cache', '--no-cache']);
const flagsOf = (argv: string[]) => argv.filter((a) => a.startsWith('--')).map((a) => a.split('=')[0]!);

/** Removes `--name value` pairs (and `--name=value`) from argv. */
function without(argv: string[], names: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (names.includes(a)) {
      i++;
      continue;
    }
    if (names.some((n) => a.startsWith(`${n}=`))) continue;
    out.push(a);
  }
  return out;
}

/** How a line runs offline here, or undefined when it only parses. `$RUN` is a sample run folder. */
function runnable(argv: string[], run: string, n: number): string[] | undefined {
  if (argv.includes('--help') || argv.includes('-h') || argv.includes('--version')) return argv;
  const [cmd, sub] = argv;
  if (cmd === 'strategies') return argv;
  if (cmd === 'datasets' && sub === 'inspect' && onSample(argv[2])) return argv;
  if (cmd === 'run' && onSample(argv[1]) && flagsOf(argv).every((f) => RUN_FLAGS.has(f))) {
    return [...without(argv, ['--limit']), '--limit', '3', '--out', join(tmp, 'runs'), '--run-id', `docs-${n}`, '--quiet'];
  }
  if ((cmd === 'report' || cmd === 'trace') && argv[1] === '$RUN' && !argv.slice(2).includes('$RUN')) {
    return [cmd, run, ...without(argv.slice(2), ['--out']), ...(argv.includes('--out') ? ['--out', join(tmp, `out-${n}`)] : [])];
  }
  return undefined;
}

describe('the offline commands of the docs, run', () => {
  it('run and exit 0: --help, strategies, datasets inspect and runs on the sample, report and trace of a run', async () => {
    // The folder `$RUN` stands for: a short quickstart run.
    const run = join(tmp, 'runs', 'quickstart');
    const made = await cli(['run', 'configs/quickstart.yaml', '--limit', '3', '--out', join(tmp, 'runs'), '--run-id', 'quickstart', '--quiet'], false);
    expect(made.code, made.err).toBe(0);
    const ran: string[] = [];
    const failures: string[] = [];
    let n = 0;
    for (const { at, argv } of ALL_LINES) {
      const args = runnable(argv, run, n++);
      if (!args) continue;
      const r = await cli(args, false);
      ran.push(`${at}: ${argv.join(' ')}`);
      if (r.code !== 0 || !(r.out + r.err).trim()) failures.push(`${at}: treebench ${args.join(' ')}: exit ${r.code}: ${r.err.trim().split('\n').slice(0, 3).join(' / ')}`);
    }
    expect(failures).toEqual([]);
    // The subset covers what the brief names, not just --help.
    const kinds = new Set(ran.map((r) => r.split(': ')[1]!.split(' ')[0]));
    for (const k of ['strategies', 'datasets', 'run', 'report', 'trace']) expect(kinds, `a ${k} line ran`).toContain(k);
  }, 300_000);
});

// ---------------------------------------------------------------------------------------------
// Counter-examples: the same checks on synthetic pages must fail where the page is wrong.

const fence = '```';
const page = (body: string, file = 'docs/synthetic.md') => readDoc(file, body);

describe('the checks fail on broken snippets', () => {
  const good = page(
    [
      '# Synthetic',
      '',
      '## Run it',
      '',
      `${fence}sh`,
      'npx treebench run configs/quickstart.yaml --limit 3   # a comment --not-an-option',
      `TREEBENCH_SHARD=2/4 npx treebench run configs/nightly.yaml --run-id s2 \\`,
      '  --out runs/shards --quiet',
      'npx treebench report "$RUN" --format md > report.md',
      'npm run bench:http -- --help',
      fence,
      '',
      `${fence}yaml`,
      'run: { concurrency: 4, repeats: 2 }',
      'strategies:',
      '  - strategy: hybrid-beam',
      '    grid: { beamWidth: [1, 3], budget.tokens: [20000, 60000] }',
      fence,
      '',
      `${fence}yaml gates`,
      'rules:',
      '  accuracy: { maxDrop: 0.02 }',
      fence,
      '',
      `${fence}yaml workflow`,
      'jobs:',
      '  s: { steps: [ { run: "npx treebench run configs/nightly.yaml --shard ${{ matrix.shard }}/4" } ] }',
      fence,
      '',
      'See [the run](#run-it), [configs](../configs/quickstart.yaml) and [the site](https://example.org/x).',
    ].join('\n'),
  );

  it('a correct page passes every check', async () => {
    expect(checkFenceLanguages(good)).toEqual([]);
    expect(checkYamlBlocks(good)).toEqual([]);
    expect(checkLinks(good, ROOT)).toEqual([]);
    expect(checkTools(good, SCRIPTS, ROOT)).toEqual([]);
    const lines = commandLines(good);
    expect(lines.map((l) => l.argv)).toEqual([
      ['run', 'configs/quickstart.yaml', '--limit', '3'],
      ['run', 'configs/nightly.yaml', '--run-id', 's2', '--out', 'runs/shards', '--quiet'],
      ['report', '$RUN', '--format', 'md'],
      ['run', 'configs/nightly.yaml', '--shard', '1/4'],
    ]);
    expect(await parseProblems(lines)).toEqual([]);
  });

  it('an unknown option, a mistyped command, a missing required option or a bad subcommand fails the CLI parse', async () => {
    const bad = page([`${fence}sh`, 'npx treebench run configs/quickstart.yaml --limt 3', 'npx treebench reprot runs/x', 'treebench gate --candidate runs/x', 'npx treebench tree bild a.pdf -o b.json', fence].join('\n'));
    const problems = await parseProblems(commandLines(bad));
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/synthetic\.md:2: .*--limt.*exit 2.*limt/);
    expect(problems[1]).toMatch(/synthetic\.md:3: .*reprot.*exit 2/);
    expect(problems[2]).toMatch(/synthetic\.md:4: .*exit 2.*baseline/);
    expect(problems[3]).toMatch(/synthetic\.md:5: .*exit 2/);
  });

  it('a config section that does not validate fails, naming the page line and field', () => {
    const bad = page(['intro', '', `${fence}yaml`, 'run:', '  concurrency: 0', fence, '', `${fence}yaml`, 'strategies:', '  - strategy: vector', '    params: { topK: "five" }', fence].join('\n'));
    const problems = checkYamlBlocks(bad);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/docs\/synthetic\.md:5 run\.concurrency: Too small/);
    expect(problems[1]).toMatch(/docs\/synthetic\.md:11 strategies\[0\]\.params\.topK/);
  });

  it('a whole config with an unknown field, an unknown strategy or an unset variable fails', () => {
    const bad = page([`${fence}yaml`, 'name: x', 'dataset: { format: sample }', 'strategies: [vectr]', 'budget: { calls: 4, cals: 3 }', fence, '', `${fence}yaml`, 'model: { provider: offline, priceAs: "${PRICE_AS}" }', fence].join('\n'));
    const problems = checkYamlBlocks(bad).join('\n');
    expect(problems).toMatch(/unknown strategy "vectr"|cals/);
    expect(problems).toMatch(/PRICE_AS is not set/);
  });

  it('gate rules in the wrong direction, bad YAML and an unknown block kind fail', () => {
    const bad = page([`${fence}yaml gates`, 'rules: { costPerQuestion: { maxDrop: 0.1 } }', fence, `${fence}yaml`, 'run: { concurrency: [4 }', fence, `${fence}yaml confg`, 'a: 1', fence].join('\n'));
    const problems = checkYamlBlocks(bad);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/costPerQuestion is better when lower: use maxIncrease/);
    expect(problems[1]).toMatch(/YAML syntax error/);
    expect(problems[2]).toMatch(/unknown yaml block kind "confg"/);
  });

  it('a link to a missing file or heading, a missing npm script and an unlabelled fence fail', () => {
    const bad = page(['# T', '', '[a](nope.md) [b](../README.md#no-such-heading) [c](#t) [d](#u)', '', `${fence}sh`, 'npm run bench:nope', 'node bin/nope.mjs', fence, '', fence, 'npx treebench strategies', fence].join('\n'));
    expect(checkLinks(bad, ROOT)).toEqual([
      expect.stringMatching(/nope\.md: docs\/nope\.md does not exist/),
      expect.stringMatching(/README\.md has no heading #no-such-heading/),
      expect.stringMatching(/docs\/synthetic\.md has no heading #u/),
    ]);
    expect(checkTools(bad, SCRIPTS, ROOT)).toEqual([expect.stringMatching(/bench:nope: no such script/), expect.stringMatching(/bin\/nope\.mjs: no such file/)]);
    expect(checkFenceLanguages(bad)).toEqual([expect.stringMatching(/synthetic\.md:10: fenced block without a language/)]);
  });

  it('reads shell lines as the shell would: pipes, redirections, assignments, quotes, comments', () => {
    expect(simpleCommands('a=1 npx treebench merge runs/s-* --out "my runs" | tee x >> y.md && echo ok # --no')).toEqual([
      ['a=1', 'npx', 'treebench', 'merge', 'runs/s-*', '--out', 'my runs'],
      ['tee', 'x'],
      ['echo', 'ok'],
    ]);
    expect(treebenchArgs(['X=1', 'npx', 'treebench', 'strategies'])).toEqual(['strategies']);
    expect(treebenchArgs(['npm', 'test'])).toBeUndefined();
  });
});
