// The viewer's side-by-side page: two runs (each strategy against itself), or two strategies of
// one run, question by question. Each row shows both answers and verdicts, and opens both sides'
// evidence and search traces; rows whose verdict changed are highlighted (fixed: green, broken:
// red, other changes: amber) and the page's script filters them by change, tag, strategy and
// text and sorts them. Everything is written as escaped text here, evidence and traces as JSON
// in a gzipped data island; the script hides and reorders rows and fills an opened side's
// evidence and trace with text nodes only.
import type { RunRecord } from '../../harness/types.ts';
import { compactRecord } from '../html/run.ts';
import { esc } from '../html/escape.ts';
import { htmlPage } from '../html/page.ts';
import { PAIRS_SCRIPT } from './scripts.ts';
import { gzipSync } from 'node:zlib';
import { safeOutput } from '../../harness/files/output.ts';

export type Verdict = 'correct' | 'wrong' | 'error' | 'ungradable' | 'missing';
/**
 * fixed: B correct where A was not; broken: A correct, B not; changed: any other difference;
 * unpaired: the record is on one side only (a strategy or question the other run lacks).
 */
export type Change = 'same' | 'fixed' | 'broken' | 'changed' | 'unpaired';

export interface PairSide {
  /** Shown in the column head, e.g. the run id, or the run id and strategy. */
  label: string;
  nodeTitle?: (docId: string, nodeId: string) => string | null;
}

export interface PairRow {
  questionId: string;
  question: string;
  tags: string[];
  /** The strategy (run vs run), or `a → b` (two strategies of one run). */
  strategy: string;
  repeat: number;
  a: RunRecord | null;
  b: RunRecord | null;
}

export function verdictOf(r: RunRecord | null): Verdict {
  if (!r) return 'missing';
  if (r.error) return 'error';
  if (r.scores && (r.scores.correct === null || r.scores.correct === undefined)) return 'ungradable';
  return r.scores?.correct ? 'correct' : 'wrong';
}

export function changeOf(a: Verdict, b: Verdict): Change {
  if (a === 'missing' || b === 'missing') return 'unpaired';
  if (a === b) return 'same';
  if (b === 'correct') return 'fixed';
  if (a === 'correct') return 'broken';
  return 'changed';
}

const RANK: Record<Change, number> = { broken: 0, fixed: 1, changed: 2, same: 3, unpaired: 4 };
const VERDICT_TEXT: Record<Verdict, string> = { correct: '✓ correct', wrong: '✗ wrong', error: 'error', ungradable: 'n/a (rule)', missing: '— not in this side' };

const keyOf = (q: string, s: string, rep: number) => `${q}\u0000${s}\u0000${rep}`;

/** Rows of run A vs run B: every strategy × question × repeat either side has, A's order first. */
export function runPairRows(a: readonly RunRecord[], b: readonly RunRecord[]): PairRow[] {
  const rows = new Map<string, PairRow>();
  const add = (r: RunRecord, side: 'a' | 'b') => {
    const k = keyOf(r.questionId, r.strategy, r.repeat);
    const row = rows.get(k) ?? { questionId: r.questionId, question: r.question, tags: r.tags ?? [], strategy: r.strategy, repeat: r.repeat, a: null, b: null };
    row[side] = r;
    rows.set(k, row);
  };
  for (const r of a) add(r, 'a');
  for (const r of b) add(r, 'b');
  return [...rows.values()];
}

/** Rows of strategy `sa` vs `sb` in one run's records: one per question × repeat. */
export function strategyPairRows(records: readonly RunRecord[], sa: string, sb: string): PairRow[] {
  const label = `${sa} → ${sb}`;
  const rows = new Map<string, PairRow>();
  for (const r of records) {
    if (r.strategy !== sa && r.strategy !== sb) continue;
    const k = keyOf(r.questionId, '', r.repeat);
    const row = rows.get(k) ?? { questionId: r.questionId, question: r.question, tags: r.tags ?? [], strategy: label, repeat: r.repeat, a: null, b: null };
    row[r.strategy === sa ? 'a' : 'b'] = r;
    rows.set(k, row);
  }
  return [...rows.values()];
}

/** Evidence and trace lines of one side of a row: what its `<details>` shows, from the data island. */
type SideDetail = [string[], string[]] | null;

function sideCell(r: RunRecord | null, side: PairSide, row: number, which: 'a' | 'b', details: SideDetail[]): string {
  const v = verdictOf(r);
  if (!r) return (details.push(null), `<td class="side"><span class="verdict v-missing">${esc(VERDICT_TEXT[v])}</span></td>`);
  const c = compactRecord(r, side.nodeTitle ?? (() => null));
  details.push([c.evidence, c.trace]);
  const facts = [`F1 ${c.f1 === null ? '–' : c.f1.toFixed(2)}`, `recall ${c.recall === null ? '–' : c.recall.toFixed(2)}`, `calls ${c.calls}`, `${Math.round(c.latencyMs)} ms`, ...(c.stop ? [`stop: ${c.stop}`] : [])];
  return [
    '<td class="side">',
    `<span class="verdict v-${v}">${esc(VERDICT_TEXT[v])}</span>${c.error ? ` <span class="fail">${esc(c.error)}</span>` : ''}`,
    `<div class="answer">${esc(c.answer || '(no answer)')}</div>`,
    `<div class="note">${esc(facts.join(' · '))}</div>`,
    // Filled by the page's script from the data island when opened: traces are most of a page.
    `<details data-d="${row * 2 + (which === 'a' ? 0 : 1)}"><summary>evidence (${c.evidence.length}) · trace (${c.trace.length} steps)</summary></details>`,
    '</td>',
  ].join('');
}

