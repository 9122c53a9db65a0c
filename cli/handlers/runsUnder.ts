// The runs under some paths, for the commands that list many runs (`history`, `view`). Apart
// from shared.ts, which every command loads: it loads the run reader and the history builder.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../harness/errors.ts';
import { findRunDirs } from '../../harness/analysis/history/build.ts';
import { loadRun, loadRunIfAny, type LoadedRun } from '../../harness/analysis/compare/runs.ts';
import { forTerminal } from '../../harness/text/terminal.ts';

/**
 * The runs under `paths` (`history`, `view`): a run folder named on its own must load, or it is
 * the error; one found inside a folder of runs that has no records yet (stopped before its first)
 * or records no comparison may read (another run's lines, a file edited) is skipped with a note:
 * one such folder must not refuse the whole listing.
 */
export function loadRunsUnder(paths: readonly string[]): LoadedRun[] {
  const named = new Set(paths.filter((p) => existsSync(join(p, 'manifest.json'))));
  const runs: LoadedRun[] = [];
  for (const dir of findRunDirs(paths)) {
    if (named.has(dir)) {
      runs.push(loadRun(dir));
      continue;
    }
    let loaded: LoadedRun | null;
    try {
      loaded = loadRunIfAny(dir);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      process.stderr.write(forTerminal(`note: skipped ${dir}: ${err.message}\n`));
      continue;
    }
    if (loaded) runs.push(loaded);
    else process.stderr.write(forTerminal(`note: skipped ${dir}: the run has no records\n`));
  }
  return runs;
}
