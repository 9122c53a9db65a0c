import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES_PATH, PRICES_SNAPSHOT_PATH, PriceTableError, findPrice, loadPriceTable, parsePriceTable, priceCall, priceSnapshot } from '../../../harness/models/prices.ts';

const table = loadPriceTable();

describe('configs/prices.yaml', () => {
  it('prices the common models, with a date, and treebench’s own models at 0', () => {
    for (const m of [
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-4.1',
      'gpt-4.1-mini',
      'gpt-4.1-nano',
      'o3',
      'o4-mini',
      'gpt-5',
      'gpt-5-mini',
      'gpt-5-nano',
      'text-embedding-3-small',
      'text-embedding-3-large',
    ]) {
      expect(table.models[m], m).toBeDefined();
      expect(table.models[m].input, m).toBeGreaterThan(0);
    }
    expect(table.models['offline-reasoner']).toEqual({ input: 0, output: 0 });
    expect(table.models.hash).toEqual({ input: 0, output: 0 });
    expect(table.asOf).toMatch(/^20\d\d-\d\d/);
    expect(table.path).toBe(DEFAULT_PRICES_PATH);
  });
});

describe("the build's snapshot of the shipped table", () => {
  it('is the table the YAML parses to, exactly, and is read only while the YAML is the text it was made from', () => {
    const text = readFileSync(DEFAULT_PRICES_PATH, 'utf8');
    const parsed = parsePriceTable(text, DEFAULT_PRICES_PATH);
    expect(JSON.parse(priceSnapshot()).table).toStrictEqual(parsed);
    // What a run reads: the build's snapshot while it is of this text (npm ci builds), else the YAML.
    const snap = existsSync(PRICES_SNAPSHOT_PATH) ? JSON.parse(readFileSync(PRICES_SNAPSHOT_PATH, 'utf8')) : null;
    if (snap?.sha256 === JSON.parse(priceSnapshot()).sha256) expect(snap.table).toStrictEqual(parsed);
    expect(loadPriceTable()).toStrictEqual({ ...parsed, path: DEFAULT_PRICES_PATH });
    // The same text elsewhere, or an edited copy, is parsed from its YAML.
    const dir = mkdtempSync(join(tmpdir(), 'tb-snapshot-'));
    writeFileSync(join(dir, 'prices.yaml'), text.replace('gpt-4o-mini:            { input: 0.15,', 'gpt-4o-mini:            { input: 0.16,'));
    expect(loadPriceTable(join(dir, 'prices.yaml')).models['gpt-4o-mini']!.input).toBe(0.16);
  });
});

describe('priceCall', () => {
  const t = parsePriceTable('models:\n  m: { input: 2.5, output: 10, cachedInput: 1.25 }\n  e: { input: 0.02, output: 0 }\n');

  it('prices input and output per million tokens', () => {
    expect(priceCall(t, 'm', 1000, 500)).toEqual({ costUsd: (1000 * 2.5 + 500 * 10) / 1e6, priced: true, pricedAs: 'm' });
    expect(priceCall(t, 'e', 1_000_000, 0).costUsd).toBeCloseTo(0.02, 12);
    expect(priceCall(t, 'm', 0, 0).costUsd).toBe(0);
  });

  it('prices cached prompt tokens at cachedInput, and at input when no cached price is given', () => {
    expect(priceCall(t, 'm', 1000, 0, 600).costUsd).toBeCloseTo((400 * 2.5 + 600 * 1.25) / 1e6, 15);
    expect(priceCall(t, 'e', 1000, 0, 600).costUsd).toBeCloseTo((1000 * 0.02) / 1e6, 15);
  });

  it('reports an unknown model as unpriced at 0, never a guess', () => {
    expect(priceCall(t, 'llama-3.1-8b', 1000, 1000)).toEqual({ costUsd: 0, priced: false });
    // No prefix matching: a longer name is a different model.
    expect(priceCall(table, 'gpt-4o-mini-tts', 1000, 1000).priced).toBe(false);
    expect(priceCall(table, 'gpt-4o-mini', 1_000_000, 0).costUsd).toBeCloseTo(table.models['gpt-4o-mini'].input, 12);
  });

  it('prices dated snapshots and provider-prefixed ids as their base model', () => {
    expect(findPrice(table, 'gpt-4o-2024-08-06')?.model).toBe('gpt-4o');
    expect(findPrice(table, 'openai:gpt-4.1-mini')?.model).toBe('gpt-4.1-mini');
    expect(findPrice(table, 'openai:text-embedding-3-small')?.model).toBe('text-embedding-3-small');
    expect(priceCall(table, 'gpt-5-mini-2025-08-07', 1000, 1000).priced).toBe(true);
  });

  it('prices an offline run as a named model when the caller passes priceAs', () => {
    const offline = priceCall(table, 'offline-reasoner', 10_000, 1_000);
    expect(offline).toEqual({ costUsd: 0, priced: true, pricedAs: 'offline-reasoner' });
    const asMini = priceCall(table, 'gpt-4.1-mini', 10_000, 1_000);
    expect(asMini.costUsd).toBeCloseTo((10_000 * 0.4 + 1_000 * 1.6) / 1e6, 12);
  });
});

describe('loadPriceTable errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'treebench-prices-'));
  const write = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('names the file, line, model and field of a bad price', () => {
    const p = write('bad.yaml', 'asOf: 2025-08\nmodels:\n  gpt-4o: { input: 2.5, output: 10 }\n  gpt-x: { input: "cheap", output: 1 }\n');
    expect(() => loadPriceTable(p)).toThrow(PriceTableError);
    expect(() => loadPriceTable(p)).toThrow(`${p}:4: model "gpt-x", field "input": must be a number (USD per 1M tokens), got "cheap"`);
  });

  it('names a missing field, a negative price and an unknown field', () => {
    expect(() => parsePriceTable('models:\n  a:\n    input: 1\n', 'p.yaml')).toThrow(/model "a", field "output": .*missing/);
    expect(() => parsePriceTable('models:\n  a: { input: -1, output: 1 }\n', 'p.yaml')).toThrow(/p\.yaml:2: model "a", field "input": must be >= 0/);
    expect(() => parsePriceTable('models:\n  a: { input: 1, output: 1, outptu: 2 }\n', 'p.yaml')).toThrow(/model "a": unknown field\(s\) outptu/);
  });

  it('reports YAML syntax errors and unreadable files with the path', () => {
    expect(() => parsePriceTable('models: {a: {input: 1', 'p.yaml')).toThrow(/^p\.yaml:1: invalid YAML/);
    expect(() => loadPriceTable(join(dir, 'missing.yaml'))).toThrow(/missing\.yaml: cannot read the price table/);
  });
});
