// `treebench tune --format json` prints the tune summary as JSON, like every other command's --format json.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from './runCli.ts';

it('tune --format json prints the rungs, survivors and recommendation as JSON', { timeout: 120_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'treebench-tune-json-'));
  const res = await runCli(['tune', 'configs/tune.yaml', '--limit', '6', '--min-questions', '2', '--out', out, '--run-id', 'tj', '--set', `cache.dir=${join(out, 'cache')}`, '--quiet', '--format', 'json']);
  expect(res.code).toBe(0);
  const j = JSON.parse(res.stdout);
  expect(j.format).toBe('treebench-tune');
  expect(j.runId).toBe('tj');
  expect(j.rungs.length).toBeGreaterThan(0);
  expect(j.rungs[0].questions).toBe(2);
  expect(Array.isArray(j.survivors)).toBe(true);
});
