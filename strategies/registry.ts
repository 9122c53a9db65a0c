// The built-in strategies, one module each. Adding one is an import and an entry in BUILTIN_STRATEGIES.
// They reach the engine through its registry (harness/strategy/registry.ts), which the program's
// entry point fills by calling registerBuiltinStrategies().
import type { Strategy } from './types.ts';
import { hasStrategy, registerStrategy } from '../harness/strategy/registry.ts';
import { vectorStrategy } from './vector.ts';
import { nodeListStrategy } from './node-list.ts';
import { layerwiseStrategy } from './layerwise.ts';
import { mctsStrategy } from './mcts.ts';
import { hybridBeamStrategy } from './hybrid-beam.ts';
import { agentStrategy } from './agent.ts';

export { getStrategy, listStrategies, registerStrategy } from '../harness/strategy/registry.ts';

export const BUILTIN_STRATEGIES: readonly Strategy<any>[] = [vectorStrategy, nodeListStrategy, layerwiseStrategy, hybridBeamStrategy, mctsStrategy, agentStrategy];

/** Registers the six built-ins, in this order, once (calling it again is harmless). */
export function registerBuiltinStrategies(): void {
  for (const s of BUILTIN_STRATEGIES) if (!hasStrategy(s.name)) registerStrategy(s);
}
