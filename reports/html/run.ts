// The HTML report of one run: summary with intervals, accuracy and recall against $/question
// and p95 latency (one point per strategy, interval whiskers, Pareto frontier), latency
// distributions, the per-tag table, and a question × strategy matrix whose cells open that
// record's answer, gold, evidence and search trace. Self-contained (see page.ts).
import { toolCall } from '../trace.ts';
import type { RunRecord, TraceStep } from '../../harness/types.ts';
import type { StrategySummary } from '../../harness/summary/summary.ts';
import type { ReportInput } from '../types.ts';
import { accuracyText, customMetricLines, errors, groundednessNote, indexLine, ingestionLine, headlineLevel, showsDocRecall, ms, modelLabel, NA, num, orderedStrategies, pct, ungradableNote, usd } from '../format.ts';
import { boxPlot, colour, scatterChart, type ScatterPoint } from './charts.ts';
import { createGzip, gzipSync } from 'node:zlib';
import { once } from 'node:events';
import { safeOutput, type OutputStream } from '../../harness/files/output.ts';
import { esc } from './escape.ts';
import { htmlTable, pageHead, pageTail, tableRow, tableStart, TABLE_END, withInterval } from './page.ts';
import { MATRIX_SCRIPT } from './matrixScript.ts';

export interface HtmlRunInput extends ReportInput {
  /**
   * The run's records in the run's order: an array, or an iterable read from records.jsonl as it
   * goes (harness/run/recordsInOrder.ts), walked twice; without them, no matrix or distributions.
   */
  records?: Iterable<RunRecord>;
  /** Node title lookup for the traces; ids alone are hard to follow. */
  nodeTitle?: (docId: string, nodeId: string) => string | null;
  /** Already-escaped HTML put first in the body (the viewer's links back to its other pages). */
  nav?: string;
}

/** What the page's script needs of a record; call logs and scores beyond `correct` stay out. */
export interface CompactRecord {
  q: string;
  s: string;
  r: number;
  question: string;
  answer: string;
  gold: string[];
  correct: boolean | null;
  error: string | null;
  f1: number | null;
  recall: number | null;
  calls: number;
  costUsd: number | null;
  latencyMs: number;
  stop: string | null;
  evidence: string[];
  trace: string[];
}

const MAX_REASON = 400;

function traceLine(step: TraceStep, title: (d: string, n: string) => string | null): string {
  const t = step.docId && step.nodeId ? title(step.docId, step.nodeId) : null;
  const target = step.nodeId ? `${step.docId ? `${step.docId}/` : ''}${step.nodeId}${t ? ` "${t}"` : ''}` : step.docId ?? '';
  const reason =
    (step.reason ? ` — ${step.reason.replace(/\s+/g, ' ').slice(0, MAX_REASON)}` : '') +
    (step.tool && step.result !== undefined ? ` → ${step.result.replace(/\s+/g, ' ').slice(0, MAX_REASON)}` : '');
  // Agent steps show their tool call, as `treebench trace` does.
  const bits = [`${'  '.repeat(Math.max(0, step.depth ?? 0))}${step.tool ? toolCall(step) : step.action}`, target, `[${step.source}]`, step.score !== undefined ? `score ${Number(step.score.toFixed(3))}` : '', step.pages ? `pages ${step.pages[0]}-${step.pages[1]}` : ''];
  return `${String(step.step).padStart(3)} ${bits.filter(Boolean).join(' ')}${reason}`;
}

export function compactRecord(r: RunRecord, title: (d: string, n: string) => string | null): CompactRecord {
  const level = r.retrieval ? (['node', 'page', 'doc'] as const).find((l) => r.retrieval?.[l]) : undefined;
  return {
    q: r.questionId,
    s: r.strategy,
    r: r.repeat,
    question: r.question,
    answer: r.answer,
    gold: r.gold,
    // null: the rule judge cannot grade this question (long or procedural gold).
    correct: r.scores && (r.scores.correct === null || r.scores.correct === undefined) ? null : !r.error && Boolean(r.scores?.correct),
    error: r.error,
    f1: r.scores ? r.scores.f1 : null,
    recall: level ? r.retrieval![level]!.recall : null,
    calls: r.calls,
    costUsd: r.costUsd,
    latencyMs: r.latencyMs,
    stop: r.stopReason ?? r.budgetExhausted ?? null,
    evidence: r.evidence.map((e) => `${e.rank}. ${e.docId}/${e.nodeId}${e.title ? ` "${e.title}"` : ''}${e.pages ? ` pages ${e.pages[0]}-${e.pages[1]}` : ''}`),
    trace: r.trace.map((s) => traceLine(s, title)),
  };
}

