import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateConfig } from '../../../harness/config/runConfig.ts';
import { runOne } from '../../../harness/run/runner.ts';
import { summarize } from '../../../harness/summary/summary.ts';
import type { ModelDoor } from '../../../harness/run/context.ts';
import { registerStrategy } from '../../../strategies/registry.ts';
import type { TraceStep } from '../../../harness/types.ts';

// A strategy whose trace is scripted per question: the record must count exactly the fallbacks
// to value search, not other fallbacks (a rule-based retry) nor value-sourced opens.
const TRACES: Record<string, TraceStep[]> = {
  twice: [
    { step: 1, action: 'fallback', source: 'value', reason: 'no node chosen' },
    { step: 2, action: 'open', source: 'value', nodeId: 'a' },
    { step: 3, action: 'fallback', source: 'value', reason: 'again' },
  ],
  never: [
    { step: 1, action: 'fallback', source: 'rule', reason: 'reply unusable; kept known ids' },
    { step: 2, action: 'open', source: 'value', nodeId: 'a' },
  ],
};
registerStrategy({
  name: 'test-fallbacks',
  description: 'scripted traces',
  params: z.object({}).strict(),
  async run(q) {
    return { answer: 'x', evidence: [], trace: TRACES[q.id] };
  },
});

describe('value-search fallbacks', () => {
  it('are counted per record and summarised per strategy', async () => {
    const { strategies } = validateConfig({ name: 't', dataset: { format: 'sample' }, strategies: ['test-fallbacks'] });
    const env = { runId: 'r', corpus: { name: 'c', docs: [] }, door: {} as ModelDoor, seed: 1, scoring: { f1Threshold: 0.5, numericRelTol: 0.01 } };
    const recs = await Promise.all(
      ['twice', 'never'].map((id) => runOne({ spec: strategies[0], question: { id, question: 'q', answers: ['x'] }, repeat: 0 }, env)),
    );
    expect(recs.map((r) => r.valueFallbacks)).toEqual([2, 0]);
    expect(summarize(recs).strategies[0].valueFallbackRecords).toBe(1);
  });
});
