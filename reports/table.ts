// Console table (cli-table3): one row per strategy with the numbers people compare first.
// Evidence recall is shown at the finest level the dataset has gold for (node, else page, else
// doc), and the column header says which; document recall gets a column of its own when questions
// left more than one document to choose from (the open setting). In a terminal the table fits its width (reports/fit.ts:
// intervals condensed, then the least important columns hidden, with a note); colour only there.
import { fitTable, type FitColumn } from './fit.ts';
import { paint, wrapText } from './console.ts';
import type { ReportInput } from './types.ts';
import type { ConfidenceInterval, StrategySummary } from '../harness/summary/summary.ts';
import { atK, judgeLines, tokenNotes } from './judge.ts';
import { accuracyText, budgets, cacheLine, customMetricLines, pacingLine, skippedLine, duplicatesLine, errors, groundednessLines, indexLine, ingestionLine, pricesSource, headlineLevel, showsDocRecall, openLine, ms, modelLabel, NA, num, orderedStrategies, pct, ungradableNote, unscoredRetrievalReason, usd } from './format.ts';

/**
 * `value ±h` for the narrow console columns: h is the larger side of the interval, so the
 * printed range always contains the real (possibly asymmetric) interval. Rates keep [lo, hi].
 */
function plusMinus(x: number, ci: ConfidenceInterval | undefined, fmt: (v: number) => string, fmtH: (h: number) => string = fmt): string {
  const text = fmt(x);
  if (!ci || !Number.isFinite(x) || text === NA || text === 'unpriced') return text;
  const h = Math.max(x - ci.lo, ci.hi - x);
  // A half-width that rounds to zero at the value's precision (rounding noise of a constant
  // column, e.g. identical costs) says nothing: "±0.000000" is left out.
  const shown = h > 0 ? fmtH(h) : '';
  return /[1-9]/.test(shown) ? `${text} ±${shown}` : text;
}

/** Dollar half-widths with as many decimals as the value shows ("$0.000128 ±0.000003"). */
function usdHalfWidth(x: number): (h: number) => string {
  const shown = usd(x, true);
  const decimals = Math.min(8, shown.includes('.') ? shown.split('.')[1]!.length : 2);
  return (h) => h.toFixed(decimals);
}

/** "vector: accuracy 61.3% (sd 2.1 pts, 3 repeats, min 58.7%, max 63.0%); flaky: q1 (2/3), q7 (1/3)". */
export function repeatLine(s: StrategySummary, maxFlaky = 8): string | null {
  const r = s.repeatStats;
  if (!r) return null;
  const sd = Number.isFinite(r.accuracy.sd) ? `sd ${(r.accuracy.sd * 100).toFixed(1)} pts, ` : '';
  const flaky = r.flaky.length
    ? `${r.flaky.length} flaky of ${r.questionsRepeated}: ${r.flaky
        .slice(0, maxFlaky)
        .map((f) => `${f.questionId} (${f.correct}/${f.repeats})`)
        .join(', ')}${r.flaky.length > maxFlaky ? ', …' : ''}`
    : `no flaky questions of ${r.questionsRepeated}`;
  return `${s.strategy}: accuracy across repeats ${pct(r.accuracy.mean)} (${sd}${r.repeats} repeats, min ${pct(r.accuracy.min)}, max ${pct(r.accuracy.max)}); ${flaky}`;
}

