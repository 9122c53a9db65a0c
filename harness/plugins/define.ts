// `defineStrategy`: how a user's module becomes a treebench strategy plugin. The module's
// default export is what these return; treebench loads it by path (harness/plugins/load.ts) and
// checks the brand, so a default export made some other way gets a clear error, not a crash later.
// The brand is a registered symbol, so a plugin built against another copy of the package (a
// monorepo, a global install) is still recognised.
import type { z } from 'zod';
import type { StrategyContext } from '../strategy/context.ts';
import type { StrategyRequest, StrategyResponse } from './protocol.ts';

export const PLUGIN_BRAND: unique symbol = Symbol.for('treebench.plugin') as never;

/** What `run` of an in-process strategy gets: the protocol request, its params parsed by the schema. */
export type PluginRequest<P> = Omit<StrategyRequest, 'params'> & { params: P };

export interface StrategyPluginDefinition<P> {
  /** Shown by `treebench strategies` and in error messages (records use the entry's `id`). */
  name: string;
  description?: string;
  /** zod schema of the params (`import { z } from 'treebench'`), with defaults; configs are validated against it. */
  params?: z.ZodType<P>;
  /**
   * Answers one question. `ctx` is the context the built-ins get: metered chat and embed, value
   * search over the run's chunk index, the documents' trees and node text, the budget. Return
   * the protocol response: the answer and the evidence, best first.
   */
  run(request: PluginRequest<P>, ctx: StrategyContext): Promise<StrategyResponse> | StrategyResponse;
}

export interface StrategyPlugin<P = Record<string, unknown>> extends StrategyPluginDefinition<P> {
  readonly [PLUGIN_BRAND]: 'strategy';
}

/** Makes a strategy plugin: `export default defineStrategy({ name, params, run })`. */
export function defineStrategy<P = Record<string, unknown>>(definition: StrategyPluginDefinition<P>): StrategyPlugin<P> {
  if (!definition || typeof definition !== 'object') throw new TypeError('defineStrategy: expected { name, run }');
  if (typeof definition.name !== 'string' || !definition.name.trim()) throw new TypeError('defineStrategy: `name` must be a non-empty string');
  if (typeof definition.run !== 'function') throw new TypeError(`defineStrategy(${definition.name}): \`run\` must be a function (request, ctx) => response`);
  return { ...definition, [PLUGIN_BRAND]: 'strategy' };
}

export function isPlugin(value: unknown, kind: 'strategy' | 'scorer'): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PLUGIN_BRAND] === kind;
}
