// The run's progress line: fingerprint and chunking say nothing when quick, show a line with an
// ETA once they pass two seconds, and each step's rate is its own (the index's ETA ignores the
// time chunking took before its first report).
import { describe, expect, it } from 'vitest';
import { progressPrinter } from '../../cli/handlers/runProgress.ts';
import type { Progress } from '../../harness/run/runner.ts';
import { corpusHash } from '../../harness/trees/corpusHash.ts';
import { ValueIndex } from '../../harness/retrieval/valueIndex.ts';

function printer() {
  const lines: string[] = [];
  let t = 0;
  const print = progressPrinter(false, { stream: { write: (s: string) => (lines.push(s), true), isTTY: false } as never, now: () => t });
  const at = (ms: number, p: Omit<Progress, 'errors' | 'elapsedMs'> & { elapsedMs?: number }) => {
    t = ms;
    print({ errors: 0, elapsedMs: ms, ...p });
  };
  return { lines, at, setNow: (ms: number) => (t = ms) };
}

describe('run progress line', () => {
  it('quick steps print nothing; a slow fingerprint prints a line with its ETA, then its time', () => {
    const quick = printer();
    quick.at(100, { phase: 'fingerprint', done: 5, total: 10 });
    quick.at(300, { phase: 'fingerprint', done: 10, total: 10 });
    quick.at(400, { phase: 'chunking', done: 10, total: 10 });
    expect(quick.lines).toEqual([]);

    const slow = printer();
    slow.at(1000, { phase: 'fingerprint', done: 100, total: 400 });
    slow.at(2500, { phase: 'fingerprint', done: 250, total: 400 });
    slow.at(4000, { phase: 'fingerprint', done: 400, total: 400 });
    expect(slow.lines).toEqual(['fingerprinting the corpus: 250/400 documents, ~2 s left\n', 'fingerprinting the corpus: 400/400 documents, 4.0 s\n']);
  });

  it("the index's ETA is measured from its own first report, not from the chunking before it", () => {
    const p = printer();
    p.at(3000, { phase: 'chunking', done: 50, total: 100 });
    p.at(6000, { phase: 'chunking', done: 100, total: 100 });
    // First index report 10 s into the build (chunking and the fit before it), then 1000 chunks/s.
    p.at(10_000, { phase: 'index', done: 128, total: 10_128 });
    p.at(12_500, { phase: 'index', done: 2628, total: 10_128 });
    p.at(20_000, { phase: 'index', done: 10_128, total: 10_128 });
    expect(p.lines).toEqual([
      'chunking the corpus: 50/100 documents, ~3 s left\n',
      'chunking the corpus: 100/100 documents, 6.0 s\n',
      'indexing: 128/10128 chunks embedded\n',
      'indexing: 2628/10128 chunks embedded, ~8 s left\n',
      'indexing: 10128/10128 chunks embedded\n',
    ]);
  });

  it('quiet prints nothing', () => {
    const lines: string[] = [];
    progressPrinter(true, { stream: { write: (s: string) => (lines.push(s), true) } as never })({ phase: 'index', done: 1, total: 1, errors: 0, elapsedMs: 9000 });
    expect(lines).toEqual([]);
  });
});

describe('steps that report progress', () => {
  const leaf = (id: string, text: string) => ({ id, title: id, text, children: [] });
  const corpus = { name: 'c', docs: ['a', 'b', 'c'].map((d) => ({ docId: d, title: d, nodes: [leaf('0001', `words of ${d} `.repeat(50))] })) };

  it('the corpus hash reports each document, and the same hash with or without a listener', () => {
    const seen: Array<[number, number]> = [];
    const h = corpusHash(corpus.docs as never, (done, total) => seen.push([done, total]));
    expect(seen).toEqual([[1, 3], [2, 3], [3, 3]]);
    expect(h).toBe(corpusHash(corpus.docs as never));
  });

  it('chunking reports each document', () => {
    const seen: number[] = [];
    const chunks = ValueIndex.chunkCorpus(corpus as never, { chunkTokens: 32, overlap: 4, onChunking: (done) => seen.push(done) });
    expect(chunks.length).toBeGreaterThan(3);
    expect(seen).toEqual([1, 2, 3]);
  });
});
