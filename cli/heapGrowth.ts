// V8 garbage-collector settings that keep a run's memory near what it holds alive, for runs
// whose calls wait on a model over the network.
//
// Such a run keeps little alive (the corpus, its index, the tokenizer; at most 10,000 small summary
// rows, see harness/run/runner.ts), but every call's request, reply and record live for the 100 ms
// or more they wait on the model. By default V8 (1) doubles the young generation up to 2 × 16 MB
// whenever much of it survives a scavenge, which these waiting objects always do, and (2) lets
// the old generation grow to as much as 4× its live size before collecting it in full. A
// 2,000-call run at concurrency 64 then peaked at 236–245 MB RSS. So:
//  - the old generation is collected at 1.5× its live size (`--heap-growing-percent=50`);
//  - the young generation stays at its starting size (2 × 1 MB) while the data loads and the
//    index is built, and grows once, to 2 × 8 MB, when the calls start (widenWhenCallsStart).
//    Held at 2 × 1 MB for the calls too, it cost a quarter of the CPU in collections (c=64
//    efficiency ~0.70, `npm run bench:http`); at 2 × 8 MB most waiting objects die young.
// Both flags are read as the heap grows, so setting them after start works, provided it is
// before the data loads.
//
// Runs on the offline reasoner wait on nothing: they are bound by CPU, and there the small young
// generation costs time (quickstart 3.0–3.1 s → 3.6 s) to save memory nobody is short of
// (218 → 170 MB), so they keep V8's defaults. Only the `treebench` command's own process is
// tuned (bin/treebench.mjs says so), never a program or test that calls the CLI in-process; a
// node flag of the user's (`node --heap-growing-percent=… treebench …`) is left alone, and
// TREEBENCH_HEAP_FLAGS=off keeps V8's defaults. (NODE_OPTIONS cannot carry these V8 flags.)
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** [flag name, value] pairs. */
export const HEAP_FLAGS: ReadonlyArray<readonly [string, number]> = [
  // The old generation is collected in full at (1 + this / 100) × its live size.
  ['heap-growing-percent', 50],
  // The young generation does not grow past its starting size (until the calls start).
  ['semi-space-growth-factor', 1],
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
  youngCapped = flags.some((f) => f.startsWith('--semi-space-growth-factor='));
  return flags;
}

/** True once limitHeapGrowth has held the young generation at its starting size. */
let youngCapped = false;
/** The young generation (both semi-spaces) while calls are in flight: 2 × 8 MB. */
export const CALL_PHASE_YOUNG_BYTES = 16 * 2 ** 20;

/**
 * When the calls start: lets the young generation grow once, to CALL_PHASE_YOUNG_BYTES, and
 * holds it there. At its starting size (2 × 1 MB) a run at concurrency 64 scavenged ~165 times a
 * second, every waiting call's objects were promoted, and collections took about a quarter of
 * the process's CPU; at 2 × 8 MB most of them die young (c=64, 4,000 calls: efficiency
 * 0.72–0.81 → 0.82–0.84, RSS +10–20 MB).
 *
 * V8 grows the young generation, by the growth factor, at a scavenge after more than its size
 * has survived since it last grew; no flag sets its size once the process runs. So the factor is
 * raised (one step of 8 from the starting size) only around scavenges run here, synchronously,
 * and is back at 1 before anything else runs: the step is taken exactly once. Until the heap
 * holds enough young survivors for the step, it is tried again at each check phase (a run's
 * first calls soon fill the young generation). Raising the factor and waiting for a GC observer
 * to hear of the step grew it twice, to V8's cap of 2 × 16 MB, whenever the first calls kept the
 * event loop busy (node-list at c=64: 208–240 MB RSS, against 192–203 MB at 2 × 8 MB).
 * Does nothing unless limitHeapGrowth capped it.
 */
export function widenYoungGenerationForCalls(): void {
  if (!youngCapped) return;
  youngCapped = false;
  // One step from where it is now (2 × 1 MB, or more if it grew before the flags were set).
  const step = Math.max(1, Math.round(CALL_PHASE_YOUNG_BYTES / youngBytes()));
  if (step === 1) return;
  let tries = 0;
  const tryStep = () => {
    if (growYoungOnce(step) || ++tries >= MAX_WIDEN_TRIES) return;
    setImmediate(tryStep);
  };
  tryStep();
}

/** Check phases in which to try the step before leaving the young generation as it is. */
const MAX_WIDEN_TRIES = 50;

const youngBytes = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;

/**
 * Scavenges (at most twice: the second counts again what the first kept young) with the growth
 * factor at `step`, then sets it back to 1. Returns whether the young generation grew.
 */
function growYoungOnce(step: number): boolean {
  const before = youngBytes();
  setFlagsFromString(`--semi-space-growth-factor=${step}`);
  try {
    for (let i = 0; i < 2 && youngBytes() === before; i++) scavengeNow();
  } finally {
    setFlagsFromString('--semi-space-growth-factor=1');
  }
  return youngBytes() > before;
}

type GcFunction = (options: { type: 'minor' }) => void;
let gcFunction: GcFunction | null = null;

/**
 * One scavenge (minor collection), now. V8's `gc` function, which --expose-gc gives to contexts
 * made after it is set (as Jest does to measure heaps), taken from one such context; the
 * process's own global stays as it was.
 */
function scavengeNow(): void {
  if (!gcFunction) {
    const own = (globalThis as { gc?: GcFunction }).gc;
    if (own) gcFunction = own;
    else {
      setFlagsFromString('--expose-gc');
      gcFunction = runInNewContext('gc') as GcFunction;
    }
  }
  gcFunction({ type: 'minor' });
}

/** A run's progress callback that first widens the young generation when the calls start (phase `run`). */
export function widenWhenCallsStart<P extends { phase: string }>(next?: (p: P) => void): (p: P) => void {
  return (p) => {
    if (p.phase === 'run') widenYoungGenerationForCalls();
    next?.(p);
  };
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
 * Before a run (or tuning) loads its data: the heap flags, in the command's own process, when
 * the model or the judge is called over the network (not the offline reasoner). Returns the flags set.
 */
export function limitHeapForModelCalls(config: ModelCallers): string[] {
  const providers = [config.model.provider, config.scoring.judge?.provider];
  if (!commandProcess || providers.every((p) => p === undefined || p === 'offline')) return [];
  return limitHeapGrowth();
}
