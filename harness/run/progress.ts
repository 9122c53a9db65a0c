// Progress lines on stderr for long work (PDF extraction, dataset loads, indexing).
//
//   const p = startProgress({ label: 'extracting PDFs', total: 74, unit: 'documents' });
//   p.tick(1, { pages: 130 });  ...  p.done('74 PDFs, 10,206 pages');
//
// On a TTY one line is redrawn in place (at most every 200 ms); when piped a line is printed at
// most every 2 s, so CI logs stay short. `quiet` (or TREEBENCH_QUIET=1) prints nothing. Rates and
// the ETA come from the units done so far; an optional secondary count (e.g. pages) gets a rate
// too. Labels are written by treebench, never taken from data, so they need no escaping.

export interface ProgressOptions {
  label: string;
  total: number;
  /** Plural noun for the units counted (`documents`). */
  unit: string;
  /** Secondary count shown with a rate (`pages` -> `1,234 pages, 85 pages/s`). */
  secondary?: string;
  quiet?: boolean;
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  now?: () => number;
}

export interface ProgressLine {
  /** Adds `units` done (default 1) and to the secondary count. */
  tick(units?: number, secondary?: number): void;
  /** Prints the final line (with `note` when given) and stops. */
  done(note?: string): void;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

export function startProgress(opts: ProgressOptions): ProgressLine {
  // TREEBENCH_QUIET=1 (set by `run --quiet`) silences every line, whatever a caller passed.
  const quiet = Boolean(opts.quiet) || process.env.TREEBENCH_QUIET === '1';
  const stream = opts.stream ?? process.stderr;
  const now = opts.now ?? (() => performance.now());
  const tty = Boolean(stream.isTTY);
  const started = now();
  let done = 0;
  let second = 0;
  let last = -Infinity;
  let finished = false;

  const line = (final: boolean, note?: string) => {
    const secs = (now() - started) / 1000;
    const parts = [`${opts.label}: ${fmt(done)}/${fmt(opts.total)} ${opts.unit}`];
    if (opts.secondary) parts.push(`${fmt(second)} ${opts.secondary}${secs > 0 ? `, ${(second / secs).toFixed(1)} ${opts.secondary}/s` : ''}`);
    if (final) parts.push(`${secs.toFixed(1)} s`);
    else if (done > 0 && done < opts.total) parts.push(`~${Math.ceil(((opts.total - done) * secs) / done)} s left`);
    if (note) parts.push(note);
    return parts.join(', ');
  };
  const print = (final: boolean, note?: string) => {
    if (quiet) return;
    const text = line(final, note);
    stream.write(tty ? `\r\x1b[K${text}${final ? '\n' : ''}` : `${text}\n`);
  };
  return {
    tick(units = 1, secondary = 0) {
      if (finished) return;
      done += units;
      second += secondary;
      const t = now();
      if (t - last >= (tty ? 200 : 2000)) {
        last = t;
        print(false);
      }
    },
    done(note) {
      if (finished) return;
      finished = true;
      print(true, note);
    },
  };
}
