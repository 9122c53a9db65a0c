// A config's own prices (`prices:`, a file or inline) merged over the shipped table; the shipped
// table's date and a warning once it is older than 90 days; unpriced costs are n/a, never 0.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES_PATH, findPrice, loadRunPrices, priceTableAgeDays, stalePricesWarning, sumCosts } from '../../../harness/models/prices.ts';
import { chatCompletion, useFakeOpenAIServer } from '../../helpers/fake-openai-server.ts';
import { cli, recordLines, tmp, writeConfig } from '../../resilience/helpers.ts';

const server = useFakeOpenAIServer();

describe('user prices', () => {
  it('merges a prices file (relative to the config) and an inline table over the shipped one', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'mine.yaml'), 'asOf: 2026-11\nmodels:\n  my-local: { input: 0, output: 0 }\n  gpt-4o-mini: { input: 1, output: 2 }\n');
    const fromFile = loadRunPrices('mine.yaml', dir);
    expect(findPrice(fromFile, 'my-local')?.price).toEqual({ input: 0, output: 0 });
    expect(findPrice(fromFile, 'gpt-4o-mini')?.price).toEqual({ input: 1, output: 2 }); // the user's wins
    expect(findPrice(fromFile, 'gpt-4o')).toBeDefined(); // the shipped rest is kept
    expect(fromFile.user).toEqual({ path: join(dir, 'mine.yaml'), asOf: '2026-11', models: ['my-local', 'gpt-4o-mini'] });
    const inline = loadRunPrices({ models: { 'acme-1': { input: 3, output: 4 } } }, dir);
    expect(findPrice(inline, 'acme-1')?.price).toEqual({ input: 3, output: 4 });
    expect(() => loadRunPrices('missing.yaml', dir)).toThrow(/missing\.yaml: cannot read the price table/);
  });

  it('dates the shipped table and warns past 90 days', () => {
    expect(priceTableAgeDays('2025-08', new Date('2025-08-31T00:00:00Z'))).toBe(30);
    expect(priceTableAgeDays('2025-08-15', new Date('2025-08-16T00:00:00Z'))).toBe(1);
    expect(priceTableAgeDays('August', new Date())).toBeNull();
    const table = loadRunPrices(undefined, '.');
    expect(stalePricesWarning({ ...table, asOf: '2025-08' }, new Date('2025-10-01T00:00:00Z'))).toBeNull();
    expect(stalePricesWarning({ ...table, asOf: '2025-08' }, new Date('2026-01-01T00:00:00Z'))).toBe(
      `the price table (${DEFAULT_PRICES_PATH}) is from 2025-08, 153 days ago: prices may have changed; check them against your provider's page and put current ones in the config's \`prices:\` (merged over the shipped table)`,
    );
  });

  it('sums costs to null when one is unpriced', () => {
    expect(sumCosts([1, 2, undefined])).toBe(3);
    expect(sumCosts([1, null, 2])).toBeNull();
    expect(sumCosts([])).toBe(0);
  });

  it('a run prices a model the shipped table lacks from the config, and says where the prices came from', async () => {
    server.onChat = chatCompletion('{"answer": "x"}', { prompt: 1000, completion: 100 });
    const dir = tmp();
    const model = { provider: 'openai', model: 'acme-1', baseURL: server.baseURL, maxRetries: 0 };
    const priced = writeConfig(dir, { model, prices: { models: { 'acme-1': { input: 3, output: 4 } } }, strategies: ['vector'], run: { outDir: join(dir, 'runs'), limit: 2 }, reports: ['csv'] });
    const res = await cli('run', priced, '--run-id', 'p', '--format', 'table', '--quiet');
    expect(res.code, res.err).toBe(0);
    expect(recordLines(join(dir, 'runs', 'p', 'records.jsonl')).map((r) => r.costUsd)).toEqual([(1000 * 3 + 100 * 4) / 1e6, (1000 * 3 + 100 * 4) / 1e6]);
    expect(res.out).toMatch(/\$: prices from configs\/prices\.yaml as of 2025-08 \+ the config's prices: for acme-1/);

    // Without them the model is unpriced: null in records, empty cost cells (and intervals) in the CSV.
    const unpriced = writeConfig(dir, { model, strategies: ['vector'], run: { outDir: join(dir, 'runs'), limit: 2 }, reports: ['csv'] }, 'unpriced.yaml');
    const u = await cli('run', unpriced, '--run-id', 'u', '--quiet');
    expect(u.code, u.err).toBe(0);
    expect(recordLines(join(dir, 'runs', 'u', 'records.jsonl')).map((r) => r.costUsd)).toEqual([null, null]);
    const { readFileSync } = await import('node:fs');
    const [head, row] = readFileSync(join(dir, 'runs', 'u', 'report.csv'), 'utf8').split('\r\n').map((l) => l.split(','));
    for (const col of ['costPerQuestion', 'totalCost', 'costPerQuestion.ciLo', 'costPerQuestion.ciHi']) {
      const i = head!.indexOf(col);
      if (i >= 0) expect(row![i], col).toBe('');
    }
    expect(head).toContain('costPerQuestion');
  }, 60_000);
});
