import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';

/** Runs the CLI in-process and captures what it prints. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
  try {
    const code = await main(argv);
    return { code, out, err };
  } finally {
    vi.restoreAllMocks();
  }
}

const tmp = () => mkdtempSync(join(tmpdir(), 'treebench-cli-'));

afterEach(() => vi.restoreAllMocks());

describe('treebench CLI', () => {
  it('runs the quickstart, prints the table for every strategy and writes the run folder', async () => {
    const out = tmp();
    const res = await cli('run', 'configs/quickstart.yaml', '--limit', '5', '--out', out, '--run-id', 'q', '--quiet');
    expect(res.code).toBe(0);
    for (const s of ['vector', 'node-list']) expect(res.out).toContain(s);
    expect(res.out).toMatch(/offline reasoner/);
    expect(readdirSync(join(out, 'q')).sort()).toEqual(expect.arrayContaining(['manifest.json', 'records.jsonl', 'summary.json', 'report.md', 'report.csv']));
    const md = await cli('report', join(out, 'q'), '--format', 'md');
    expect(md.code).toBe(0);
    expect(md.out).toMatch(/\| *strategy *\|/);
  });

  it('prints progress on stderr unless --quiet or TREEBENCH_QUIET=1', async () => {
    const out = tmp();
    const args = ['run', 'configs/quickstart.yaml', '--limit', '2', '--strategies', 'vector', '--out', out];
    const loud = await cli(...args, '--run-id', 'loud');
    expect(loud.err).toMatch(/running: 2\/2 records/);
    const before = process.env.TREEBENCH_QUIET;
    process.env.TREEBENCH_QUIET = '1';
    try {
      const quiet = await cli(...args, '--run-id', 'env');
      expect(quiet.code).toBe(0);
      expect(quiet.err).not.toMatch(/running:|indexing:/);
    } finally {
      if (before === undefined) delete process.env.TREEBENCH_QUIET;
      else process.env.TREEBENCH_QUIET = before;
    }
    const flag = await cli(...args, '--run-id', 'flag', '--quiet');
    expect(flag.err).not.toMatch(/running:|indexing:/);
  });

  it('traces one question of a finished run as an indented, titled path', async () => {
    const out = tmp();
    expect((await cli('run', 'configs/quickstart.yaml', '--limit', '2', '--strategies', 'layerwise', '--out', out, '--run-id', 't', '--quiet')).code).toBe(0);
    const res = await cli('trace', join(out, 't'), '--question', 'sample-001', '--strategy', 'layerwise');
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/^sample-001 · layerwise · repeat 0/);
    expect(res.out).toMatch(/question +On which day of the month/);
    // Steps are numbered, name the action, the node with its title, and the source.
    expect(res.out).toMatch(/\n +\d+ +(expand|select|open) +.*"[^"]+" \[(llm|value|rule|prior)\]/);
    expect(res.out).toMatch(/\n +\d+ +answer/);
    const missing = await cli('trace', join(out, 't'), '--question', 'nope');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/"nope" is not in/);
  });

  it('stops on a malformed dataset line with exit 2, naming file, line and field', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'qs.jsonl'), '{"id":"a","question":"q?","answers":["x"]}\n{"id":"b","answers":["y"]}\n{"id":"c", "question": }\n');
    writeFileSync(join(dir, 'doc.md'), '# Title\n\nSome text.\n');
    writeFileSync(
      join(dir, 'c.yaml'),
      'name: bad\ndataset:\n  format: jsonl\n  path: qs.jsonl\n  mapping: { question: question, answers: answers, id: id }\ncorpus:\n  format: markdown\n  path: doc.md\nstrategies: [vector]\n',
    );
    const res = await cli('run', join(dir, 'c.yaml'), '--out', dir, '--quiet');
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/qs\.jsonl:3: invalid JSON/);
    expect(res.err).not.toMatch(/at .*\.ts:\d+/); // a user error, not a stack trace
    // With the syntax fixed, the record missing its question is named by line and field.
    writeFileSync(join(dir, 'qs.jsonl'), '{"id":"a","question":"q?","answers":["x"]}\n{"id":"b","answers":["y"]}\n');
    const missing = await cli('run', join(dir, 'c.yaml'), '--out', dir, '--quiet');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/qs\.jsonl:2.*question/);
  });

  it('stops on a model server that fails while the corpus is embedded: exit 1, its message, no stack, and how to resume', async () => {
    // First a server whose embeddings have 64 dimensions where the named model's have 1536 (no
    // retry helps), then one that gives the right size.
    let size = 64;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d));
      req.on('end', () => {
        const n = (JSON.parse(body) as { input: string[] }).input.length;
        const data = Array.from({ length: n }, (_, index) => ({ object: 'embedding', index, embedding: Array.from({ length: size }, (_, j) => ((index + j) % 7) / 7) }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: 'm' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
    process.env.OPENAI_API_KEY = 'sk-cli-test-0123456789';
    process.env.OPENAI_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    try {
      const out = tmp();
      const args = ['run', 'configs/quickstart.yaml', '--limit', '2', '--strategies', 'vector', '--set', 'embedder=openai:text-embedding-3-small', '--set', 'index.cache.enabled=false', '--out', out, '--quiet'];
      const res = await cli(...args, '--run-id', 'r');
      expect(res.code).toBe(1);
      const lines = res.err.split('\n');
      expect(lines[0]).toMatch(/^treebench: openai embeddings "text-embedding-3-small" at http:\/\/127\.0\.0\.1:\d+\/v1: embedding 0 has 64 dimensions, expected 1536, the size of OpenAI's text-embedding-3-small \(does the server serve another model under that name\?\)$/);
      // The hint is the invocation, flag for flag, with --resume for --out/--run-id (its --set flags are in the config hash).
      const hint = `treebench run configs/quickstart.yaml --strategies vector --limit 2 --set embedder=openai:text-embedding-3-small --set index.cache.enabled=false --quiet --resume ${join(out, 'r')}`;
      expect(lines.slice(1)).toEqual(['no record written; once the server answers, resume with:', `  ${hint}`, '']);
      expect(res.err).not.toContain('sk-cli-test');
      expect(readdirSync(join(out, 'r'))).toContain('manifest.json');
      // The server fixed, the printed command finishes the run.
      size = 1536;
      const resumed = await cli(...hint.split(' ').slice(1));
      expect(resumed.err).toBe(`run folder: ${join(out, 'r')}\n`);
      expect(resumed.code).toBe(0);
      expect(readdirSync(join(out, 'r'))).toContain('records.jsonl');
    } finally {
      for (const [name, value] of [['OPENAI_API_KEY', saved.key], ['OPENAI_BASE_URL', saved.url]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('names the config field and line of a bad parameter', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'c.yaml'), 'name: bad\ndataset:\n  format: sample\nstrategies:\n  - strategy: vector\n    params:\n      topK: "many"\n');
    const res = await cli('run', join(dir, 'c.yaml'));
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/c\.yaml:7 strategies\[0\]\.params\.topK/);
  });

  it('inspects a dataset: counts, depth, gold coverage', async () => {
    const res = await cli('datasets', 'inspect', 'configs/quickstart.yaml');
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/documents/i);
    expect(res.out).toMatch(/depth/i);
    expect(res.out).toMatch(/coverage/i);
  });

  it('explains itself with --help and rejects unknown commands with exit 2', async () => {
    const help = spawnSync(process.execPath, ['bin/treebench.mjs', '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/run <config>/);
    expect(help.stdout).toMatch(/report <runDir>/);
    const bad = await cli('runn', 'x');
    expect(bad.code).toBe(2);
  });
});
