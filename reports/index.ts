// Report renderers by format name. `render(format, { summary, meta })` returns the report text;
// more formats (JUnit XML, HTML, comparisons) register themselves with `registerRenderer`.
import type { RunSummary } from '../harness/summary/summary.ts';
import { renderCsv } from './csv.ts';
import { renderJson } from './json.ts';
import { renderMarkdown } from './markdown.ts';
import { renderTable } from './table.ts';
import { renderHtml, writeHtml } from './html/run.ts';
import type { Renderer, ReportInput, ReportMeta } from './types.ts';

export type { Renderer, ReportInput, ReportMeta } from './types.ts';

export const renderers = {
  table: { extension: 'txt', render: renderTable },
  md: { extension: 'md', render: renderMarkdown },
  csv: { extension: 'csv', render: renderCsv },
  json: { extension: 'json', render: renderJson },
  html: { extension: 'html', render: renderHtml, write: writeHtml },
} satisfies Record<string, Renderer>;

export type BuiltinFormat = keyof typeof renderers;
/** A built-in format name, or one added with registerRenderer. */
export type ReportFormat = BuiltinFormat | (string & {});

const registry = new Map<string, Renderer>(Object.entries(renderers));

export function registerRenderer(format: string, renderer: Renderer): void {
  if (registry.has(format)) throw new Error(`report format "${format}" is already registered`);
  registry.set(format, renderer);
}

export function reportFormats(): string[] {
  return [...registry.keys()];
}

export function getRenderer(format: string): Renderer {
  const r = registry.get(format);
  if (!r) throw new Error(`unknown report format "${format}"; known formats: ${reportFormats().join(', ')}`);
  return r;
}

/** The metadata may be passed as `meta` or, as the runner brief names it, `manifest`. */
export type RenderArgs = { summary: RunSummary } & Pick<ReportInput, 'records' | 'nodeTitle' | 'width' | 'color'> & ({ meta: ReportMeta } | { manifest: ReportMeta });

export function reportInput(args: RenderArgs): ReportInput {
  const meta = 'meta' in args ? args.meta : args.manifest;
  const { summary, records, nodeTitle, width, color } = args;
  return { summary, meta, ...(records ? { records } : {}), ...(nodeTitle ? { nodeTitle } : {}), ...(width !== undefined ? { width } : {}), ...(color !== undefined ? { color } : {}) };
}

export function render(format: ReportFormat, args: RenderArgs): string {
  return getRenderer(format).render(reportInput(args));
}
