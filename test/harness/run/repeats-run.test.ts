// `--repeats`: independent model calls per repeat (the provider sees the attempt number), mean
// and spread across repeats, and the questions whose correctness flips.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../harness/config/runConfig.ts';
import { runBenchmark } from '../../../harness/run/runner.ts';
import { createProvider } from '../../../harness/models/providers/registry.ts';
import { loadBenchmarkData } from '../../../datasets/registry.ts';
import type { ChatProvider } from '../../../harness/types.ts';
import type { RunSummary } from '../../../harness/summary/summary.ts';
import { tempDir } from '../analysis/compare/runFixtures.ts';

describe('repeats on a real run', () => {
  it('summary.json has per-repeat accuracy, its spread and the flaky questions', async () => {
    const loaded = loadConfig(new URL('../../../configs/quickstart.yaml', import.meta.url).pathname);
    const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
    const offline = createProvider({ provider: 'offline' });
    const attempts = new Set<number>();
    // A model that forgets every answer on odd repeats: the answers that were right flip.
    const moody: ChatProvider = {
      id: offline.id,
      offline: true,
      async chat(messages, opts) {
        attempts.add(opts.attempt ?? -1);
        const isAnswer = messages.some((m) => m.content.includes('Task: answer'));
        if (isAnswer && (opts.attempt ?? 0) % 2 === 1) return { text: JSON.stringify({ answer: 'I cannot tell.' }), model: offline.id };
        return offline.chat(messages, opts);
      },
    };
    const out = tempDir();
    const outcome = await runBenchmark({ loaded, data, provider: moody, only: ['vector'], limit: 40, repeats: 3, outDir: out, runId: 'r' });
    expect([...attempts].sort()).toEqual([0, 1, 2]);
    const summary = JSON.parse(readFileSync(join(outcome.dir, 'summary.json'), 'utf8')) as RunSummary;
    const s = summary.strategies[0]!;
    const stats = s.repeatStats!;
    expect(stats.repeats).toBe(3);
    const [r0, r1, r2] = stats.perRepeat;
    expect(r1!.accuracy).toBe(0);
    expect(r2!.accuracy).toBe(r0!.accuracy);
    expect(r0!.accuracy).toBeGreaterThan(0);
    expect(stats.accuracy.mean).toBeCloseTo((2 * r0!.accuracy) / 3, 12);
    expect(stats.accuracy.sd).toBeGreaterThan(0);
    // Every question right in repeats 0 and 2 is wrong in repeat 1: exactly those are flaky.
    const rightFirst = outcome.records.filter((r) => r.repeat === 0 && r.scores?.correct === 1).map((r) => r.questionId);
    expect(stats.flaky.map((f) => f.questionId).sort()).toEqual(rightFirst.sort());
    expect(stats.flaky.every((f) => f.correct === 2 && f.repeats === 3)).toBe(true);
    expect(summary.ci!.method).toMatch(/cluster/);
  });
});
