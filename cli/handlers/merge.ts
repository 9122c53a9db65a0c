// `treebench merge <shardRun...> --out <runDir>`: join `--shard i/n` runs into one run folder.
// Resumable like `run`: after a kill, the same command finishes the merge (harness/run/merge.ts).
import type { Argv } from 'yargs';
import { mergeShards } from '../../harness/run/merge.ts';
import { render } from '../../reports/index.ts';
import { reportMeta } from '../../reports/meta.ts';
import { RunStore } from '../../harness/run/store.ts';
import type { CommandBody, Runner } from '../runner.ts';
import { consoleStyle } from '../../reports/console.ts';
import { printReport, writeReportFiles } from './printReport.ts';

export function mergeCommand(run: Runner): CommandBody {
  return {
    builder: (y: Argv) =>
      y
        .positional('shards', { type: 'string', array: true, demandOption: true, describe: 'Shard run folders (any order)' })
        .option('out', { type: 'string', demandOption: true, describe: 'New run folder for the merged run' })
        .option('run-id', { type: 'string', describe: 'Run id of the merged run (default: the --out folder name)' })
        .option('format', { choices: ['table', 'md', 'csv', 'json'] as const, default: 'table' as const, describe: 'What to print when done' })
        .option('quiet', { type: 'boolean', describe: 'No notes and no closing line on stderr (the report still goes to stdout)' })
        .example('$0 merge runs/s10-shard-* --out runs/s10-nightly', 'after four `--shard i/4` CI jobs'),
    handler: (a) =>
      run(async () => {
        const args = a as unknown as { shards: string[]; out: string; runId?: string; format: 'table' | 'md' | 'csv' | 'json'; quiet?: boolean };
        const outcome = await mergeShards(args.shards, args.out, args.runId ? { runId: args.runId } : {});
        if (!args.quiet) for (const note of outcome.notes) process.stderr.write(`note: ${note}\n`);
        const meta = reportMeta(outcome.manifest);
        // The same report files `treebench run` writes for the config's `reports`.
        const store = RunStore.open(outcome.dir);
        const formats = ((outcome.manifest.config as { reports?: string[] } | null)?.reports ?? []).filter((f) => f !== 'table');
        const records = outcome.records;
        await writeReportFiles(store, formats, () => ({ summary: outcome.summary, meta, records }));
        printReport(render(args.format, { summary: outcome.summary, meta, records, ...(args.format === 'table' ? consoleStyle() : {}) }), args.format);
        if (!args.quiet) process.stderr.write(`merged ${args.shards.length} shards (${outcome.manifest.questionIds.length} questions, ${outcome.records.length} records) into ${outcome.dir}\n`);
        return 0;
      })(),
  };
}
