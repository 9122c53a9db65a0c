// The progress line of `treebench run` on stderr: the steps before the first question
// (fingerprinting the corpus for the manifest, cutting it into chunks, embedding the chunks) and
// then the records. Each step's rate and ETA are its own: the index's is measured from its first
// report, so the chunking and fit before it do not make embedding look slow. The steps that are quick on
// small corpora (fingerprint, chunking) say nothing unless they take over STEP_SHOWN_MS: a
// 344-filing corpus took 4–9 s to fingerprint and tens of seconds to chunk, in silence before.
// On a TTY one line is redrawn in place (every 200 ms at most); piped, a line every 2 s at most.
import type { Progress } from '../../harness/run/runner.ts';

/** Fingerprint and chunking lines appear once the step has run this long. */
export const STEP_SHOWN_MS = 2000;

const LABEL: Record<Exclude<Progress['phase'], 'run'>, (p: Progress) => string> = {
  fingerprint: (p) => `fingerprinting the corpus: ${p.done}/${p.total} documents`,
  chunking: (p) => `chunking the corpus: ${p.done}/${p.total} documents`,
  index: (p) => `indexing: ${p.done}/${p.total} chunks embedded`,
};

export interface PrinterOptions {
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  now?: () => number;
}

export function progressPrinter(quiet: boolean, o: PrinterOptions = {}): (p: Progress) => void {
  if (quiet) return () => {};
  const stream = o.stream ?? process.stderr;
  const now = o.now ?? (() => performance.now());
  const tty = Boolean(stream.isTTY);
  let lastPrint = -Infinity;
  // Where the current step started being reported: its first report's elapsed time and count.
  let step: { phase: Progress['phase']; elapsed0: number; done0: number; shown: boolean } | null = null;
  return (p) => {
    // Fingerprint, chunking and run count from their start; the index from its first report (its
    // clock started before the chunking and the embedder's fit).
    if (step?.phase !== p.phase) step = { phase: p.phase, elapsed0: p.phase === 'index' ? p.elapsedMs : 0, done0: p.phase === 'index' ? p.done : 0, shown: false };
    const final = p.done === p.total;
    const quick = p.phase === 'fingerprint' || p.phase === 'chunking';
    // Quick steps: nothing until they have run STEP_SHOWN_MS, and no closing line if nothing was shown.
    if (quick && !step.shown && p.elapsedMs < STEP_SHOWN_MS) return;
    const t = now();
    if (!final && t - lastPrint < (tty ? 200 : 2000)) return;
    lastPrint = t;
    step.shown = true;
    const ms = p.elapsedMs - step.elapsed0;
    const counted = p.done - step.done0;
    const rate = ms > 0 && counted > 0 ? (counted / ms) * 1000 : 0;
    const eta = rate > 0 && !final ? `, ~${Math.ceil((p.total - p.done) / rate)} s left` : '';
    let line: string;
    if (p.phase === 'run') line = p.done === 0 ? `running: 0/${p.total} records` : `running: ${p.done}/${p.total} records, ${p.errors} errors, ${rate.toFixed(1)}/s${eta}`;
    // The index step's elapsed time includes the chunking before it: its closing line gives none.
    else line = `${LABEL[p.phase](p)}${final ? (quick ? `, ${(p.elapsedMs / 1000).toFixed(1)} s` : '') : eta}`;
    stream.write(tty ? `\r\x1b[K${line}${final ? '\n' : ''}` : `${line}\n`);
  };
}
