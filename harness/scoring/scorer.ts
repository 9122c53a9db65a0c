// Custom scorers: a user's per-record metric, loaded by path (`scoring.scorers: [./my-scorer.ts]`).
//
// A scorer is one metric, one function (ranx-style): it reads what the strategy answered and
// retrieved for one question and returns a number (or null: "does not apply to this question").
// Its value goes into the record under `custom.<name>`, and from there everywhere a built-in
// per-record mean goes: the summary (mean over the non-null values, with n), bootstrap
// intervals, `compare` (paired permutation test), gate rules (`custom.<name>: { maxDrop: … }`),
// `history`, the CSV columns and the tables. A scorer that throws on a record leaves the value
// null and the message in `record.customErrors`: the record stays, the run goes on.
//
//   import { defineScorer } from 'treebench';
//   export default defineScorer({
//     name: 'citesPage',
//     description: 'the answer names the page of its first evidence',
//     score: ({ answer, evidence }) => (evidence[0]?.page === undefined ? null : answer.includes(String(evidence[0].page)) ? 1 : 0),
//   });
import { relative, resolve } from 'node:path';
import { ConfigError } from '../errors.ts';
import { PLUGIN_BRAND } from '../plugins/define.ts';
import { loadPlugin } from '../plugins/load.ts';
import { redactSecrets } from '../models/secrets.ts';
import type { EvidenceItem, RunRecord } from '../types.ts';

/** Metric paths of custom scorers: `custom.<name>`. */
export const CUSTOM_PREFIX = 'custom.';
export type CustomMetricPath = `custom.${string}`;
/** A scorer's name: what follows `custom.` in metric paths, gate rules and CSV columns. */
export const SCORER_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export const isCustomMetric = (path: string): path is CustomMetricPath => path.startsWith(CUSTOM_PREFIX) && SCORER_NAME.test(path.slice(CUSTOM_PREFIX.length));

/** What a scorer sees of one record. */
export interface ScorerInput {
  question: string;
  questionId: string;
  /** The multiple-choice options, when the question has them. */
  choices?: string[];
  /** The gold answers. */
  gold: string[];
  answer: string;
  /** What the strategy retrieved, best first, with the text it read. */
  evidence: EvidenceItem[];
  /** The record as it will be written (scores, retrieval, calls, tokens, cost, latency, trace). */
  record: Readonly<RunRecord>;
}

export interface ScorerDefinition {
  /** The metric's name: `custom.<name>` in summaries, compare, gates and CSV. Letters, digits, `_`, `-`. */
  name: string;
  description?: string;
  /** Which way is better (default true); compare's wins/losses and history read it. */
  higherIsBetter?: boolean;
  /** The metric for one record; null when it does not apply. A thrown error is kept as data. */
  score(input: ScorerInput): number | null | Promise<number | null>;
}

export interface Scorer extends ScorerDefinition {
  readonly [PLUGIN_BRAND]: 'scorer';
}

/** Makes a scorer: `export default defineScorer({ name, score })`. */
export function defineScorer(definition: ScorerDefinition): Scorer {
  if (!definition || typeof definition !== 'object') throw new TypeError('defineScorer: expected { name, score }');
  if (typeof definition.name !== 'string' || !SCORER_NAME.test(definition.name)) {
    throw new TypeError(`defineScorer: \`name\` must be letters, digits, "_" or "-", starting with a letter (got ${JSON.stringify(definition.name)})`);
  }
  if (typeof definition.score !== 'function') throw new TypeError(`defineScorer(${definition.name}): \`score\` must be a function (input) => number | null`);
  if (definition.higherIsBetter !== undefined && typeof definition.higherIsBetter !== 'boolean') throw new TypeError(`defineScorer(${definition.name}): \`higherIsBetter\` must be true or false`);
  return { ...definition, [PLUGIN_BRAND]: 'scorer' };
}

/** What the manifest keeps of a scorer: enough for compare and history to read its metric. */
export interface ScorerInfo {
  name: string;
  /** The file, relative to the config's folder. */
  file: string;
  description?: string;
  higherIsBetter: boolean;
}

/** Runs every scorer on one record; never throws. */
export async function applyScorers(scorers: readonly Scorer[], input: ScorerInput): Promise<Pick<RunRecord, 'custom' | 'customErrors'>> {
  const custom: Record<string, number | null> = {};
  const errors: Record<string, string> = {};
  for (const s of scorers) {
    try {
      const v = await s.score(input);
      if (v === null || v === undefined) custom[s.name] = null;
      else if (typeof v === 'boolean') custom[s.name] = v ? 1 : 0;
      else if (typeof v === 'number' && Number.isFinite(v)) custom[s.name] = v;
      else {
        custom[s.name] = null;
        errors[s.name] = `returned ${typeof v === 'number' ? String(v) : typeof v}, expected a finite number or null`;
      }
    } catch (err) {
      custom[s.name] = null;
      errors[s.name] = redactSecrets(err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 2000);
    }
  }
  return { custom, ...(Object.keys(errors).length ? { customErrors: errors } : {}) };
}

/** Custom metric paths present in records, in first-seen order. */
export function customPaths(records: Iterable<RunRecord>): CustomMetricPath[] {
  const seen = new Set<string>();
  for (const r of records) for (const k of Object.keys(r.custom ?? {})) seen.add(k);
  return [...seen].map((k) => `${CUSTOM_PREFIX}${k}` as CustomMetricPath);
}

export interface LoadedScorers {
  scorers: Scorer[];
  /** For the manifest. */
  info: ScorerInfo[];
}

/** Imports `scoring.scorers` (paths relative to `baseDir`); every error names the config field and the file. */
export async function loadScorers(files: readonly string[], baseDir: string): Promise<LoadedScorers> {
  const scorers: Scorer[] = [];
  const info: ScorerInfo[] = [];
  for (const [i, file] of files.entries()) {
    const abs = resolve(baseDir, file);
    const where = `scoring.scorers[${i}]`;
    const scorer = await loadPlugin<Scorer>(abs, 'scorer', where);
    const twin = scorers.find((s) => s.name === scorer.name);
    if (twin) throw new ConfigError(`${where}: ${file}: a scorer named "${scorer.name}" is already loaded from scoring.scorers[${scorers.indexOf(twin)}]; scorer names must be unique`);
    scorers.push(scorer);
    info.push({
      name: scorer.name,
      file: relative(baseDir, abs) || abs,
      ...(scorer.description ? { description: scorer.description } : {}),
      higherIsBetter: scorer.higherIsBetter ?? true,
    });
  }
  return { scorers, info };
}
