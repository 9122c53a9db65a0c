// Number formatting shared by the human-readable reports (console table, Markdown). CSV and JSON
// keep full precision and never go through these.
import type { ConfidenceInterval, RetrievalLevel, RunSummary, StrategySummary } from '../harness/summary/summary.ts';
import { RETRIEVAL_LEVELS } from '../harness/summary/summary.ts';
import type { ReportMeta } from './types.ts';

/** Shown for "not applicable / not measured". Never 0, which would read as a measured zero. */
export const NA = '–';

export const OFFLINE_LABEL = 'offline reasoner (lexical heuristics, not an LLM)';

const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

/** A rate in [0, 1] as a percentage with one decimal, with its interval when there is one. */
export function pct(x: number | null | undefined, ci?: ConfidenceInterval): string {
  if (!finite(x)) return NA;
  const s = `${(x * 100).toFixed(1)}%`;
  return ci ? `${s} [${(ci.lo * 100).toFixed(1)}, ${(ci.hi * 100).toFixed(1)}]` : s;
}

/** A score in [0, 1] (MRR, nDCG) with three decimals. */
export function score(x: number | null | undefined, ci?: ConfidenceInterval): string {
  if (!finite(x)) return NA;
  const s = x.toFixed(3);
  return ci ? `${s} [${ci.lo.toFixed(3)}, ${ci.hi.toFixed(3)}]` : s;
}

