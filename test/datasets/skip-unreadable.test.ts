// A corpus with documents that cannot be read (a truncated PDF, a PDF whose pages hold no text, a
// file that is not a PDF at all): the run leaves each out with a warning naming it, drops the
// questions that name it, finishes (exit 0) and counts them in the manifest, the table and
// report.md. `corpus.strict: true` turns them into one error naming every file (exit 2); what
// was read before the failure stays in the ingestion cache. Byte-identical documents are named
// (corpus.duplicates: keep, the default) or merged into one (merge), the questions that named a
// copy pointed at the one kept.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, recordLines, tmp, writeConfig } from '../resilience/helpers.ts';
import { makePdf } from './pdf-writer.ts';

function corpus(dir: string): void {
  const docs = join(dir, 'docs');
  mkdirSync(docs, { recursive: true });
  const good = makePdf([['Revenue', 'Revenue grew to 42 million dollars in the year.'], ['Outlook', 'The outlook is steady for the next year.']]);
  writeFileSync(join(docs, 'good.pdf'), good);
  writeFileSync(join(docs, 'cut.pdf'), makePdf([['Costs', 'Costs fell by ten percent.']]).subarray(0, 60));
  writeFileSync(join(docs, 'blank.pdf'), makePdf([[], []]));
  writeFileSync(join(docs, 'notes.pdf'), 'this is not a PDF\n');
  const q = [
    { id: 'q1', question: 'What did revenue grow to?', answer: '42 million dollars', doc: 'good' },
    { id: 'q2', question: 'How much did costs fall?', answer: 'ten percent', doc: 'cut' },
    { id: 'q3', question: 'What is the outlook?', answer: 'steady', doc: 'good' },
  ];
  writeFileSync(join(dir, 'q.jsonl'), q.map((x) => JSON.stringify(x)).join('\n') + '\n');
}

describe('unreadable documents', () => {
  it('are skipped, named and counted; the run finishes; strict makes them one error naming every file', async () => {
    const dir = tmp();
    corpus(dir);
    const base = {
      dataset: { format: 'jsonl', path: join(dir, 'q.jsonl'), mapping: { id: 'id', question: 'question', answers: 'answer', docIds: 'doc' } },
      strategies: ['vector'],
      reports: ['md'],
    };
    const cfg = writeConfig(dir, { ...base, corpus: { format: 'pdf', path: join(dir, 'docs'), cacheDir: join(dir, 'ingest') }, run: { outDir: join(dir, 'runs') } });
    const res = await cli('run', cfg, '--run-id', 'r', '--format', 'table');
    expect(res.code, res.err).toBe(0);
    for (const f of ['cut.pdf', 'blank.pdf', 'notes.pdf']) expect(res.err).toMatch(new RegExp(`${f}: skipped, `));
    expect(res.err).toMatch(/blank\.pdf: skipped, none of its 2 pages has extractable text/);
    expect(res.err).toMatch(/dropped 1 of 3 questions that name a skipped document/);
    const records = recordLines(join(dir, 'runs', 'r', 'records.jsonl'));
    expect(records.map((r) => r.questionId).sort()).toEqual(['q1', 'q3']);
    const manifest = JSON.parse(readFileSync(join(dir, 'runs', 'r', 'manifest.json'), 'utf8'));
    expect(manifest.ingestion.pdf.skipped.map((s: { docId: string }) => s.docId).sort()).toEqual(['blank', 'cut', 'notes']);
    expect(manifest.ingestion.pdf.documents).toBe(1);
    expect(res.out).toMatch(/skipped: 3 unreadable document\(s\) left out of the corpus/);
    const report = readFileSync(join(dir, 'runs', 'r', 'report.md'), 'utf8');
    expect(report).toMatch(/\*\*skipped\*\*: 3 unreadable document\(s\)/);
    expect(report).toContain('cut.pdf (');
    // Every load warning is kept in the run folder too.
    const kept = readFileSync(join(dir, 'runs', 'r', 'warnings.txt'), 'utf8');
    for (const f of ['cut.pdf', 'blank.pdf', 'notes.pdf']) expect(kept).toMatch(new RegExp(`${f}: skipped, `));

    // Strict: exit 2 naming all three, no run; the good PDF's extraction is cached all the same.
    const strictCfg = writeConfig(dir, { ...base, corpus: { format: 'pdf', path: join(dir, 'docs'), cacheDir: join(dir, 'ingest2'), strict: true }, run: { outDir: join(dir, 'runs') } }, 'strict.yaml');
    const strict = await cli('run', strictCfg, '--run-id', 's');
    expect(strict.code).toBe(2);
    expect(strict.err).toMatch(/corpus\.strict.*3 of 4 document\(s\) cannot be read/);
    for (const f of ['cut.pdf', 'blank.pdf', 'notes.pdf']) expect(strict.err).toContain(f);
    expect(readdirSync(join(dir, 'ingest2', 'content')).length).toBeGreaterThanOrEqual(1);
  }, 120_000);
});

