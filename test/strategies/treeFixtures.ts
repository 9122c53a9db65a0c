// Shared fixtures for the tree-search strategy tests: a small manual-like outline, a script
// builder keyed by task, and a seeded budget generator for the "no budget is ever exceeded" checks.
import type { Budget, DocTree } from '../../harness/types.ts';
import { seededRandom } from '../../harness/run/context.ts';
import type { PromptPayload } from '../../strategies/prompts.ts';
import type { ChunkHit } from '../../strategies/types.ts';
import { node } from '../helpers/scriptedContext.ts';

/**
 * manual
 * ├─ a Getting started: a1 Unboxing, a2 Charging
 * ├─ b Settings: b1 Display (b1x Brightness, b1y Font size), b2 Security (b2x Lock screen, b2y Location), b3 Sound
 * ├─ c Camera: c1 Photos, c2 Video
 * ├─ d Battery: d1 Power saving
 * └─ e Apps: e1 Store
 */
export function manual(docId = 'manual'): DocTree {
  return {
    docId,
    title: 'Phone manual',
    description: 'A phone user manual.',
    nodes: [
      node('a', 'Getting started', [node('a1', 'Unboxing'), node('a2', 'Charging')]),
      node('b', 'Settings', [
        node('b1', 'Display', [node('b1x', 'Brightness'), node('b1y', 'Font size')]),
        node('b2', 'Security', [node('b2x', 'Lock screen'), node('b2y', 'Location')]),
        node('b3', 'Sound'),
      ]),
      node('c', 'Camera', [node('c1', 'Photos'), node('c2', 'Video')]),
      node('d', 'Battery', [node('d1', 'Power saving')]),
      node('e', 'Apps', [node('e1', 'Store')]),
    ],
  };
}

/** A document whose top level is `n` leaves. */
export function flat(n: number, docId = 'flat'): DocTree {
  return { docId, title: 'Flat notes', nodes: Array.from({ length: n }, (_, i) => node(`n${i + 1}`, `Note ${i + 1}`)) };
}

export const hit = (docId: string, nodeId: string, score: number, chunkId = 0): ChunkHit => ({ docId, nodeId, chunkId, text: `${nodeId} chunk`, score });

export const ANSWER = { answer: 'the answer', choice: null };

export interface TaskHandlers {
  choose?: (p: Extract<PromptPayload, { task: 'choose-children' }>, attempt: number) => object | string;
  estimate?: (p: Extract<PromptPayload, { task: 'estimate-values' }>, attempt: number) => object | string;
  reward?: (p: Extract<PromptPayload, { task: 'reward' }>, attempt: number) => object | string;
}

/** A script dispatching on the payload's task; `attempt` is 0 for the first ask, 1 for the retry. */
export function byTask(h: TaskHandlers) {
  return (payload: PromptPayload | null, messages: Array<{ role: string }>): object | string => {
    const attempt = messages.filter((m) => m.role === 'assistant').length;
    if (!payload) return 'no payload';
    switch (payload.task) {
      case 'choose-children':
        return h.choose ? h.choose(payload, attempt) : { thinking: 'none fit', choices: ['NONE'] };
      case 'estimate-values':
        return h.estimate ? h.estimate(payload, attempt) : { values: Object.fromEntries(payload.children.map((c) => [c.node_id, 0.5])) };
      case 'reward':
        return h.reward ? h.reward(payload, attempt) : { reward: 0.5 };
      case 'answer':
        return ANSWER;
      default:
        return 'unexpected task';
    }
  };
}

/** Random budgets in the ranges the issue names, reproducible from `seed`. */
export function randomBudgets(count: number, seed: number): Budget[] {
  const rnd = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  return Array.from({ length: count }, () => {
    const b: Budget = {};
    // Each budget is capped in about two runs out of three, so they also combine.
    if (rnd() < 0.7) b.calls = int(1, 10);
    if (rnd() < 0.7) b.nodesVisited = int(1, 10);
    if (rnd() < 0.7) b.nodesOpened = int(1, 5);
    if (rnd() < 0.7) b.evidenceTokens = int(5, 200);
    if (rnd() < 0.5) b.tokens = int(150, 4000);
    return b;
  });
}

/** Lists every budget whose usage is above its limit (empty when all are respected). */
export function overruns(limits: Budget, used: Record<string, number>): string[] {
  return Object.entries(limits)
    .filter(([name, limit]) => name !== 'timeMs' && limit !== undefined && (used[name] ?? 0) > limit)
    .map(([name, limit]) => `${name}: used ${used[name]} > ${limit}`);
}
