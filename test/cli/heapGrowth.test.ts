import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEAP_FLAGS, heapFlagsToSet, limitHeapForModelCalls } from '../../cli/heapGrowth.ts';

describe('heap flags of the treebench command', () => {
  it('sets each flag unless node was started with it (- or _ spelling)', () => {
    const all = HEAP_FLAGS.map(([name, value]) => `--${name}=${value}`);
    expect(heapFlagsToSet([])).toEqual(all);
    expect(heapFlagsToSet(['--heap-growing-percent=80'])).toEqual(all.filter((f) => !f.startsWith('--heap-growing-percent')));
    expect(heapFlagsToSet(['--max-old-space-size=4096', '--heap_growing_percent=20'])).toEqual(all.filter((f) => !f.startsWith('--heap-growing-percent')));
    // A flag that merely starts the same is not the same flag.
    expect(heapFlagsToSet(['--heap-growing-percentage=3'])).toEqual(all);
  });

  it('leaves a process that only calls the CLI in-process (this test) alone', () => {
    expect(limitHeapForModelCalls({ model: { provider: 'openai' }, scoring: {} })).toEqual([]);
  });

  it('collects the old generation at 1.5× its live size in the command, for runs that call a model over the network only', () => {
    // A child process holds 200,000 objects and makes 2,000,000 more, each kept alive through
    // many scavenges (as a run's waiting calls are) and then dropped, so that they reach the
    // old generation and die there; it reports the largest the old generation grew. Alive at
    // any time: 200,000–300,000 objects, the same in every probe.
    const dir = mkdtempSync(join(tmpdir(), 'treebench-heap-'));
    const probe = join(dir, 'probe.mts');
    writeFileSync(
      probe,
      `import { getHeapSpaceStatistics } from 'node:v8';
import { limitHeapForModelCalls, markCommandProcess } from ${JSON.stringify(resolve('cli/heapGrowth.ts'))};
const [command, provider, when] = process.argv.slice(2);
if (command === 'command') markCommandProcess();
// 'late': set once what stays alive is loaded, as \`run\` sets them when its calls start.
let set = when === 'late' ? [] : limitHeapForModelCalls({ model: { provider: provider! }, scoring: {} });
const oldMb = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_size / 2 ** 20;
const alive: object[] = [];
for (let i = 0; i < 200_000; i++) alive.push({ i, s: 'x'.repeat(i % 50) + i });
if (when === 'late') set = limitHeapForModelCalls({ model: { provider: provider! }, scoring: {} });
const waiting: object[] = [];
let maxOldMb = 0;
for (let i = 0; i < 2_000_000; i++) {
  waiting.push({ i, s: 'y'.repeat(i % 50) + i });
  if (waiting.length > 100_000) waiting.splice(0, 50_000);
  if (i % 10_000 === 0) maxOldMb = Math.max(maxOldMb, oldMb());
}
process.stdout.write(JSON.stringify({ set, maxOldMb, alive: alive.length + waiting.length }));
`,
    );
    const probeRun = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      JSON.parse(execFileSync(process.execPath, ['bin/run-ts.mjs', probe, ...args], { encoding: 'utf8', env: { ...process.env, ...env } })) as { set: string[]; maxOldMb: number };
    const tuned = probeRun(['command', 'openai']);
    expect(tuned.set).toEqual(heapFlagsToSet([]));
    const late = probeRun(['command', 'openai', 'late']);
    expect(late.set).toEqual(heapFlagsToSet([]));
    // Counter-examples: V8's defaults, which let the old generation grow to as much as 4× what
    // is alive; the tuned probe's stays well under theirs (~100 MB against ~230 MB here).
    const untuned: Array<[string[], NodeJS.ProcessEnv]> = [
      [['command', 'offline'], {}],
      [['in-process', 'openai'], {}],
      [['command', 'openai'], { TREEBENCH_HEAP_FLAGS: 'off' }],
    ];
    for (const [args, env] of untuned) {
      const free = probeRun(args, env);
      expect(free.set).toEqual([]);
      expect(tuned.maxOldMb, args.join(' ')).toBeLessThan(0.6 * free.maxOldMb);
      expect(late.maxOldMb, `late; ${args.join(' ')}`).toBeLessThan(0.6 * free.maxOldMb);
    }
  }, 180_000);
});
