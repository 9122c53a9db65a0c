// The viewer's pages without a browser: how rows pair up and what counts as a change, that every
// piece of run text is escaped in the side-by-side page, how runs are grouped and named in
// addresses, which paths exist, and the `view` command's usage errors (exit 2).
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../harness/config/runConfig.ts';
import { runBenchmark } from '../../harness/run/runner.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import type { LoadedRun } from '../../harness/analysis/compare/runs.ts';
import type { RunRecord } from '../../harness/types.ts';
import { changeOf, renderPairsPage, runPairRows, strategyPairRows, verdictOf } from '../../reports/view/pairs.ts';
import { groupRuns, ViewSite } from '../../reports/view/site.ts';
import { PAIRS_SCRIPT } from '../../reports/view/scripts.ts';
import { scriptHash } from '../../reports/html/page.ts';
import { esc } from '../../reports/html/escape.ts';
import { runCli } from '../cli/runCli.ts';

const HOSTILE = `<script>alert(1)</script><img src=x onerror=alert(2)>"'&`;
let out: string;
let base: LoadedRun;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'treebench-viewunit-'));
  const loaded = loadConfig('configs/quickstart.yaml');
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
  const outcome = await runBenchmark({ loaded, data, limit: 3, only: ['vector', 'node-list'], outDir: out, runId: 'u' });
  base = { ref: join(out, 'u'), dir: join(out, 'u'), baseline: null, manifest: outcome.manifest, records: outcome.records };
}, 60_000);

const withRecords = (run: LoadedRun, dir: string, edit: (r: RunRecord, i: number) => RunRecord | null, manifest: Partial<LoadedRun['manifest']> = {}): LoadedRun => ({
  ...run,
  dir,
  ref: dir,
  manifest: { ...run.manifest, ...manifest },
  records: run.records.map(edit).filter((r): r is RunRecord => r !== null),
});

const correct = (r: RunRecord): RunRecord => ({ ...r, error: null, scores: { ...r.scores!, correct: 1 } });
const wrong = (r: RunRecord): RunRecord => ({ ...r, error: null, scores: { ...r.scores!, correct: 0 } });

