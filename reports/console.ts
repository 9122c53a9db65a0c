// How console output may look on the stream it goes to: how wide, and whether it may use colour.
// Colour only on a terminal, never with NO_COLOR set (https://no-color.org) or when piped;
// FORCE_COLOR (non-empty, not "0") turns it on anyway. Width: the terminal's columns, or
// $COLUMNS, else unlimited (a file or a CI log gets the full table).

export interface ConsoleStyle {
  /** Columns available; Infinity when the output is not a terminal. */
  width: number;
  color: boolean;
}

interface StreamLike {
  isTTY?: boolean;
  columns?: number;
}

export function consoleStyle(stream: StreamLike = process.stdout, env: NodeJS.ProcessEnv = process.env): ConsoleStyle {
  const cols = Number(env.COLUMNS);
  const width = stream.isTTY && stream.columns ? stream.columns : Number.isInteger(cols) && cols > 0 ? cols : Infinity;
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0';
  const color = !env.NO_COLOR && (forced || Boolean(stream.isTTY));
  return { width, color };
}

const SGR = { red: [31, 39], green: [32, 39], yellow: [33, 39], bold: [1, 22], dim: [2, 22] } as const;
export type Paint = keyof typeof SGR;

export function paint(text: string, style: Paint, on: boolean): string {
  if (!on || !text) return text;
  const [open, close] = SGR[style];
  return `\x1b[${open}m${text}\x1b[${close}m`;
}

/**
 * Colours the verdict words of a finished report for a terminal: FAIL / ERROR / ▼ in red,
 * PASS / ▲ in green. Applied to whole words of the rendered text, so renderers stay colourless
 * (their text also goes to files and CI logs).
 */
export function colorVerdicts(text: string, on: boolean): string {
  if (!on) return text;
  return text
    .replace(/\bFAIL(ED)?\b|\bERROR\b|▼ worse|▼/g, (m) => paint(m, 'red', true))
    .replace(/\bPASS(ED)?\b|▲ better|▲/g, (m) => paint(m, 'green', true));
}

/** Display width of console text: ANSI colour codes take no room. */
export function displayWidth(text: string): number {
  return [...text.replace(/\x1b\[[0-9;]*m/g, '')].length;
}

/** Word-wraps one line of prose to `width` columns (continuation lines indented by `indent` + 2). */
export function wrapText(line: string, width: number, indent = ''): string[] {
  const full = indent + line;
  if (!Number.isFinite(width) || displayWidth(full) <= width) return [full];
  const out: string[] = [];
  let cur = indent;
  for (const word of line.split(' ')) {
    const next = cur.trim() ? `${cur} ${word}` : `${cur}${word}`;
    if (displayWidth(next) > width && cur.trim()) {
      out.push(cur);
      cur = `${indent}  ${word}`;
    } else cur = next;
  }
  out.push(cur);
  return out;
}
