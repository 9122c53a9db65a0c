// Per-question budgets (DESIGN.md, "Budgets"). The context asks the tracker before every model
// call and every node visit; a refused step throws BudgetExhaustedError, the strategy returns
// what it has, and the record names the budget that ran out.
import type { Budget, BudgetName } from '../types.ts';

export const BUDGET_NAMES: readonly BudgetName[] = [
  'calls',
  'tokens',
  'dollars',
  'timeMs',
  'nodesVisited',
  'nodesOpened',
  'evidenceTokens',
];

export class BudgetExhaustedError extends Error {
  constructor(
    readonly budget: BudgetName,
    readonly limit: number,
    readonly wanted: number,
  ) {
    super(`budget "${budget}" exhausted (limit ${limit}, would reach ${round(wanted)})`);
    this.name = 'BudgetExhaustedError';
  }
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

export function isBudgetExhausted(err: unknown): err is BudgetExhaustedError {
  return err instanceof BudgetExhaustedError;
}

export interface BudgetUsage {
  calls: number;
  tokens: number;
  dollars: number;
  nodesVisited: number;
  nodesOpened: number;
  evidenceTokens: number;
}

export class BudgetTracker {
  readonly used: BudgetUsage = { calls: 0, tokens: 0, dollars: 0, nodesVisited: 0, nodesOpened: 0, evidenceTokens: 0 };
  /** The first budget that refused a step, if any. */
  exhausted: BudgetName | null = null;
  private readonly visited = new Set<string>();
  private readonly opened = new Set<string>();
  private readonly startedAt: number;

  constructor(
    readonly limits: Budget,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedAt = now();
  }

  elapsedMs(): number {
    return this.now() - this.startedAt;
  }

  /** How much of a budget is left (Infinity when it is not capped). */
  remaining(name: BudgetName): number {
    const limit = this.limits[name];
    if (limit === undefined) return Infinity;
    const used = name === 'timeMs' ? this.elapsedMs() : this.used[name];
    return Math.max(0, limit - used);
  }

  /** Throws (and remembers) when `used + amount` would exceed the named budget. */
  private require(name: BudgetName, wanted: number): void {
    const limit = this.limits[name];
    if (limit !== undefined && wanted > limit) {
      this.exhausted ??= name;
      throw new BudgetExhaustedError(name, limit, wanted);
    }
  }

  /** Called before a model call, with the tokens and dollars the call is expected to cost at most. */
  beforeCall(estimate: { tokens: number; dollars: number }): void {
    this.require('timeMs', this.elapsedMs());
    this.require('calls', this.used.calls + 1);
    this.require('tokens', this.used.tokens + estimate.tokens);
    this.require('dollars', this.used.dollars + estimate.dollars);
  }

  /** Books a finished call with its real usage. */
  afterCall(actual: { tokens: number; dollars: number }): void {
    this.used.calls += 1;
    this.used.tokens += actual.tokens;
    this.used.dollars += actual.dollars;
  }

  /** Counts a node as visited (seen in the search). Visiting the same node twice counts once. */
  visit(docId: string, nodeId: string): void {
    const key = `${docId}\u0000${nodeId}`;
    if (this.visited.has(key)) return;
    this.require('timeMs', this.elapsedMs());
    this.require('nodesVisited', this.used.nodesVisited + 1);
    this.visited.add(key);
    this.used.nodesVisited += 1;
  }

  /** Counts a node as opened (its text read into evidence), with the evidence tokens it adds. */
  open(docId: string, nodeId: string, tokens: number): void {
    const key = `${docId}\u0000${nodeId}`;
    if (this.opened.has(key)) return;
    this.require('timeMs', this.elapsedMs());
    this.require('nodesOpened', this.used.nodesOpened + 1);
    this.require('evidenceTokens', this.used.evidenceTokens + tokens);
    this.opened.add(key);
    this.used.nodesOpened += 1;
    this.used.evidenceTokens += tokens;
  }

  /** Max output tokens a call may ask for, given the token budget left after its input. */
  maxOutputTokens(inputTokens: number, requested: number): number {
    const left = this.remaining('tokens') - inputTokens;
    return Math.max(1, Math.min(requested, Number.isFinite(left) ? Math.floor(left) : requested));
  }
}