describe('side-by-side rows', () => {
  it('verdicts and changes: fixed, broken, other, same, one side only', () => {
    const r = base.records[0]!;
    expect(verdictOf(correct(r))).toBe('correct');
    expect(verdictOf(wrong(r))).toBe('wrong');
    expect(verdictOf({ ...r, error: 'boom' })).toBe('error');
    expect(verdictOf({ ...r, error: null, scores: { ...r.scores!, correct: null } })).toBe('ungradable');
    expect(verdictOf(null)).toBe('missing');
    expect(changeOf('wrong', 'correct')).toBe('fixed');
    expect(changeOf('error', 'correct')).toBe('fixed');
    expect(changeOf('correct', 'error')).toBe('broken');
    expect(changeOf('wrong', 'error')).toBe('changed');
    expect(changeOf('wrong', 'wrong')).toBe('same');
    expect(changeOf('missing', 'correct')).toBe('unpaired');
  });

  it('pairs two runs by strategy × question × repeat, and two strategies of a run by question', () => {
    const b = withRecords(base, join(out, 'b'), (r, i) => (i === 0 ? null : r));
    const rows = runPairRows(base.records, b.records);
    expect(rows).toHaveLength(base.records.length);
    expect(rows.filter((r) => !r.b).map((r) => r.a)).toEqual([base.records[0]]);
    expect(rows.every((r) => !r.a || !r.b || (r.a.questionId === r.b.questionId && r.a.strategy === r.b.strategy))).toBe(true);
    const within = strategyPairRows(base.records, 'vector', 'node-list');
    expect(within).toHaveLength(3);
    expect(within.every((r) => r.a?.strategy === 'vector' && r.b?.strategy === 'node-list' && r.a.questionId === r.b.questionId && r.strategy === 'vector → node-list')).toBe(true);
  });

  it('escapes every piece of run text, counts the changes, and allows only its own script', () => {
    const a = base.records.map((r, i) => (i === 0 ? correct({ ...r, question: HOSTILE, answer: HOSTILE, tags: [HOSTILE], evidence: r.evidence.map((e) => ({ ...e, title: HOSTILE })) }) : wrong(r)));
    const b = base.records.map((r, i) => (i === 0 ? wrong({ ...r, question: HOSTILE, answer: HOSTILE }) : i === 1 ? correct(r) : wrong(r)));
    const html = renderPairsPage({ title: `t ${HOSTILE}`, nav: '', intro: '', a: { label: HOSTILE }, b: { label: 'b' }, rows: runPairRows(a, b) });
    expect(html).not.toMatch(/<script>alert|<img/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;');
    expect(html).toMatch(/verdict changed in <b>2<\/b> \(<span class="up">1 fixed<\/span>, <span class="down">1 broken<\/span>/);
    expect(html.match(/<tr class="change-broken"/g)).toHaveLength(1);
    expect(html.match(/<tr class="change-fixed"/g)).toHaveLength(1);
    expect(html).toContain(esc(`script-src ${scriptHash(PAIRS_SCRIPT)};`));
    // The page's one script is the filter script, byte for byte (its hash is what the policy allows).
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toContain(`<script>${PAIRS_SCRIPT}</script>`);
    // Evidence and traces in the island, two entries per row (A, B), in row order.
    const island = JSON.parse(gunzipSync(Buffer.from(/id="tb-pairs">([^<]*)</.exec(html)![1]!, 'base64')).toString('utf8')) as Array<[string[], string[]] | null>;
    expect(island).toHaveLength(2 * a.length);
    expect(island[0]![0].join('\n')).toContain(HOSTILE);
    expect(island[0]![1]).toHaveLength(a[0]!.trace.length);
    expect(html.match(/<details data-d="\d+">/g)).toHaveLength(2 * a.length);
  });
});

describe('the site', () => {
  it('groups runs by config and dataset, oldest first, with unique folder-safe keys', () => {
    const later = (d: string, at: string, m: Partial<LoadedRun['manifest']> = {}) => withRecords(base, d, (r) => r, { startedAt: at, ...m });
    const groups = groupRuns([
      later(join(out, 'x', 'night'), '2026-01-02T00:00:00Z'),
      later(join(out, 'y', 'night'), '2026-01-01T00:00:00Z'),
      later(join(out, `bad <b>"x"&'`), '2026-01-03T00:00:00Z', { name: `cfg ${HOSTILE}` }),
    ]);
    expect(groups.map((g) => [g.config, g.dataset, g.runs.map((r) => r.key)])).toEqual([
      [`cfg ${HOSTILE}`, 'sample', ['bad-b-x-']],
      ['quickstart', 'sample', ['night', 'night-2']],
    ]);
    expect(groups[1]!.runs.map((r) => r.run.dir)).toEqual([join(out, 'y', 'night'), join(out, 'x', 'night')]);
    expect(groups.flatMap((g) => [g.key, ...g.runs.map((r) => r.key)]).every((k) => /^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(k))).toBe(true);
  });

  it('serves the pages its run list links to, and nothing else', async () => {
    const b = withRecords(base, join(out, 'b'), (r, i) => (i === 0 ? { ...r, error: 'boom' } : r), { startedAt: '2999-01-01T00:00:00Z' });
    const site = new ViewSite([base, b], { live: false, metrics: ['accuracy'], resamples: 100, runPage: async (r, nav) => `run ${r.key} ${nav}` });
    const paths = site.paths();
    expect(paths).toEqual(['index.html', 'history/quickstart-sample.html', 'run/u.html', 'strategies/u/0-1.html', 'run/b.html', 'compare/u/b.html', 'strategies/b/0-1.html']);
    for (const p of paths) expect(await site.page(p), p).not.toBeNull();
    const index = (await site.page('index.html'))!;
    for (const p of paths.slice(1)) expect(index, p).toContain(`href="${p}"`);
    expect(index).not.toContain('pick-a');
    expect(await site.page('run/u.html')).toContain('href="../index.html"');
    for (const p of ['run/nope.html', 'compare/u/u.html', 'strategies/u/0-0.html', 'strategies/u/0-9.html', 'history/nope.html', '../etc/passwd', 'run/../../x.html']) expect(await site.page(p), p).toBeNull();
    const live = new ViewSite([base, b], { live: true, metrics: ['accuracy'], resamples: 100, runPage: async () => '' });
    expect(await live.page('index.html')).toContain('id="pick-a"');
    expect(await live.page('compare/b/u.html')).toContain('<h1>b vs u</h1>');
  });
});

describe('treebench view usage errors', () => {
  it('exits 2 naming the flag or folder', async () => {
    const bad = await runCli(['view', base.dir, '--port', '70000']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--port must be a whole number from 0 to 65535/);
    const none = await runCli(['view', join(out, 'missing')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(join(out, 'missing'));
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    try {
      const busy = await runCli(['view', base.dir, '--port', String(port)]);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain(`--port ${port}: cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
    } finally {
      taken.close();
    }
  });
});
