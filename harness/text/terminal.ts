// Text from datasets, models and plugins is data: before it reaches a reader (a terminal, a
// Markdown, CSV, HTML or XML file, a JSON file someone opens in an editor), everything that could
// act instead of being read is neutralised. This module is the one sanitiser every output
// boundary uses (harness/files/output.ts for files, cli/streams.ts for stdout and stderr):
//   - control characters: C0 below U+0020 except tab and newline (a CR survives only as the CR
//     of a CRLF in files), DEL, and the C1 range U+0080..U+009F (some terminals honour C1 as
//     escapes: U+009B is CSI). They would move the cursor, retitle the window (OSC ... BEL),
//     make a hyperlink (OSC 8), clear the screen or hide text.
//   - bidirectional embedding, override and isolate controls (U+202A..U+202E, U+2066..U+2069):
//     they reorder what a reader sees ("Trojan Source"), in a terminal, a Markdown viewer or a
//     browser alike. The plain marks U+200E, U+200F and U+061C, which only mark a direction for
//     right-to-left text, stay.
// Each becomes U+FFFD, so a reader still sees that something was there. JSON output escapes
// instead (\u009b): JSON.stringify writes C0 as escapes already, and escaping the rest keeps the
// data exact while no raw byte of it can act.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** In a document: the same, except that the CR of a CRLF line end (CSV) stays. */
// eslint-disable-next-line no-control-regex
const DOCUMENT_UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;
/** Raw characters a JSON text may hold that should not reach a reader raw (C1, bidi, JS line separators). */
const JSON_UNSAFE = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

const REPLACEMENT = '\uFFFD';

/** True when `text` holds something the sanitisers below would neutralise. */
export function hasUnsafeText(text: string): boolean {
  return UNSAFE.test(text);
}

export function forTerminal(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL, REPLACEMENT).replace(BIDI, REPLACEMENT);
}

/** One line of a table or a list (an id, a reason): as forTerminal, with line breaks and tabs as spaces. */
export function forTerminalLine(text: string): string {
  return forTerminal(text).replace(/[\n\t]/g, ' ');
}

/**
 * A document (Markdown, CSV, HTML, XML, plain text): as forTerminal, but CRLF line ends stay
 * (CSV is CRLF by RFC 4180); a lone CR becomes U+FFFD.
 */
export function forDocument(text: string): string {
  return text.replace(DOCUMENT_UNSAFE, REPLACEMENT);
}

/** A JSON text: C1, bidi controls and U+2028/U+2029 written as \u escapes (the value is unchanged). */
export function forJsonText(text: string): string {
  return text.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// The terminal styling treebench itself writes: SGR colours (\e[31m … \e[39m) and the progress
// line's "carriage return, erase line" (\r\e[K).
// eslint-disable-next-line no-control-regex
const OWN_STYLE = /(\x1b\[[0-9;]{0,32}m|\r?\x1b\[K)/;

/**
 * What the stream guard writes to stdout or stderr: every control and bidi character neutralised
 * (forDocument: CRLF line ends stay, so `report --format csv > file.csv` keeps RFC 4180's), except
 * that where `style` is on (a terminal, or FORCE_COLOR) the colour codes and the progress line's
 * erase-line survive. Nothing else that acts does: no OSC (titles, hyperlinks), no cursor
 * movement, no C1, no bidi control.
 */
export function forTerminalStream(text: string, style: boolean): string {
  if (!style || !text.includes('\x1b')) return forDocument(text);
  return text
    .split(OWN_STYLE)
    .map((part, i) => (i % 2 === 1 ? part : forDocument(part)))
    .join('');
}
