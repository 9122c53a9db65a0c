import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../harness/config/runConfig.ts';
import { runBenchmark, type RunOutcome } from '../../harness/run/runner.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { summarize } from '../../harness/summary/summary.ts';
import { withIntervals } from '../../harness/summary/intervals.ts';
import { renderHtml, writeHtml } from '../../reports/html/run.ts';
import { RunStore } from '../../harness/run/store.ts';
import { recordsInRunOrder } from '../../harness/run/recordsInOrder.ts';
import { safeOutput, writeOutputStream, type OutputStream } from '../../harness/files/output.ts';
import { registerSecret } from '../../harness/models/secrets.ts';
import { mulberry32 } from '../../harness/run/random.ts';
import { reportMeta } from '../../reports/meta.ts';
import { esc, jsonForScript } from '../../reports/html/escape.ts';
import type { RunRecord } from '../../harness/types.ts';

let outcome: RunOutcome;

beforeAll(async () => {
  const loaded = loadConfig('configs/quickstart.yaml');
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
  outcome = await runBenchmark({ loaded, data, limit: 4, only: ['vector', 'node-list'], outDir: mkdtempSync(join(tmpdir(), 'treebench-htmlunit-')), runId: 'u' });
}, 60_000);

const records = (html: string): Array<{ q: string; s: string; r: number }> => {
  const b64 = /id="tb-records">([^<]*)</.exec(html)![1]!;
  return JSON.parse(gunzipSync(Buffer.from(b64, 'base64')).toString('utf8'));
};