function summaryTable(strategies: StrategySummary[], priced: boolean, level: ReturnType<typeof headlineLevel>): string {
  // Document recall beside the headline level when questions left documents to choose (open setting).
  const doc = showsDocRecall(strategies, level);
  const head = ['strategy', 'n', 'accuracy [95% CI]', 'F1', level ? `recall (${level})` : 'recall', ...(doc ? ['recall (doc)'] : []), 'calls/q', 'tokens/q', '$/q', 'p50', 'p95', 'errors'];
  const rows = strategies.map((s) => {
    const ci = s.intervals;
    const withCi = (v: number, c: { lo: number; hi: number } | undefined, f: (x: number) => string) => (c ? `${f(v)} [${f(c.lo)}, ${f(c.hi)}]` : f(v));
    const recall = level ? s.retrieval[level] : null;
    return [
      esc(s.strategy),
      String(s.records),
      withInterval(accuracyText(s)),
      withInterval(pct(s.f1, ci?.f1)),
      recall ? withInterval(pct(recall.recall, ci?.[`retrieval.${level!}.recall`])) : NA,
      ...(doc ? [s.retrieval.doc ? withInterval(pct(s.retrieval.doc.recall, ci?.['retrieval.doc.recall'])) : NA] : []),
      withInterval(withCi(s.callsPerQuestion, ci?.callsPerQuestion, num)),
      withInterval(withCi(s.tokensPerQuestion, ci?.tokensPerQuestion, num)),
      withInterval(withCi(s.costPerQuestion, ci?.costPerQuestion, (v) => usd(v, priced))),
      esc(ms(s.latencyMs.p50)),
      withInterval(withCi(s.latencyMs.p95, ci?.['latencyMs.p95'], ms)),
      s.errors ? `<span class="fail">${esc(errors(s))}</span>` : '0',
    ];
  });
  return htmlTable(head.map(withInterval), rows, 'summary');
}

function charts(strategies: StrategySummary[], priced: boolean, level: ReturnType<typeof headlineLevel>): string {
  const pctFmt = (v: number) => `${Math.round(v * 1000) / 10}%`;
  const costAxis = priced
    ? { key: 'costPerQuestion' as const, label: '$ per question', fmt: (v: number) => usd(v, true), value: (s: StrategySummary) => s.costPerQuestion }
    : { key: 'tokensPerQuestion' as const, label: 'tokens per question (unpriced model)', fmt: num, value: (s: StrategySummary) => s.tokensPerQuestion };
  const latAxis = { key: 'latencyMs.p95' as const, label: 'p95 latency', fmt: ms, value: (s: StrategySummary) => s.latencyMs.p95 };
  const ys = [
    // Accuracy the rule could not measure (every gold ungradable) is not charted as zero.
    ...(strategies.some((s) => s.accuracy !== null) ? [{ key: 'accuracy' as const, label: 'accuracy', value: (s: StrategySummary) => s.accuracy ?? NaN }] : []),
    ...(level ? [{ key: `retrieval.${level}.recall` as const, label: `${level} recall`, value: (s: StrategySummary) => s.retrieval[level]?.recall ?? NaN }] : []),
    ...(showsDocRecall(strategies, level) ? [{ key: 'retrieval.doc.recall' as const, label: 'doc recall', value: (s: StrategySummary) => s.retrieval.doc?.recall ?? NaN }] : []),
  ];
  const out: string[] = [];
  for (const yAxis of ys) {
    for (const xAxis of [costAxis, latAxis]) {
      const points: ScatterPoint[] = strategies.map((s, i) => ({
        label: s.strategy,
        colour: colour(i),
        x: xAxis.value(s),
        y: yAxis.value(s),
        ...(s.intervals?.[xAxis.key] ? { xCi: s.intervals[xAxis.key]! } : {}),
        ...(s.intervals?.[yAxis.key] ? { yCi: s.intervals[yAxis.key]! } : {}),
      }));
      const id = `chart-${yAxis.key.replace(/\W+/g, '-')}-vs-${xAxis.key.replace(/\W+/g, '-')}`;
      out.push(scatterChart({ id, title: `${yAxis.label} vs ${xAxis.label}`, xLabel: xAxis.label, yLabel: yAxis.label, xFmt: xAxis.fmt, yFmt: pctFmt, points, frontier: true }));
    }
  }
  return `<div class="charts">${out.join('\n')}</div><p class="note">Whiskers: 95% intervals. Dashed line and rings: the Pareto frontier (no other strategy is both cheaper or faster and better).</p>`;
}

