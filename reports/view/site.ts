// The pages of `treebench view`, by path, for the live server and the static export alike. Every
// link is relative, so an exported folder opens from disk or from a CI artifact as it is served:
//   index.html                      the runs, grouped by config and dataset
//   run/<run>.html                  a run's page: the HTML report (reports/html/run.ts)
//   compare/<runA>/<runB>.html      two runs side by side, question by question (pairs.ts)
//   strategies/<run>/<i>-<j>.html   strategies i and j (manifest order) of one run, side by side
//   history/<group>.html            each metric of a group's runs in time order, with bands
// Run and group keys are folder-name-safe (letters, digits, `.`, `_`, `-`) and unique.
import { basename } from 'node:path';
import type { LoadedRun } from '../../harness/analysis/compare/runs.ts';
import { strategyIds } from '../../harness/analysis/compare/runs.ts';
import { buildHistory } from '../../harness/analysis/history/build.ts';
import type { CompareMetric } from '../../harness/analysis/compare/metrics.ts';
import { summarize } from '../../harness/summary/summary.ts';
import { sortLikeRun } from '../../harness/run/order.ts';
import { esc } from '../html/escape.ts';
import { htmlPage, htmlTable, pageCsp } from '../html/page.ts';
import { renderHistoryHtml } from '../html/history.ts';
import { MATRIX_SCRIPT } from '../html/matrixScript.ts';
import { pct } from '../format.ts';
import { renderPairsPage, runPairRows, strategyPairRows } from './pairs.ts';
import { PAIRS_SCRIPT, PICKER_SCRIPT } from './scripts.ts';

export interface ViewRun {
  key: string;
  run: LoadedRun;
  group: ViewGroup;
}

export interface ViewGroup {
  key: string;
  config: string;
  dataset: string;
  /** Oldest first. */
  runs: ViewRun[];
}

export interface SiteOptions {
  /** Live server: the run list offers any two runs; an export links only the pages it wrote. */
  live: boolean;
  /** Metrics of the history pages (resolved, as `treebench history --metric`). */
  metrics: CompareMetric[];
  resamples: number;
  /** The run page (the HTML report with `nav` first), built by the caller (it reads the corpus for node titles). */
  runPage: (run: ViewRun, nav: string) => Promise<string>;
  /** Node titles of a run's corpus for the traces, when known. */
  nodeTitle?: (run: ViewRun) => Promise<((docId: string, nodeId: string) => string | null) | undefined>;
}

/** Every policy a viewer page can carry, for the server's header (each page's meta tag narrows it to its own script). */
export const VIEW_CSP = pageCsp([MATRIX_SCRIPT, PAIRS_SCRIPT, PICKER_SCRIPT]) + "; frame-ancestors 'none'";

const safeKey = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 120) || 'run';

function unique(base: string, taken: Set<string>): string {
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  taken.add(key);
  return key;
}

/** Runs grouped by config name and dataset, groups by name, runs oldest first; keys from folder names. */
export function groupRuns(runs: readonly LoadedRun[]): ViewGroup[] {
  const groups = new Map<string, ViewGroup>();
  const runKeys = new Set<string>();
  const groupKeys = new Set<string>();
  const sorted = [...runs].sort((a, b) => a.manifest.startedAt.localeCompare(b.manifest.startedAt) || a.dir.localeCompare(b.dir));
  for (const run of sorted) {
    const id = `${run.manifest.name}\u0000${run.manifest.dataset.name}`;
    let group = groups.get(id);
    if (!group) {
      group = { key: unique(safeKey(`${run.manifest.name}-${run.manifest.dataset.name}`), groupKeys), config: run.manifest.name, dataset: run.manifest.dataset.name, runs: [] };
      groups.set(id, group);
    }
    group.runs.push({ key: unique(safeKey(basename(run.dir)), runKeys), run, group });
  }
  return [...groups.values()].sort((a, b) => a.config.localeCompare(b.config) || a.dataset.localeCompare(b.dataset));
}

/** The links at the top of every page; `root` leads from the page back to index.html. */
function nav(root: string, group?: ViewGroup): string {
  const links = [`<a href="${root}index.html">all runs</a>`];
  if (group && group.runs.length > 1) links.push(`<a href="${root}history/${group.key}.html">history of ${esc(group.config)} · ${esc(group.dataset)}</a>`);
  return `<nav class="meta">treebench view · ${links.join(' · ')}</nav>`;
}

