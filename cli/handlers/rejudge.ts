// `treebench rejudge <runDir> [--judge openai:gpt-4o-mini] [--judge-prompt financebench] [--out dir]`
import { consoleStyle } from '../../reports/console.ts';
import { printReport, writeReportFiles } from './printReport.ts';
import { validateRunFlags } from '../../harness/config/runFlags.ts';
import { UsageError } from '../../harness/errors.ts';
import { rejudgeRun } from '../../harness/scoring/rejudge.ts';
import { render } from '../../reports/index.ts';
import { reportMeta } from '../../reports/meta.ts';
import { RunStore } from '../../harness/run/store.ts';
import type { CommandBody, Runner } from '../runner.ts';

interface RejudgeArgs {
  runDir: string;
  judge?: string;
  judgePrompt?: string;
  judgeBaseUrl?: string;
  judgePriceAs?: string;
  noJudge?: boolean;
  out?: string;
  cacheDir?: string;
  concurrency?: number;
}

/** `provider:model` (or a bare provider) from --judge, with the other --judge-* flags. */
function judgeFromFlags(a: RejudgeArgs): unknown {
  if (a.judge === undefined) {
    if (a.judgePrompt || a.judgeBaseUrl || a.judgePriceAs) throw new UsageError('--judge-prompt, --judge-base-url and --judge-price-as need --judge provider:model');
    return undefined;
  }
  const m = /^([A-Za-z0-9_-]+)(?::(.+))?$/.exec(a.judge);
  if (!m) throw new UsageError(`--judge must look like provider:model, e.g. openai:gpt-4o-mini (got "${a.judge}")`);
  return {
    provider: m[1],
    ...(m[2] ? { model: m[2] } : {}),
    ...(a.judgePrompt ? { prompt: a.judgePrompt } : {}),
    ...(a.judgeBaseUrl ? { baseURL: a.judgeBaseUrl } : {}),
    ...(a.judgePriceAs ? { priceAs: a.judgePriceAs } : {}),
  };
}

export function rejudgeCommand(run: Runner): CommandBody {
  return {
    builder: (y) =>
      y
        .positional('runDir', { type: 'string', demandOption: true, describe: 'Finished run folder to re-score' })
        .option('judge', { type: 'string', describe: 'LLM judge as provider:model (default: the run\'s scoring.judge, if any)' })
        .option('judge-prompt', { type: 'string', describe: 'default | financebench' })
        .option('judge-base-url', { type: 'string', describe: 'OpenAI-compatible API root for the judge' })
        .option('judge-price-as', { type: 'string', describe: 'Price the judge calls as this model' })
        .option('no-judge', { type: 'boolean', describe: 'Rule judge only' })
        .option('out', { type: 'string', describe: 'Output run folder (default <runDir>-rejudged)' })
        .option('cache-dir', { type: 'string', describe: 'Response cache folder for judge calls' })
        .option('concurrency', { type: 'number', default: 4, describe: 'Judge calls in flight at once' })
        .example('$0 rejudge runs/financebench-... --judge openai:gpt-4o-mini --judge-prompt financebench', ''),
    handler: (argv) =>
      run(async () => {
        const a = argv as unknown as RejudgeArgs & { 'no-judge'?: boolean; judge?: string | false };
        // yargs reads --no-judge as judge=false.
        const noJudge = a.noJudge === true || a.judge === (false as unknown);
        if (noJudge) delete (a as { judge?: unknown }).judge;
        const { concurrency } = validateRunFlags({ concurrency: a.concurrency });
        const judge = judgeFromFlags(a);
        const outcome = await rejudgeRun({
          runDir: a.runDir,
          ...(noJudge ? { noJudge: true } : {}),
          ...(judge !== undefined ? { judge } : {}),
          ...(a.out ? { outDir: a.out } : {}),
          ...(a.cacheDir ? { cacheDir: a.cacheDir } : {}),
          ...(concurrency !== undefined ? { concurrency } : {}),
        });
        const meta = reportMeta(outcome.manifest);
        const store = RunStore.open(outcome.dir);
        const formats = ((outcome.manifest.config as { reports?: string[] } | null)?.reports ?? ['md']).filter((f) => f !== 'table');
        await writeReportFiles(store, formats, (f) => ({ summary: outcome.summary, meta, ...(f === 'html' ? { records: outcome.records } : {}) }));
        printReport(render('table', { summary: outcome.summary, meta, ...consoleStyle() }), 'table');
        process.stderr.write(`rejudged run folder: ${outcome.dir}\n`);
        return 0;
      })(),
  };
}
