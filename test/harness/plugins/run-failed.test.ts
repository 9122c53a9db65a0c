// `treebench run` over a worker that fails: the exit-3 message names the worker's stderr log,
// where the worker's own account of its errors (a traceback) went.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/runCli.ts';

describe('a run whose worker fails', () => {
  it('exits 3 naming the commonest error and the worker stderr log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'treebench-run-failed-'));
    writeFileSync(join(dir, 'broken.py'), 'import sys\nfor line in sys.stdin:\n    raise RuntimeError("index not built")\n');
    writeFileSync(
      join(dir, 'c.yaml'),
      `name: run-failed
dataset: { format: sample }
strategies:
  - id: broken
    command: [python3, ./broken.py]
run: { outDir: ${JSON.stringify(join(dir, 'runs'))} }
index: { cache: { enabled: false } }
reports: []
`,
    );
    const out = await runCli(['run', join(dir, 'c.yaml'), '--limit', '3', '--run-id', 'r1']);
    expect(out.code).toBe(3);
    expect(out.stderr).toMatch(/run failed: 3 of 3 records are errors/);
    expect(out.stderr).toMatch(/RuntimeError: index not built/);
    expect(out.stderr).toContain(`worker stderr: ${join(dir, 'runs', 'r1', 'logs', 'broken.stderr.log')}`);
  }, 60_000);
});