const runPath = (r: ViewRun) => `run/${r.key}.html`;
const comparePath = (a: ViewRun, b: ViewRun) => `compare/${a.key}/${b.key}.html`;
const strategiesPath = (r: ViewRun, i: number, j: number) => `strategies/${r.key}/${i}-${j}.html`;

function accuracies(run: LoadedRun): string {
  const summary = summarize(sortLikeRun([...run.records], run.manifest));
  return summary.strategies.map((s) => `${esc(s.strategy)} ${esc(s.accuracy === null ? 'n/a' : pct(s.accuracy))}`).join(' · ');
}

export class ViewSite {
  readonly groups: ViewGroup[];
  private readonly byKey = new Map<string, ViewRun>();

  constructor(runs: readonly LoadedRun[], private readonly opts: SiteOptions) {
    this.groups = groupRuns(runs);
    for (const g of this.groups) for (const r of g.runs) this.byKey.set(r.key, r);
  }

  /** The paths an export writes: every page the run list and the pages link to. */
  paths(): string[] {
    const out = ['index.html'];
    for (const g of this.groups) {
      if (g.runs.length > 1) out.push(`history/${g.key}.html`);
      g.runs.forEach((r, i) => {
        out.push(runPath(r));
        if (i > 0) out.push(comparePath(g.runs[i - 1]!, r));
        const n = strategyIds(r.run).length;
        for (let j = 1; j < n; j++) out.push(strategiesPath(r, 0, j));
      });
    }
    return out;
  }

  /** The page at `path` (relative, no leading slash), or null: no such page. */
  async page(path: string): Promise<string | null> {
    if (path === '' || path === 'index.html') return this.listPage();
    let m = /^run\/([^/]+)\.html$/.exec(path);
    if (m) {
      const r = this.byKey.get(m[1]!);
      return r ? this.opts.runPage(r, nav('../', r.group) + this.strategyLinks(r, '../')) : null;
    }
    m = /^compare\/([^/]+)\/([^/]+)\.html$/.exec(path);
    if (m) {
      const a = this.byKey.get(m[1]!);
      const b = this.byKey.get(m[2]!);
      return a && b && a !== b ? this.comparePage(a, b) : null;
    }
    m = /^strategies\/([^/]+)\/(\d+)-(\d+)\.html$/.exec(path);
    if (m) {
      const r = this.byKey.get(m[1]!);
      const ids = r ? strategyIds(r.run) : [];
      const [i, j] = [Number(m[2]), Number(m[3])];
      return r && i !== j && ids[i] && ids[j] ? this.strategiesPage(r, i, j) : null;
    }
    m = /^history\/([^/]+)\.html$/.exec(path);
    if (m) {
      const g = this.groups.find((x) => x.key === m![1]);
      return g && g.runs.length > 1 ? this.historyPage(g) : null;
    }
    return null;
  }

  private strategyLinks(r: ViewRun, root: string): string {
    const ids = strategyIds(r.run);
    if (ids.length < 2) return '';
    const links = ids.slice(1).map((id, j) => `<a href="${root}${strategiesPath(r, 0, j + 1)}">${esc(ids[0]!)} vs ${esc(id)}</a>`);
    return `<p class="meta">strategies side by side: ${links.join(' · ')}</p>`;
  }

