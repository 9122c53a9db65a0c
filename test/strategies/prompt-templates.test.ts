// Prompts as data: a config entry replaces a built-in's prompt with a template file; the template
// is what the model is sent (variables filled from the payload), the inputs payload stays, and the
// template's text is part of the config hash.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBenchmark } from '../../index.ts';
import { validateConfig } from '../../harness/config/runConfig.ts';
import { configHashOf } from '../../harness/config/overrides.ts';
import { OfflineReasoner } from '../../harness/models/providers/offline.ts';
import type { ChatMessage, ChatOptions, ChatProvider } from '../../harness/types.ts';

/** The offline reasoner, remembering every conversation it was sent. */
function recording(): ChatProvider & { seen: ChatMessage[][] } {
  const inner = new OfflineReasoner();
  const seen: ChatMessage[][] = [];
  return { id: inner.id, offline: true, seen, chat: (m: ChatMessage[], o: ChatOptions) => (seen.push(m), inner.chat(m, o)) };
}

describe('prompt templates', () => {
  const dir = mkdtempSync(join(tmpdir(), 'treebench-prompts-'));
  writeFileSync(join(dir, 'select.md'), 'Pick at most {{max_nodes}} sections of "{{doc_title}}" for: {{question}}\n{{default}}');
  const config = (prompts: Record<string, string>) => ({
    name: 'prompts',
    dataset: { format: 'sample' },
    strategies: [{ strategy: 'node-list', prompts }],
    run: { outDir: join(dir, 'runs') },
    index: { cache: { enabled: false } },
    reports: [],
  });

  it('sends the filled template instead of the built-in instruction, and keeps the payload', async () => {
    const provider = recording();
    const out = await runBenchmark(config({ 'select-nodes': './select.md' }), { baseDir: dir, limit: 2, provider });
    expect(out.records.every((r) => r.error === null)).toBe(true);
    const select = provider.seen.filter((m) => m[1]!.content.startsWith('Task: select-nodes'));
    expect(select).toHaveLength(2);
    const q = out.records[0]!.question;
    expect(select[0]![0]!.content).toMatch(new RegExp(`^Pick at most 4 sections of ".+" for: ${q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\nYou are given a question and the table of contents`));
    // The other prompt of the strategy is the built-in one.
    const answer = provider.seen.find((m) => m[1]!.content.startsWith('Task: answer'))!;
    expect(answer[0]!.content).toMatch(/^Answer the question using only the context passages/);
  }, 30_000);

  it('refuses a prompt the strategy does not send and a variable its payload does not have', () => {
    writeFileSync(join(dir, 'bad.md'), 'Use {{max_picks}} and {{questoin}}');
    const err = (prompts: Record<string, string>) => {
      try {
        validateConfig(config(prompts), () => 'x.yaml', dir);
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(err({ sufficiency: './select.md' })).toMatch(/strategies\[0\]\.prompts\.sufficiency: node-list has no prompt "sufficiency" \(its prompts: select-documents, select-nodes, answer/);
    expect(err({ 'select-nodes': './bad.md' })).toMatch(/bad\.md: unknown variables \{\{max_picks\}\}, \{\{questoin\}\}/);
    expect(err({ answer: './missing.md' })).toMatch(/strategies\[0\]\.prompts\.answer: \.\/missing\.md: no such file/);
  });

  it("replaces the agent's exploration guidance in both tool modes; the tool protocol and answer shape stay", async () => {
    writeFileSync(join(dir, 'agent.md'), 'Explore carefully, at most {{max_tool_calls}} tools, for: {{question}}\n{{default}}');
    const agentConfig = (toolMode: string) => ({ ...config({}), strategies: [{ strategy: 'agent', params: { toolMode }, prompts: { agent: './agent.md' } }] });
    for (const mode of ['native', 'text']) {
      const provider = recording();
      const out = await runBenchmark(agentConfig(mode), { baseDir: dir, limit: 2, provider });
      expect(out.records.every((r) => r.error === null && r.calls >= 2)).toBe(true);
      const q = out.records[0]!.question;
      const system = provider.seen.find((m) => m[1]!.content.includes(q))![0]!.content;
      expect(system.startsWith(`Explore carefully, at most 8 tools, for: ${q}\nYou answer a question about a collection of documents`)).toBe(true);
      expect(system).toMatch(/You may call at most 8 tools\./);
      expect(system).toMatch(mode === 'text' ? /You call a tool by replying with JSON only/ : /reply with JSON only: \{"answer"/);
      // The template reached every turn of the conversation, not only the first.
      expect(provider.seen.every((m) => m[0]!.content.startsWith('Explore carefully'))).toBe(true);
    }
    writeFileSync(join(dir, 'agent-bad.md'), 'Use {{max_nodes}}');
    expect(() => validateConfig({ ...config({}), strategies: [{ strategy: 'agent', prompts: { agent: './agent-bad.md' } }] }, () => 'x.yaml', dir)).toThrow(/agent-bad\.md: unknown variable \{\{max_nodes\}\} \(the agent prompt has: \{\{question\}\}/);
  }, 60_000);

  it('makes a changed template a different config', () => {
    const a = configHashOf(validateConfig(config({ 'select-nodes': './select.md' }), () => 'x', dir));
    writeFileSync(join(dir, 'select.md'), 'Pick {{max_nodes}}.');
    const b = configHashOf(validateConfig(config({ 'select-nodes': './select.md' }), () => 'x', dir));
    expect(a).not.toBe(b);
  });
});
