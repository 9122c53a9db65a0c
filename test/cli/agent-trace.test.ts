// `treebench trace` on an agent record: every tool call with its arguments, stated reason and
// result preview, readable, and with no terminal control characters from model or dataset text.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';
import { formatTrace } from '../../reports/trace.ts';
import type { RunRecord } from '../../harness/types.ts';

describe('treebench trace, agent', () => {
  it('prints each tool call with its arguments, reason and result', async () => {
    const out = mkdtempSync(join(tmpdir(), 'treebench-agent-trace-'));
    expect((await runCli(['run', 'configs/quickstart.yaml', '--limit', '1', '--strategies', 'agent', '--out', out, '--run-id', 'a', '--quiet'])).code).toBe(0);
    const res = await runCli(['trace', join(out, 'a'), '--question', 'sample-001', '--strategy', 'agent']);
    expect(res.code).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines.find((l) => /^\s+1 list_documents\(\) \[llm\]$/.test(l))).toBeDefined();
    expect(res.stdout).toMatch(/search_sections\("query":"On which day of the month/);
    expect(res.stdout).toMatch(/get_section_content\("doc_id":"[^"]+","node_id":"[^"]+"\) "[^"]+" \[llm\]/);
    expect(lines.filter((l) => /^\s+why: {4}\S/.test(l)).length).toBeGreaterThanOrEqual(3);
    expect(lines.filter((l) => /^\s+result: \{/.test(l)).length).toBeGreaterThanOrEqual(3);
    expect(res.stdout).toMatch(/^\s+\d+ answer\s+\[llm\] — /m);
  });

  it('strips control characters from reasons and results', () => {
    const record = {
      questionId: 'q', strategy: 'agent', repeat: 0, question: 'q?', gold: ['x'], answer: 'x', scores: null, retrieval: null,
      calls: 1, inputTokens: 1, outputTokens: 1, nodesVisited: 0, nodesOpened: 0, budgetExhausted: null, error: null, evidence: [],
      trace: [{ step: 1, action: 'tool', source: 'llm', tool: 'search_sections', args: { query: 'a' }, reason: 'why\u001b[31m red', result: 'Error executing search_sections: \u0007bell' }],
    } as unknown as RunRecord;
    const text = formatTrace(record, null);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(text).toContain('why:    why [31m red');
    expect(text).toContain('result: Error executing search_sections: bell');
  });
});
