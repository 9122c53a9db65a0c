// Escaping for the HTML reports. Every piece of dataset or model text goes through `esc` (element
// text and attribute values) or `jsonForScript` (data islands read by the page's script). Both
// also neutralise control and bidi characters (harness/text/terminal.ts), which a browser would
// otherwise show as reordered text.
import { forDocument } from '../../harness/text/terminal.ts';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or a double/single-quoted attribute value: `&<>"'` become entities. */
export function esc(text: unknown): string {
  return forDocument(String(text ?? '')).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * JSON inside `<script type="application/json">`: `<`, `>`, `&` and the two JS line separators
 * are written as \u escapes, so no string in the data can close the script element.
 */
export function jsonForScript(value: unknown): string {
  return forDocument(JSON.stringify(value)).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
