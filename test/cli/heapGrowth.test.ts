import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALL_PHASE_YOUNG_BYTES, HEAP_FLAGS, heapFlagsToSet, limitHeapForModelCalls } from '../../cli/heapGrowth.ts';

describe('heap flags of the treebench command', () => {
  it('sets each flag unless node was started with it (- or _ spelling)', () => {
    const all = HEAP_FLAGS.map(([name, value]) => `--${name}=${value}`);
    expect(heapFlagsToSet([])).toEqual(all);
    expect(heapFlagsToSet(['--heap-growing-percent=80'])).toEqual(all.filter((f) => !f.startsWith('--heap-growing-percent')));
    expect(heapFlagsToSet(['--max-old-space-size=4096', '--semi_space_growth_factor=2'])).toEqual(all.filter((f) => !f.startsWith('--semi-space-growth-factor')));
    // A flag that merely starts the same is not the same flag.
    expect(heapFlagsToSet(['--heap-growing-percentage=3'])).toEqual(all);
  });

  it('leaves a process that only calls the CLI in-process (this test) alone', () => {
    expect(limitHeapForModelCalls({ model: { provider: 'openai' }, scoring: {} })).toEqual([]);
  });

  it('keeps the young generation at its starting size in the command until the calls start, then at 2 × 8 MB (one step, never two), for runs that call a model over the network only', () => {
    // A child process allocates 400,000 objects that stay alive through many scavenges (as a
    // run's waiting calls do) and reports how large V8 let the young generation grow; then the
    // calls start (the run's first progress) and it does the same again, yielding to the event
    // loop now and then as a run does.
    const dir = mkdtempSync(join(tmpdir(), 'treebench-heap-'));
    const probe = join(dir, 'probe.mts');
    writeFileSync(
      probe,
      `import { getHeapSpaceStatistics } from 'node:v8';
import { limitHeapForModelCalls, markCommandProcess, widenWhenCallsStart } from ${JSON.stringify(resolve('cli/heapGrowth.ts'))};
const [command, provider, calls] = process.argv.slice(2);
if (command === 'command') markCommandProcess();
const set = limitHeapForModelCalls({ model: { provider: provider! }, scoring: {} });
const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size / 2 ** 20;
const alive: object[] = [];
for (let i = 0; i < 400_000; i++) alive.push({ i, s: 'x'.repeat(i % 50) + i });
const youngMb = young();
const progress = widenWhenCallsStart<{ phase: string }>();
progress({ phase: 'index' });
progress({ phase: 'run' });
const later: object[] = [];
for (let i = 0; i < 700_000; i++) {
  later.push({ i, s: 'y'.repeat(i % 50) + i });
  if (later.length > 200_000) later.splice(0, 100_000);
  // 'busy': the first 300,000 without a turn of the event loop, as a run's first calls are made.
  if (i % 5_000 === 0 && (calls !== 'busy' || i >= 300_000)) await new Promise((r) => setImmediate(r));
}
process.stdout.write(JSON.stringify({ youngMb, callsYoungMb: young(), set, alive: alive.length + later.length }));
`,
    );
    const probeRun = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      JSON.parse(execFileSync(process.execPath, ['bin/run-ts.mjs', probe, ...args], { encoding: 'utf8', env: { ...process.env, ...env } })) as { youngMb: number; callsYoungMb: number; set: string[] };
    // Exactly one step, also when the calls keep the event loop busy for a while at first.
    for (const calls of ['yielding', 'busy']) {
      const tuned = probeRun(['command', 'openai', calls]);
      expect(tuned.set).toEqual(heapFlagsToSet([]));
      expect(tuned.youngMb).toBeLessThanOrEqual(4);
      expect(tuned.callsYoungMb, calls).toBe(CALL_PHASE_YOUNG_BYTES / 2 ** 20);
    }
    // Counter-examples: V8's defaults let it grow to 2 × 16 MB.
    const untuned: Array<[string[], NodeJS.ProcessEnv]> = [
      [['command', 'offline'], {}],
      [['in-process', 'openai'], {}],
      [['command', 'openai'], { TREEBENCH_HEAP_FLAGS: 'off' }],
    ];
    for (const [args, env] of untuned) {
      const free = probeRun(args, env);
      expect(free.set).toEqual([]);
      expect(free.youngMb).toBeGreaterThanOrEqual(8);
      // Left to V8 while the calls run too: it grows to its own cap, past 2 × 8 MB.
      expect(free.callsYoungMb).toBeGreaterThan(CALL_PHASE_YOUNG_BYTES / 2 ** 20);
    }
  }, 180_000);
});
