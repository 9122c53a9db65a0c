// The price table (configs/prices.yaml): USD per 1M tokens per model. The meter prices every call
// with priceCall; a model the table does not know comes back priced=false, and the meter writes
// null (n/a), never 0, so reports say "unpriced" instead of inventing a number. A run's own
// prices (`prices:` in its config, a file or inline) are merged over the shipped table.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve as resolvePath } from 'node:path';
import { LineCounter, parseDocument, isNode } from 'yaml';
import { z } from 'zod';
import { sha256 } from '../files/fileHash.ts';

export const DEFAULT_PRICES_PATH = fileURLToPath(new URL('../../configs/prices.yaml', import.meta.url));
/**
 * The shipped table as the build parsed it (bin/build.mjs), with the SHA-256 of the text it was
 * parsed from: a run reads this instead of parsing the YAML again (~10 ms of a run's start, in
 * the YAML parser's colder paths) while the shipped file is unchanged. An edited file is parsed.
 */
export const PRICES_SNAPSHOT_PATH = fileURLToPath(new URL('../../dist/prices.json', import.meta.url));

const usdPerMillion = () =>
  z
    .number({ error: (iss) => `must be a number (USD per 1M tokens), got ${describe(iss.input)}` })
    .nonnegative({ error: 'must be >= 0 (USD per 1M tokens)' });

function describe(v: unknown): string {
  if (v === undefined) return 'nothing (the field is missing)';
  return JSON.stringify(v) ?? String(v);
}

export const modelPriceSchema = z.strictObject(
  {
    input: usdPerMillion(),
    output: usdPerMillion(),
    /** Prompt tokens served from the provider's prompt cache; defaults to `input`. */
    cachedInput: usdPerMillion().optional(),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `unknown field(s) ${iss.keys.join(', ')}; expected input, output, cachedInput` : undefined) },
);

export const priceTableSchema = z.strictObject({
  /** When the prices were taken (free text, e.g. 2025-08). */
  asOf: z.union([z.string(), z.date().transform((d) => d.toISOString().slice(0, 10))]).optional(),
  source: z.string().optional(),
  models: z.record(z.string().min(1), modelPriceSchema),
});

export type ModelPrice = z.infer<typeof modelPriceSchema>;
export type PriceTable = z.infer<typeof priceTableSchema> & {
  path?: string;
  /** The user's table merged over this one (`prices:` in the config), when there is one. */
  user?: { path?: string; asOf?: string; models: string[] };
};

export class PriceTableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PriceTableError';
  }
}

/**
 * The last table read from each path, with the text it was parsed from: a run reads the shipped
 * table twice (for ingestion and for the run), and parses it once.
 */
const lastRead = new Map<string, { text: string; table: PriceTable }>();

/** Reads and validates a price table. Errors name the file, line, model and field. */
export function loadPriceTable(path: string = DEFAULT_PRICES_PATH): PriceTable {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new PriceTableError(`${path}: cannot read the price table (${(err as Error).message})`);
  }
  // The same text parses to the same table: parsed again only when the file changed.
  const last = lastRead.get(path);
  if (last && last.text === text) return structuredClone(last.table);
  const table: PriceTable = { ...(snapshotOf(path, text) ?? parsePriceTable(text, path)), path };
  lastRead.set(path, { text, table: structuredClone(table) });
  return table;
}

/** The build's parse of the shipped table, when `text` is the very text it parsed (else null). */
function snapshotOf(path: string, text: string): PriceTable | null {
  if (resolvePath(path) !== DEFAULT_PRICES_PATH) return null;
  try {
    const snap = JSON.parse(readFileSync(PRICES_SNAPSHOT_PATH, 'utf8')) as { sha256?: unknown; table?: PriceTable };
    return snap.sha256 === sha256(text) && snap.table ? snap.table : null;
  } catch {
    return null;
  }
}

/** The snapshot of the shipped table the build writes to PRICES_SNAPSHOT_PATH (JSON). */
export function priceSnapshot(): string {
  const text = readFileSync(DEFAULT_PRICES_PATH, 'utf8');
  return `${JSON.stringify({ sha256: sha256(text), table: parsePriceTable(text, DEFAULT_PRICES_PATH) })}\n`;
}

export function parsePriceTable(text: string, where = 'prices'): PriceTable {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  if (doc.errors.length) {
    const e = doc.errors[0];
    const line = e.linePos?.[0]?.line;
    throw new PriceTableError(`${where}${line ? `:${line}` : ''}: invalid YAML: ${e.message.split('\n')[0]}`);
  }
  const parsed = priceTableSchema.safeParse(doc.toJS() ?? {});
  if (parsed.success) return parsed.data;
  const messages = parsed.error.issues.slice(0, 5).map((iss) => {
    const path = iss.path.map(String);
    const line = lineOf(doc, lineCounter, path);
    const model = path[0] === 'models' && path.length >= 2 ? `model "${path[1]}"` : path.join('.') || '(top level)';
    const field = path[0] === 'models' && path.length >= 3 ? `, field "${path[2]}"` : '';
    return `${where}${line ? `:${line}` : ''}: ${model}${field}: ${iss.message}`;
  });
  throw new PriceTableError(messages.join('\n'));
}

