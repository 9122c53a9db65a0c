// The HTML run report in a real browser (Debian Chromium via playwright-core): it loads from
// disk with no console error and no network request, the charts render, a matrix click shows
// the record's trace, and hostile dataset text stays text. Writes a screenshot (for the README
// when TREEBENCH_SCREENSHOT names the file).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { loadConfig } from '../../harness/config/runConfig.ts';
import { runBenchmark } from '../../harness/run/runner.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { reportInput } from '../../reports/index.ts';
import { writeHtml } from '../../reports/html/run.ts';
import { writeOutputStream } from '../../harness/files/output.ts';
import { reportMeta } from '../../reports/meta.ts';
import { nodeTitles } from '../../reports/html/titles.ts';
import type { RunRecord } from '../../harness/types.ts';
import { launchChromium, openWatched } from './chromium.ts';

const HOSTILE = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">`;

interface Loaded {
  page: Page;
  consoleErrors: string[];
  requests: string[];
  dialogs: string[];
}

let context: BrowserContext;
let records: RunRecord[];
let strategies: string[];
let file: string;

async function open(url: string): Promise<Loaded> {
  const { page, errors, requests, dialogs } = await openWatched(context, url);
  return { page, consoleErrors: errors, requests, dialogs };
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'treebench-html-'));
  const loaded = loadConfig('configs/quickstart.yaml');
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
  // The whole quickstart: its intervals and labels are the ones a new user's first report shows.
  const outcome = await runBenchmark({ loaded, data, outDir: dir, runId: 'html-test' });
  strategies = outcome.manifest.strategies.map((s) => s.id);
  // Dataset and model text is data: plant markup where a careless report would execute it.
  records = outcome.records.map((r, i) =>
    i === 0 ? { ...r, question: `${HOSTILE} ${r.question}`, answer: HOSTILE, evidence: r.evidence.map((e, j) => (j === 0 ? { ...e, title: HOSTILE } : e)) } : r,
  );
  const titles = nodeTitles(data.corpus);
  const traced = records[0]!.trace.find((t) => t.nodeId)!;
  // Written as `treebench run` writes it: streamed into the file (the island in several gzip chunks).
  file = join(dir, 'report.html');
  const input = reportInput({
    summary: outcome.summary,
    meta: { ...reportMeta(outcome.manifest), config: `quickstart ${HOSTILE}` },
    records,
    nodeTitle: (d, n) => (d === traced.docId && n === traced.nodeId ? HOSTILE : titles(d, n)),
  });
  await writeOutputStream(file, (out) => writeHtml(input, out));
  context = await launchChromium();
}, 120_000);

afterAll(async () => {
  await context?.close();
});

