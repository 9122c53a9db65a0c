// GitHub-flavoured Markdown report: run metadata, then three tables (answers, retrieval,
// efficiency) with one row per strategy. Cells never contain a raw `|` or newline.
import { RETRIEVAL_LEVELS, type ConfidenceInterval, type StrategySummary } from '../harness/summary/summary.ts';
import type { ReportInput } from './types.ts';
import { forDocument } from '../harness/text/terminal.ts';
import { accuracyText, budgets, customMetricLines, cacheLine, pacingLine, skippedLine, duplicatesLine, groundednessNote, indexLine, ingestionLine, pricesSource, errors, ms, modelLabel, NA, num, OFFLINE_LABEL, openLine, orderedStrategies, pct, score, ungradableNote, unscoredRetrievalReason, usd } from './format.ts';
import type { TagSummary } from '../harness/summary/tags.ts';
import { atK, judgeLines, tokenNotes } from './judge.ts';

/** Escape text for a table cell or inline text: pipes, backslashes, emphasis and HTML characters; control and bidi characters neutralised. */
export function escapeMarkdown(text: string): string {
  return forDocument(text)
    .replace(/\r?\n|\r/g, ' ')
    .replace(/([\\`*_[\]|<>#])/g, '\\$1');
}

function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const align = head.map((_, i) => (i === 0 ? '---' : '---:'));
  return [line(head), line(align), ...rows.map(line)].join('\n');
}

function answersTable(strategies: StrategySummary[]): string {
  // Groundedness columns: the offline proxy whenever a record has it, the LLM grader's when it ran.
  const lexical = strategies.some((s) => (s.groundednessLexicalN ?? 0) > 0);
  const llm = strategies.some((s) => (s.groundednessN ?? 0) > 0);
  const head = ['strategy', 'records', 'accuracy', 'exact match', 'F1', 'numeric match', 'yes/no', ...(llm ? ['groundedness (LLM)'] : []), ...(lexical ? ['lexical support (proxy)'] : []), 'errors'];
  const rows = strategies.map((s) => [
    escapeMarkdown(s.strategy),
    String(s.records),
    accuracyText(s), // numbers or a fixed mark, like the cells beside it: nothing to escape
    pct(s.exactMatch, s.intervals?.exactMatch),
    pct(s.f1, s.intervals?.f1),
    s.numericMatch === null ? NA : `${pct(s.numericMatch, s.intervals?.numericMatch)} (n=${s.numericN})`,
    s.yesNo === null ? NA : `${pct(s.yesNo, s.intervals?.yesNo)} (n=${s.yesNoN})`,
    ...(llm ? [s.groundedness === null || s.groundedness === undefined ? NA : `${pct(s.groundedness, s.intervals?.groundedness)} (n=${s.groundednessN})`] : []),
    ...(lexical ? [s.groundednessLexical === null || s.groundednessLexical === undefined ? NA : `${pct(s.groundednessLexical, s.intervals?.groundednessLexical)} (n=${s.groundednessLexicalN})`] : []),
    errors(s),
  ]);
  return table(head, rows);
}

function retrievalTable(strategies: StrategySummary[], k?: number, atKey?: string): string | null {
  const levelsOf = (s: StrategySummary) => (atKey === undefined ? s.retrieval : s.retrievalAt?.[atKey]);
  const levels = RETRIEVAL_LEVELS.filter((l) => strategies.some((s) => levelsOf(s)?.[l]));
  if (levels.length === 0) return null;
  const head = ['strategy'];
  // MRR cut at k beside the uncut reciprocal rank (trec_eval's recip_rank), named so they are not confused.
  const uncut = atKey === undefined && strategies.some((s) => levels.some((l) => typeof levelsOf(s)?.[l]?.mrrUncut === 'number'));
  for (const l of levels) head.push(`${l} ${atK('recall', k)}`, `${l} ${atK('precision', k)}`, `${l} ${atK('MRR', k)}`, ...(uncut ? [`${l} MRR (uncut)`] : []), `${l} ${atK('nDCG', k)}`, `${l} n`);
  const rows = strategies.map((s) => {
    const row = [escapeMarkdown(s.strategy)];
    for (const l of levels) {
      const r = levelsOf(s)?.[l] ?? null;
      // Intervals are computed for the main cutoff only.
      const ci = atKey === undefined ? s.intervals : undefined;
      row.push(
        r ? pct(r.recall, ci?.[`retrieval.${l}.recall`]) : NA,
        r ? pct(r.precision, ci?.[`retrieval.${l}.precision`]) : NA,
        r ? score(r.mrr, ci?.[`retrieval.${l}.mrr`]) : NA,
        ...(uncut ? [r && typeof r.mrrUncut === 'number' ? score(r.mrrUncut, ci?.[`retrieval.${l}.mrrUncut`]) : NA] : []),
        r ? score(r.ndcg, ci?.[`retrieval.${l}.ndcg`]) : NA,
        r ? String(r.n) : '0',
      );
    }
    return row;
  });
  return table(head, rows);
}

/**
 * What document recall means in this run: the open setting (questions left several documents to
 * choose from) or the closed one (each names its document: recall only says whether any evidence
 * came back). Nothing when there is no document level or the records predate `candidateDocs`.
 */
function docRecallNote(strategies: StrategySummary[], k?: number): string | null {
  const docs = strategies.map((s) => s.retrieval.doc).filter((d): d is NonNullable<typeof d> => d !== null);
  if (docs.length === 0 || docs.every((d) => d.openN === undefined)) return null;
  const within = `the share of gold documents among the first ${k ?? 'all'} distinct documents of the evidence, in rank order`;
  if (docs.every((d) => (d.openN ?? 0) === 0)) return `_Document ${atK('recall', k)} is ${within}; every question named its document (the closed setting), so it only says whether any evidence came back._`;
  return `_Document ${atK('recall', k)} is ${within}; ${escapeMarkdown(openLine(strategies))}._`;
}

/** `value [lo, hi]` with the same formatter for all three; the value alone without an interval. */
function withCi(x: number, ci: ConfidenceInterval | undefined, fmt: (v: number) => string): string {
  const text = fmt(x);
  if (!ci || text === NA || text === 'unpriced') return text;
  return `${text} [${fmt(ci.lo)}, ${fmt(ci.hi)}]`;
}

/** Spread across repeats and flaky questions, for strategies run more than once per question. */
function repeatsSection(strategies: StrategySummary[]): string | null {
  const rows = strategies.filter((s) => s.repeatStats);
  if (rows.length === 0) return null;
  const head = ['strategy', 'repeats', 'accuracy per repeat', 'mean ± sd', 'F1 mean ± sd', 'flaky questions'];
  const body = rows.map((s) => {
    const r = s.repeatStats!;
    const sd = (x: number) => (Number.isFinite(x) ? `±${(x * 100).toFixed(1)}` : '');
    const flaky = r.flaky.length
      ? `${r.flaky.length} of ${r.questionsRepeated}: ${r.flaky
          .slice(0, 20)
          .map((f) => `${escapeMarkdown(f.questionId)} (${f.correct}/${f.repeats})`)
          .join(', ')}${r.flaky.length > 20 ? ', …' : ''}`
      : `0 of ${r.questionsRepeated}`;
    return [
      escapeMarkdown(s.strategy),
      String(r.repeats),
      r.perRepeat.map((p) => pct(p.accuracy)).join(', '),
      `${pct(r.accuracy.mean)} ${sd(r.accuracy.sd)}`.trim(),
      `${pct(r.f1.mean)} ${sd(r.f1.sd)}`.trim(),
      flaky,
    ];
  });
  return table(head, body);
}

function efficiencyTable(strategies: StrategySummary[], priced: boolean): string {
  const head = [
    'strategy',
    'calls/q',
    'embed calls/q',
    'tokens/q (in + out)',
    'embed tokens/q',
    '$/q',
    'total $',
    'latency mean',
    'p50',
    'p95',
    'p99',
    'nodes visited/q',
    'nodes opened/q',
    'budget exhausted',
    'parse failures',
    'value fallbacks',
  ];
  const rows = strategies.map((s) => [
    escapeMarkdown(s.strategy),
    withCi(s.callsPerQuestion, s.intervals?.callsPerQuestion, num),
    withCi(s.embedCallsPerQuestion, s.intervals?.embedCallsPerQuestion, num),
    `${withCi(s.tokensPerQuestion, s.intervals?.tokensPerQuestion, num)} (${num(s.inputTokensPerQuestion)} + ${num(s.outputTokensPerQuestion)})`,
    num(s.embedTokensPerQuestion),
    withCi(s.costPerQuestion, s.intervals?.costPerQuestion, (v) => usd(v, priced)),
    usd(s.totalCost, priced),
    withCi(s.latencyMs.mean, s.intervals?.['latencyMs.mean'], ms),
    withCi(s.latencyMs.p50, s.intervals?.['latencyMs.p50'], ms),
    withCi(s.latencyMs.p95, s.intervals?.['latencyMs.p95'], ms),
    withCi(s.latencyMs.p99, s.intervals?.['latencyMs.p99'], ms),
    withCi(s.nodesVisitedPerQuestion, s.intervals?.nodesVisitedPerQuestion, num),
    withCi(s.nodesOpenedPerQuestion, s.intervals?.nodesOpenedPerQuestion, num),
    budgets(s),
    String(s.parseFailures),
    // Records in which a tree strategy gave up on the tree and opened value-search hits instead.
    `${s.valueFallbackRecords ?? 0} of ${s.records}`,
  ]);
  return table(head, rows);
}

function parametersTable(strategies: StrategySummary[], meta: ReportInput['meta']): string {
  const { columns, values } = meta.parameters!;
  const rows = strategies.map((s) => [escapeMarkdown(s.strategy), ...columns.map((c) => {
    const v = values[s.strategy]?.[c];
    return v === undefined || v === null ? NA : escapeMarkdown(String(v));
  })]);
  return table(['strategy', ...columns.map(escapeMarkdown)], rows);
}

function tagsTable(tags: TagSummary[]): string {
  const strategies = tags[0].cells.map((c) => c.strategy);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const rows = tags.map((t) => [
    escapeMarkdown(t.tag),
    String(Math.max(...t.cells.map((c) => c.n))),
    ...t.cells.map((c) => (c.n ? `${c.accuracy === null ? 'n/a (rule)' : pct(c.accuracy)}${c.recall === null ? '' : ` (${pct(c.recall)})`}` : '–')),
  ]);
  return table(['tag', 'n', ...strategies.map(escapeMarkdown)], rows);
}

export function renderMarkdown({ summary, meta }: ReportInput): string {
  const strategies = orderedStrategies(summary, meta);
  const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;
  const metaLines = [
    `- **run**: ${code(meta.runId)}`,
    `- **config**: ${escapeMarkdown(meta.config)}${meta.configHash ? ` (${code(meta.configHash.slice(0, 12))})` : ''}`,
    `- **dataset**: ${escapeMarkdown(meta.dataset)}, ${meta.questions} questions${meta.repeats && meta.repeats > 1 ? ` × ${meta.repeats} repeats` : ''}, ${summary.records} records`,
    `- **model**: ${escapeMarkdown(modelLabel(meta))}${meta.priced ? (meta.pricedAs ? ` (costs priced as ${escapeMarkdown(meta.pricedAs)})` : '') : ' (unpriced)'}`,
  ];
  if (meta.priced) metaLines.push(`- **prices**: ${escapeMarkdown(pricesSource(meta))}`);
  const cache = cacheLine(strategies, meta);
  if (cache) metaLines.push(`- **cache**: ${escapeMarkdown(cache.slice('cache: '.length))}`);
  const pacing = pacingLine(meta);
  if (pacing) metaLines.push(`- **pacing**: ${escapeMarkdown(pacing.slice('pacing: '.length))}`);
  const skipped = skippedLine(meta);
  if (skipped) metaLines.push(`- **skipped**: ${escapeMarkdown(skipped.slice('skipped: '.length))}`);
  const duplicates = duplicatesLine(meta);
  if (duplicates) metaLines.push(`- **duplicates**: ${escapeMarkdown(duplicates.slice('duplicates: '.length))}`);
  if (meta.embedder) metaLines.push(`- **embedder**: ${escapeMarkdown(meta.embedder)}`);
  const index = indexLine(meta);
  if (index) metaLines.push(`- **${escapeMarkdown(index.slice(0, index.indexOf(':')))}**${escapeMarkdown(index.slice(index.indexOf(':')))}`);
  const ingestion = ingestionLine(meta);
  if (ingestion) metaLines.push(`- **ingestion**${escapeMarkdown(ingestion.slice('ingestion'.length))}`);
  if (meta.seed !== undefined) metaLines.push(`- **seed**: ${meta.seed}`);
  if (meta.codeVersion) metaLines.push(`- **code**: ${escapeMarkdown(meta.codeVersion)}`);
  metaLines.push(`- **started**: ${meta.startedAt}${meta.finishedAt ? `, **finished**: ${meta.finishedAt}` : ' (not finished)'}`);
  if (summary.ci) {
    metaLines.push(`- **intervals**: ${Math.round(summary.ci.level * 100)}% ${escapeMarkdown(summary.ci.method)}${summary.ci.resamples ? `, ${summary.ci.resamples} resamples` : ''}`);
  }

  const parts = [`# treebench report: ${escapeMarkdown(meta.runId)}`, '', metaLines.join('\n'), ''];
  if (meta.offline) {
    parts.push(`> **${OFFLINE_LABEL}.** These numbers measure the harness and the retrieval strategies, not LLM answer quality.`, '');
  }
  if (meta.parameters?.columns.length) parts.push('## Parameters', '', parametersTable(strategies, meta), '');
  parts.push('## Answers', '', answersTable(strategies), '');
  parts.push(
    'Accuracy counts records with an error as incorrect. Numeric match and yes/no cover only the questions they apply to (n).',
    '',
  );
  const ungradable = ungradableNote(strategies);
  if (ungradable) parts.push(`> ${escapeMarkdown(ungradable)}.`, '');
  const grounded = groundednessNote(strategies);
  if (grounded) parts.push(escapeMarkdown(grounded), '');
  const custom = customMetricLines(strategies, meta.scorers);
  if (custom.length) {
    const [head, ...lines] = custom;
    parts.push('## Custom metrics', '', escapeMarkdown(head!), '', ...lines.map((l) => `- ${escapeMarkdown(l.trim())}`), '');
  }
  const judge = judgeLines(strategies, meta.priced);
  if (judge.length) {
    const [head, ...lines] = judge;
    parts.push('## LLM judge', '', escapeMarkdown(head!), '', ...lines.map((l) => `- ${escapeMarkdown(l.trim())}`), '', "κ: Cohen's kappa between the rule's and the judge's verdicts on the records both graded, with a 95% percentile-bootstrap interval over questions (repeats resampled together, the run's seed).", '');
  }
  const retrieval = retrievalTable(strategies, summary.k);
  parts.push('## Retrieval', '', retrieval ?? `_Retrieval is not scored: ${unscoredRetrievalReason(strategies)}._`, '');
  const docNote = docRecallNote(strategies, summary.k);
  if (docNote) parts.push(docNote, '');
  const extraKs = [...new Set(strategies.flatMap((s) => Object.keys(s.retrievalAt ?? {})))];
  for (const kk of extraKs) {
    const t = retrievalTable(strategies, Number(kk), kk);
    if (t) parts.push(t, '');
  }
  parts.push('## Efficiency', '', efficiencyTable(strategies, meta.priced), '');
  const repeats = repeatsSection(strategies);
  if (repeats) {
    parts.push(
      '## Repeats',
      '',
      repeats,
      '',
      'Spread across repeats is run-to-run variation on the same questions (sample sd, percentage points); a question is flaky when its correctness differs between repeats. Intervals above resample whole questions (cluster bootstrap).',
      '',
    );
  }
  if (summary.tags?.length) {
    parts.push('## By question tag', '', tagsTable(summary.tags), '', 'Accuracy, then evidence recall in parentheses, over the records with that tag (n).', '');
  }
  parts.push(...tokenNotes(summary).map((n) => `${escapeMarkdown(n)}.`), '');
  parts.push('Per-question values are means over records (question × repeat); latency percentiles use linear interpolation.');
  if (summary.ci) parts.push('', `[lo, hi]: ${Math.round(summary.ci.level * 100)}% confidence interval (${escapeMarkdown(summary.ci.method)}).`);
  return parts.join('\n') + '\n';
}
