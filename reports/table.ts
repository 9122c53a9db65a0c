// Console table (cli-table3): one row per strategy with the numbers people compare first.
// Evidence recall is shown at the finest level the dataset has gold for (node, else page, else
// doc), and the column header says which. No colours: the output is read in CI logs and files.
import Table from 'cli-table3';
import type { ReportInput } from './types.ts';
import type { ConfidenceInterval, StrategySummary } from '../harness/metrics/summary.ts';
import { atK, judgeLines, tokenNotes } from './judge.ts';
import { errors, headlineLevel, ms, modelLabel, NA, num, orderedStrategies, pct, usd } from './format.ts';

/**
 * `value ±h` for the narrow console columns: h is the larger side of the interval, so the
 * printed range always contains the real (possibly asymmetric) interval. Rates keep [lo, hi].
 */
function plusMinus(x: number, ci: ConfidenceInterval | undefined, fmt: (v: number) => string, fmtH: (h: number) => string = fmt): string {
  const text = fmt(x);
  if (!ci || !Number.isFinite(x) || text === NA || text === 'unpriced') return text;
  const h = Math.max(x - ci.lo, ci.hi - x);
  return h > 0 ? `${text} ±${fmtH(h)}` : text;
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

export function renderTable({ summary, meta }: ReportInput): string {
  const strategies = orderedStrategies(summary, meta);
  const level = headlineLevel(strategies);
  const table = new Table({
    head: [
      'strategy',
      'n',
      'accuracy',
      'F1',
      level ? `${atK('recall', summary.k)} (${level})` : 'recall',
      'calls/q',
      'tokens/q',
      '$/q',
      'p50',
      'p95',
      'errors',
    ],
    style: { head: [], border: [], compact: true },
    colAligns: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
  });
  for (const s of strategies) {
    const recall = level ? s.retrieval[level] : null;
    table.push([
      s.strategy,
      String(s.records),
      pct(s.accuracy, s.intervals?.accuracy),
      pct(s.f1, s.intervals?.f1),
      recall ? pct(recall.recall, s.intervals?.[`retrieval.${level!}.recall`]) : NA,
      plusMinus(s.callsPerQuestion, s.intervals?.callsPerQuestion, num),
      plusMinus(s.tokensPerQuestion, s.intervals?.tokensPerQuestion, num),
      plusMinus(s.costPerQuestion, s.intervals?.costPerQuestion, (v) => usd(v, meta.priced), usdHalfWidth(s.costPerQuestion)),
      ms(s.latencyMs.p50),
      plusMinus(s.latencyMs.p95, s.intervals?.['latencyMs.p95'], ms),
      errors(s),
    ]);
  }

  const repeats = meta.repeats && meta.repeats > 1 ? ` × ${meta.repeats} repeats` : '';
  const lines = [
    `treebench run ${meta.runId} · config ${meta.config} · dataset ${meta.dataset} (${meta.questions} questions${repeats})`,
    `model ${modelLabel(meta)}`,
    table.toString(),
  ];
  const notes: string[] = [];
  if (level) notes.push(`recall: ${level}-level evidence recall${summary.k !== undefined ? ` in the top ${summary.k}` : ''}`);
  else notes.push('recall: the dataset has no gold evidence');
  if (summary.ci) notes.push(`[lo, hi]: ${Math.round(summary.ci.level * 100)}% ${summary.ci.method} interval; ±: its larger side`);
  if (!meta.priced) notes.push('unpriced: the model has no entry in the price table');
  else if (meta.pricedAs) notes.push(`$: calls priced as ${meta.pricedAs} (configs/prices.yaml)`);
  notes.push(...tokenNotes(summary));
  if (meta.offline) notes.push('offline reasoner: these numbers measure the harness and retrieval, not LLM answer quality');
  lines.push(...notes, ...judgeLines(strategies, meta.priced));
  const repeatLines = strategies.map((s) => repeatLine(s)).filter((l): l is string => l !== null);
  if (repeatLines.length) lines.push('repeats (spread of per-repeat accuracy; flaky = correctness differs between repeats):', ...repeatLines.map((l) => `  ${l}`));
  return lines.join('\n');
}
