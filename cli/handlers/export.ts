// `treebench export <runDir> --trec run.txt --qrels qrels.txt [--level node|page|doc] [--strategy id]`
// Writes one strategy's ranked evidence as a TREC run file and the dataset's gold evidence as
// qrels, so trec_eval or ranx can recompute recall, precision, MRR and nDCG@k.
import { writeOutputFile } from '../../harness/files/output.ts';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../harness/errors.ts';
import { RunStore, latestRecords } from '../../harness/run/store.ts';
import { loadConfig, validateConfig } from '../../harness/config/runConfig.ts';
import { RETRIEVAL_LEVELS, type RetrievalLevel } from '../../harness/summary/summary.ts';
import { trecFiles } from '../../harness/analysis/trecExport.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import type { CommandBody, Runner } from '../runner.ts';
import { registerBuiltinStrategies } from '../../strategies/registry.ts';

// Configs name the built-in strategies: this command offers them.
registerBuiltinStrategies();

export interface ExportArgs {
  runDir: string;
  trec?: string;
  qrels?: string;
  level?: string;
  strategy?: string;
  repeat?: number;
  config?: string;
}

export async function exportTrec(a: ExportArgs): Promise<string> {
  if (!a.trec && !a.qrels) throw new UsageError('export: give --trec <run file> and/or --qrels <qrels file>');
  const level = (a.level ?? 'node') as RetrievalLevel;
  if (!RETRIEVAL_LEVELS.includes(level)) throw new UsageError(`--level must be one of ${RETRIEVAL_LEVELS.join(', ')} (got "${a.level}")`);
  const repeat = a.repeat ?? 0;
  if (!Number.isInteger(repeat) || repeat < 0) throw new UsageError(`--repeat must be a non-negative integer (got ${a.repeat})`);
  const store = RunStore.open(a.runDir);
  const manifest = store.readManifest();
  const records = latestRecords(store.readRecords()).filter((r) => r.repeat === repeat);
  const strategies = [...new Set(records.map((r) => r.strategy))];
  let strategy = a.strategy;
  if (!strategy) {
    if (strategies.length !== 1) throw new UsageError(`--strategy is needed: ${a.runDir} has ${strategies.length} strategies (${strategies.join(', ')})`);
    strategy = strategies[0]!;
  }
  if (!strategies.includes(strategy)) throw new UsageError(`--strategy: "${strategy}" is not in ${a.runDir} (it has: ${strategies.join(', ')})`);
  // Gold evidence lives in the dataset, not in records: load it as the run did.
  const loaded = a.config ? loadConfig(a.config) : { config: validateConfig(manifest.config).config, baseDir: dirname(resolve(manifest.configPath)) };
  const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
  const questions = new Map(data.questions.map((q) => [q.id, q]));
  const mine = records.filter((r) => r.strategy === strategy);
  const missing = mine.filter((r) => !questions.has(r.questionId));
  if (missing.length) throw new UsageError(`${missing.length} question(s) of the run are not in the dataset now (e.g. ${missing[0]!.questionId}); pass the run's config with --config`);
  const files = trecFiles(mine, questions, data.corpus, level, strategy);
  if (a.trec) writeOutputFile(a.trec, files.run, 'document');
  if (a.qrels) writeOutputFile(a.qrels, files.qrels, 'document');
  return `exported ${strategy} (${level} level, repeat ${repeat}): ${files.queries} queries, ${files.judged} with gold${a.trec ? `; run → ${a.trec}` : ''}${a.qrels ? `; qrels → ${a.qrels}` : ''}`;
}

export function exportCommand(run: Runner): CommandBody {
  return {
    builder: (y) =>
      y
        .positional('runDir', { type: 'string', demandOption: true, describe: 'Run folder to export' })
        .option('trec', { type: 'string', describe: 'TREC run file to write (qid Q0 docno rank score tag)' })
        .option('qrels', { type: 'string', describe: 'qrels file to write (qid 0 docno 1)' })
        .option('level', { type: 'string', default: 'node', describe: 'node | page | doc' })
        .option('strategy', { type: 'string', describe: 'Strategy id (needed when the run has several)' })
        .option('repeat', { type: 'number', default: 0, describe: 'Which repeat to export (runs with run.repeats > 1), from 0' })
        .option('config', { type: 'string', describe: "Config to load the dataset from (default: the run's)" })
        .example('$0 export runs/nightly-... --strategy vector --trec vector.run --qrels gold.qrels', ''),
    handler: (argv) =>
      run(async () => {
        process.stderr.write((await exportTrec(argv as unknown as ExportArgs)) + '\n');
        return 0;
      })(),
  };
}
