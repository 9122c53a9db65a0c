// The page shell shared by the HTML reports: one file, inline CSS, an optional inline script
// allowed by its hash in a Content-Security-Policy that forbids every network fetch. Opening the
// file from disk needs nothing else, and even a string that escaped escaping could not run.
import { createHash } from 'node:crypto';
import { esc } from './escape.ts';

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0 auto;max-width:1200px;padding:16px 24px;color:#222}
h1{font-size:20px;margin:8px 0}h2{font-size:16px;margin:28px 0 8px;border-bottom:1px solid #ddd}
.meta{color:#555;margin:2px 0}.banner{background:#fff4d6;border:1px solid #e8c96b;padding:6px 10px;margin:8px 0}
table{border-collapse:collapse;margin:6px 0;font-size:13px}.scroll{overflow-x:auto;max-width:100%}th,td{border:1px solid #ddd;padding:3px 8px;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}thead th{background:#f4f4f4}
.charts{display:flex;flex-wrap:wrap;gap:16px}.chart{margin:0}.chart figcaption{font-weight:600;margin-bottom:4px}
.note,.empty{color:#666;font-size:12px}
.matrix td{padding:0;border:1px solid #eee}.matrix th{font-weight:normal;font-size:12px}
.matrix button{width:100%;min-width:44px;border:0;padding:2px 6px;cursor:pointer;font:inherit}
.cell-correct{background:#cdebc6}.cell-wrong{background:#f6d0cc}.cell-error{background:#555;color:#fff}.cell-mixed{background:#f3e3b3}.cell-ungradable{background:#e4e4e4;color:#555}
.matrix td.q{max-width:420px;overflow:hidden;text-overflow:ellipsis;font-size:12px}
#detail{position:sticky;bottom:0;background:#fafafa;border:1px solid #ccc;padding:8px 12px;max-height:45vh;overflow:auto;display:none}
#detail.open{display:block}#detail pre{white-space:pre-wrap;margin:2px 0 8px}#detail h3{margin:4px 0}
.ci{display:block;font-size:11px;color:#666}
.up{color:#2a7d2a}.down{color:#c0392b}.fail{color:#c0392b;font-weight:600}
`;

export interface Page {
  title: string;
  body: string;
  /** Inline script (no external source); allowed by its SHA-256 in the page's CSP. */
  script?: string;
}

export function htmlPage(page: Page): string {
  return pageHead(page.title, page.script) + page.body + pageTail(page.script);
}

/** The SHA-256 source expression of an inline script, as a CSP lists it. */
export const scriptHash = (script: string): string => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** The policy of a page: no fetch of any kind; only the given inline scripts run. */
export function pageCsp(scripts: readonly string[]): string {
  const hashes = scripts.length ? scripts.map(scriptHash).join(' ') : "'none'";
  return `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src ${hashes}; base-uri 'none'; form-action 'none'`;
}

/**
 * The page up to and including its opening `<body>` and a line break: a page written in pieces
 * (the run report streams its records) writes this, then its body, then pageTail.
 */
export function pageHead(title: string, script = ''): string {
  const csp = pageCsp(script ? [script] : []);
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title><style>${CSS}</style></head><body>`,
    '',
  ].join('\n');
}

/** The rest of the page after its body: the script, if any, and the closing tags. */
export function pageTail(script = ''): string {
  return ['', script ? `<script>${script}</script>` : '', '</body></html>', ''].join('\n');
}

/**
 * A "value [lo, hi]" cell (or header) as HTML with the interval on a line of its own: a column is
 * then as wide as the wider of the two, which keeps an eleven-column summary inside 1280 px.
 */
export function withInterval(text: string): string {
  const m = /^(.*?) (\[[^\]]*\])(.*)$/s.exec(text);
  return m ? `${esc(m[1]!)}<span class="ci">${esc(m[2]!)}${esc(m[3]!)}</span>` : esc(text);
}

/** The opening of a table whose rows (tableRow, joined by line breaks) follow and TABLE_END closes: htmlTable in pieces. */
export function tableStart(head: string[], cls = ''): string {
  const th = head.map((h) => `<th>${h}</th>`).join('');
  return `<div class="scroll"><table${cls ? ` class="${cls}"` : ''}><thead><tr>${th}</tr></thead><tbody>\n`;
}

export function tableRow(cells: string[]): string {
  return `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
}

export const TABLE_END = '\n</tbody></table></div>';

/** A plain table from already-escaped cell HTML. */
export function htmlTable(head: string[], rows: string[][], cls = ''): string {
  return tableStart(head, cls) + rows.map(tableRow).join('\n') + TABLE_END;
}
