// The strategy registry: a table of strategies by name, which configs and the runner look names
// up in. The harness ships it empty: whoever assembles a program (the CLI, the package's library
// face, a test) registers the strategies it offers — the built-ins with
// `registerBuiltinStrategies()` (strategies/registry.ts) — so the engine never imports a strategy.
import type { Strategy } from './strategy.ts';

// Each entry keeps its own params type; the table erases it at the boundary, where configs are
// validated against the entry's own schema before `run` sees them.
const STRATEGIES: Strategy<any>[] = [];

/** Adds a strategy. A name already taken is an error, not a silent override. */
export function registerStrategy(strategy: Strategy<any>): void {
  if (STRATEGIES.some((s) => s.name === strategy.name)) throw new Error(`strategy "${strategy.name}" is already registered`);
  STRATEGIES.push(strategy);
}

/** Whether a strategy of this name is registered. */
export function hasStrategy(name: string): boolean {
  return STRATEGIES.some((s) => s.name === name);
}

export function listStrategies(): Strategy[] {
  return STRATEGIES;
}

export function getStrategy(name: string): Strategy {
  const found = STRATEGIES.find((s) => s.name === name);
  if (!found) {
    const known = STRATEGIES.length ? STRATEGIES.map((s) => s.name).join(', ') : 'none registered (the program did not call registerBuiltinStrategies())';
    throw new Error(`unknown strategy "${name}"; known strategies: ${known}`);
  }
  return found;
}
