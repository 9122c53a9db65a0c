// ReportMeta from a run manifest (harness/run/store.ts), so `treebench run` and
// `treebench report <runDir>` label reports the same way.
import path from 'node:path';
import type { RunManifest } from '../harness/run/store.ts';
import type { ReportMeta } from './types.ts';
import { parameterTable } from './parameters.ts';

export function reportMeta(manifest: RunManifest): ReportMeta {
  const meta: ReportMeta = {
    runId: manifest.runId,
    config: manifest.name,
    dataset: manifest.dataset.name,
    model: manifest.model.id,
    offline: manifest.model.offline,
    priced: manifest.model.priced,
    startedAt: manifest.startedAt,
    questions: manifest.questionIds?.length ?? manifest.dataset.questions,
    strategies: manifest.strategies.map((s) => s.id),
    embedder: manifest.embedder,
    repeats: manifest.repeats,
    seed: manifest.seed,
    configHash: manifest.configHash,
  };
  if (manifest.finishedAt) meta.finishedAt = manifest.finishedAt;
  const parameters = parameterTable(manifest.strategies ?? []);
  if (parameters.columns.length) meta.parameters = parameters;
  if (manifest.model.priceAs) meta.pricedAs = manifest.model.priceAs;
  if (manifest.model.pricesAsOf) meta.pricesAsOf = manifest.model.pricesAsOf;
  if (manifest.model.userPrices?.length) meta.userPrices = manifest.model.userPrices;
  const paced = (p: NonNullable<typeof manifest.pacing>) => ({ requests: p.requests, refused: p.refused, waitedMs: p.waitedMs, held: p.held });
  if (manifest.pacing) meta.pacing = paced(manifest.pacing);
  if (manifest.embeddingPacing) meta.embeddingPacing = paced(manifest.embeddingPacing);
  const skipped = manifest.ingestion?.pdf?.skipped;
  // The file's name only: reports travel, and an absolute path says nothing to another machine.
  const dups = manifest.ingestion?.pdf?.duplicates;
  if (dups?.length) meta.duplicateDocuments = { groups: dups.map((g) => g.docIds), merged: dups.every((g) => g.merged === true) };
  if (skipped?.length) meta.skippedDocuments = skipped.map((s) => ({ docId: s.docId, file: path.basename(s.file), reason: s.reason }));
  const ix = manifest.index;
  if (ix) meta.index = { chunks: ix.chunks, embedCalls: ix.embedCalls, inputTokens: ix.inputTokens, estimated: Boolean(ix.estimated), costUsd: ix.priced === false || ix.costUsd === undefined ? null : ix.costUsd };
  if (manifest.scorers?.length) meta.scorers = manifest.scorers.map((s) => ({ name: s.name, higherIsBetter: s.higherIsBetter, ...(s.description ? { description: s.description } : {}) }));
  const ing = manifest.ingestion;
  const dollars = (usd: number) => (manifest.model.priced ? usd : null);
  if (ing?.trees || ing?.summaries) {
    meta.ingestion = {
      ...(ing.trees ? { trees: { documents: ing.trees.documents, built: ing.trees.built, calls: ing.trees.calls, cached: ing.trees.cached, tokens: ing.trees.inputTokens + ing.trees.outputTokens, costUsd: dollars(ing.trees.costUsd) } } : {}),
      ...(ing.summaries ? { summaries: { nodes: ing.summaries.nodes, calls: ing.summaries.calls, cached: ing.summaries.cached, tokens: ing.summaries.inputTokens + ing.summaries.outputTokens, costUsd: dollars(ing.summaries.costUsd) } } : {}),
    };
  }
  const code = manifest.code;
  if (code) meta.codeVersion = `${code.version}${code.commit ? ` (${code.commit.slice(0, 12)}${code.dirty ? ', dirty' : ''})` : ''}`;
  return meta;
}
