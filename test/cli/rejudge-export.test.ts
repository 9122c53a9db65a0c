// `treebench rejudge` and `treebench export` from the command line: exit codes, flag errors that
// name the flag, and a rejudged run that `treebench compare` accepts.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'treebench-rejudge-cli-'));

describe('treebench rejudge / export', () => {
  it('rejudges a run with the rule judge, compare accepts it, and export writes TREC files', async () => {
    const out = tmp();
    const run = await runCli(['run', 'configs/quickstart.yaml', '--strategies', 'vector', '--limit', '8', '--out', out, '--run-id', 'base', '--quiet']);
    expect(run.code).toBe(0);
    const base = join(out, 'base');

    const rej = await runCli(['rejudge', base, '--no-judge', '--out', join(out, 'again')]);
    expect(rej.code).toBe(0);
    expect(existsSync(join(out, 'again', 'records.jsonl'))).toBe(true);
    expect(rej.stdout).toContain('recall@10 (node)');

    const cmp = await runCli(['compare', base, join(out, 'again'), '--metrics', 'accuracy']);
    expect(cmp.code).toBe(0);
    expect(cmp.stdout).toContain('vector: 8 of 8 questions of A paired');

    // A second rejudge into the same folder is refused: finished work is never overwritten.
    const twice = await runCli(['rejudge', base, '--no-judge', '--out', join(out, 'again')]);
    expect(twice.code).toBe(2);

    const exp = await runCli(['export', base, '--trec', join(out, 'v.run'), '--qrels', join(out, 'v.qrels')]);
    expect(exp.code).toBe(0);
    expect(readFileSync(join(out, 'v.run'), 'utf8').split('\n')[0]).toMatch(/^sample-\d+ Q0 \S+#\S+ 1 \d+ vector$/);
    expect(readFileSync(join(out, 'v.qrels'), 'utf8').split('\n')[0]).toMatch(/^sample-\d+ 0 \S+ 1$/);
  });

  it('names the bad flag and exits 2', async () => {
    const out = tmp();
    await runCli(['run', 'configs/quickstart.yaml', '--strategies', 'vector', '--limit', '2', '--out', out, '--run-id', 'b', '--quiet']);
    const bad = await runCli(['rejudge', join(out, 'b'), '--judge', 'openai:gpt-4o-mini', '--judge-prompt', 'lenient']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--judge-prompt');
    const offline = await runCli(['rejudge', join(out, 'b'), '--judge', 'offline']);
    expect(offline.code).toBe(2);
    expect(offline.stderr).toMatch(/--judge: the judge needs a real model/);
    const level = await runCli(['export', join(out, 'b'), '--trec', join(out, 'x.run'), '--level', 'chapter']);
    expect(level.code).toBe(2);
    expect(level.stderr).toContain('--level');
    const nothing = await runCli(['export', join(out, 'b')]);
    expect(nothing.code).toBe(2);
  });
});