describe('HTML run report', () => {
  it('escapes text for elements and attributes, and data for script islands', () => {
    expect(esc(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    expect(jsonForScript({ t: '</script><script>' })).not.toMatch(/<\/script/i);
    expect(JSON.parse(jsonForScript({ t: '</script>\u2028' }))).toEqual({ t: '</script>\u2028' });
  });

  it('carries every record for the matrix, and one matrix cell per question × strategy', () => {
    const html = renderHtml({ summary: outcome.summary, meta: reportMeta(outcome.manifest), records: outcome.records });
    expect(records(html)).toHaveLength(outcome.records.length);
    expect(html.match(/<button type="button" class="cell-/g)).toHaveLength(8);
    // The page allows exactly its own script, by hash.
    expect(html).toMatch(/script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;/);
  });

  it('charts tokens instead of dollars for an unpriced model, and says so', () => {
    const meta = { ...reportMeta(outcome.manifest), priced: false };
    const html = renderHtml({ summary: outcome.summary, meta, records: outcome.records });
    expect(html).toContain('Unpriced');
    expect(html).toContain('id="chart-accuracy-vs-tokensPerQuestion"');
    expect(html).not.toContain('id="chart-accuracy-vs-costPerQuestion"');
    expect(html).not.toMatch(/\$0\.\d/);
  });

  it('shows correct/repeats for repeated questions, mixed when they disagree', () => {
    const flipped: RunRecord[] = outcome.records.map((r) => ({ ...r, repeat: 1, scores: r.scores ? { ...r.scores, correct: 1 - (r.scores.correct ?? 0) } : r.scores }));
    const all = [...outcome.records, ...flipped];
    const summary = withIntervals(summarize(all), all, { seed: 1, resamples: 200 });
    const html = renderHtml({ summary, meta: { ...reportMeta(outcome.manifest), repeats: 2 }, records: all });
    expect(html.match(/class="cell-mixed"[^>]*>1\/2</g)).toHaveLength(8);
  });

  it('shows an agent step as its tool call and what came back, as `treebench trace` does', () => {
    const step = { step: 1, action: 'tool', source: 'llm', tool: 'search_sections', args: { query: 'battery life' }, reason: 'look it up', result: '3 sections' } as unknown as RunRecord['trace'][number];
    const rec: RunRecord = { ...outcome.records[0]!, trace: [step] };
    const html = renderHtml({ summary: outcome.summary, meta: reportMeta(outcome.manifest), records: [rec] });
    const [row] = records(html) as unknown as Array<{ trace: string[] }>;
    expect(row!.trace[0]).toContain('search_sections("query":"battery life")');
    expect(row!.trace[0]).toContain('→ 3 sections');
  });

  it('without records: no matrix, no distributions, and no script at all', () => {
    const html = renderHtml({ summary: outcome.summary, meta: reportMeta(outcome.manifest) });
    expect(html).not.toContain('<script');
    expect(html).toContain("script-src &#39;none&#39;");
    expect(html).toContain('id="chart-accuracy-vs-costPerQuestion"');
  });

  it('escapes a hostile strategy label everywhere it appears', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const summary = { ...outcome.summary, strategies: outcome.summary.strategies.map((s, i) => (i === 0 ? { ...s, strategy: evil } : s)) };
    const html = renderHtml({ summary, meta: { ...reportMeta(outcome.manifest), strategies: [evil, 'node-list'] } });
    expect(html).not.toContain(evil);
    expect(html).toContain(esc(evil));
  });

  it('written piece by piece from records.jsonl, the page is the one renderHtml makes of the records in memory', async () => {
    const meta = reportMeta(outcome.manifest);
    const file = join(mkdtempSync(join(tmpdir(), 'treebench-htmlstream-')), 'report.html');
    const store = RunStore.open(outcome.dir);
    await writeOutputStream(file, (out) => writeHtml({ summary: outcome.summary, meta, records: recordsInRunOrder(store, outcome.manifest) }, out));
    // What writeReportFiles wrote before the page was streamed: the whole string, through the output passes.
    const whole = safeOutput(renderHtml({ summary: outcome.summary, meta, records: outcome.records }), 'document');
    expect(readFileSync(file, 'utf8')).toBe(whole);
    expect(records(whole)).toHaveLength(outcome.records.length);
  });

  it('streams: the data island leaves in pieces while records are still being read, and no piece holds it all', async () => {
    // 600 records (75 copies of the run's 8 under new question ids, each with its own answer of
    // random digits, which gzip cannot shrink much): an island of many gzip chunks.
    const rand = mulberry32(7);
    const many: RunRecord[] = Array.from({ length: 75 }, (_, k) =>
      outcome.records.map((r) => ({ ...r, questionId: `${r.questionId}#${k}`, answer: Array.from({ length: 2000 }, () => Math.floor(rand() * 10)).join('') })),
    ).flat();
    const events: string[] = [];
    let pulls = 0;
    const source: Iterable<RunRecord> = {
      *[Symbol.iterator]() {
        for (const r of many) {
          events.push(`pull ${++pulls}`);
          yield r;
        }
      },
    };
    const pieces: string[] = [];
    const out: OutputStream = { write: (t) => void pieces.push(t), writeRaw: (t) => (pieces.push(t), void events.push('raw')) };
    const meta = reportMeta(outcome.manifest);
    await writeHtml({ summary: outcome.summary, meta, records: source }, out);
    // Two passes over the records (the matrix's counts, then the island), no more.
    expect(pulls).toBe(2 * many.length);
    const page = pieces.join('');
    expect(page).toBe(renderHtml({ summary: outcome.summary, meta, records: many }));
    expect(records(page)).toHaveLength(many.length);
    // Compressed data is written before the last record is read...
    const lastPull = events.lastIndexOf(`pull ${pulls}`);
    expect(events.slice(events.indexOf(`pull ${many.length + 1}`), lastPull).filter((e) => e === 'raw').length).toBeGreaterThan(1);
    // ...and no piece is the island (or the page) whole.
    const island = /id="tb-records">([^<]*)</.exec(page)![1]!;
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(island.length / 3);
  });

  it('passes the island through the output passes too: keys in use redacted, bidi controls neutralised', () => {
    registerSecret('island-secret-token-77');
    const rec: RunRecord = { ...outcome.records[0]!, answer: 'the key island-secret-token-77 \u202Eevil' };
    const [row] = records(renderHtml({ summary: outcome.summary, meta: reportMeta(outcome.manifest), records: [rec] })) as unknown as Array<{ answer: string }>;
    expect(row!.answer).toBe('the key [REDACTED] \uFFFDevil');
  });
});