describe('HTML run report in Chromium', () => {
  it('loads from disk with no console error, no dialog and no request but the file itself', async () => {
    const { page, consoleErrors, requests, dialogs } = await open(pathToFileURL(file).href);
    await page.waitForTimeout(200);
    expect(consoleErrors).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(requests).toEqual([pathToFileURL(file).href]);
    await page.close();
  });

  it('draws one point per strategy with whiskers, the Pareto frontier and the latency boxes', async () => {
    const { page } = await open(pathToFileURL(file).href);
    for (const id of ['chart-accuracy-vs-costPerQuestion', 'chart-accuracy-vs-latencyMs-p95', 'chart-retrieval-node-recall-vs-costPerQuestion']) {
      const labels = await page.$$eval(`#${id} g.point`, (gs) => gs.map((g) => g.getAttribute('data-label')));
      expect(labels.sort()).toEqual([...strategies].sort());
      // Every point has its interval whiskers (lines) and a visible circle inside the plot.
      const whiskers = await page.$$eval(`#${id} g.point line`, (ls) => ls.length);
      expect(whiskers).toBeGreaterThanOrEqual(strategies.length);
      const box = await page.$eval(`#${id} svg`, (svg) => svg.getBoundingClientRect().width);
      expect(box).toBeGreaterThan(200);
      expect(await page.$$eval(`#${id} .frontier-mark`, (m) => m.length)).toBeGreaterThanOrEqual(1);
    }
    expect(await page.$$eval('#chart-latency g.box', (g) => g.map((x) => x.getAttribute('data-label')))).toEqual(strategies);
    await page.close();
  });

  it('opens a matrix cell on click: answer, gold, evidence and the search trace of that record', async () => {
    const { page } = await open(pathToFileURL(file).href);
    const questions = new Set(records.map((r) => r.questionId));
    expect(await page.$$eval('table.matrix button[data-q]', (b) => b.length)).toBe(questions.size * strategies.length);
    const target = records.find((r) => r.strategy === 'layerwise' && r.trace.length > 2)!;
    await page.click(`table.matrix button[data-q="${target.questionId}"][data-s="layerwise"]`);
    await page.waitForSelector('#detail.open');
    const trace = await page.$eval('#detail .detail-search-trace', (e) => e.textContent ?? '');
    expect(trace.split('\n')).toHaveLength(target.trace.length);
    expect(trace).toContain(target.trace[1]!.action);
    expect(await page.$eval('#detail .detail-gold', (e) => e.textContent)).toBe(target.gold.join(' | '));
    expect(await page.$eval('#detail h3', (e) => e.textContent)).toBe(`${target.questionId} · layerwise`);
    await page.close();
  });

  it('keeps hostile text as text, in the page and in the detail panel', async () => {
    const { page, dialogs } = await open(pathToFileURL(file).href);
    expect(await page.$eval('.meta b', (e) => e.textContent)).toBe(`quickstart ${HOSTILE}`);
    const first = records[0]!;
    await page.click(`table.matrix button[data-q="${first.questionId}"][data-s="${first.strategy}"]`);
    await page.waitForSelector('#detail.open');
    expect(await page.$eval('#detail .detail-answer', (e) => e.textContent)).toBe(HOSTILE);
    expect(await page.$eval('#detail .detail-evidence', (e) => e.textContent)).toContain(HOSTILE);
    expect(await page.$eval('#detail .detail-search-trace', (e) => e.textContent)).toContain(HOSTILE);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.$$eval('img', (i) => i.length)).toBe(0);
    expect(dialogs).toEqual([]);
    const shot = process.env.TREEBENCH_SCREENSHOT ?? join(tmpdir(), 'treebench-html-report.png');
    await page.screenshot({ path: shot, fullPage: false });
    await page.close();
  });

  it('fits a 1280 px window: no table wider than the viewport, no two chart labels overlapping, none cut off', async () => {
    const { page } = await open(pathToFileURL(file).href);
    await page.setViewportSize({ width: 1280, height: 900 });
    const layout = await page.evaluate(() => {
      const vw = document.documentElement.clientWidth;
      const tables = [...document.querySelectorAll('table')].map((t) => ({ cls: t.className, right: t.getBoundingClientRect().right, scroll: t.parentElement!.scrollWidth - t.parentElement!.clientWidth }));
      const problems: string[] = [];
      for (const svg of document.querySelectorAll('svg')) {
        const chart = svg.closest('figure')?.id ?? '?';
        const s = svg.getBoundingClientRect();
        const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent!.trim()).map((t) => ({ text: t.textContent!, r: t.getBoundingClientRect() }));
        texts.forEach(({ text, r }, i) => {
          if (r.left < s.left - 0.5 || r.right > s.right + 0.5 || r.top < s.top - 0.5 || r.bottom > s.bottom + 0.5) problems.push(`${chart}: "${text}" cut off`);
          for (const o of texts.slice(i + 1)) {
            if (r.left < o.r.right && o.r.left < r.right && r.top < o.r.bottom && o.r.top < r.bottom) problems.push(`${chart}: "${text}" overlaps "${o.text}"`);
          }
        });
      }
      return { vw, docWidth: document.documentElement.scrollWidth, tables, problems, charts: document.querySelectorAll('svg').length };
    });
    expect(layout.vw).toBeLessThanOrEqual(1280);
    expect(layout.docWidth).toBeLessThanOrEqual(layout.vw);
    expect(layout.tables.length).toBeGreaterThanOrEqual(3);
    for (const t of layout.tables) {
      expect(t.right, `table.${t.cls}`).toBeLessThanOrEqual(layout.vw);
      expect(t.scroll, `table.${t.cls} scrolls`).toBeLessThanOrEqual(0);
    }
    expect(layout.charts).toBeGreaterThanOrEqual(5);
    expect(layout.problems).toEqual([]);
    await page.close();
  });
});
