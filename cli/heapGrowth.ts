// A V8 garbage-collector setting that keeps a run's memory near what it holds alive, for runs
// whose calls wait on a model over the network.
//
// Such a run keeps little alive (the corpus, its index, the tokenizer; at most 10,000 small summary
// rows, see harness/run/runner.ts), but every call's request, reply and record live for the 100 ms
// or more they wait on the model, long enough to be promoted to the old generation, which V8 by
// default lets grow to as much as 4× its live size before collecting it in full. So the old
// generation is collected at 1.5× its live size (`--heap-growing-percent=50`): a 2,000-call
// vector run at concurrency 64 peaks at ~172 MB RSS instead of 217–230 MB (`npm run
// bench:process` and `bench:http` measure it). The young generation is left to V8: capping it
// at 2 × 8 MB saved nothing measurable (node-list at c=64 with 4,000
// calls: 191–198 MB held, 188–194 MB free) and cost 0.2–0.6 ms of CPU per call in scavenges.
// The flag is read each time the heap's next limit is set, so setting it after start works:
// `run` sets it as its calls start (cli/handlers/run.ts). Before then (modules, the data, the
// index) V8's defaults apply, as for an offline run: set before the data loaded, it cost a full
// collection more before the first request (~10 ms), for no lower peak (both 164–170 MB).
//
// Runs on the offline reasoner wait on nothing: they are bound by CPU and keep V8's defaults.
// Only the `treebench` command's own process is tuned (bin/treebench.mjs says so), never a
// program or test that calls the CLI in-process; a node flag of the user's (`node
// --heap-growing-percent=… treebench …`) is left alone, and TREEBENCH_HEAP_FLAGS=off keeps V8's
// defaults. (NODE_OPTIONS cannot carry this V8 flag.)
import { setFlagsFromString } from 'node:v8';

/** [flag name, value] pairs. */
export const HEAP_FLAGS: ReadonlyArray<readonly [string, number]> = [
  // The old generation is collected in full at (1 + this / 100) × its live size.
  ['heap-growing-percent', 50],
];

/** The flags of HEAP_FLAGS to set: those the process was not started with. */
export function heapFlagsToSet(execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')[0]!.replace(/_/g, '-')));
  return HEAP_FLAGS.filter(([name]) => !given.has(name)).map(([name, value]) => `--${name}=${value}`);
}

/** Sets the flags heapFlagsToSet names for this process (unless TREEBENCH_HEAP_FLAGS=off); returns them. */
export function limitHeapGrowth(): string[] {
  if (process.env.TREEBENCH_HEAP_FLAGS === 'off') return [];
  const flags = heapFlagsToSet(process.execArgv);
  for (const flag of flags) setFlagsFromString(flag);
  return flags;
}

let commandProcess = false;

/** Called by bin/treebench.mjs: this process is the `treebench` command, its heap its own to tune. */
export function markCommandProcess(): void {
  commandProcess = true;
}

/** The providers of a config that may call a model: the model's and the judge's. */
interface ModelCallers {
  model: { provider: string };
  scoring: { judge?: { provider: string } | undefined };
}

/**
 * As a run's calls start (or before tuning loads its data): the heap flags, in the command's own
 * process, when the model or the judge is called over the network (not the offline reasoner).
 * Returns the flags set.
 */
export function limitHeapForModelCalls(config: ModelCallers): string[] {
  const providers = [config.model.provider, config.scoring.judge?.provider];
  if (!commandProcess || providers.every((p) => p === undefined || p === 'offline')) return [];
  return limitHeapGrowth();
}
