// Text from datasets and models is data: before it reaches a terminal, control characters are
// removed so a question or an answer cannot move the cursor, retitle the window (OSC ... BEL),
// clear the screen or hide text. Tabs and newlines stay; everything else below U+0020, DEL and the
// C1 range (U+0080..U+009F, which some terminals honour as escapes) becomes U+FFFD, so a reader
// still sees that something was there.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function forTerminal(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL, '\uFFFD');
}

/** One line of a table or a list (an id, a reason): as forTerminal, with line breaks and tabs as spaces. */
export function forTerminalLine(text: string): string {
  return forTerminal(text).replace(/[\n\t]/g, ' ');
}