function group(intPart: string): string {
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A count or per-question average: integers as they are (grouped: 12,345), other values with
 * two decimals below 10, one below 100, none above (2.25 calls, 37.5 nodes, 1,284 tokens).
 */
export function num(x: number | null | undefined): string {
  if (!finite(x)) return NA;
  const abs = Math.abs(x);
  if (Number.isInteger(x) || abs >= 100) {
    const r = Math.round(abs);
    return (x < 0 && r !== 0 ? '-' : '') + group(String(r));
  }
  return x.toFixed(abs < 10 ? 2 : 1);
}

/** Dollars; "unpriced" when the model has no price (never a misleading $0). */
export function usd(x: number | null | undefined, priced: boolean): string {
  if (!priced) return 'unpriced';
  if (!finite(x)) return NA;
  if (x === 0) return '$0';
  const sign = x < 0 ? '-' : '';
  const abs = Math.abs(x);
  if (abs >= 1) {
    const [whole, cents] = abs.toFixed(2).split('.');
    return `${sign}$${group(whole!)}.${cents}`;
  }
  // Per-question costs are often fractions of a cent: keep three significant digits.
  return `${sign}$${Number(abs.toPrecision(3))}`;
}

/** Milliseconds: "0.42 ms", "37.5 ms", "850 ms", "1.23 s". */
export function ms(x: number | null | undefined): string {
  if (!finite(x)) return NA;
  if (x < 1) return `${x.toFixed(2)} ms`;
  if (x < 100) return `${x.toFixed(1)} ms`;
  if (x < 1000) return `${Math.round(x)} ms`;
  return `${(x / 1000).toFixed(2)} s`;
}

/** Errors as a count with its share of records: "0", "3 (6.0%)". */
export function errors(s: StrategySummary): string {
  return s.errors === 0 ? '0' : `${s.errors} (${((s.errors / s.records) * 100).toFixed(1)}%)`;
}

/** Budget exhaustion as "calls×3, timeMs×1", or "0". */
export function budgets(s: StrategySummary): string {
  const parts = Object.entries(s.budgetExhausted)
    .filter(([, n]) => n > 0)
    .map(([b, n]) => `${b}×${n}`);
  return parts.length ? parts.join(', ') : '0';
}

/** The retrieval level a one-column report shows: node, else page, else doc; null if none has data. */
export function headlineLevel(strategies: readonly StrategySummary[]): RetrievalLevel | null {
  return RETRIEVAL_LEVELS.find((l) => strategies.some((s) => s.retrieval[l] !== null)) ?? null;
}

/**
 * Whether a report shows document recall beside the headline level: when the headline is finer
 * (node or page) and some question left the strategy more than one document to choose from (the
 * open setting). Where every question names its one document (closed), or the records predate
 * `candidateDocs`, document recall is only "did any evidence come back" and stays in report.md.
 */
export function showsDocRecall(strategies: readonly StrategySummary[], level: RetrievalLevel | null): boolean {
  return level !== null && level !== 'doc' && strategies.some((s) => (s.retrieval.doc?.openN ?? 0) > 0);
}

/** "37 of 37 records left more than one document to choose from" (the strategy with the most such records). */
export function openLine(strategies: readonly StrategySummary[]): string {
  const docs = strategies.map((s) => s.retrieval.doc).filter((d): d is NonNullable<typeof d> => d !== null);
  const most = docs.reduce((a, b) => ((b.openN ?? 0) > (a.openN ?? 0) ? b : a), docs[0]!);
  return `${most.openN ?? 0} of ${most.n} records left more than one document to choose from`;
}

/**
 * Why a summary has no retrieval scores: a dataset without gold evidence, or no record that
 * could carry them (every one failed, or the run stopped before the first one).
 */
export function unscoredRetrievalReason(strategies: readonly StrategySummary[]): string {
  if (strategies.length === 0) return 'the run stopped before any question finished';
  if (strategies.every((s) => s.errors >= s.records)) return 'no record succeeded';
  return 'the dataset has no gold evidence';
}

/** Strategies in config order (records arrive in completion order), unknown ones after. */
export function orderedStrategies(summary: RunSummary, meta: ReportMeta): StrategySummary[] {
  const pos = new Map(meta.strategies.map((id, i) => [id, i]));
  return summary.strategies
    .map((s, i) => ({ s, i }))
    .sort((a, b) => (pos.get(a.s.strategy) ?? Infinity) - (pos.get(b.s.strategy) ?? Infinity) || a.i - b.i)
    .map((x) => x.s);
}

/** "model gpt-4o-mini" or "model offline — offline reasoner (lexical heuristics, not an LLM)". */
export function modelLabel(meta: ReportMeta): string {
  return meta.offline ? `${meta.model} — ${OFFLINE_LABEL}` : meta.model;
}

// ---------------------------------------------------------------------------------------------
// Accuracy the rule cannot measure

/** Shown instead of an accuracy the rule judge could not measure (every gold long or procedural). */
export const RULE_NA = 'n/a (rule)';

/** Rule accuracy with its interval, or `n/a (rule)` when the rule graded no record. */
export function accuracyText(s: StrategySummary, withCi = true): string {
  if (s.accuracy === null) return (s.ungradable ?? 0) > 0 ? RULE_NA : NA;
  return pct(s.accuracy, withCi ? s.intervals?.accuracy : undefined);
}

/**
 * The footer of a report whose accuracy leaves records out: which, why, and where to get a
 * verdict for them (the LLM judge). Null when the rule graded every record.
 */
export function ungradableNote(strategies: readonly StrategySummary[]): string | null {
  const affected = strategies.filter((s) => (s.ungradable ?? 0) > 0);
  if (affected.length === 0) return null;
  const judged = strategies.some((s) => s.judge);
  const how = judged
    ? 'the LLM judge grades them (judge accuracy)'
    : 'grade them with the LLM judge: scoring.judge in the config, or treebench rejudge <runDir> --judge openai:<model> (docs/scoring.md)';
  const all = affected.every((s) => s.accuracy === null);
  if (all) {
    return `accuracy ${RULE_NA}: the gold answers are long or procedural, which the rule judge cannot grade (token overlap does not tell a right answer from a wrong one there); ${how}. F1 and retrieval are measured as usual`;
  }
  const parts = affected.map((s) => `${s.strategy} ${s.ungradable} of ${s.records}`);
  return `accuracy is over the records the rule judge can grade; records whose gold is long or procedural are left out (${parts.join(', ')}); ${how}. F1 and retrieval cover every record`;
}

/** What the groundedness columns mean (and that the lexical one is a proxy); null when neither was measured. */
export function groundednessNote(strategies: readonly StrategySummary[]): string | null {
  const lexical = strategies.some((s) => (s.groundednessLexicalN ?? 0) > 0);
  const llm = strategies.find((s) => s.groundednessJudge);
  if (!lexical && !llm) return null;
  const parts: string[] = [];
  if (llm) parts.push(`groundedness (LLM): the share of the answer's claims that the retrieved evidence supports, graded by ${llm.groundednessJudge!.model} (its calls are not in the strategies' calls, tokens, $ or latency)`);
  if (lexical) parts.push("lexical support (proxy): the share of the answer's content words found in the retrieved evidence, an offline proxy for groundedness that rewards copying and cannot see paraphrase or contradiction");
  return `${parts.join('; ')}. Neither needs a gold answer; a failed record or an abstention is not measured (n)`;
}

/** Console lines for the LLM groundedness grader, like the judge lines; empty without it. */
export function groundednessLines(strategies: readonly StrategySummary[], priced: boolean): string[] {
  const graded = strategies.filter((s) => s.groundednessJudge);
  if (graded.length === 0) return [];
  return [
    `groundedness graded by ${graded[0]!.groundednessJudge!.model} (share of the answer's claims the retrieved evidence supports); lexical support is the offline proxy:`,
    ...graded.map((s) => `  ${s.strategy}: groundedness ${pct(s.groundedness, s.intervals?.groundedness)} (n=${s.groundednessN}${s.groundednessJudge!.errors ? `, ${s.groundednessJudge!.errors} ungraded` : ''}), lexical support ${pct(s.groundednessLexical, s.intervals?.groundednessLexical)}; grader ${usd(s.groundednessJudge!.costPerQuestion, priced)}/q`),
  ];
}

/**
 * The corpus index's embedding in one line: "corpus index: 1,204 chunks, 10 embedding calls, 52,311
 * tokens (estimated), $0.00105 (once per run, not in $/q)". Null when nothing was embedded by a
 * server (a local embedder costs no tokens).
 */
export function indexLine(meta: ReportMeta): string | null {
  const ix = meta.index;
  if (!ix || ix.inputTokens === 0) return null;
  const cost = ix.costUsd === null ? 'unpriced' : usd(ix.costUsd, true);
  return `corpus index: ${num(ix.chunks)} chunks, ${num(ix.embedCalls)} embedding calls, ${num(ix.inputTokens)} tokens${ix.estimated ? ' (estimated: the server reported no usage)' : ''}, ${cost} (once per run, not in $/q)`;
}

/** The model's work at ingestion (trees it built, summaries it wrote), or null when there was none. */
export function ingestionLine(meta: ReportMeta): string | null {
  const ing = meta.ingestion;
  if (!ing) return null;
  const cost = (c: { calls: number; cached: number; tokens: number; costUsd: number | null }) => `${num(c.calls)} calls (${num(c.cached)} cached), ${num(c.tokens)} tokens, ${c.costUsd === null ? 'unpriced' : usd(c.costUsd, true)}`;
  const parts = [
    ...(ing.trees ? [`${num(ing.trees.built)} of ${num(ing.trees.documents)} tree(s) built by the model, ${cost(ing.trees)}`] : []),
    ...(ing.summaries ? [`${num(ing.summaries.nodes)} node summaries written by the model, ${cost(ing.summaries)}`] : []),
  ];
  return parts.length ? `ingestion: ${parts.join('; ')} (once per run, not in $/q)` : null;
}

/**
 * Lines for the custom scorers' metrics (`scoring.scorers`): one per metric, each strategy's
 * mean with its interval and n; empty when no scorer ran. Values are in the scorer's own units.
 */
export function customMetricLines(strategies: readonly StrategySummary[], scorers: ReportMeta['scorers'] = []): string[] {
  const names = [...new Set(strategies.flatMap((s) => Object.keys(s.custom ?? {})))];
  if (names.length === 0) return [];
  const lines = ['custom metrics (scoring.scorers; mean over the records each one scored):'];
  for (const name of names) {
    const info = scorers.find((s) => s.name === name);
    const about = [info?.description, info && !info.higherIsBetter ? 'lower is better' : 'higher is better'].filter(Boolean).join('; ');
    const cells = strategies.map((s) => {
      const c = s.custom?.[name];
      if (!c) return `${s.strategy} ${NA}`;
      const ci = s.intervals?.[`custom.${name}`];
      const errs = c.errors ? `, ${c.errors} scorer errors` : '';
      return `${s.strategy} ${c.value === null ? NA : num3(c.value, ci)} (n=${c.n}${errs})`;
    });
    lines.push(`  custom.${name} (${about}): ${cells.join(', ')}`);
  }
  return lines;
}

/** A value of unknown scale with three significant decimals, and its interval. */
function num3(x: number, ci?: ConfidenceInterval): string {
  const f = (v: number) => (Math.abs(v) >= 100 ? num(v) : v.toFixed(3));
  return ci ? `${f(x)} [${f(ci.lo)}, ${f(ci.hi)}]` : f(x);
}

/**
 * How many calls came from the response cache, what the run cost now against what those calls
 * cost when they were made, and that their latency is the one recorded then. Null without a hit.
 */
export function cacheLine(strategies: readonly StrategySummary[], meta: ReportMeta): string | null {
  const hit = strategies.filter((s) => s.cache);
  if (hit.length === 0) return null;
  const cached = hit.reduce((n, s) => n + s.cache!.calls, 0);
  const calls = strategies.reduce((n, s) => n + Math.round(s.callsPerQuestion * s.records), 0);
  const now = strategies.reduce((n, s) => n + s.totalCost, 0);
  const then = hit.some((s) => s.cache!.costThen === null) ? null : hit.reduce((n, s) => n + s.cache!.costThen!, 0);
  const latency = hit.reduce((n, s) => n + s.cache!.latencyPerCallMs * s.cache!.calls, 0) / cached;
  const cost = meta.priced && then !== null ? `; this run cost ${usd(now, true)} now, the cached calls cost ${usd(then, true)} when they were made` : '; unpriced';
  return `cache: ${num(cached)} of ${num(calls)} chat calls answered from the response cache${cost}; their latency is the one recorded then (${num(Math.round(latency))} ms a call), not measured now`;
}

/** Where the prices came from: the shipped table's date and the models the config priced itself. */
export function pricesSource(meta: ReportMeta): string {
  const asOf = meta.pricesAsOf ? ` as of ${meta.pricesAsOf}` : '';
  const user = meta.userPrices?.length ? ` + the config's prices: for ${meta.userPrices.join(', ')}` : '';
  return `configs/prices.yaml${asOf}${user}`;
}

/** Byte-identical documents found at ingestion, and what the run did with them (corpus.duplicates). */
export function duplicatesLine(meta: ReportMeta): string | null {
  const d = meta.duplicateDocuments;
  if (!d?.groups.length) return null;
  const names = d.groups.map((g) => g.join(' = ')).join('; ');
  return `duplicates: ${d.groups.length} group(s) of byte-identical documents, ${d.merged ? 'merged into the first of each (corpus.duplicates: merge)' : 'each copy kept as its own document (corpus.duplicates: keep)'}: ${names}`;
}

/** Documents ingestion left out (corpus.strict: false), each with its reason. */
export function skippedLine(meta: ReportMeta): string | null {
  const s = meta.skippedDocuments;
  if (!s?.length) return null;
  return `skipped: ${s.length} unreadable document(s) left out of the corpus (their questions dropped): ${s.map((d) => `${d.file} (${d.reason})`).join('; ')}`;
}

/** The rate-limit pacing of the run's chat (and embedding) requests: refusals (429) and the time requests were held. */
export function pacingLine(meta: ReportMeta): string | null {
  const figures = (p: NonNullable<ReportMeta['pacing']>): string => {
    const share = p.requests ? ` (${((p.refused / p.requests) * 100).toFixed(1)}%)` : '';
    return `${num(p.requests)} requests, ${num(p.refused)} refused with 429${share}; ${num(p.held)} held under the server's rate limits, ${(p.waitedMs / 1000).toFixed(1)} s waiting in all (not in latency)`;
  };
  const parts = [meta.pacing ? figures(meta.pacing) : null, meta.embeddingPacing ? `embeddings: ${figures(meta.embeddingPacing)}` : null].filter((x) => x !== null);
  return parts.length ? `pacing: ${parts.join('; ')}` : null;
}