describe('byte-identical documents', () => {
  it('keep: both stay, the pair is named; merge: one stays and the questions naming the copy point at it', async () => {
    const dir = tmp();
    const docs = join(dir, 'docs');
    mkdirSync(docs, { recursive: true });
    const filing = makePdf([['Revenue', 'Revenue grew to 42 million dollars in the year.'], ['Outlook', 'The outlook is steady for the next year.']]);
    writeFileSync(join(docs, 'a-filing.pdf'), filing);
    writeFileSync(join(docs, 'b-copy.pdf'), filing);
    writeFileSync(join(docs, 'c-other.pdf'), makePdf([['Costs', 'Costs fell by ten percent.']]));
    const q = [
      { id: 'q1', question: 'What did revenue grow to?', answer: '42 million dollars', doc: 'b-copy', page: 1 },
      { id: 'q2', question: 'How much did costs fall?', answer: 'ten percent', doc: 'c-other', page: 1 },
    ];
    writeFileSync(join(dir, 'q.jsonl'), q.map((x) => JSON.stringify(x)).join('\n') + '\n');
    const config = (duplicates: string | undefined, name: string) =>
      writeConfig(dir, {
        dataset: { format: 'jsonl', path: join(dir, 'q.jsonl'), mapping: { id: 'id', question: 'question', answers: 'answer', docIds: 'doc', evidenceDocId: 'doc', pages: 'page' } },
        corpus: { format: 'pdf', path: docs, cacheDir: join(dir, 'ingest'), ...(duplicates ? { duplicates } : {}) },
        strategies: ['vector'],
        reports: ['md'],
        run: { outDir: join(dir, 'runs') },
      }, name);

    const kept = await cli('run', config(undefined, 'keep.yaml'), '--run-id', 'keep', '--format', 'table');
    expect(kept.code, kept.err).toBe(0);
    expect(kept.err).toContain('1 group(s) of byte-identical documents, each kept as its own document: a-filing = b-copy');
    const keptManifest = JSON.parse(readFileSync(join(dir, 'runs', 'keep', 'manifest.json'), 'utf8'));
    expect(keptManifest.corpus.docs).toBe(3);
    expect(keptManifest.ingestion.pdf.duplicates).toEqual([{ docIds: ['a-filing', 'b-copy'], files: [join(docs, 'a-filing.pdf'), join(docs, 'b-copy.pdf')] }]);

    const merged = await cli('run', config('merge', 'merge.yaml'), '--run-id', 'merge', '--format', 'table');
    expect(merged.code, merged.err).toBe(0);
    expect(merged.err).toContain('merged 1 byte-identical document(s) into the first of their group: a-filing = b-copy');
    const manifest = JSON.parse(readFileSync(join(dir, 'runs', 'merge', 'manifest.json'), 'utf8'));
    expect(manifest.corpus.docs).toBe(2);
    expect(merged.out).toMatch(/duplicates: 1 group\(s\) of byte-identical documents, merged into the first of each/);
    expect(readFileSync(join(dir, 'runs', 'merge', 'report.md'), 'utf8')).toMatch(/\*\*duplicates\*\*: 1 group/);
    // q1 named the copy: it now searches the kept document, and its gold page is found there.
    const r1 = recordLines(join(dir, 'runs', 'merge', 'records.jsonl')).find((r) => r.questionId === 'q1')!;
    expect(r1.error).toBeNull();
    expect(r1.evidence.every((e: { docId: string }) => e.docId === 'a-filing')).toBe(true);
    expect(r1.retrieval!.page!.recall).toBe(1);
    expect(r1.retrieval!.doc!.recall).toBe(1);
  }, 120_000);
});
