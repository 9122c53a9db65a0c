// Issue 25, item 4: the corpus index's embedding calls are metered like ctx.embed's. A server
// that reports no usage used to leave `inputTokens 0` in the manifest, and the index's cost was
// in no report.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValueIndex } from '../../../harness/retrieval/valueIndex.ts';
import { countTokens } from '../../../harness/models/tokenizer.ts';
import { validateConfig, type LoadedConfig } from '../../../harness/config/runConfig.ts';
import { runBenchmark } from '../../../harness/run/runner.ts';
import { loadBenchmarkData } from '../../../datasets/registry.ts';
import { render } from '../../../reports/index.ts';
import { reportMeta } from '../../../reports/meta.ts';
import type { Corpus, Embedder } from '../../../harness/types.ts';
import { FakeOpenAIServer, defaultEmbeddings, type RecordedRequest } from '../../helpers/fake-openai-server.ts';

const corpus: Corpus = {
  name: 'c',
  docs: [{ docId: 'd', title: 'D', nodes: [{ id: 'n1', title: 'A', text: 'The filter lasts six months in normal use.', children: [] }, { id: 'n2', title: 'B', text: 'Night mode runs at twenty-two decibels.', children: [] }] }],
};

function embedder(usage: boolean): Embedder {
  return {
    id: 'openai:text-embedding-3-small',
    dim: 2,
    embed: async (texts) => ({ vectors: texts.map(() => Float32Array.of(1, 0)), ...(usage ? { usage: { inputTokens: 7 } } : {}) }),
  };
}

describe('corpus index accounting', () => {
  it('counts the tokens of a server that reports no usage, and says they are estimates', async () => {
    const ix = await ValueIndex.build(corpus, embedder(false), { chunkTokens: 100, overlap: 0 });
    const expected = ix.chunks.reduce((n, c) => n + countTokens(c.text, 'openai:text-embedding-3-small'), 0);
    expect(expected).toBeGreaterThan(0);
    expect(ix.stats).toMatchObject({ embedCalls: 1, inputTokens: expected, estimated: true });
  });

  it('takes the reported usage when there is one', async () => {
    const ix = await ValueIndex.build(corpus, embedder(true), { chunkTokens: 100, overlap: 0 });
    expect(ix.stats.inputTokens).toBe(7);
    expect(ix.stats.estimated).toBeUndefined();
  });

  it('a run prices the index and the reports show it, apart from $/q', async () => {
    const server = await FakeOpenAIServer.start();
    // Embeddings without a usage field, as some OpenAI-compatible servers send them.
    const withUsage = defaultEmbeddings(1536);
    server.onEmbeddings = async (req: RecordedRequest) => {
      const reply = await withUsage(req);
      const { usage: _u, ...body } = reply.body as Record<string, unknown>;
      return { ...reply, body };
    };
    const before = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = ['fake', 'key', 'index'].join('-');
    try {
      const raw = {
        name: 'index-cost',
        dataset: { format: 'sample' },
        model: { provider: 'offline', priceAs: 'gpt-4o-mini', baseURL: server.baseURL },
        embedder: 'openai:text-embedding-3-small',
        strategies: ['node-list'],
        run: { limit: 2 },
        index: { cache: { enabled: false } },
      };
      const { config, strategies } = validateConfig(raw);
      const loaded: LoadedConfig = { path: join(process.cwd(), 'index-cost.yaml'), baseDir: process.cwd(), raw: JSON.stringify(raw), config, strategies };
      const data = await loadBenchmarkData(loaded.config, loaded.baseDir);
      const out = await runBenchmark({ loaded, data, outDir: mkdtempSync(join(tmpdir(), 'treebench-index-')), runId: 'ix' });
      const ix = out.manifest.index!;
      expect(server.requestsTo('/v1/embeddings').length).toBeGreaterThan(0);
      expect(ix.inputTokens).toBeGreaterThan(1000);
      expect(ix.estimated).toBe(true);
      // text-embedding-3-small: $0.02 per million input tokens (configs/prices.yaml).
      expect(ix.costUsd).toBeCloseTo((ix.inputTokens * 0.02) / 1e6, 15);
      expect(ix.priced).toBe(true);
      const meta = reportMeta(out.manifest);
      for (const format of ['table', 'md'] as const) {
        expect(render(format, { summary: out.summary, meta })).toMatch(/corpus index\*{0,2}: \d+ chunks, \d+ embedding calls, [\d,]+ tokens \(estimated: the server reported no usage\), \$[\d.e-]+ \(once per run, not in \$\/q\)/);
      }
      expect(render('csv', { summary: out.summary, meta })).toContain('index.costUsd');
    } finally {
      if (before === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = before;
      await server.close();
    }
  }, 60_000);
});