function tagTable(input: ReportInput, strategies: StrategySummary[]): string {
  const tags = input.summary.tags ?? [];
  if (!tags.length) return '<p class="note">No question has tags.</p>';
  const ids = strategies.map((s) => s.strategy);
  const rows = tags.map((t) => [
    esc(t.tag),
    ...ids.map((id) => {
      const c = t.cells.find((x) => x.strategy === id);
      return c && c.n ? `${c.accuracy === null ? 'n/a (rule)' : esc(pct(c.accuracy))} / ${c.recall === null ? NA : esc(pct(c.recall))} <span class="note">(n=${c.n})</span>` : NA;
    }),
  ]);
  return htmlTable(['tag', ...ids.map(esc)], rows, 'tags') + '<p class="note">Cells: accuracy / evidence recall.</p>';
}

/** What the matrix shows of one question × strategy cell, counted over its records. */
interface CellCount {
  n: number;
  errs: number;
  right: number;
  /** Every record of the cell ungradable by the rule. */
  ungraded: boolean;
}

/**
 * The first pass over the records: all the page needs besides the records' data island, which is
 * small next to the records (a count per cell, a latency per record, each question's text once).
 */
interface RecordFacts {
  count: number;
  latencies: Map<string, number[]>;
  questions: Array<{ id: string; text: string }>;
  cells: Map<string, CellCount>;
}

function recordFacts(records: Iterable<RunRecord>): RecordFacts {
  const facts: RecordFacts = { count: 0, latencies: new Map(), questions: [], cells: new Map() };
  const seen = new Set<string>();
  for (const r of records) {
    facts.count++;
    const lat = facts.latencies.get(r.strategy);
    if (lat) lat.push(r.latencyMs);
    else facts.latencies.set(r.strategy, [r.latencyMs]);
    if (!seen.has(r.questionId)) (seen.add(r.questionId), facts.questions.push({ id: r.questionId, text: r.question }));
    const k = `${r.questionId}\u0000${r.strategy}`;
    const c = facts.cells.get(k) ?? { n: 0, errs: 0, right: 0, ungraded: true };
    c.n++;
    if (r.error) c.errs++;
    else if (r.scores?.correct) c.right++;
    if (!(r.scores && (r.scores.correct === null || r.scores.correct === undefined))) c.ungraded = false;
    facts.cells.set(k, c);
  }
  return facts;
}

function matrixRow(q: { id: string; text: string }, ids: string[], cells: Map<string, CellCount>): string[] {
  return [
    `<span title="${esc(q.text)}">${esc(q.id)}</span> <span class="note">${esc(q.text.length > 80 ? `${q.text.slice(0, 79)}…` : q.text)}</span>`,
    ...ids.map((s) => {
      const c = cells.get(`${q.id}\u0000${s}`);
      if (!c) return NA;
      const kind = c.errs === c.n ? 'error' : c.ungraded ? 'ungradable' : c.right === c.n ? 'correct' : c.right === 0 && c.errs === 0 ? 'wrong' : 'mixed';
      const text = c.n === 1 || kind === 'ungradable' ? { error: 'error', correct: '✓', wrong: '✗', mixed: '?', ungradable: 'n/a' }[kind] : `${c.right}/${c.n}${c.errs ? ` (${c.errs} err)` : ''}`;
      return `<button type="button" class="cell-${kind}" data-q="${esc(q.id)}" data-s="${esc(s)}" aria-label="${esc(`${q.id} × ${s}: ${kind}`)}">${text}</button>`;
    }),
  ];
}

