import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../harness/config/runConfig.ts';
import { runBenchmark, type RunOutcome } from '../../harness/run/runner.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { summarize } from '../../harness/summary/summary.ts';
import { withIntervals } from '../../harness/summary/intervals.ts';
import { renderHtml } from '../../reports/html/run.ts';
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
});
