import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig, type LoadedConfig } from '../../../harness/config/runConfig.ts';
import { runBenchmark, type BenchmarkData } from '../../../harness/run/runner.ts';
import type { ChatMessage, ChatProvider, ChatResult, DocTree } from '../../../harness/types.ts';
import { OfflineReasoner } from '../../../harness/models/providers/offline.ts';
import { extractPayload } from '../../../strategies/prompts.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'treebench-summaries-'));

function corpus(): DocTree[] {
  return [
    {
      docId: 'manual',
      title: 'Widget manual',
      nodes: [
        { id: '1', title: 'Setup', text: 'Unpack the widget. Connect the power cable to the rear socket and press the power button for two seconds.', children: [] },
        { id: '2', title: 'Cleaning', text: 'Wipe the casing with a dry cloth. Never immerse the widget in water or use solvents on the display.', children: [] },
        { id: '3', title: 'Warranty', summary: 'Given by the author.', text: 'Two years from purchase.', children: [] },
      ],
    },
  ];
}

function data(): BenchmarkData {
  return { name: 'widgets', corpus: { name: 'widgets', docs: corpus() }, questions: [{ id: 'q1', question: 'How do I clean the widget?', answers: ['dry cloth'] }], warnings: [], notes: [], files: [] };
}

function configOf(cacheDir: string): LoadedConfig {
  const full = { name: 'sum', dataset: { format: 'sample' }, corpus: { summaries: 'model', cacheDir }, model: { provider: 'offline', priceAs: 'gpt-4o-mini' }, strategies: ['node-list'] };
  const { config, strategies } = validateConfig(full);
  return { path: join(process.cwd(), 'sum.yaml'), baseDir: process.cwd(), raw: JSON.stringify(full), config, strategies };
}

/** The offline reasoner, except that `summarize` gets a scripted reply (and one node an unusable one). */
class ScriptedSummaries implements ChatProvider {
  readonly id = 'offline-reasoner';
  readonly offline = true;
  summarizeCalls = 0;
  private readonly inner = new OfflineReasoner();
  async chat(messages: ChatMessage[], opts: Parameters<ChatProvider['chat']>[1]): Promise<ChatResult> {
    const p = extractPayload(messages);
    if (p?.task === 'summarize') {
      this.summarizeCalls++;
      if (p.section.title === 'Setup') return { text: 'no json here', model: this.id, usage: { inputTokens: 100, outputTokens: 3 } };
      return { text: JSON.stringify({ summary: `How to ${p.section.title.toLowerCase()} it.` }), model: this.id, usage: { inputTokens: 100, outputTokens: 8 } };
    }
    return this.inner.chat(messages, opts);
  }
}

describe('model-written summaries at ingestion', () => {
  it('summarises nodes without a summary once, reports the cost apart from questions, and the next run pays nothing', async () => {
    const cache = join(tmp(), 'ingest');
    const out = tmp();
    const provider = new ScriptedSummaries();
    const d = data();
    const first = await runBenchmark({ loaded: configOf(cache), data: d, outDir: out, runId: 'a', provider });
    const nodes = d.corpus.docs[0].nodes;
    expect(nodes[1].summary).toBe('How to cleaning it.');
    expect(nodes[2].summary).toBe('Given by the author.'); // given summaries are kept
    // Setup's reply was unusable twice (first try + retry): it gets an extractive summary instead.
    expect(nodes[0].summary).toMatch(/power/);
    expect(provider.summarizeCalls).toBe(3);
    const ing = first.manifest.ingestion!.summaries!;
    expect(ing).toMatchObject({ nodes: 2, calls: 3, cached: 0, fallbacks: 1, inputTokens: 300, outputTokens: 14 });
    expect(ing.costUsd).toBeGreaterThan(0);
    // Per-question cost does not include ingestion: the node-list record only has its own calls.
    const rec = first.records[0];
    expect(rec.callLog.every((c) => c.task !== 'summarize')).toBe(true);

    const again = new ScriptedSummaries();
    const second = await runBenchmark({ loaded: configOf(cache), data: data(), outDir: out, runId: 'b', provider: again });
    expect(again.summarizeCalls).toBe(0);
    expect(second.manifest.ingestion!.summaries).toMatchObject({ calls: 3, cached: 3 });
  });
});
