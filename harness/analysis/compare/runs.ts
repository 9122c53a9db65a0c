// Loading runs for comparison and deciding whether two runs can be compared at all.
import { UsageError } from '../../errors.ts';
import { resolveRunRef } from '../baselines.ts';
import { latestRecords, recordKey, RunStore, type RunManifest } from '../../run/store.ts';
import type { RunRecord } from '../../types.ts';
import { configDiff, configDiffNote } from './configDiff.ts';

export interface LoadedRun {
  /** What the user typed (a folder or a baseline name). */
  ref: string;
  dir: string;
  /** The baseline name when `ref` named one. */
  baseline: string | null;
  manifest: RunManifest;
  /** Latest record per strategy × question × repeat. */
  records: RunRecord[];
}

export function loadRun(ref: string, baselinesDir?: string): LoadedRun {
  const run = loadRunIfAny(ref, baselinesDir);
  if (!run) throw new UsageError(`${resolveRunRef(ref, baselinesDir).dir}: the run has no records`);
  return run;
}

/** As loadRun, but null for a run folder with no records yet (a run stopped before its first). */
export function loadRunIfAny(ref: string, baselinesDir?: string): LoadedRun | null {
  const { dir, baseline } = resolveRunRef(ref, baselinesDir);
  const store = RunStore.open(dir);
  const manifest = store.readManifest();
  const all: RunRecord[] = [];
  // What treebench never writes, a comparison must not read: a record of another run (records
  // copied in from elsewhere), or a second record for a key whose first one succeeded (treebench
  // appends again only to retry an error, --retry-errors). Either would silently replace what
  // the run measured, so a gate could pass on records it never produced.
  const succeeded = new Map<string, number>();
  store.forEachRecord((r, place) => {
    const where = `${store.recordsPath}:${place.line}`;
    if (typeof r.runId === 'string' && typeof manifest.runId === 'string' && r.runId !== manifest.runId) {
      throw new UsageError(`${where}: a record of run "${r.runId}" among the records of run "${manifest.runId}"; records are only ever appended by their own run: remove the lines copied in (treebench merge combines shards)`);
    }
    const key = recordKey(r);
    const earlier = succeeded.get(key);
    if (earlier !== undefined) {
      throw new UsageError(
        `${where}: a second record for strategy ${r.strategy}, question ${r.questionId}, repeat ${r.repeat} replaces one that succeeded (line ${earlier}); ` +
          'treebench writes a key again only to retry an error (--retry-errors): this file was edited or concatenated',
      );
    }
    if (!r.error) succeeded.set(key, place.line);
    all.push(r);
  });
  const records = latestRecords(all);
  return records.length ? { ref, dir, baseline, manifest, records } : null;
}

/** Records of one strategy id. */
export function strategyRecords(run: LoadedRun, strategy: string): RunRecord[] {
  return run.records.filter((r) => r.strategy === strategy);
}

/** Strategy ids in manifest order, then any that only appear in the records. */
export function strategyIds(run: LoadedRun): string[] {
  const ids = run.manifest.strategies.map((s) => s.id);
  for (const r of run.records) if (!ids.includes(r.strategy)) ids.push(r.strategy);
  return ids.filter((id) => run.records.some((r) => r.strategy === id));
}

/** Which way is better for each custom scorer's metric, as the runs' manifests declare it (later runs win). */
export function customDirections(...runs: LoadedRun[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const run of runs) for (const s of run.manifest.scorers ?? []) out[s.name] = s.higherIsBetter;
  return out;
}

const short = (h: string | undefined) => (h ? h.slice(0, 12) : '(none)');

export interface Comparability {
  /** Reasons the runs must not be compared (different questions or documents). */
  refusals: string[];
  /** Differences worth knowing that do not invalidate a paired comparison. */
  notes: string[];
}

/**
 * Paired tests assume both runs answered the same questions over the same documents. A
 * different dataset or corpus hash means the "same" question ids may not be the same
 * questions: refuse (the caller lets --force override).
 */
export function comparability(a: RunManifest, b: RunManifest, names: [string, string] = ['A', 'B']): Comparability {
  const [na, nb] = names;
  const refusals: string[] = [];
  const notes: string[] = [];
  if (a.dataset?.questionsHash !== b.dataset?.questionsHash) {
    refusals.push(
      `different datasets: ${na} has ${a.dataset?.name} (questions sha256 ${short(a.dataset?.questionsHash)}), ${nb} has ${b.dataset?.name} (questions sha256 ${short(b.dataset?.questionsHash)})`,
    );
  }
  if (a.corpus?.hash !== b.corpus?.hash) {
    // A corpus is named after its folder or, for some formats, the questions file: the same name
    // often holds other documents. Its size says more, and the name is given when they differ.
    const corpus = (m: RunManifest) => `${a.corpus?.name === b.corpus?.name ? '' : `${m.corpus?.name}, `}${m.corpus?.docs ?? '?'} document${m.corpus?.docs === 1 ? '' : 's'} (sha256 ${short(m.corpus?.hash)})`;
    // The same PDFs read by another extractor (corpus.extractor) are other texts and trees.
    const extractor = (m: RunManifest) => m.ingestion?.pdf?.extractor;
    const readBy = extractor(a) && extractor(b) && extractor(a) !== extractor(b) ? ` (PDFs read by ${extractor(a)} and by ${extractor(b)}: corpus.extractor)` : '';
    refusals.push(`different corpora: ${na} has ${corpus(a)}, ${nb} has ${corpus(b)}${readBy}`);
  }
  if (a.model?.id !== b.model?.id) notes.push(`model: ${a.model?.id} → ${b.model?.id}`);
  if (a.embedder !== b.embedder) notes.push(`embedder: ${a.embedder} → ${b.embedder}`);
  if (a.configHash !== b.configHash) notes.push(configDiffNote(a.config, b.config));
  if ((a.code?.commit ?? null) !== (b.code?.commit ?? null)) notes.push(`code: ${short(a.code?.commit ?? undefined)} → ${short(b.code?.commit ?? undefined)}`);
  // The config note above gives the values; this one says what a scoring change means.
  const scoring = (m: RunManifest) => (m.config as { scoring?: unknown } | null)?.scoring ?? null;
  const scoringFields = configDiff(scoring(a), scoring(b), 'scoring').map((c) => c.path);
  if (scoringFields.length) notes.push(`scoring settings differ (${scoringFields.join(', ')}): answer metrics may not be comparable`);
  if (a.model?.priced !== b.model?.priced) notes.push('only one run is priced: cost comparisons are skipped');
  if (!a.finishedAt) notes.push(`${na} did not finish`);
  if (!b.finishedAt) notes.push(`${nb} did not finish`);
  if (a.shard) notes.push(`${na} is shard ${a.shard.index}/${a.shard.count} (merge shards with \`treebench merge\`)`);
  if (b.shard) notes.push(`${nb} is shard ${b.shard.index}/${b.shard.count} (merge shards with \`treebench merge\`)`);
  return { refusals, notes };
}

/** Throws a UsageError (exit 2) naming the reasons, unless forced. */
export function assertComparable(c: Comparability, force: boolean): void {
  if (c.refusals.length && !force) {
    throw new UsageError(`refusing to compare: ${c.refusals.join('; ')}. Paired tests need the same questions and documents; pass --force to compare anyway.`);
  }
}
