// Successive halving (Jamieson & Talwalkar 2016; the rung schedule of Hyperband's inner loop):
//
//   1. Order the questions once so that every prefix is a stratified sample (by tag set, else
//      by document, see stratifiedOrder); rung k evaluates the first n_k questions, n_k growing
//      by a factor eta up to all N questions, the first rung at least `minQuestions`.
//   2. Rung 1 runs every variant on its sample. After each rung, variants over the cost cap are
//      dropped, and of the rest the best ceil(|S| / eta) by the objective survive (ties: the
//      cheaper, then the earlier in the config). The survivors run only the questions they have
//      not run yet: samples are nested, so earlier answers are reused, never paid again.
//   3. The last rung runs the survivors on all N questions.
//
// The number of rungs is the smaller of what the variants need (1 + floor(log_eta V): enough
// halvings to get down to a few) and what the data allows (1 + floor(log_eta(N / minQuestions))).
// The evaluator is a function, so the CLI plugs in the real runner and tests plug in the same
// runner with a scripted model.
import { hashSeed, mulberry32 } from '../../run/random.ts';
import type { Question, RunRecord } from '../../types.ts';
import { perQuestion } from '../compare/paired.ts';
import { objectiveMetric, type Objective } from './recommend.ts';

export interface TuneOptions {
  objective: Objective;
  eta: number;
  minQuestions: number;
  /** Drop variants whose measured $/question exceeds this. */
  maxCostPerQuestion?: number;
  /** Whether costs are real (priced model); ties and the cost cap need it. */
  priced: boolean;
  seed: number;
}

/** Runs `variants` on `questions` (all new to them) and returns the records. */
export type Evaluate = (variants: string[], questions: Question[], rung: number) => Promise<RunRecord[]>;

export interface Spend {
  /** Chat calls that reached the model (cache hits excluded). */
  calls: number;
  tokens: number;
  dollars: number;
}

export interface RungVariant {
  id: string;
  n: number;
  objective: number;
  costPerQuestion: number;
  callsPerQuestion: number;
  kept: boolean;
  /** Why it was dropped here. */
  reason?: string;
}

export interface Rung {
  rung: number;
  /** Questions in this rung's sample. */
  questions: number;
  /** Questions run at this rung (new to the survivors). */
  newQuestions: number;
  variants: RungVariant[];
  spent: Spend;
}

export interface TuneResult {
  objective: Objective;
  eta: number;
  plan: number[];
  rungs: Rung[];
  dropped: Array<{ id: string; rung: number; reason: string }>;
  survivors: string[];
  /** Every record made, by variant. */
  records: Map<string, RunRecord[]>;
  spent: Spend;
  /** What running every variant on every question would have cost, from each variant's measured per-question means. */
  fullGrid: Spend & { estimated: boolean };
  /** The stratified question order (ids); rung k used its first plan[k] entries. */
  order: string[];
}

/** Rung sample sizes: growing by eta, the last one N. */
export function planRungs(variants: number, total: number, eta: number, minQuestions: number): number[] {
  if (total <= 0) return [];
  const log = (x: number) => Math.floor(Math.log(x) / Math.log(eta) + 1e-9);
  const needed = variants <= 1 ? 1 : 1 + Math.ceil(Math.log(variants) / Math.log(eta) - 1e-9);
  const allowed = total <= minQuestions ? 1 : 1 + log(total / minQuestions);
  const rungs = Math.max(1, Math.min(needed, allowed));
  const sizes: number[] = [];
  for (let k = 0; k < rungs; k++) sizes.push(k === rungs - 1 ? total : Math.min(total, Math.max(minQuestions, Math.ceil(total / eta ** (rungs - 1 - k)))));
  return sizes.filter((s, i) => i === 0 || s > sizes[i - 1]);
}

/** The stratum of a question: its tag set, else its documents, else one stratum for all. */
export function stratumOf(q: Question): string {
  if (q.tags?.length) return `tags:${[...q.tags].sort().join('+')}`;
  if (q.docIds?.length) return `docs:${[...q.docIds].sort().join('+')}`;
  return 'all';
}

/**
 * The questions in an order whose every prefix is stratified: inside a stratum the order is a
 * seeded shuffle; the j-th of a stratum of m sits at (j + u) / m on a common scale (u a seeded
 * offset in [0, 1)), and the strata are merged along that scale. Any prefix of length n then holds
 * each stratum in proportion to its size, give or take one question.
 */
export function stratifiedOrder(questions: readonly Question[], seed: number): Question[] {
  const strata = new Map<string, Question[]>();
  for (const q of questions) strata.set(stratumOf(q), [...(strata.get(stratumOf(q)) ?? []), q]);
  const keyed: Array<{ q: Question; at: number; tie: number }> = [];
  for (const [name, qs] of strata) {
    const rand = mulberry32(hashSeed(seed, 'stratum', name));
    const shuffled = [...qs];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    const u = rand();
    shuffled.forEach((q, j) => keyed.push({ q, at: (j + u) / shuffled.length, tie: rand() }));
  }
  return keyed.sort((a, b) => a.at - b.at || a.tie - b.tie).map((k) => k.q);
}

/**
 * What a set of records paid: chat calls that were not cache hits, their chat tokens, and the
 * dollars of every call that was not a cache hit (chat and embedding). Tokens are chat tokens,
 * as the full-grid figure and every report count them (embedding tokens are priced apart).
 */
export function spendOf(records: readonly RunRecord[]): Spend {
  const s: Spend = { calls: 0, tokens: 0, dollars: 0 };
  for (const r of records) {
    for (const c of r.callLog ?? []) {
      if (c.cached) continue;
      if (c.kind === 'chat') {
        s.calls += 1;
        s.tokens += c.inputTokens + c.outputTokens;
      }
      s.dollars += c.costUsd ?? 0;
    }
  }
  return s;
}

