// `treebench run --limit/--shard` with `corpus.only: referenced`: only the documents of the
// questions that run are read. A broken PDF stands for "extracted": were it read, the load would fail.
import { mkdtempSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makePdf } from '../datasets/pdf-writer.ts';
import { runCli } from './runCli.ts';

afterEach(() => vi.restoreAllMocks());

function project(brokenB = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'treebench-select-'));
  mkdirSync(join(dir, 'pdfs'));
  writeFileSync(join(dir, 'pdfs/a.pdf'), makePdf([['Revenue was 12 million in 2020.']]));
  writeFileSync(join(dir, 'pdfs/b.pdf'), brokenB ? 'broken: only question 2 names it' : makePdf([['x is in b.']]));
  writeFileSync(join(dir, 'pdfs/c.pdf'), 'broken: no question names it');
  writeFileSync(
    join(dir, 'questions.json'),
    JSON.stringify([
      { q: 'What was revenue in 2020?', a: '12 million', doc: 'a', pages: '[1]' },
      { q: 'What is in b?', a: 'x', doc: 'b', pages: '[1]' },
    ]),
  );
  writeFileSync(
    join(dir, 'config.yaml'),
    [
      'name: select',
      'dataset:',
      '  format: json',
      '  path: questions.json',
      '  mapping: { question: q, answers: a, docIds: doc, pages: pages }',
      'corpus:',
      '  format: pdf',
      '  path: pdfs',
      '  only: referenced',
      'model: { provider: offline }',
      'embedder: hash',
      'strategies: [vector]',
      'reports: [json]',
    ].join('\n'),
  );
  return dir;
}

describe('run with corpus.only: referenced', () => {
  it('--limit 1 and --shard 1/2 read only the first question\'s PDF; the full run skips the unreadable b.pdf, strict stops on it', async () => {
    const dir = project();
    const limited = await runCli(['run', join(dir, 'config.yaml'), '--limit', '1', '--out', join(dir, 'runs'), '--run-id', 'l1', '--quiet']);
    expect(limited.stderr).not.toMatch(/error/i);
    expect(limited.code).toBe(0);
    expect(limited.stderr).toContain('note: corpus.only: referenced: 1 of 3 documents loaded');
    const manifest = JSON.parse(readFileSync(join(dir, 'runs/l1/manifest.json'), 'utf8'));
    expect(manifest.questionIds).toEqual(['1']);
    expect(manifest.corpus.docs).toBe(1);

    const shard = await runCli(['run', join(dir, 'config.yaml'), '--shard', '1/2', '--out', join(dir, 'runs'), '--run-id', 's1', '--quiet']);
    expect(shard.code).toBe(0);

    // The full run reads b.pdf: unreadable, it is skipped (named, its question dropped); strict stops on it.
    const full = await runCli(['run', join(dir, 'config.yaml'), '--out', join(dir, 'runs'), '--run-id', 'all', '--quiet']);
    expect(full.code, full.stderr).toBe(0);
    expect(full.stderr).toMatch(/b\.pdf: skipped, /);
    expect(full.stderr).not.toContain('c.pdf');
    const strict = await runCli(['run', join(dir, 'config.yaml'), '--set', 'corpus.strict=true', '--out', join(dir, 'runs'), '--run-id', 'strict', '--quiet']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('b.pdf');
  });

  it('shards load different documents yet carry the same dataset and corpus hashes, so they merge', async () => {
    const dir = project(false);
    const runs = join(dir, 'runs');
    for (const i of [1, 2]) {
      const r = await runCli(['run', join(dir, 'config.yaml'), '--shard', `${i}/2`, '--out', runs, '--run-id', `s${i}`, '--quiet']);
      expect(r.code).toBe(0);
    }
    const m1 = JSON.parse(readFileSync(join(runs, 's1/manifest.json'), 'utf8'));
    const m2 = JSON.parse(readFileSync(join(runs, 's2/manifest.json'), 'utf8'));
    expect([m1.corpus.docs, m2.corpus.docs]).toEqual([1, 1]);
    expect(m1.corpus.hash).toBe(m2.corpus.hash);
    expect(m1.dataset.questionsHash).toBe(m2.dataset.questionsHash);
    const merged = await runCli(['merge', join(runs, 's1'), join(runs, 's2'), '--out', join(runs, 'merged')]);
    expect(merged.stderr).toContain('merged 2 shards (2 questions');
    expect(merged.code).toBe(0);
    // --quiet, as every long command takes it: the report alone, nothing on stderr
    const again = await runCli(['merge', join(runs, 's1'), join(runs, 's2'), '--out', join(runs, 'merged'), '--quiet', '--format', 'json']);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout)).toBeTruthy();
  });
});
