import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEAP_FLAGS, heapFlagsToSet } from '../../cli/heapGrowth.ts';

describe('heap flags of the treebench command', () => {
  it('sets each flag unless the user started node with it (as a flag or in NODE_OPTIONS, - or _ spelling)', () => {
    const all = HEAP_FLAGS.map(([name, value]) => `--${name}=${value}`);
    expect(heapFlagsToSet([], '')).toEqual(all);
    expect(heapFlagsToSet(['--heap-growing-percent=80'], '')).toEqual(all.filter((f) => !f.startsWith('--heap-growing-percent')));
    expect(heapFlagsToSet([], '--max-old-space-size=4096 --semi_space_growth_factor=2')).toEqual(all.filter((f) => !f.startsWith('--semi-space-growth-factor')));
    // A flag that merely starts the same is not the same flag.
    expect(heapFlagsToSet(['--heap-growing-percentage=3'], '')).toEqual(all);
  });

  it('keeps the young generation at its starting size in a live process (set after start, as the command does)', () => {
    // A child allocates 400,000 objects that stay alive through many scavenges (as a run's
    // waiting calls do) and reports how large V8 let the young generation grow.
    const dir = mkdtempSync(join(tmpdir(), 'treebench-heap-'));
    const probe = join(dir, 'probe.mts');
    writeFileSync(
      probe,
      `import { getHeapSpaceStatistics } from 'node:v8';
import { limitHeapGrowth } from ${JSON.stringify(resolve('cli/heapGrowth.ts'))};
if (process.argv[2] === 'limit') limitHeapGrowth();
const alive: object[] = [];
for (let i = 0; i < 400_000; i++) alive.push({ i, s: 'x'.repeat(i % 50) + i });
const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;
process.stdout.write(String(young / 2 ** 20) + ' ' + alive.length);
`,
    );
    const youngMb = (arg: string) => Number(execFileSync(process.execPath, ['bin/run-ts.mjs', probe, arg], { encoding: 'utf8' }).split(' ')[0]);
    const free = youngMb('default');
    const limited = youngMb('limit');
    expect(free).toBeGreaterThanOrEqual(8);
    expect(limited).toBeLessThanOrEqual(4);
  });
});
