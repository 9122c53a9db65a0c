// Bad input is an error that names the file, line, field or flag, with exit 2: never a hang, a
// phantom result, unbounded memory or a stack trace. Each case is one the second attack found.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePdf, type Bookmark } from '../datasets/pdf-writer.ts';
import { cli, tmp, writeConfig } from './helpers.ts';

const BIN = resolve('bin/treebench.mjs');

/** `node bin/treebench.mjs …` with a deadline: a hang fails the test instead of stopping the suite. */
function treebench(cwd: string, args: string[], timeoutMs = 60_000) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL' });
  return { code: r.status, signal: r.signal, stderr: r.stderr, stdout: r.stdout };
}

const noStack = (err: string) => expect(err).not.toMatch(/\n\s+at \S+ \(/);

/** A finished two-strategy run over the sample, to damage. */
async function finishedRun(): Promise<{ dir: string; folder: string; records: string }> {
  const dir = tmp();
  const config = writeConfig(dir, { strategies: ['vector', 'node-list'], run: { limit: 3, outDir: join(dir, 'runs') } });
  const r = await cli('run', config, '--run-id', 'r', '--quiet');
  expect(r.code, r.err).toBe(0);
  const folder = join(dir, 'runs', 'r');
  return { dir, folder, records: join(folder, 'records.jsonl') };
}

describe('records.jsonl is validated line by line', () => {
  it('a line that is not a record, a wrong field type or a line nested 100,000 deep: exit 2 naming the line, no phantom row', async () => {
    const { folder, records } = await finishedRun();
    const good = readFileSync(records, 'utf8');
    const lines = good.trim().split('\n').length;
    const cases: Array<[string, RegExp]> = [
      ['{"a":1}', /no "strategy" field/],
      [JSON.stringify({ ...JSON.parse(good.split('\n')[0]!), calls: 'x' }), /"calls" is the string "x", expected a number/],
      [JSON.stringify({ ...JSON.parse(good.split('\n')[0]!), repeat: -1 }), /"repeat" is number -1, expected an integer >= 0/],
      [`{"strategy":"s","questionId":"q","repeat":0,"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, /nested more than 64 levels deep/],
    ];
    for (const [line, why] of cases) {
      writeFileSync(records, good + line + '\n' + good.split('\n')[0] + '\n');
      for (const argv of [['report', folder], ['compare', folder, folder], ['history', folder]]) {
        const r = await cli(...argv);
        expect(r.code, `${argv[0]}: ${r.err}`).toBe(2);
        expect(r.err).toContain(`records.jsonl:${lines + 1}: not a treebench record`);
        expect(r.err).toMatch(why);
        noStack(r.err);
        expect(r.out).not.toContain('│ s ');
      }
    }
  }, 60_000);

  it('records.jsonl as a folder or a FIFO: exit 2, no stack, no hang', async () => {
    const { folder, records } = await finishedRun();
    rmSync(records);
    mkdirSync(records);
    const dirCase = await cli('report', folder);
    expect(dirCase.code, dirCase.err).toBe(2);
    expect(dirCase.err).toMatch(/records\.jsonl: is a folder, expected a file/);
    noStack(dirCase.err);
    rmSync(records, { recursive: true });
    spawnSync('mkfifo', [records]);
    const fifo = treebench(folder, ['report', folder], 30_000);
    expect(fifo.signal, 'report hung on a FIFO').toBeNull();
    expect(fifo.code, fifo.stderr).toBe(2);
    expect(fifo.stderr).toMatch(/records\.jsonl: is a FIFO/);
  }, 60_000);
});

describe('special files and sizes', () => {
  it('a FIFO, /dev/zero or a /proc file as the dataset: refused at once with the file named', () => {
    const dir = tmp();
    spawnSync('mkfifo', [join(dir, 'fifo.jsonl')]);
    for (const [path, why] of [
      [join(dir, 'fifo.jsonl'), /is a FIFO \(named pipe\)/],
      ['/dev/zero', /is a device, not a regular file/],
      ['/proc/self/environ', /is a file of \/proc, a kernel file system/],
    ] as const) {
      const config = writeConfig(dir, { dataset: { format: 'jsonl', path }, corpus: { format: 'native', path: resolve('datasets/sample/corpus') } });
      const r = treebench(dir, ['datasets', 'inspect', config], 30_000);
      expect(r.signal, `${path}: hung`).toBeNull();
      expect(r.code, `${path}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(path.split('/').pop()!);
      expect(r.stderr).toMatch(why);
    }
  }, 120_000);

  it('run.outDir=/proc/self: exit 2 naming the folder, no hang', () => {
    const dir = tmp();
    const config = writeConfig(dir, { run: { limit: 1 } });
    const r = treebench(dir, ['run', config, '--quiet', '--set', 'run.outDir=/proc/self'], 30_000);
    expect(r.signal, 'run hung').toBeNull();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot create run folder \/proc\/self\/\S+ \(run\.outDir\): ENOENT/);
  }, 60_000);

  it('a 20 MB YAML string and a 17 MB JSONL line: refused with their size, before they are parsed', async () => {
    const dir = tmp();
    const yaml = join(dir, 'huge.yaml');
    writeFileSync(yaml, `name: huge\ndescription: "${'x'.repeat(20 * 1024 * 1024)}"\ndataset: { format: sample }\nstrategies: [vector]\n`);
    const big = await cli('run', yaml);
    expect(big.code).toBe(2);
    expect(big.err).toMatch(/cannot read config .*huge\.yaml: is 20\.0 MB, more than the 4\.0 MB treebench reads/);

    const questions = join(dir, 'q.jsonl');
    writeFileSync(questions, JSON.stringify({ id: 'q1', question: 'a?', answers: ['b'] }) + '\n');
    appendFileSync(questions, JSON.stringify({ id: 'q2', question: 'x'.repeat(17 * 1024 * 1024), answers: ['b'] }) + '\n');
    const config = writeConfig(dir, { dataset: { format: 'jsonl', path: questions }, corpus: { format: 'native', path: resolve('datasets/sample/corpus') } });
    const line = await cli('datasets', 'inspect', config);
    expect(line.code).toBe(2);
    expect(line.err).toMatch(/q\.jsonl:2: the line is 17\.0 MB long, more than the 16\.0 MB of one record treebench reads/);
  }, 60_000);
});

describe('config and flag edge cases', () => {
  it('an empty or a scalar config is refused naming the file', async () => {
    const dir = tmp();
    for (const [name, text, why] of [['empty.yaml', '', /the config is empty/], ['scalar.yaml', '42\n', /the config holds a number \(42\)/]] as const) {
      writeFileSync(join(dir, name), text);
      const r = await cli('run', join(dir, name));
      expect(r.code).toBe(2);
      expect(r.err).toContain(join(dir, name));
      expect(r.err).toMatch(why);
    }
  });

  it('--set __proto__.x=1 is refused as that flag, and pollutes nothing', async () => {
    const dir = tmp();
    const config = writeConfig(dir, {});
    for (const path of ['__proto__.x', 'run.constructor.prototype.x', 'strategies.0.params.__proto__.polluted']) {
      const r = await cli('run', config, '--set', `${path}=1`);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(new RegExp(`--set ${path.replace(/\./g, '\\.')}=1: "(__proto__|constructor)" is not a config field`));
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a config named "..hidden" runs into a visible folder; --run-id "" is an error, not the default', async () => {
    const dir = tmp();
    const config = writeConfig(dir, { name: '..hidden', strategies: ['vector'], run: { limit: 1, outDir: join(dir, 'runs') } });
    const r = await cli('run', config, '--quiet');
    expect(r.code, r.err).toBe(0);
    expect(readdirSync(join(dir, 'runs'))).toEqual([expect.stringMatching(/^hidden-\d{8}-\d{6}Z$/)]);
    const empty = await cli('run', config, '--quiet', '--run-id', '');
    expect(empty.code).toBe(2);
    expect(empty.err).toContain('--run-id needs a value (got an empty string)');
    expect(readdirSync(join(dir, 'runs'))).toHaveLength(1);
  });
});

describe('depth limits are reported', () => {
  it('a PDF outline 2,000 levels deep: read to its limit, and the cut is a warning', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'pdfs'));
    let b: Bookmark = { title: 'Level 2000', page: 2 };
    for (let i = 1999; i >= 1; i--) b = { title: `Level ${i}`, page: 1, children: [b] };
    writeFileSync(join(dir, 'pdfs', 'deep.pdf'), makePdf([['Intro page about levels.'], ['Second page about the last level.']], [b]));
    writeFileSync(join(dir, 'q.jsonl'), JSON.stringify({ id: 'q1', question: 'What is on the last level?', answers: ['levels'], docIds: ['deep'] }) + '\n');
    const config = writeConfig(dir, { dataset: { format: 'jsonl', path: join(dir, 'q.jsonl') }, corpus: { format: 'pdf', path: join(dir, 'pdfs'), cache: false } });
    const r = await cli('datasets', 'inspect', config);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/deep\.pdf: its outline \(bookmarks\) is nested 33 or more levels deep; only the first 32 levels were read/);
  }, 60_000);

  it('a tree nested deeper than treebench reads (passages with 2,000 parent links): refused, with the depth', async () => {
    const dir = tmp();
    const passages = Array.from({ length: 2000 }, (_, i) => ({ id: `p${i}`, title: `Part ${i}`, text: `Text of part ${i}.`, parent: i ? `p${i - 1}` : null, doc: 'chain' }));
    writeFileSync(join(dir, 'passages.json'), JSON.stringify(passages));
    writeFileSync(join(dir, 'q.jsonl'), JSON.stringify({ id: 'q1', question: 'Which part?', answers: ['Part 3'], docIds: ['chain'] }) + '\n');
    const config = writeConfig(dir, {
      dataset: { format: 'jsonl', path: join(dir, 'q.jsonl') },
      corpus: { format: 'passages', path: join(dir, 'passages.json'), mapping: { id: 'id', title: 'title', text: 'text', parent: 'parent', docId: 'doc' } },
    });
    const r = await cli('datasets', 'inspect', config);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/document "chain" is nested 2000 levels deep, more than the 200 treebench reads/);
    expect(existsSync(join(dir, 'passages.json'))).toBe(true);
  }, 60_000);
});
