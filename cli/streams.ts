// stdout and stderr of a treebench command: the terminal's output boundary. While a command runs
// (cli/main.ts installs this around it), every write to either stream, by any module, passes
//   1. redaction (harness/models/secrets.ts): no key reaches a terminal or a CI log, and
//   2. the terminal sanitiser (harness/text/terminal.ts): no escape sequence, C1 or bidi control
//      from data acts on the terminal. On a terminal (or with FORCE_COLOR) the colour codes and
//      the progress line's erase-line that treebench writes itself survive; nothing else does.
// So a command cannot forget either, whatever it prints.
//
// A stream whose reader went away (`treebench run … | head -2`: EPIPE) must not stop the work:
// the first failed write marks that stream closed, later writes to it are dropped, and the
// command runs to its end (a run writes every record, its summary and reports, and releases its
// lock). main() then says on stderr, if it is still open, that output was cut short.
import { redactSecrets } from '../harness/models/secrets.ts';
import { forTerminalStream } from '../harness/text/terminal.ts';
import { consoleStyle } from '../reports/console.ts';

type StreamName = 'stdout' | 'stderr';
type Write = NodeJS.WriteStream['write'];

/** Streams whose reader is gone (for the life of the process: a closed pipe does not reopen). */
const closed = new Set<StreamName>();
const listening = new Set<StreamName>();

export function streamClosed(name: StreamName): boolean {
  return closed.has(name);
}

/** Marks a stream closed on its first error (EPIPE, EBADF, a destroyed stream): never a crash. */
function listenForClose(name: StreamName, stream: NodeJS.WriteStream): void {
  if (listening.has(name)) return;
  listening.add(name);
  stream.on('error', () => void closed.add(name));
}

export interface StreamGuard {
  /** Puts the streams' own write back (when nothing was installed over this guard since). */
  release(): void;
}

/** Installs the guard on process.stdout and process.stderr; see the header. */
export function guardStreams(): StreamGuard {
  const undo: Array<() => void> = [];
  for (const name of ['stdout', 'stderr'] as const) {
    const stream = process[name];
    listenForClose(name, stream);
    const original: Write = stream.write;
    let active = true;
    const style = Boolean(stream.isTTY) || consoleStyle(stream).color;
    const guarded = function (this: unknown, chunk: unknown, ...rest: unknown[]): boolean {
      const done = rest.find((r): r is (err?: Error | null) => void => typeof r === 'function');
      if (closed.has(name)) {
        done?.();
        return true;
      }
      if (!active) return (original as (...a: unknown[]) => boolean).call(stream, chunk, ...rest);
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
      try {
        return (original as (...a: unknown[]) => boolean).call(stream, forTerminalStream(redactSecrets(text), style), ...rest.filter((r) => typeof r !== 'string'));
      } catch {
        // A synchronous failure (a destroyed stream): closed, as an 'error' event would say.
        closed.add(name);
        done?.();
        return true;
      }
    } as Write;
    stream.write = guarded;
    undo.push(() => {
      active = false;
      if (stream.write === guarded) stream.write = original;
    });
  }
  return { release: () => undo.forEach((u) => u()) };
}

/** What main() says on stderr when a stream closed during the command (nothing when none did). */
export function closedStreamNote(): string | null {
  if (!closed.has('stdout')) return null;
  return 'treebench: stdout was closed before the output ended (EPIPE: e.g. `| head`): the rest of the output was dropped; the command itself ran to its end\n';
}