/** Line of the deepest existing YAML node along `path` (so a missing field points at its model). */
function lineOf(doc: ReturnType<typeof parseDocument>, lc: LineCounter, path: string[]): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) return lc.linePos(node.range[0]).line;
  }
  return undefined;
}

/**
 * Finds a model's price: the exact id, else without a provider prefix (`openai:gpt-4o`), else
 * without a date suffix (`gpt-4o-2024-08-06`, `o3-mini-2025-01-31`). No fuzzy prefix matching:
 * gpt-4o-mini must never be priced as gpt-4o.
 */
export function findPrice(table: PriceTable, model: string): { model: string; price: ModelPrice } | undefined {
  const candidates: string[] = [model];
  const bare = model.replace(/^(openai|offline|azure|local)[:/]/i, '');
  candidates.push(bare);
  for (const c of [model, bare]) {
    const undated = c.replace(/-\d{4}-\d{2}-\d{2}$/, '').replace(/-\d{4}$/, '');
    candidates.push(undated);
  }
  for (const c of candidates) {
    const price = Object.hasOwn(table.models, c) ? table.models[c] : undefined;
    if (price) return { model: c, price };
  }
  return undefined;
}

export interface CallPrice {
  costUsd: number;
  /** False when the table does not know the model: costUsd is then 0, not an estimate. */
  priced: boolean;
  /** The table entry used (e.g. `gpt-4o` for `gpt-4o-2024-08-06`). */
  pricedAs?: string;
}

/**
 * Dollars for one call. Pass the model the call should be priced as: the provider's model id,
 * or the config's `priceAs` for an offline or local run priced as a hosted model.
 * `cachedInputTokens` is the part of `inputTokens` the provider served from its prompt cache.
 */
export function priceCall(
  table: PriceTable,
  model: string,
  inputTokens: number,
  outputTokens: number,
  cachedInputTokens = 0,
): CallPrice {
  const found = findPrice(table, model);
  if (!found) return { costUsd: 0, priced: false };
  const { price } = found;
  const cached = Math.min(Math.max(0, cachedInputTokens), inputTokens);
  const costUsd =
    ((inputTokens - cached) * price.input + cached * (price.cachedInput ?? price.input) + outputTokens * price.output) / 1_000_000;
  return { costUsd, priced: true, pricedAs: found.model };
}

/** Upper-bound dollars for a call before it is made (budget checks): output priced at maxOutputTokens. */
export function estimateCallCost(table: PriceTable, model: string, inputTokens: number, maxOutputTokens: number): number {
  return priceCall(table, model, inputTokens, maxOutputTokens).costUsd;
}

/**
 * Dollars of several calls together: null when any of them is unpriced (a sum that left one out
 * would be a made-up figure, and 0 would read as free).
 */
export function sumCosts(costs: Iterable<number | null | undefined>): number | null {
  let total = 0;
  for (const c of costs) {
    if (c === null) return null;
    total += c ?? 0;
  }
  return total;
}

/**
 * The run's price table: the shipped one with the config's `prices:` merged over it, model by
 * model (a user's entry replaces the shipped one of the same id). `spec` is a path (relative to
 * `baseDir`, the config's folder) or an inline table, already validated by the config schema.
 */
export function loadRunPrices(spec: string | z.infer<typeof priceTableSchema> | undefined, baseDir: string, shippedPath: string = DEFAULT_PRICES_PATH): PriceTable {
  const shipped = loadPriceTable(shippedPath);
  if (spec === undefined) return shipped;
  const user: PriceTable = typeof spec === 'string' ? loadPriceTable(resolvePath(baseDir, spec)) : spec;
  return {
    ...shipped,
    models: { ...shipped.models, ...user.models },
    user: { ...(user.path ? { path: user.path } : {}), ...(user.asOf ? { asOf: user.asOf } : {}), models: Object.keys(user.models) },
  };
}

/** Days after which a price table is called stale. */
export const STALE_PRICES_DAYS = 90;

/**
 * How old a table's `asOf` is, in days (a month-only date counts from the month's first day), or
 * null when it has none or it is not a date.
 */
export function priceTableAgeDays(asOf: string | undefined, now: Date = new Date()): number | null {
  if (!asOf) return null;
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?/.exec(asOf);
  if (!m) return null;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, m[3] ? Number(m[3]) : 1);
  return Math.floor((now.getTime() - t) / 86_400_000);
}

/** A warning when the shipped table is older than STALE_PRICES_DAYS, else null. */
export function stalePricesWarning(table: PriceTable, now: Date = new Date()): string | null {
  const age = priceTableAgeDays(table.asOf, now);
  if (age === null || age <= STALE_PRICES_DAYS) return null;
  const where = table.path ? ` (${table.path})` : '';
  return `the price table${where} is from ${table.asOf}, ${age} days ago: prices may have changed; check them against your provider's page and put current ones in the config's \`prices:\` (merged over the shipped table)`;
}
