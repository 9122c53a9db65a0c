// Shared by the resilience suites: temporary folders, configs written as YAML files, and the
// CLI driven in-process with its output captured.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { recordKey } from '../../harness/run/store.ts';
import type { RunRecord } from '../../harness/types.ts';

export const tmp = (): string => mkdtempSync(join(tmpdir(), 'treebench-resilience-'));

/** Writes `config` (merged over a small offline sample config) as YAML; returns its path. */
export function writeConfig(dir: string, config: Record<string, unknown>, name = 'config.yaml'): string {
  const full = { name: 'resilience', dataset: { format: 'sample' }, strategies: ['node-list'], reports: ['csv'], ...config };
  const path = join(dir, name);
  writeFileSync(path, stringify(full));
  return path;
}

export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
  try {
    return { code: await main(argv), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

/** Every complete line of a records file, parsed. */
export function recordLines(path: string): RunRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as RunRecord);
}

/** key -> number of lines with that key. */
export function keyCounts(records: RunRecord[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of records) m.set(recordKey(r), (m.get(recordKey(r)) ?? 0) + 1);
  return m;
}

/** A comparable view of a run's outcome: key -> answer, sorted. */
export function answersByKey(records: RunRecord[]): Array<[string, string]> {
  return records.map((r) => [recordKey(r), r.answer] as [string, string]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
}