  private listPage(): string {
    const body: string[] = ['<style>table.runs td,table.runs th{white-space:normal;text-align:left}</style>', '<nav class="meta">treebench view</nav>', '<h1>Runs</h1>'];
    if (!this.groups.length) body.push('<p class="empty">No runs.</p>');
    for (const g of this.groups) {
      body.push(`<h2>config <b>${esc(g.config)}</b> · dataset <b>${esc(g.dataset)}</b> <span class="note">(${g.runs.length} run${g.runs.length === 1 ? '' : 's'})</span></h2>`);
      if (g.runs.length > 1) body.push(`<p class="meta"><a href="history/${g.key}.html">history of this group's metrics, with bands</a></p>`);
      const rows = g.runs.map((r, i) => {
        const m = r.run.manifest;
        const prev = i > 0 ? g.runs[i - 1]! : null;
        return [
          `<a class="run" href="${runPath(r)}">${esc(r.key)}</a>`,
          esc(m.startedAt),
          m.finishedAt ? 'finished' : '<span class="fail">not finished</span>',
          `<span title="${esc(m.model.label ?? m.model.id)}">${esc(m.model.id)}</span>`,
          String(r.run.records.length),
          accuracies(r.run),
          prev ? `<a class="vs-prev" href="${comparePath(prev, r)}">vs ${esc(prev.key)}</a>` : '',
          strategyIds(r.run).length > 1 ? `<a href="${strategiesPath(r, 0, 1)}">strategies</a>` : '',
        ];
      });
      body.push(htmlTable(['run', 'started', 'state', 'model', 'records', 'accuracy by strategy', 'side by side', ''], rows, 'runs'));
    }
    const all = this.groups.flatMap((g) => g.runs);
    if (this.opts.live && all.length > 1) {
      const options = all.map((r) => `<option value="${esc(r.key)}">${esc(`${r.key} (${r.group.config} · ${r.group.dataset})`)}</option>`).join('');
      body.push('<h2>Any two runs side by side</h2>', `<p><label>A <select id="pick-a">${options}</select></label> <label>B <select id="pick-b">${options}</select></label> <button id="pick-go" type="button">open A vs B</button></p>`);
      return htmlPage({ title: 'treebench view', body: body.join('\n'), script: PICKER_SCRIPT });
    }
    return htmlPage({ title: 'treebench view', body: body.join('\n') });
  }

  private async comparePage(a: ViewRun, b: ViewRun): Promise<string> {
    const same = a.run.manifest.dataset.questionsHash === b.run.manifest.dataset.questionsHash;
    const intro = [
      `<p class="meta">A: <a href="../../${runPath(a)}">${esc(a.key)}</a> (${esc(a.run.manifest.startedAt)}, ${esc(a.run.manifest.model.label ?? a.run.manifest.model.id)}) · B: <a href="../../${runPath(b)}">${esc(b.key)}</a> (${esc(b.run.manifest.startedAt)}, ${esc(b.run.manifest.model.label ?? b.run.manifest.model.id)})</p>`,
      same ? '' : '<p class="banner">The two runs have different question sets (dataset hash differs): rows present on one side only show "not in this side".</p>',
      '<p class="note">Significance of the differences: <code>treebench compare</code>. Here: each question, both answers.</p>',
    ].join('\n');
    return renderPairsPage({
      title: `${a.key} vs ${b.key}`,
      nav: nav('../../', a.group === b.group ? a.group : undefined),
      intro,
      a: { label: a.key, ...(await this.titles(a)) },
      b: { label: b.key, ...(await this.titles(b)) },
      rows: runPairRows(a.run.records, b.run.records),
    });
  }

  private async strategiesPage(r: ViewRun, i: number, j: number): Promise<string> {
    const ids = strategyIds(r.run);
    const titles = await this.titles(r);
    const others = ids.map((id, k) => (k === i ? null : k === j ? `<b>${esc(id)}</b>` : `<a href="${i}-${k}.html">${esc(id)}</a>`)).filter(Boolean);
    const intro = `<p class="meta">run <a href="../../${runPath(r)}">${esc(r.key)}</a> · A = <b>${esc(ids[i]!)}</b>, B = ${others.join(' · ')}</p>`;
    return renderPairsPage({
      title: `${r.key}: ${ids[i]} vs ${ids[j]}`,
      nav: nav('../../', r.group),
      intro,
      a: { label: ids[i]!, ...titles },
      b: { label: ids[j]!, ...titles },
      rows: strategyPairRows(r.run.records, ids[i]!, ids[j]!),
    });
  }

  private async titles(r: ViewRun): Promise<{ nodeTitle?: (d: string, n: string) => string | null }> {
    const t = this.opts.nodeTitle ? await this.opts.nodeTitle(r) : undefined;
    return t ? { nodeTitle: t } : {};
  }

  private historyPage(g: ViewGroup): string {
    const report = buildHistory(g.runs.map((r) => r.run), { metrics: this.opts.metrics, resamples: this.opts.resamples });
    const links = g.runs.map((r) => `<a href="../${runPath(r)}">${esc(r.key)}</a>`).join(' · ');
    return renderHistoryHtml(report, `${nav('../')}\n<p class="meta">config <b>${esc(g.config)}</b> · dataset <b>${esc(g.dataset)}</b> · runs: ${links}</p>`);
  }
}

