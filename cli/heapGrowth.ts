// Two V8 garbage-collector settings that keep a run's memory near what it holds alive.
//
// A run keeps little alive (the corpus, its index, the tokenizer and one summary row per record:
// about 40–60 MB), but every call's request, reply and record live for the 100 ms or more they
// wait on the model. By default V8 (1) doubles the young generation up to 2 × 16 MB whenever
// much of it survives a scavenge, which these waiting objects always do, and (2) lets the old
// generation grow to as much as 4× its live size before collecting it in full. A 2,000-call run
// at concurrency 64 then peaked at 236–245 MB RSS. With the young generation kept at its
// starting size and the old generation collected at 1.5× its live size it peaks at 157–169 MB
// (`npm run bench:http`), for about 0.2 ms more CPU per call; PDF extraction and index building
// take the same time. Both flags are read as the heap grows, so setting them at start works.
// The `treebench` command sets them once; a flag the user set (node flag or NODE_OPTIONS) stays.
import { setFlagsFromString } from 'node:v8';

/** [flag name, value] pairs set at start. */
export const HEAP_FLAGS: ReadonlyArray<readonly [string, number]> = [
  // The old generation is collected in full at (1 + this / 100) × its live size.
  ['heap-growing-percent', 50],
  // The young generation does not grow past its starting size.
  ['semi-space-growth-factor', 1],
];

/** The flags of HEAP_FLAGS to set: those the process was not started with (node flag or NODE_OPTIONS). */
export function heapFlagsToSet(execArgv: readonly string[], nodeOptions: string): string[] {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')[0]!.replace(/_/g, '-')));
  return HEAP_FLAGS.filter(([name]) => !given.has(name)).map(([name, value]) => `--${name}=${value}`);
}

/** Sets the flags heapFlagsToSet names for this process; returns them. */
export function limitHeapGrowth(): string[] {
  const flags = heapFlagsToSet(process.execArgv, process.env.NODE_OPTIONS ?? '');
  for (const flag of flags) setFlagsFromString(flag);
  return flags;
}
