// The strategy contract as the built-ins use it: harness/strategy/strategy.ts and the context
// harness/strategy/context.ts, re-exported in one place.
export type { Strategy } from '../harness/strategy/strategy.ts';
export type { ChunkHit, StrategyContext, ValueSearchOptions } from '../harness/strategy/context.ts';
