// `treebench view [runs…]`: a local web viewer over run folders. The run list grouped by config
// and dataset, each run's HTML report, two runs (or two strategies of one run) side by side
// question by question, and the history of metrics with bands (pages: reports/view/site.ts).
// The server listens on 127.0.0.1 only, answers only requests addressed to that host (so a web
// page elsewhere cannot reach it through DNS rebinding), sends every page with a strict
// Content-Security-Policy and never fetches anything itself. `--export DIR` writes the same
// pages as static files with relative links (CI artifacts) instead of serving them.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join, dirname } from 'node:path';
import type { Argv } from 'yargs';
import { UsageError } from '../../harness/errors.ts';
import type { LoadedRun } from '../../harness/analysis/compare/runs.ts';
import { RunStore } from '../../harness/run/store.ts';
import { sortLikeRun } from '../../harness/run/order.ts';
import { summarize } from '../../harness/summary/summary.ts';
import { withIntervals } from '../../harness/summary/intervals.ts';
import { makeDirectory } from '../../harness/files/makeDirectory.ts';
import { writeOutputFile } from '../../harness/files/output.ts';
import { forTerminal } from '../../harness/text/terminal.ts';
import { renderHtml } from '../../reports/html/run.ts';
import { nodeTitles } from '../../reports/html/titles.ts';
import { reportMeta } from '../../reports/meta.ts';
import { VIEW_CSP, ViewSite, type ViewRun } from '../../reports/view/site.ts';
import { checkResamples, headlineLevel, resolveMetrics, splitList } from './shared.ts';
import { loadRunsUnder } from './runsUnder.ts';
import { corpusOfRun } from './trace.ts';
import type { CommandBody, Runner } from '../runner.ts';

interface ViewArgs {
  runs: string[];
  port: number;
  export?: string;
  metric: string[];
  resamples: number;
}

const DEFAULT_RUNS = 'runs';


function makeSite(runs: LoadedRun[], a: ViewArgs, live: boolean): ViewSite {
  // Node titles from each run's corpus (loaded once per run, on first use; null when it cannot be read).
  const corpora = new Map<string, ReturnType<typeof nodeTitles>>();
  const titlesOf = async (r: ViewRun) => {
    if (!corpora.has(r.key)) corpora.set(r.key, nodeTitles(await corpusOfRun(RunStore.open(r.run.dir))));
    return corpora.get(r.key)!;
  };
  return new ViewSite(runs, {
    live,
    metrics: resolveMetrics(splitList(a.metric), headlineLevel(...runs.map((r) => r.records)), '--metric'),
    resamples: checkResamples(a.resamples),
    nodeTitle: titlesOf,
    // The run's page is its HTML report, summarised as `treebench report` does (run order, run seed).
    runPage: async (r, nav) => {
      const records = sortLikeRun([...r.run.records], r.run.manifest);
      const summary = withIntervals(summarize(records), records, { seed: r.run.manifest.seed });
      return renderHtml({ summary, meta: reportMeta(r.run.manifest), records, nodeTitle: await titlesOf(r), nav });
    },
  });
}

async function exportSite(site: ViewSite, dir: string): Promise<number> {
  const paths = site.paths();
  for (const path of paths) {
    const html = await site.page(path);
    if (html === null) continue;
    const file = join(dir, ...path.split('/'));
    makeDirectory(dirname(file));
    writeOutputFile(file, html, 'document');
  }
  process.stderr.write(forTerminal(`wrote ${paths.length} pages to ${dir} (open ${join(dir, 'index.html')})\n`));
  return 0;
}

const HEADERS = {
  'Content-Security-Policy': VIEW_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

async function answer(site: ViewSite, port: () => number, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const send = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
    res.writeHead(status, { ...HEADERS, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  // Only requests addressed to this server by name: a rebinding page's Host is its own name.
  const host = req.headers.host ?? '';
  if (host !== `127.0.0.1:${port()}` && host !== `localhost:${port()}`) return send(421, 'misdirected request\n');
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'only GET\n');
  let path: string;
  try {
    path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname).replace(/^\/+/, '');
  } catch {
    return send(400, 'bad path\n');
  }
  try {
    const html = await site.page(path);
    if (html === null) return send(404, 'no such page\n');
    send(200, html, 'text/html; charset=utf-8');
  } catch (err) {
    send(500, forTerminal(`treebench view: ${(err as Error).message}\n`));
  }
}

async function serve(site: ViewSite, port: number, runs: number): Promise<number> {
  const server = createServer();
  let bound = 0;
  server.on('request', (req, res) => void answer(site, () => bound, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' || err.code === 'EACCES' ? new UsageError(`--port ${port}: cannot listen on 127.0.0.1:${port} (${err.code})`) : err),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  bound = (server.address() as { port: number }).port;
  process.stdout.write(`treebench view: http://127.0.0.1:${bound}/ (${runs} run${runs === 1 ? '' : 's'}; Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.closeAllConnections();
      server.close(() => resolve());
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}

async function cmdView(a: ViewArgs): Promise<number> {
  if (!(Number.isInteger(a.port) && a.port >= 0 && a.port <= 65535)) throw new UsageError(`--port must be a whole number from 0 to 65535, 0 = any free port (got ${a.port})`);
  const paths = a.runs.length ? a.runs : [DEFAULT_RUNS];
  const runs = loadRunsUnder(paths);
  if (!runs.length) throw new UsageError(`view: no run with records in ${paths.join(', ')}`);
  if (a.export !== undefined) return exportSite(makeSite(runs, a, false), a.export);
  return serve(makeSite(runs, a, true), a.port, runs.length);
}

export function viewCommand(run: Runner): CommandBody {
  return {
    builder: (y: Argv) =>
      y
        .positional('runs', { type: 'string', array: true, describe: `Run folders, or folders holding run folders (default: ${DEFAULT_RUNS}/)` })
        .option('port', { type: 'number', default: 0, describe: 'Port on 127.0.0.1 to serve on; 0 picks a free one (the URL is printed)' })
        .option('export', { type: 'string', describe: 'Write the pages as static HTML files with relative links into this folder instead of serving them' })
        .option('metric', { type: 'array', string: true, default: ['accuracy', 'costPerQuestion'], describe: 'Metrics of the history pages (names or paths, as in history --metric)' })
        .option('resamples', { type: 'number', default: 10_000, describe: "Resamples of the history pages' night-over-night tests" })
        .example('$0 view runs/', 'serve every run in runs/ on 127.0.0.1')
        .example('$0 view runs/ --export view-site', 'the same pages as files, for a CI artifact'),
    handler: (argv) => run(() => cmdView({ ...(argv as unknown as ViewArgs), runs: ((argv as unknown as { runs?: string[] }).runs ?? []).map(String) }))(),
  };
}