const CSS = `<style>
#pairs{width:100%;table-layout:fixed}#pairs td,#pairs th{white-space:normal;text-align:left;vertical-align:top}
#pairs td.side{width:38%}#pairs .answer{white-space:pre-wrap;overflow-wrap:anywhere;margin:2px 0}
#pairs pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px;margin:2px 0 6px}
tr.change-fixed{background:#e6f5e1}tr.change-broken{background:#fbe3e0}tr.change-changed{background:#fbf2d6}
.verdict{font-weight:600}.v-correct{color:#2a7d2a}.v-wrong,.v-error{color:#c0392b}.v-ungradable,.v-missing{color:#666}
.filters{display:flex;flex-wrap:wrap;gap:12px;align-items:center;margin:8px 0}.filters label{font-size:13px}
</style>`;

export interface PairsPage {
  title: string;
  /** Already-escaped HTML: the viewer's links and what the page compares. */
  nav: string;
  intro: string;
  a: PairSide;
  b: PairSide;
  rows: PairRow[];
}

export function renderPairsPage(page: PairsPage): string {
  const { rows } = page;
  const changes = rows.map((r) => changeOf(verdictOf(r.a), verdictOf(r.b)));
  const count = (c: Change) => changes.filter((x) => x === c).length;
  const tags = [...new Set(rows.flatMap((r) => r.tags))].sort();
  const strategies = [...new Set(rows.map((r) => r.strategy))];
  const option = (value: string, text = value) => `<option value="${esc(value)}">${esc(text)}</option>`;
  const body: string[] = [
    page.nav,
    CSS,
    `<h1>${esc(page.title)}</h1>`,
    page.intro,
    `<p class="meta">${rows.length} rows · verdict changed in <b>${count('fixed') + count('broken') + count('changed')}</b> (<span class="up">${count('fixed')} fixed</span>, <span class="down">${count('broken')} broken</span>, ${count('changed')} other)${count('unpaired') ? ` · ${count('unpaired')} on one side only` : ''} · showing <b id="shown">${rows.length}</b></p>`,
    '<div class="filters">',
    `<label>verdict <select id="f-change">${option('all', 'all rows')}${option('changed', 'changed')}${option('fixed', 'fixed (B correct, A not)')}${option('broken', 'broken (A correct, B not)')}${option('same', 'unchanged')}${option('unpaired', 'on one side only')}</select></label>`,
    `<label>tag <select id="f-tag">${option('', 'any')}${tags.map((t) => option(t)).join('')}</select></label>`,
    `<label>strategy <select id="f-strategy">${option('', 'any')}${strategies.map((s) => option(s)).join('')}</select></label>`,
    '<label>text <input id="f-text" type="search" placeholder="question, answer or id"></label>',
    `<label>sort <select id="f-sort">${option('question', 'question order')}${option('strategy', 'strategy')}${option('change', 'changes first')}${option('latency', 'B − A latency, largest first')}</select></label>`,
    '</div>',
    `<div class="scroll"><table id="pairs"><thead><tr><th style="width:24%">question</th><th>A: ${esc(page.a.label)}</th><th>B: ${esc(page.b.label)}</th></tr></thead><tbody>`,
  ];
  const details: SideDetail[] = [];
  rows.forEach((r, i) => {
    const change = changes[i]!;
    const text = [r.questionId, r.question, r.a?.answer ?? '', r.b?.answer ?? ''].join('\n').toLowerCase();
    const dlat = (r.b?.latencyMs ?? 0) - (r.a?.latencyMs ?? 0);
    body.push(
      `<tr class="change-${change}" data-i="${i}" data-q="${esc(r.questionId)}" data-s="${esc(r.strategy)}" data-r="${r.repeat}" data-change="${change}" data-rank="${RANK[change]}" data-dlat="${Math.round(dlat)}" data-tags="${esc(`|${r.tags.join('|')}|`)}" data-text="${esc(text)}">` +
        `<td><b class="qid">${esc(r.questionId)}</b> · <span class="strategy">${esc(r.strategy)}</span>${r.repeat ? ` · repeat ${r.repeat}` : ''}${change === 'same' || change === 'unpaired' ? '' : ` <span class="change">${esc(change)}</span>`}` +
        `<div class="question">${esc(r.question)}</div>${r.tags.length ? `<div class="note">tags: ${esc(r.tags.join(', '))}</div>` : ''}` +
        `<div class="note">gold: ${esc((r.a ?? r.b)?.gold.join(' | ') ?? '')}</div></td>` +
        sideCell(r.a, page.a, i, 'a', details) +
        sideCell(r.b, page.b, i, 'b', details) +
        '</tr>',
    );
  });
  body.push('</tbody></table></div>');
  // Each side's evidence and trace, gzip + base64 as in the run report (about sevenfold smaller);
  // each entry goes through the output passes (redaction, sanitiser) before compression hides it.
  const json = '[' + details.map((d) => safeOutput(JSON.stringify(d), 'document')).join(',') + ']';
  body.push(`<script type="application/gzip+base64" id="tb-pairs">${gzipSync(json).toString('base64')}</script>`);
  if (!rows.length) body.push('<p class="empty">No records on either side.</p>');
  return htmlPage({ title: page.title, body: body.join('\n'), script: PAIRS_SCRIPT });
}
