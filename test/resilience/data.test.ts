// Hostile or broken data: a clear exit 2 or a warning, never a crash or silent acceptance.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tmp, writeConfig } from './helpers.ts';

function pageIndexCorpus(dir: string, docs: Record<string, string | Buffer>): void {
  mkdirSync(join(dir, 'corpus'), { recursive: true });
  for (const [name, body] of Object.entries(docs)) writeFileSync(join(dir, 'corpus', `${name}.json`), body);
  writeFileSync(join(dir, 'q.jsonl'), JSON.stringify({ id: 'q1', question: 'What is deep?', answers: ['deep'] }) + '\n');
}

const config = (dir: string) =>
  writeConfig(dir, { dataset: { format: 'jsonl', path: 'q.jsonl' }, corpus: { format: 'pageindex', path: 'corpus' }, strategies: ['vector'], run: { outDir: join(dir, 'runs') } });

describe('hostile data', () => {
  it('a tree nested 2,500 levels deep is exit 2 naming the file', async () => {
    const dir = tmp();
    const n = 2500;
    let s = '';
    for (let i = 1; i < n; i++) s += `{"title":"t${i}","node_id":"n${i}","text":"x","nodes":[`;
    s += `{"title":"leaf","node_id":"n${n}","text":"deep"}` + ']}'.repeat(n - 1);
    pageIndexCorpus(dir, { deep: `{"doc_name":"deep","structure":[${s}]}` });
    const res = await cli('run', config(dir), '--quiet');
    expect(res.code).toBe(2);
    expect(res.err).toContain(`${join(dir, 'corpus', 'deep.json')}:1: nested more than 400 levels deep`);
  });

  it('warns about a document with no nodes and about bytes that are not UTF-8', async () => {
    const dir = tmp();
    const bad = Buffer.concat([Buffer.from('{"doc_name":"latin","structure":[{"title":"Caf'), Buffer.from([0xe9]), Buffer.from('","node_id":"1","text":"deep water"}]}')]);
    pageIndexCorpus(dir, { empty: '{"doc_name":"empty","structure":[]}', latin: bad });
    const res = await cli('run', config(dir), '--quiet');
    expect(res.code, res.err).toBe(0);
    expect(res.err).toMatch(/warning: .*empty\.json: document "empty" has no nodes/);
    expect(res.err).toMatch(/warning: .*latin\.json: not valid UTF-8 \(first bad byte near offset 46\)/);
  });
});
