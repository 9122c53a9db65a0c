// `treebench view` in a real browser (Debian Chromium via playwright-core): the server is started
// as a user starts it, over three quickstart runs (two of one config, with verdicts that differ,
// and one of another config). The test opens a run, opens A vs B from the run list, filters to
// the questions whose verdict changed and checks every shown answer against the records; no
// console error, no request off 127.0.0.1, and hostile run and question text is not executed.
// Then the static export: the same side-by-side page from disk, with no request but files.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunRecord } from '../../harness/types.ts';
import { changeOf, verdictOf } from '../../reports/view/pairs.ts';
import { runCli } from '../cli/runCli.ts';
import { launchChromium, openWatched } from './chromium.ts';

const HOSTILE = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">`;

let dir: string;
let context: BrowserContext;
let server: ChildProcess;
let base: string;
let exited: Promise<number | null>;

interface Opened {
  page: Page;
  errors: string[];
  requests: string[];
  dialogs: string[];
}

/** A page that records console errors, requests and dialogs from its first navigation on. */
async function openPage(url: string): Promise<Opened> {
  return openWatched(context, url);
}

const records = (run: string): RunRecord[] =>
  readFileSync(join(dir, run, 'records.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RunRecord);

/** Rewrites a run's files as a hostile dataset or config would have made them. */
function plant(run: string, manifestEdit: (m: Record<string, unknown>) => void, recordEdit: (r: RunRecord, i: number) => RunRecord): void {
  const mPath = join(dir, run, 'manifest.json');
  const m = JSON.parse(readFileSync(mPath, 'utf8')) as Record<string, unknown>;
  manifestEdit(m);
  writeFileSync(mPath, JSON.stringify(m, null, 2));
  // A run writes its id into every record too (comparisons refuse records of another run).
  writeFileSync(join(dir, run, 'records.jsonl'), records(run).map((r, i) => JSON.stringify({ ...recordEdit(r, i), runId: m.runId }) + '\n').join(''));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'treebench-view-'));
  const make = async (id: string, extra: string[]) => {
    const r = await runCli(['run', 'configs/quickstart.yaml', '--limit', '8', '--out', dir, '--run-id', id, '--quiet', ...extra]);
    expect(r.code, r.stderr).toBe(0);
  };
  // A and B: one config, B with a budget too small for some strategies (verdicts change);
  // C: another seed and other strategies, under another (hostile) config name.
  await make('a', ['--strategies', 'vector,layerwise,agent']);
  await make('b', ['--strategies', 'vector,layerwise,agent', '--set', 'budget.calls=3']);
  await make('c', ['--strategies', 'vector,node-list', '--set', 'run.seed=7']);
  const q0 = records('a')[0]!.questionId;
  const hostileQuestion = (r: RunRecord) => (r.questionId === q0 ? { ...r, question: `${HOSTILE} ${r.question}` } : r);
  plant('a', (m) => (m.runId = `a ${HOSTILE}`), (r, i) =>
    hostileQuestion(i === 0 ? { ...r, answer: `${HOSTILE} ${r.answer}`, evidence: r.evidence.map((e) => ({ ...e, title: HOSTILE })) } : r),
  );
  plant('b', () => {}, hostileQuestion);
  plant('c', (m) => (m.name = `other ${HOSTILE}`), (r) => r);

  server = spawn(process.execPath, ['bin/treebench.mjs', 'view', dir, '--port', '0', '--resamples', '200'], { stdio: ['ignore', 'pipe', 'pipe'] });
  exited = new Promise((done) => server.once('exit', (code) => done(code)));
  let stderr = '';
  server.stderr!.on('data', (c) => (stderr += String(c)));
  base = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (c) => {
      out += String(c);
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (m) resolve(m[0]);
    });
    server.once('exit', (code) => reject(new Error(`treebench view exited ${code}: ${stderr}`)));
  });
  context = await launchChromium();
}, 90_000);