/** Where the records' data island goes in the page: its content is written by the caller. */
const ISLAND = Symbol('records island');

/**
 * The page in order, a piece at a time: HTML text, and once (with records) the ISLAND mark where
 * the records' gzip + base64 data goes. Pieces are whole elements or rows, so each can be
 * sanitised on its own. One pass over the records here (recordFacts); the island is a second.
 */
function* pageParts(input: HtmlRunInput): Generator<string | typeof ISLAND, void, void> {
  const { summary, meta } = input;
  const strategies = orderedStrategies(summary, meta);
  const level = headlineLevel(strategies);
  const ids = strategies.map((s) => s.strategy);
  const facts = recordFacts(input.records ?? []);
  const withRecords = facts.count > 0;
  const script = withRecords ? MATRIX_SCRIPT : '';
  const repeats = meta.repeats && meta.repeats > 1 ? ` × ${meta.repeats} repeats` : '';
  yield pageHead(`treebench ${meta.runId}`, script);
  const body: string[] = [
    ...(input.nav ? [input.nav] : []),
    `<h1>treebench run ${esc(meta.runId)}</h1>`,
    `<p class="meta">config <b>${esc(meta.config)}</b> · dataset <b>${esc(meta.dataset)}</b> (${meta.questions} questions${repeats}) · model <b>${esc(modelLabel(meta))}</b></p>`,
    `<p class="meta">started ${esc(meta.startedAt)}${meta.finishedAt ? ` · finished ${esc(meta.finishedAt)}` : ' · <span class="fail">not finished</span>'}${meta.seed !== undefined ? ` · seed ${meta.seed}` : ''}${meta.codeVersion ? ` · code ${esc(meta.codeVersion)}` : ''}</p>`,
  ];
  if (meta.offline) body.push('<p class="banner">Offline reasoner: these numbers measure the harness and retrieval, not LLM answer quality.</p>');
  if (!meta.priced) body.push('<p class="banner">Unpriced: the model has no entry in the price table; charts use tokens per question instead of dollars.</p>');
  else if (meta.pricedAs) body.push(`<p class="note">$: calls priced as ${esc(meta.pricedAs)}.</p>`);
  const index = indexLine(meta);
  if (index) body.push(`<p class="note">${esc(index)}.</p>`);
  const ingestion = ingestionLine(meta);
  if (ingestion) body.push(`<p class="note">${esc(ingestion)}.</p>`);
  body.push('<h2>Summary</h2>', summaryTable(strategies, meta.priced, level));
  const ungradable = ungradableNote(strategies);
  if (ungradable) body.push(`<p class="note">${esc(ungradable)}.</p>`);
  const grounded = groundednessNote(strategies);
  if (grounded) {
    const cells = strategies.map((s) => `${esc(s.strategy)}: ${s.groundedness !== null && s.groundedness !== undefined ? `groundedness (LLM) ${esc(pct(s.groundedness, s.intervals?.groundedness))}, ` : ''}lexical support (proxy) ${esc(pct(s.groundednessLexical, s.intervals?.groundednessLexical))}`);
    body.push('<h2>Groundedness</h2>', `<ul class="note">${cells.map((c) => `<li>${c}</li>`).join('')}</ul>`, `<p class="note">${esc(grounded)}.</p>`);
  }
  const custom = customMetricLines(strategies, meta.scorers);
  if (custom.length) {
    const [head, ...lines] = custom;
    body.push('<h2>Custom metrics</h2>', `<p class="note">${esc(head!)}</p>`, `<ul class="note">${lines.map((l) => `<li>${esc(l.trim())}</li>`).join('')}</ul>`);
  }
  if (summary.ci) body.push(`<p class="note">[lo, hi]: ${Math.round(summary.ci.level * 100)}% ${esc(summary.ci.method)} interval.</p>`);
  body.push('<h2>Quality against cost and latency</h2>', charts(strategies, meta.priced, level));
  if (withRecords) {
    body.push(
      '<h2>Latency distribution</h2>',
      boxPlot('chart-latency', 'latency per question', ids.map((id, i) => ({ label: id, colour: colour(i), values: facts.latencies.get(id) ?? [] })), ms),
    );
  }
  body.push('<h2>By tag</h2>', tagTable(input, strategies));
  if (!withRecords) {
    yield body.join('\n');
    yield pageTail(script);
    return;
  }
  body.push(
    '<h2>Questions × strategies</h2><p class="note">✓ correct, ✗ wrong, error, n/a ungradable by the rule (long or procedural gold); with repeats, correct/repeats. Click a cell for the answer, gold, evidence and search trace.</p>',
    tableStart(['question', ...ids.map(esc)], 'matrix'),
  );
  yield body.join('\n');
  // A row per question: 20,000 questions make a table of several megabytes, written row by row.
  for (let i = 0; i < facts.questions.length; i++) yield (i ? '\n' : '') + tableRow(matrixRow(facts.questions[i]!, ids, facts.cells));
  yield TABLE_END + '\n<section id="detail" aria-live="polite"></section>\n';
  // Search traces make up most of the data (an MCTS record has ~130 steps): gzip + base64
  // shrinks the page about sevenfold; the page's script inflates it with DecompressionStream.
  yield '<script type="application/gzip+base64" id="tb-records">';
  yield ISLAND;
  yield '</script>';
  yield pageTail(script);
}

