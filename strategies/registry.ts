// The strategy registry: one module per strategy, looked up by name. Adding a strategy is one
// import and one line here.
import type { Strategy } from './types.ts';
import { vectorStrategy } from './vector.ts';
import { nodeListStrategy } from './node-list.ts';
import { layerwiseStrategy } from './layerwise.ts';
import { mctsStrategy } from './mcts.ts';
import { hybridBeamStrategy } from './hybrid-beam.ts';
import { agentStrategy } from './agent.ts';

// Each entry keeps its own params type; the registry erases it at the boundary, where
// configs are validated against the entry's own schema before `run` sees them.
const STRATEGIES: Strategy<any>[] = [vectorStrategy, nodeListStrategy, layerwiseStrategy, hybridBeamStrategy, mctsStrategy, agentStrategy];

/** Adds a strategy (plugins, tests). A name already taken is an error, not a silent override. */
export function registerStrategy(strategy: Strategy<any>): void {
  if (STRATEGIES.some((s) => s.name === strategy.name)) throw new Error(`strategy "${strategy.name}" is already registered`);
  STRATEGIES.push(strategy);
}

export function listStrategies(): Strategy[] {
  return STRATEGIES;
}

export function getStrategy(name: string): Strategy {
  const found = STRATEGIES.find((s) => s.name === name);
  if (!found) {
    throw new Error(`unknown strategy "${name}"; known strategies: ${STRATEGIES.map((s) => s.name).join(', ')}`);
  }
  return found;
}