afterAll(async () => {
  await context?.close();
  if (server && server.exitCode === null) server.kill('SIGTERM');
});

describe('treebench view in Chromium', () => {
  it('lists the runs by config and dataset, opens a run, then A vs B filtered to changed verdicts with the records\' answers', async () => {
    const { page, errors, requests, dialogs } = await openPage(base);
    const groups = await page.$$eval('h2', (h) => h.map((x) => x.textContent ?? ''));
    // Groups by config name: the hostile name (shown as text) sorts before "quickstart".
    expect(groups.filter((g) => g.startsWith('config'))).toEqual([`config other ${HOSTILE} · dataset sample (1 run)`, 'config quickstart · dataset sample (2 runs)']);
    expect(await page.$$eval('a.run', (a) => a.map((x) => x.textContent))).toEqual(['c', 'a', 'b']);

    // A run's page: the HTML report, its hostile id shown as text, its matrix.
    await page.click('a.run >> text=a');
    await page.waitForSelector('table.matrix');
    expect(await page.$eval('h1', (h) => h.textContent)).toBe(`treebench run a ${HOSTILE}`);
    const a = records('a');
    expect(await page.$$eval('table.matrix button[data-q]', (b) => b.length)).toBe(a.length);

    // Back to the list; B's "vs a" link opens A vs B.
    await page.click('nav a >> text=all runs');
    await page.click('a.vs-prev');
    await page.waitForSelector('#pairs');
    expect(new URL(page.url()).pathname).toBe('/compare/a/b.html');
    const b = records('b');
    const key = (r: RunRecord) => `${r.questionId}|${r.strategy}`;
    const bBy = new Map(b.map((r) => [key(r), r]));
    const changed = a.filter((r) => {
      const c = changeOf(verdictOf(r), verdictOf(bBy.get(key(r)) ?? null));
      return c === 'fixed' || c === 'broken' || c === 'changed';
    });
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(a.length);
    expect(await page.$$eval('#pairs tbody tr', (t) => t.length)).toBe(a.length);

    await page.selectOption('#f-change', 'changed');
    const shown = await page.$$eval('#pairs tbody tr:not([hidden])', (rows) =>
      rows.map((r) => ({ q: r.getAttribute('data-q'), s: r.getAttribute('data-s'), answers: [...r.querySelectorAll('td.side .answer')].map((x) => x.textContent) })),
    );
    expect(shown.map((r) => `${r.q}|${r.s}`).sort()).toEqual(changed.map(key).sort());
    for (const row of shown) {
      const ra = a.find((r) => key(r) === `${row.q}|${row.s}`)!;
      const rb = bBy.get(`${row.q}|${row.s}`)!;
      expect(row.answers).toEqual([ra.answer || '(no answer)', rb.answer || '(no answer)']);
    }
    expect(await page.$eval('#shown', (e) => e.textContent)).toBe(String(changed.length));
    // The filter is in the link: reloading it shows the same rows.
    expect(page.url()).toMatch(/#change=changed$/);
    await page.reload({ waitUntil: 'load' });
    expect(await page.$$eval('#pairs tbody tr:not([hidden])', (t) => t.length)).toBe(changed.length);

    // Text and strategy filters, and the traces open.
    await page.selectOption('#f-change', 'all');
    await page.selectOption('#f-strategy', 'vector');
    expect(await page.$$eval('#pairs tbody tr:not([hidden])', (t) => t.map((r) => r.getAttribute('data-s')))).toEqual(a.filter((r) => r.strategy === 'vector').map(() => 'vector'));
    await page.fill('#f-text', a[0]!.questionId.toLowerCase());
    expect(await page.$$eval('#pairs tbody tr:not([hidden])', (t) => t.map((r) => r.getAttribute('data-q')))).toEqual([a[0]!.questionId]);
    await page.click('#pairs tbody tr:not([hidden]) td.side summary');
    await page.waitForSelector('#pairs tbody tr:not([hidden]) td.side pre.trace');
    expect(await page.$eval('#pairs tbody tr:not([hidden]) td.side pre.trace', (e) => e.textContent!.split('\n').length)).toBe(Math.max(1, a.find((r) => r.strategy === 'vector' && r.questionId === a[0]!.questionId)!.trace.length));

    // Hostile text stayed text everywhere (the first record's evidence titles too, once opened).
    expect(a[0]!.strategy).toBe('vector');
    expect(a[0]!.evidence.length).toBeGreaterThan(0);
    expect(await page.$eval('#pairs tbody tr:not([hidden]) td.side pre.evidence', (e) => e.textContent)).toContain(HOSTILE);
    expect(await page.$eval(`#pairs tr[data-q="${a[0]!.questionId}"] .question`, (e) => e.textContent)).toContain(HOSTILE);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.$$eval('img', (i) => i.length)).toBe(0);
    expect(errors).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(requests.filter((u) => !u.startsWith(base))).toEqual([]);
    await page.close();
  });

  it('opens any two runs from the picker, two strategies of a run, and the history with bands', async () => {
    const { page, errors, requests } = await openPage(base);
    await page.selectOption('#pick-a', 'c');
    await page.selectOption('#pick-b', 'a');
    await page.click('#pick-go');
    await page.waitForSelector('#pairs');
    expect(new URL(page.url()).pathname).toBe('/compare/c/a.html');
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('c vs a');
    await page.goto(`${base}strategies/a/0-1.html`, { waitUntil: 'load' });
    expect(await page.$$eval('#pairs th', (t) => t.map((x) => x.textContent))).toEqual(['question', 'A: vector', 'B: layerwise']);
    await page.goto(`${base}history/quickstart-sample.html`, { waitUntil: 'load' });
    expect(await page.$$eval('svg', (s) => s.length)).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith(base))).toEqual([]);
    await page.close();
  });

  it('answers only its own host name, with a strict policy; unknown pages are 404', async () => {
    const get = (path: string, host: string) =>
      new Promise<{ status: number; csp: string }>((resolve, reject) => {
        const u = new URL(path, base);
        request({ host: '127.0.0.1', port: u.port, path: u.pathname, headers: { host } }, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, csp: String(res.headers['content-security-policy'] ?? '') });
        })
          .on('error', reject)
          .end();
      });
    const port = new URL(base).port;
    const ok = await get('/', `127.0.0.1:${port}`);
    expect(ok.status).toBe(200);
    expect(ok.csp).toMatch(/default-src 'none'/);
    expect(ok.csp).toMatch(/frame-ancestors 'none'/);
    expect((await get('/', `evil.example:${port}`)).status).toBe(421);
    expect((await get('/run/nope.html', `127.0.0.1:${port}`)).status).toBe(404);
    expect((await get('/../../etc/passwd', `127.0.0.1:${port}`)).status).toBe(404);
  });

  it('exports the same pages as files with relative links, stops on SIGTERM with exit 0', async () => {
    const out = join(dir, 'site');
    const r = await runCli(['view', join(dir, 'a'), join(dir, 'b'), join(dir, 'c'), '--export', out, '--resamples', '200']);
    expect(r.code, r.stderr).toBe(0);
    const { page, errors, requests } = await openPage(pathToFileURL(join(out, 'index.html')).href);
    await page.click('a.vs-prev');
    await page.waitForSelector('#pairs');
    expect(page.url()).toBe(pathToFileURL(join(out, 'compare', 'a', 'b.html')).href);
    await page.selectOption('#f-change', 'changed');
    expect(Number(await page.$eval('#shown', (e) => e.textContent))).toBeGreaterThan(0);
    await page.click('nav a >> text=all runs');
    await page.click('a.run >> text=b');
    await page.waitForSelector('table.matrix');
    expect(await page.$$eval('#pick-a', (s) => s.length)).toBe(0);
    expect(requests.every((u) => u.startsWith('file://'))).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