export function renderTable({ summary, meta, width = Infinity, color = false }: ReportInput): string {
  const strategies = orderedStrategies(summary, meta);
  const level = headlineLevel(strategies);
  const col = (head: string, priority: number, cell: (s: StrategySummary) => string, short?: (s: StrategySummary) => string): FitColumn => ({
    head,
    priority,
    align: priority === 0 ? 'left' : 'right',
    cells: strategies.map(cell),
    ...(short ? { condensed: strategies.map(short) } : {}),
  });
  const rate = (x: number | null | undefined, ci: ConfidenceInterval | undefined) => (x === null || x === undefined || !ci ? pct(x) : plusMinus(x, ci, pct, (h) => (h * 100).toFixed(1)));
  const recallOf = (s: StrategySummary) => (level ? s.retrieval[level] : null);
  const recallCi = (s: StrategySummary) => (level ? s.intervals?.[`retrieval.${level}.recall`] : undefined);
  const docShown = showsDocRecall(strategies, level);
  const docCi = (s: StrategySummary) => s.intervals?.['retrieval.doc.recall'];
  const cost = (s: StrategySummary) => usd(s.costPerQuestion, meta.priced);
  // Priority: what people compare first stays longest (accuracy, recall, $, p95, errors).
  // Marks in the strategy cell for what a number alone hides: a budget that ran out (its
  // questions are scored on what the strategy had when it stopped, so 0.0% is not "wrong
  // answers") and a strategy short of questions (the run stopped before it finished them).
  const expected = meta.questions * (meta.repeats && meta.repeats > 1 ? meta.repeats : 1);
  const short = (s: StrategySummary) => s.records < expected;
  const mark = (s: StrategySummary) => `${s.strategy}${s.budgetExhaustedRecords > 0 ? ' †' : ''}${short(s) ? ' *' : ''}`;
  const columns: FitColumn[] = [
    col('strategy', 0, mark),
    col('n', 7, (s) => String(s.records)),
    col('accuracy', 1, (s) => accuracyText(s), (s) => (s.accuracy === null ? accuracyText(s) : rate(s.accuracy, s.intervals?.accuracy))),
    col('F1', 9, (s) => pct(s.f1, s.intervals?.f1), (s) => pct(s.f1)),
    col(level ? `${atK('recall', summary.k)} (${level})` : 'recall', 2, (s) => { const r = recallOf(s); return r ? pct(r.recall, recallCi(s)) : NA; }, (s) => { const r = recallOf(s); return r ? rate(r.recall, recallCi(s)) : NA; }),
    ...(docShown ? [col(`doc ${atK('recall', summary.k)}`, 5, (s) => (s.retrieval.doc ? pct(s.retrieval.doc.recall, docCi(s)) : NA), (s) => (s.retrieval.doc ? rate(s.retrieval.doc.recall, docCi(s)) : NA))] : []),
    col('calls/q', 6, (s) => plusMinus(s.callsPerQuestion, s.intervals?.callsPerQuestion, num), (s) => num(s.callsPerQuestion)),
    col('tokens/q', 10, (s) => plusMinus(s.tokensPerQuestion, s.intervals?.tokensPerQuestion, num), (s) => num(s.tokensPerQuestion)),
    col('$/q', 3, (s) => plusMinus(s.costPerQuestion, s.intervals?.costPerQuestion, (v) => usd(v, meta.priced), usdHalfWidth(s.costPerQuestion)), cost),
    col('p50', 8, (s) => ms(s.latencyMs.p50)),
    col('p95', 4, (s) => plusMinus(s.latencyMs.p95, s.intervals?.['latencyMs.p95'], ms), (s) => ms(s.latencyMs.p95)),
    col('errors', 5, (s) => paint(errors(s), 'red', color && s.errors > 0)),
  ];
  const fitted = fitTable(columns, strategies.length, width);

  const repeats = meta.repeats && meta.repeats > 1 ? ` × ${meta.repeats} repeats` : '';
  const lines = [
    ...wrapText(`treebench run ${meta.runId} · config ${meta.config} · dataset ${meta.dataset} (${meta.questions} questions${repeats})`, width),
    ...wrapText(`model ${modelLabel(meta)}`, width),
    fitted.text,
  ];
  const notes: string[] = [];
  if (level) notes.push(`recall: ${level}-level evidence recall${summary.k !== undefined ? ` in the top ${summary.k}` : ''}`);
  else notes.push(`recall not scored: ${unscoredRetrievalReason(strategies)}`);
  if (docShown) notes.push(`doc recall: share of gold documents among the first ${summary.k ?? 'all'} distinct documents of the evidence (${openLine(strategies)})`);
  const budgeted = strategies.filter((s) => s.budgetExhaustedRecords > 0);
  if (budgeted.length) notes.push(`†: budget ran out (${budgeted.map((s) => `${s.strategy} ${s.budgetExhaustedRecords} of ${s.records}: ${budgets(s)}`).join('; ')}); those questions are scored on what the strategy had when it stopped`);
  const partial = strategies.filter(short);
  if (partial.length) notes.push(`*: unfinished: ${partial.map((s) => `${s.strategy} ${s.records} of ${expected}`).join(', ')} records${meta.finishedAt ? '' : ' (the run did not finish; `treebench run --resume <run folder>` completes it)'}`);
  // The interval legend describes only what the fitted table shows.
  const shownBands = /\[[^\]]*,[^\]]*\]/.test(fitted.text);
  const shownPm = fitted.text.includes(' ±');
  if (summary.ci && (shownBands || shownPm)) {
    const name = `${Math.round(summary.ci.level * 100)}% ${summary.ci.method} interval`;
    notes.push(shownBands ? `[lo, hi]: ${name}${shownPm ? '; ±: its larger side' : ''}` : `±: larger side of the ${name}`);
  }
  if (!meta.priced) notes.push('unpriced: the model has no entry in the price table');
  else if (meta.pricedAs) notes.push(`$: calls priced as ${meta.pricedAs} (${pricesSource(meta)})`);
  else if (!meta.offline) notes.push(`$: prices from ${pricesSource(meta)}`);
  const cache = cacheLine(strategies, meta);
  if (cache) notes.push(cache);
  const pacing = pacingLine(meta);
  if (pacing) notes.push(pacing);
  const skipped = skippedLine(meta);
  if (skipped) notes.push(skipped);
  const duplicates = duplicatesLine(meta);
  if (duplicates) notes.push(duplicates);
  if (fitted.condensed.length) notes.push(`intervals shortened to fit ${width} columns: ${fitted.condensed.join(', ')}`);
  if (fitted.dropped.length) notes.push(`hidden to fit ${width} columns: ${fitted.dropped.join(', ')} (full table: --format md, or the run's report files)`);
  const ungradable = ungradableNote(strategies);
  if (ungradable) notes.push(ungradable);
  notes.push(...tokenNotes(summary));
  const index = indexLine(meta);
  if (index) notes.push(index);
  const ingestion = ingestionLine(meta);
  if (ingestion) notes.push(ingestion);
  if (meta.offline) notes.push('offline reasoner: these numbers measure the harness and retrieval, not LLM answer quality');
  lines.push(...[...notes, ...judgeLines(strategies, meta.priced), ...groundednessLines(strategies, meta.priced), ...customMetricLines(strategies, meta.scorers)].flatMap((n) => wrapText(n, width)));
  const repeatLines = strategies.map((s) => repeatLine(s)).filter((l): l is string => l !== null);
  if (repeatLines.length) lines.push(...wrapText('repeats (spread of per-repeat accuracy; flaky = correctness differs between repeats):', width), ...repeatLines.flatMap((l) => wrapText(l, width, '  ')));
  return lines.join('\n');
}
