import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RecordWriter } from '../../../harness/run/recordWriter.ts';
import { RunStore } from '../../../harness/run/store.ts';
import { validateConfig, type LoadedConfig } from '../../../harness/config/runConfig.ts';
import { runBenchmark } from '../../../harness/run/runner.ts';
import { loadBenchmarkData } from '../../../datasets/registry.ts';
import { registerStrategy } from '../../../strategies/registry.ts';
import { summarize } from '../../../harness/summary/summary.ts';
import { mulberry32 } from '../../../harness/run/random.ts';
import type { RunRecord } from '../../../harness/types.ts';
import { record as fixtureRecord } from '../summary/summaryFixture.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'treebench-writer-'));

const record = (i: number, extra: Partial<RunRecord> = {}): RunRecord =>
  fixtureRecord({
    runId: 'w',
    strategy: `s${i % 3}`,
    questionId: `q${i}`,
    question: `question ${i} with "quotes", a newline\nand unicode ✓`,
    answer: `a${i}`,
    gold: [],
    calls: 1,
    inputTokens: i,
    finishedAt: new Date(0).toISOString(),
    ...extra,
  });

describe('RecordWriter', () => {
  it('loses and reorders nothing: every line in append order, however appends and writes interleave', async () => {
    const path = join(tmp(), 'records.jsonl');
    const writer = new RecordWriter(path);
    const r = mulberry32(3);
    const sent: RunRecord[] = [];
    for (let i = 0; i < 3000; i++) {
      const rec = record(i, i % 97 === 0 ? { answer: 'x'.repeat(200_000) } : {});
      writer.append(rec);
      sent.push(rec);
      // Yield at random so some appends land while a write is in flight and some between writes.
      if (r() < 0.1) await tick();
    }
    await writer.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(sent.length);
    expect(lines.map((l) => JSON.parse(l))).toEqual(sent);
    expect(writer.appended).toBe(3000);
  });

  it('only appends: what was in the file stays, byte for byte', async () => {
    const dir = tmp();
    const store = RunStore.create(dir);
    store.append(record(0));
    const before = readFileSync(store.recordsPath, 'utf8');
    const writer = new RecordWriter(store.recordsPath);
    writer.append(record(1));
    await writer.close();
    const after = readFileSync(store.recordsPath, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(store.readRecords().map((x) => x.questionId)).toEqual(['q0', 'q1']);
  });

  it('serialises once with secrets redacted', async () => {
    const { registerSecret } = await import('../../../harness/models/secrets.ts');
    const secret = ['sk', 'writer', 'z'.repeat(24)].join('-');
    registerSecret(secret);
    const path = join(tmp(), 'records.jsonl');
    const writer = new RecordWriter(path);
    writer.append(record(1, { error: `failed with ${secret}` }));
    await writer.close();
    expect(readFileSync(path, 'utf8')).not.toContain(secret);
  });

  it('a failed write is reported by flush and by the next append, naming the file', async () => {
    const path = join(tmp(), 'missing-folder', 'records.jsonl');
    const writer = new RecordWriter(path);
    writer.append(record(1));
    await expect(writer.flush()).rejects.toThrow(/missing-folder\/records\.jsonl/);
    expect(() => writer.append(record(2))).toThrow(/cannot append/);
  });

  it('caughtUp() holds the caller back while many lines wait, and not otherwise', async () => {
    const path = join(tmp(), 'records.jsonl');
    const writer = new RecordWriter(path);
    await writer.caughtUp(); // nothing queued: resolves at once
    for (let i = 0; i < 500; i++) writer.append(record(i));
    await writer.caughtUp();
    // At most 64 lines may still wait behind the write in flight.
    expect(readFileSync(path, 'utf8').split('\n').length - 1).toBeGreaterThanOrEqual(500 - 64);
    await writer.close();
  });
});

registerStrategy({
  name: 'test-jitter',
  description: 'finishes after a seeded random number of event-loop turns, so completion order is scrambled',
  params: z.object({}).strict(),
  async run(question, ctx) {
    const n = Math.floor(ctx.random() * 20);
    for (let i = 0; i < n; i++) await tick();
    await ctx.chat([{ role: 'user', content: question.question }], { task: 'test' });
    return { answer: 'x', evidence: [], trace: [] };
  },
});

describe('the runner with the record writer', () => {
  it('puts records on disk during the run, even when the strategy never waits for the event loop', async () => {
    // The offline model answers without timers or I/O: without back-pressure, no write would
    // complete (and every record would wait in memory) until the run ended.
    const cfg = { name: 'lag', dataset: { format: 'sample' }, strategies: ['vector'], run: { concurrency: 4 } };
    const { config, strategies } = validateConfig(cfg);
    const loaded: LoadedConfig = { path: join(process.cwd(), 'lag.yaml'), baseDir: process.cwd(), raw: JSON.stringify(cfg), config, strategies };
    const data = await loadBenchmarkData(config, process.cwd());
    const out = tmp();
    let worstLag = 0;
    await runBenchmark({
      loaded, data, outDir: out, runId: 'lag', repeats: 4, intervals: false,
      onProgress: (p) => {
        if (p.phase !== 'run') return;
        const file = join(out, 'lag', 'records.jsonl');
        const onDisk = existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0; // opened by the first write
        worstLag = Math.max(worstLag, p.done - onDisk);
      },
    });
    expect(data.questions.length * 4).toBeGreaterThan(200);
    // Lines behind the disk: at most the writer's allowance plus one record per worker (8).
    expect(worstLag).toBeLessThanOrEqual(64 + 8 + 1);
  });

  it('writes every finished record exactly once, and the summary matches the file', async () => {
    const full = { name: 'w', dataset: { format: 'sample' }, strategies: ['test-jitter', { id: 'jitter-2', strategy: 'test-jitter' }], run: { concurrency: 8 } };
    const { config, strategies } = validateConfig(full);
    const loaded: LoadedConfig = { path: join(process.cwd(), 'w.yaml'), baseDir: process.cwd(), raw: JSON.stringify(full), config, strategies };
    const data = await loadBenchmarkData(config, process.cwd());
    const out = tmp();
    const outcome = await runBenchmark({ loaded, data, outDir: out, runId: 'w', repeats: 3 });
    const inFile = RunStore.open(join(out, 'w')).readRecords();
    const expected = data.questions.length * 2 * 3;
    expect(inFile).toHaveLength(expected);
    expect(new Set(inFile.map((r) => `${r.strategy}/${r.questionId}/${r.repeat}`)).size).toBe(expected);
    expect(outcome.records).toHaveLength(expected);
    expect(outcome.summary.strategies.map((s) => s.records)).toEqual([expected / 2, expected / 2]);
    const { ci: _ci, strategies: withCi, ...rest } = outcome.summary;
    const fromFile = summarize(outcome.records);
    expect(rest).toEqual((({ strategies: _s, ...r }) => r)(fromFile));
    expect(withCi.map(({ intervals: _i, repeatStats: _r, ...s }) => s)).toEqual(fromFile.strategies);
  });
});