const addSpend = (a: Spend, b: Spend): Spend => ({ calls: a.calls + b.calls, tokens: a.tokens + b.tokens, dollars: a.dollars + b.dollars });

function fmtObjective(objective: Objective, x: number): string {
  return objective === 'f1' ? x.toFixed(3) : `${(x * 100).toFixed(1)}%`;
}

export async function successiveHalving(variants: readonly string[], questions: readonly Question[], evaluate: Evaluate, opts: TuneOptions): Promise<TuneResult> {
  if (!(opts.eta >= 2)) throw new RangeError(`eta must be at least 2 (got ${opts.eta})`);
  const order = stratifiedOrder(questions, opts.seed);
  const plan = planRungs(variants.length, order.length, opts.eta, opts.minQuestions);
  const records = new Map<string, RunRecord[]>(variants.map((v) => [v, []]));
  const rungs: Rung[] = [];
  const dropped: TuneResult['dropped'] = [];
  let alive = [...variants];
  let spent: Spend = { calls: 0, tokens: 0, dollars: 0 };
  let done = 0; // questions already run by every survivor
  const position = new Map(variants.map((v, i) => [v, i]));

  for (let k = 0; k < plan.length && alive.length > 0; k++) {
    const size = plan[k];
    const fresh = order.slice(done, size);
    const made = fresh.length ? await evaluate(alive, fresh, k + 1) : [];
    for (const r of made) records.get(r.strategy)?.push(r);
    const rungSpend = spendOf(made);
    spent = addSpend(spent, rungSpend);
    done = size;

    const all = [...records.values()].flat();
    const metric = objectiveMetric(opts.objective, all);
    const stats = alive.map((id) => {
      const rs = records.get(id)!;
      const pq = perQuestion(rs, metric);
      const objective = pq.size ? [...pq.values()].reduce((s, v) => s + v, 0) / pq.size : -Infinity;
      const per = (f: (r: RunRecord) => number) => (rs.length ? rs.reduce((s, r) => s + f(r), 0) / rs.length : 0);
      return { id, n: pq.size, objective, costPerQuestion: per((r) => r.costUsd ?? 0), callsPerQuestion: per((r) => r.calls) };
    });
    const last = k === plan.length - 1;
    const reasons = new Map<string, string>();
    if (opts.maxCostPerQuestion !== undefined) {
      for (const s of stats) {
        if (s.costPerQuestion > opts.maxCostPerQuestion) {
          reasons.set(s.id, `rung ${k + 1} (${size} questions): $${s.costPerQuestion.toPrecision(3)}/question is over --max-cost-per-question $${opts.maxCostPerQuestion}`);
        }
      }
    }
    const affordable = stats.filter((s) => !reasons.has(s.id));
    const cost = (s: (typeof stats)[number]) => (opts.priced ? s.costPerQuestion : s.callsPerQuestion);
    const ranked = [...affordable].sort((a, b) => b.objective - a.objective || cost(a) - cost(b) || position.get(a.id)! - position.get(b.id)!);
    const keep = last ? ranked.length : Math.max(1, Math.ceil(stats.length / opts.eta));
    const kept = ranked.slice(0, keep);
    if (!last) {
      const cutoff = kept.at(-1);
      ranked.slice(keep).forEach((s, i) => {
        reasons.set(
          s.id,
          `rung ${k + 1} (${size} questions): ${opts.objective} ${fmtObjective(opts.objective, s.objective)} ranked ${keep + i + 1} of ${ranked.length}; kept the top ${keep} (cutoff ${cutoff ? fmtObjective(opts.objective, cutoff.objective) : '–'})` +
            (cutoff && s.objective === cutoff.objective
              ? cost(s) > cost(cutoff)
                ? `; tied with the cutoff, dropped as the costlier (${opts.priced ? '$' : 'calls'}/question)`
                : '; tied with the cutoff at equal cost, dropped as later in the config'
              : ''),
        );
      });
    }
    for (const [id, reason] of reasons) dropped.push({ id, rung: k + 1, reason });
    rungs.push({
      rung: k + 1,
      questions: size,
      newQuestions: fresh.length,
      variants: stats.map((s) => ({ ...s, kept: !reasons.has(s.id), ...(reasons.has(s.id) ? { reason: reasons.get(s.id)! } : {}) })),
      spent: rungSpend,
    });
    alive = kept.map((s) => s.id).sort((a, b) => position.get(a)! - position.get(b)!);
    // A single survivor goes straight to the full set: nothing is left to compare it with.
    if (alive.length === 1 && k < plan.length - 2) plan.splice(k + 1, plan.length - k - 2);
  }

  // The full grid: every variant on every question, from the per-question means each measured
  // (cache hits included: a run without this tune's sharing pays them).
  const N = order.length;
  const fullGrid = { calls: 0, tokens: 0, dollars: 0, estimated: false };
  for (const rs of records.values()) {
    if (rs.length === 0) continue;
    const scale = N / new Set(rs.map((r) => r.questionId)).size;
    if (scale !== 1) fullGrid.estimated = true;
    fullGrid.calls += rs.reduce((s, r) => s + r.calls, 0) * scale;
    fullGrid.tokens += rs.reduce((s, r) => s + r.inputTokens + r.outputTokens, 0) * scale;
    fullGrid.dollars += rs.reduce((s, r) => s + (r.costUsd ?? 0), 0) * scale;
  }
  return { objective: opts.objective, eta: opts.eta, plan, rungs, dropped, survivors: alive, records, spent, fullGrid, order: order.map((q) => q.id) };
}
