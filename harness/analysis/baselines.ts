// Named baselines: a copy of a finished run folder (manifest, records, summary, reports) kept
// under a name, so CI can gate a pull request against "main" without knowing run ids.
// Layout: <dir>/<name>/{manifest.json, records.jsonl, summary.json, report.*, baseline.json}.
// Copies, not links: run folders get cleaned up, CI caches move between machines.
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { writeOutputFile } from '../files/output.ts';
import { basename, join, resolve } from 'node:path';
import { UsageError } from '../errors.ts';
import { withIntervals } from '../summary/intervals.ts';
import { latestRecords } from '../run/store.ts';
import { sortLikeRun } from '../run/order.ts';
import { summarize } from '../summary/summary.ts';
import { readJson, RunStore, type RunManifest } from '../run/store.ts';
import { makeDirectory } from '../files/makeDirectory.ts';

export const DEFAULT_BASELINES_DIR = '.treebench/baselines';

export interface BaselineInfo {
  name: string;
  savedAt: string;
  /** The run folder it was copied from (as given). */
  source: string;
  runId: string;
}

export interface BaselineEntry extends BaselineInfo {
  dir: string;
  config: string;
  dataset: string;
  questions: number;
  records: number;
  strategies: string[];
  model: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function checkName(name: string): void {
  if (!NAME.test(name)) throw new UsageError(`--name "${name}": use letters, digits, dot, dash or underscore (not starting with a dot or dash)`);
}

/** Copies a run folder to <dir>/<name>, replacing a baseline of the same name. */
export function saveBaseline(runDir: string, name: string, opts: { dir?: string; allowUnfinished?: boolean } = {}): BaselineEntry {
  checkName(name);
  const store = RunStore.open(runDir);
  const manifest = store.readManifest();
  if (!manifest.finishedAt && !opts.allowUnfinished) {
    throw new UsageError(`${runDir}: the run did not finish (manifest.finishedAt is empty); resume it first or pass --force`);
  }
  const records = latestRecords(store.readRecords());
  if (records.length === 0) throw new UsageError(`${runDir}: the run has no records`);
  const root = resolve(opts.dir ?? DEFAULT_BASELINES_DIR);
  makeDirectory(root);
  const target = join(root, name);
  // Copy into a temporary folder first, then swap: a failed copy never leaves half a baseline.
  const tmp = join(root, `.${name}.tmp-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  for (const file of readdirSync(store.dir)) {
    if (file === 'manifest.json' || file === 'records.jsonl' || file === 'summary.json' || /^report\.\w+$/.test(file)) {
      cpSync(join(store.dir, file), join(tmp, file));
    }
  }
  if (!existsSync(join(tmp, 'summary.json'))) {
    // Sorted as the run sorted them, so the intervals are the run's (records.jsonl is completion order).
    const ordered = sortLikeRun([...records], manifest);
    const summary = withIntervals(summarize(ordered), ordered, { seed: manifest.seed });
    writeOutputFile(join(tmp, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
  }
  const info: BaselineInfo = { name, savedAt: new Date().toISOString(), source: runDir, runId: manifest.runId };
  writeOutputFile(join(tmp, 'baseline.json'), JSON.stringify(info, null, 2) + '\n');
  rmSync(target, { recursive: true, force: true });
  renameSync(tmp, target);
  return entry(target, info, manifest, records.length);
}

function entry(dir: string, info: BaselineInfo, manifest: RunManifest, records: number): BaselineEntry {
  return {
    ...info,
    dir,
    config: manifest.name,
    dataset: manifest.dataset.name,
    questions: manifest.questionIds?.length ?? manifest.dataset.questions,
    records,
    strategies: manifest.strategies.map((s) => s.id),
    model: manifest.model.label ?? manifest.model.id,
  };
}

export function listBaselines(dir: string = DEFAULT_BASELINES_DIR): BaselineEntry[] {
  const root = resolve(dir);
  if (!existsSync(root)) return [];
  const out: BaselineEntry[] = [];
  for (const name of readdirSync(root).sort()) {
    const d = join(root, name);
    if (name.startsWith('.') || !existsSync(join(d, 'manifest.json'))) continue;
    const manifest = readJson<RunManifest>(join(d, 'manifest.json'));
    const info = existsSync(join(d, 'baseline.json'))
      ? readJson<BaselineInfo>(join(d, 'baseline.json'))
      : { name, savedAt: '', source: '', runId: manifest.runId };
    out.push(entry(d, { ...info, name }, manifest, latestRecords(RunStore.open(d).readRecords()).length));
  }
  return out;
}

/**
 * A run folder for `ref`: the folder itself when it holds a manifest, else the baseline named
 * `ref`. The error says where it looked.
 */
export function resolveRunRef(ref: string, baselinesDir: string = DEFAULT_BASELINES_DIR): { dir: string; baseline: string | null } {
  if (existsSync(join(ref, 'manifest.json'))) return { dir: ref, baseline: null };
  const named = join(resolve(baselinesDir), ref);
  if (NAME.test(ref) && existsSync(join(named, 'manifest.json'))) return { dir: named, baseline: basename(named) };
  const known = listBaselines(baselinesDir).map((b) => b.name);
  throw new UsageError(
    `"${ref}" is neither a run folder (no ${join(ref, 'manifest.json')}) nor a baseline in ${resolve(baselinesDir)}` +
      (known.length ? ` (baselines: ${known.join(', ')})` : ' (no baselines saved there; see `treebench baseline save`)'),
  );
}
