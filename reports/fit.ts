// Fitting a console table into a width. Each column has a priority (0 = never dropped) and may
// have a condensed form of its cells; when the table is too wide, columns are condensed first
// (least important first), then dropped (least important first), and the caller prints which
// were hidden. The full table stays available in the files (md, csv, json).
import Table from 'cli-table3';
import { displayWidth } from './console.ts';

export interface FitColumn {
  head: string;
  /** Lower is more important; 0 is never dropped. */
  priority: number;
  align: 'left' | 'right';
  cells: string[];
  /** Shorter cells (e.g. without intervals), used before the column is dropped. */
  condensed?: string[];
}

export interface FittedTable {
  text: string;
  /** Heads of the columns left out for width. */
  dropped: string[];
  /** Heads of the columns shown condensed. */
  condensed: string[];
}

function draw(cols: Array<{ head: string; align: 'left' | 'right'; cells: string[] }>, rows: number): string {
  const table = new Table({ head: cols.map((c) => c.head), style: { head: [], border: [], compact: true }, colAligns: cols.map((c) => c.align) });
  for (let r = 0; r < rows; r++) table.push(cols.map((c) => c.cells[r] ?? ''));
  return table.toString();
}

const widest = (text: string) => Math.max(...text.split('\n').map(displayWidth));

export function fitTable(columns: FitColumn[], rows: number, width: number): FittedTable {
  const state = columns.map((c) => ({ ...c, shown: true, short: false }));
  const render = () => draw(state.filter((c) => c.shown).map((c) => ({ head: c.head, align: c.align, cells: c.short && c.condensed ? c.condensed : c.cells })), rows);
  let text = render();
  const byNeed = [...state].sort((a, b) => b.priority - a.priority);
  for (const c of byNeed) {
    if (widest(text) <= width) break;
    if (!c.condensed) continue;
    c.short = true;
    text = render();
  }
  for (const c of byNeed) {
    if (widest(text) <= width) break;
    if (c.priority === 0) continue;
    c.shown = false;
    text = render();
  }
  // Dropping one column may have freed room for a more important one dropped before it.
  for (const c of [...state].sort((a, b) => a.priority - b.priority)) {
    if (c.shown) continue;
    c.shown = true;
    const wider = render();
    if (widest(wider) <= width) text = wider;
    else c.shown = false;
  }
  // Likewise for intervals condensed before a column was dropped.
  for (const c of [...state].sort((a, b) => a.priority - b.priority)) {
    if (!c.shown || !c.short) continue;
    c.short = false;
    const wider = render();
    if (widest(wider) <= width) text = wider;
    else c.short = true;
  }
  return { text, dropped: state.filter((c) => !c.shown).map((c) => c.head), condensed: state.filter((c) => c.shown && c.short).map((c) => c.head) };
}