/**
 * The island's JSON (an array of compact records) in pieces: `[`, then each record with its
 * separator, then `]`, so that it is never one string. Each record's JSON goes through the output
 * passes (redaction, sanitiser) before compression, which would otherwise hide it from them.
 */
function* islandJson(records: Iterable<RunRecord>, title: (d: string, n: string) => string | null): Generator<string, void, void> {
  yield '[';
  let first = true;
  for (const r of records) {
    yield (first ? '' : ',') + safeOutput(JSON.stringify(compactRecord(r, title)), 'document');
    first = false;
  }
  yield ']';
}

const nodeTitleOf = (input: HtmlRunInput) => input.nodeTitle ?? (() => null);

/** The page as one string (records in memory, or small): the island gzipped in one piece. */
export function renderHtml(input: HtmlRunInput): string {
  const out: string[] = [];
  for (const part of pageParts(input)) {
    out.push(part === ISLAND ? gzipSync([...islandJson(input.records ?? [], nodeTitleOf(input))].join('')).toString('base64') : part);
  }
  return out.join('');
}

/**
 * The page written piece by piece to `out` (a file being written, see writeOutputStream): the
 * records are walked twice (recordFacts, then the island, gzipped as a stream and base64-encoded
 * as it comes), and no more than one record, one row and the compressor's buffers are held at a
 * time, however many records the run has. Same page as renderHtml.
 */
export async function writeHtml(input: HtmlRunInput, out: OutputStream): Promise<void> {
  for (const part of pageParts(input)) {
    if (part === ISLAND) await streamIsland(islandJson(input.records ?? [], nodeTitleOf(input)), out);
    else out.write(part);
  }
}

async function streamIsland(json: Iterable<string>, out: OutputStream): Promise<void> {
  const gzip = createGzip();
  // base64 in whole 3-byte groups; the bytes left over wait for the next chunk.
  let carry = Buffer.alloc(0);
  gzip.on('data', (chunk: Buffer) => {
    const bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const whole = bytes.length - (bytes.length % 3);
    out.writeRaw(bytes.toString('base64', 0, whole));
    carry = Buffer.from(bytes.subarray(whole));
  });
  const done = new Promise<void>((resolve, reject) => {
    gzip.on('end', resolve);
    gzip.on('error', reject);
  });
  for (const piece of json) {
    if (!gzip.write(piece)) await once(gzip, 'drain');
  }
  gzip.end();
  await done;
  if (carry.length) out.writeRaw(carry.toString('base64'));
}
