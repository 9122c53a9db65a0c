// Model-built trees (datasets/treeBuild/model.ts, withModel.ts): a scripted model on a loopback
// server builds the tree of an earnings-release-like PDF with no contents page, through the
// metered door (harness/run/ingestionModel.ts), cached in the ingestion cache, its cost reported
// as ingestion cost; wrong start pages are verified and fixed; bad replies keep the offline tree.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPdfs } from '../../../datasets/ingest.ts';
import { loadBenchmarkData } from '../../../datasets/registry.ts';
import { poorTreeReason } from '../../../datasets/treeBuild/withModel.ts';
import { ingestionModelFor } from '../../../harness/run/ingestionModel.ts';
import { parseModelConfig } from '../../../harness/models/providers/registry.ts';
import { validateConfig, type LoadedConfig } from '../../../harness/config/runConfig.ts';
import { runBenchmark } from '../../../harness/run/runner.ts';
import { ingestionNote } from '../../../harness/run/estimate.ts';
import { OfflineReasoner } from '../../../harness/models/providers/offline.ts';
import { render } from '../../../reports/index.ts';
import { reportMeta } from '../../../reports/meta.ts';
import type { DocTree, TreeNode } from '../../../harness/types.ts';
import { chatCompletion, useFakeOpenAIServer, type RecordedRequest } from '../../helpers/fake-openai-server.ts';
import { tmpFiles } from '../helpers.ts';
import { makePdf } from '../pdf-writer.ts';

const server = useFakeOpenAIServer();
const KEY_VAR = 'TREEBENCH_MODEL_TREE_TEST_KEY';
beforeAll(() => void (process.env[KEY_VAR] = 'sk-test'));
afterAll(() => void delete process.env[KEY_VAR]);

const body = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `The ${topic} figures for the quarter are discussed in line ${i + 1} of this part of the release.`);

/** An earnings release: a title, a few headings in body type, tables; no contents page. */
const RELEASE: string[][] = [
  ['Acme Corp Reports Fourth Quarter 2025 Results', 'Fourth Quarter Highlights', ...body('highlight', 6)],
  [...body('revenue', 9)],
  ['Segment Results', 'Cloud 1,234 1,100 12%', 'Devices 567 600 -5%', ...body('segment', 5)],
  ['Business Outlook', ...body('outlook', 7)],
  ['Conference Call', ...body('webcast', 3), 'About Acme Corp', ...body('company', 3)],
  ['Condensed Consolidated Statements of Operations', 'Revenue 1,801 1,700', 'Net income 301 280', ...body('statement', 3)],
];

/** What the scripted model says: two start pages wrong (one by two pages, one far off). */
const GENERATED = [
  { title: 'Acme Corp Reports Fourth Quarter 2025 Results', level: 1, start_page: 1 },
  { title: 'Fourth Quarter Highlights', level: 2, start_page: 1 },
  { title: 'Segment Results', level: 2, start_page: 3 },
  { title: 'Business Outlook', level: 2, start_page: 2 }, // printed on page 4: found on a neighbouring page
  { title: 'Conference Call', level: 2, start_page: 5 },
  { title: 'About Acme Corp', level: 2, start_page: 1 }, // printed on page 5: the model is asked again
  { title: 'Condensed Consolidated Statements of Operations', level: 2, start_page: 6 },
  { title: 'Dividend Declaration', level: 2, start_page: 6 }, // printed nowhere: left out
];

const taskOf = (req: RecordedRequest): string => /^Task: ([\w-]+)/.exec(String(req.body?.messages?.[0]?.content ?? ''))?.[1] ?? '?';
const USAGE = { prompt: 1000, completion: 100 };

/** The scripted model: no contents; the sections above; "About Acme Corp" on page 5 when asked again. */
function scriptModel(overrides: Partial<Record<string, string>> = {}): void {
  server.onChat = (req) => {
    const task = taskOf(req);
    if (overrides[task] !== undefined) return chatCompletion(overrides[task]!, USAGE);
    if (task === 'tree-contents') return chatCompletion('{"contents_pages": []}', USAGE);
    if (task === 'tree-generate') return chatCompletion(JSON.stringify({ sections: GENERATED }), USAGE);
    if (task === 'tree-locate') {
      const user = String(req.body.messages[1].content);
      return chatCompletion(JSON.stringify({ start_page: user.startsWith('Section title: About Acme Corp') ? 5 : null }), USAGE);
    }
    return chatCompletion('{"unexpected": true}', USAGE);
  };
}

const modelSection = () => ({ provider: 'openai', model: 'gpt-4o-mini', baseURL: server.baseURL, apiKeyEnv: KEY_VAR, maxRetries: 0 });

function setup() {
  const dir = tmpFiles({});
  const pdfs = path.join(dir, 'pdfs');
  fs.mkdirSync(pdfs);
  fs.writeFileSync(path.join(pdfs, 'release.pdf'), makePdf(RELEASE));
  return { dir, pdfs, file: path.join(pdfs, 'release.pdf'), cacheDir: path.join(dir, 'ingest') };
}

const modelFor = (dir: string, cacheDir: string | null) => ingestionModelFor({ model: parseModelConfig(modelSection()) }, dir, cacheDir ? path.join(cacheDir, 'tree-model') : null)!;

const outline = (nodes: TreeNode[]): Array<[string, number, number]> => {
  const out: Array<[string, number, number]> = [];
  const walk = (list: TreeNode[], depth: number) => {
    for (const n of list) {
      out.push([n.title, n.pages![0], depth]);
      walk(n.children, depth + 1);
    }
  };
  walk(nodes, 1);
  return out;
};

const chatRequests = () => server.requestsTo('/v1/chat/completions');

describe('model-built trees', () => {
  it('builds the tree of a release without contents, fixes wrong start pages, and a second load makes 0 calls', async () => {
    scriptModel();
    const { dir, file, cacheDir } = setup();
    const warnings: string[] = [];
    const first = await ingestPdfs([{ file, docId: 'release' }], { tree: 'model', cacheDir, quiet: true, warnings, model: modelFor(dir, cacheDir) });
    const doc = first.docs[0] as DocTree;
    expect(doc.treeSource).toBe('model');
    expect(outline(doc.nodes)).toEqual([
      ['Acme Corp Reports Fourth Quarter 2025 Results', 1, 1],
      ['Fourth Quarter Highlights', 1, 2],
      ['Segment Results', 3, 2],
      ['Business Outlook', 4, 2],
      ['Conference Call', 5, 2],
      ['About Acme Corp', 5, 2],
      ['Condensed Consolidated Statements of Operations', 6, 2],
    ]);
    // Node text is the page text under each heading, as the offline builders cut it.
    const about = doc.nodes[0].children.find((n) => n.title === 'About Acme Corp')!;
    expect(about.text).toMatch(/^About Acme Corp\nThe company figures/);
    expect(about.text).not.toMatch(/webcast/);
    expect(doc.treeReport?.reason).toMatch(/no contents pages; generated from the page texts in 1 call\(s\): 8 sections/);
    expect(doc.treeReport?.reason).toMatch(/5 start page\(s\) verified on their page; 2 fixed \(1 on a neighbouring page, 1 by asking again\); 1 title\(s\) found on no page/);
    expect(doc.treeReport?.unlocated).toEqual(['Dividend Declaration']);
    expect(warnings.some((w) => w.includes('Dividend Declaration') && w.includes(file))).toBe(true);
    // Calls: contents, one batch, one locate for "About Acme Corp", one for the missing title.
    expect(chatRequests().map(taskOf)).toEqual(['tree-contents', 'tree-generate', 'tree-locate', 'tree-locate']);
    expect(first.stats.treeModel).toMatchObject({ documents: 1, built: 1, fallbacks: 0, calls: 4, cached: 0, inputTokens: 4000, outputTokens: 400 });
    expect(first.stats.treeModel!.costUsd).toBeGreaterThan(0);

    const before = chatRequests().length;
    const second = await ingestPdfs([{ file, docId: 'release' }], { tree: 'model', cacheDir, quiet: true, model: modelFor(dir, cacheDir) });
    expect(chatRequests().length).toBe(before); // 0 calls
    expect(second.docs[0].nodes).toEqual(doc.nodes);
    expect(second.stats.treeModel).toMatchObject({ documents: 1, built: 1, calls: 4, cached: 4, costUsd: 0 });
  });

  it('a reply that is not the JSON asked for is data: the offline tree is kept with a warning, and not cached', async () => {
    scriptModel({ 'tree-contents': 'Sure! Here are the pages: 1, 2' });
    const { dir, file, cacheDir } = setup();
    const warnings: string[] = [];
    const r = await ingestPdfs([{ file, docId: 'release' }], { tree: 'model', cacheDir, quiet: true, warnings, model: modelFor(dir, cacheDir) });
    expect(r.docs[0].treeSource).not.toBe('model');
    expect(r.docs[0].nodes.length).toBeGreaterThan(0);
    expect(warnings.find((w) => w.includes('the model could not build the tree'))).toMatch(/\(finding the contents pages: no JSON object found in the reply\); kept the offline tree \(pages\)$/);
    // The call and its retry (which shows the model the problem), both metered.
    expect(chatRequests().map(taskOf)).toEqual(['tree-contents', 'tree-contents']);
    expect(String(chatRequests()[1].body.messages.at(-1).content)).toMatch(/could not be used: no JSON object found/);
    expect(r.stats.treeModel).toMatchObject({ documents: 1, built: 0, fallbacks: 1, calls: 2 });
    // The fallback tree is not cached: the next load builds again (its replies come from the response cache).
    const next = await ingestPdfs([{ file, docId: 'release' }], { tree: 'model', cacheDir, quiet: true, warnings, model: modelFor(dir, cacheDir) });
    expect(next.stats.fromCache).toBe(0);
    expect(next.stats.treeModel).toMatchObject({ fallbacks: 1, calls: 2, cached: 2 });
    expect(chatRequests()).toHaveLength(2);
    // Sections without titles are no tree either.
    scriptModel({ 'tree-generate': '{"sections": [{"level": 1}, {"name": "x"}]}' });
    const again = await ingestPdfs([{ file, docId: 'release' }], { tree: 'model', cacheDir: null, quiet: true, warnings, model: modelFor(dir, null) });
    expect(again.docs[0].treeSource).not.toBe('model');
    expect(warnings.some((w) => /generating the sections of pages 1-6: none of the 2 sections has a "title"/.test(w))).toBe(true);
  });

  it('a server that fails keeps the offline tree with a warning', async () => {
    server.onChat = { status: 500, body: { error: { message: 'boom', type: 'server_error' } } };
    const { dir, file } = setup();
    const warnings: string[] = [];
    const r = await ingestPdfs([{ file, docId: 'release' }], { tree: 'model', cacheDir: null, quiet: true, warnings, model: modelFor(dir, null) });
    expect(r.docs[0].treeSource).not.toBe('model');
    expect(warnings.some((w) => w.includes('the model could not build the tree'))).toBe(true);
  });

  it('a printed contents: entries read from it, printed page numbers mapped to physical pages by their offset', async () => {
    const pages: string[][] = [
      ['Annual Report 2025'],
      ['Contents', 'Letter to Shareholders 1', 'Financial Review 2', 'Risk Factors 3'],
      ['Letter to Shareholders', ...body('letter', 4), '1'],
      ['Financial Review', ...body('finance', 4), '2'],
      ['Risk Factors', ...body('risk', 4), '3'],
    ];
    const { dir, cacheDir } = setup();
    const file = path.join(dir, 'annual.pdf');
    fs.writeFileSync(file, makePdf(pages));
    server.onChat = (req) => {
      const task = taskOf(req);
      if (task === 'tree-contents') return chatCompletion('{"contents_pages": [2]}');
      if (task === 'tree-toc') return chatCompletion(JSON.stringify({ sections: [{ title: 'Letter to Shareholders', level: 1, page: 1 }, { title: 'Financial Review', level: 1, page: 2 }, { title: 'Risk Factors', structure: '2.1', page: 3 }] }));
      return chatCompletion('{"start_page": null}');
    };
    const r = await ingestPdfs([{ file, docId: 'annual' }], { tree: 'model', cacheDir, quiet: true, model: modelFor(dir, cacheDir) });
    expect(outline(r.docs[0].nodes)).toEqual([
      ['Front matter', 1, 1],
      ['Letter to Shareholders', 3, 1],
      ['Financial Review', 4, 1],
      ['Risk Factors', 5, 2],
    ]);
    expect(chatRequests().map(taskOf)).toEqual(['tree-contents', 'tree-toc']);
  });

  it('auto asks the model only when the offline tree is poor, and never without a model', async () => {
    scriptModel();
    const { dir, file, cacheDir } = setup();
    const offline = await ingestPdfs([{ file, docId: 'release' }], { cacheDir: null, quiet: true });
    expect(poorTreeReason(offline.docs[0])).not.toBeNull();
    expect(chatRequests()).toHaveLength(0);
    const auto = await ingestPdfs([{ file, docId: 'release' }], { cacheDir, quiet: true, model: modelFor(dir, cacheDir) });
    expect(auto.docs[0].treeSource).toBe('model');
    expect(auto.docs[0].treeReport?.reason).toMatch(new RegExp(`^${poorTreeReason(offline.docs[0])!.replace(/[()]/g, '\\$&')}; model:`));
    // A document with bookmarks keeps them: no call.
    const n = chatRequests().length;
    const booked = path.join(dir, 'booked.pdf');
    fs.writeFileSync(booked, makePdf(RELEASE, [{ title: 'Highlights', page: 1 }, { title: 'Segments', page: 3 }, { title: 'Outlook', page: 4 }, { title: 'Statements', page: 6 }]));
    const good = await ingestPdfs([{ file: booked, docId: 'booked' }], { cacheDir, quiet: true, model: modelFor(dir, cacheDir) });
    expect(good.docs[0].treeSource).toBe('outline');
    expect(good.stats.treeModel).toBeUndefined();
    expect(chatRequests().length).toBe(n);
  });

  it('poor trees by tree inspect\'s measures: page groups, poor titles, fewer than one node per 3 pages; bookmarks never', () => {
    const doc = (source: string, titles: string[], pages: number): DocTree => ({
      docId: 'd',
      title: 'd',
      treeSource: source,
      pages: Array.from({ length: pages }, () => 'text'),
      nodes: titles.map((t, i) => ({ id: String(i + 1), title: t, pages: [i + 1, i + 1] as [number, number], children: [] })),
    });
    expect(poorTreeReason(doc('pages', ['Pages 1-5', 'Pages 6-10'], 10))).toMatch(/page groups/);
    expect(poorTreeReason(doc('layout', ['A', 'B', 'C', '1', '2', '3'], 6))).toMatch(/titles are poor/);
    expect(poorTreeReason(doc('layout', ['Title', 'Highlights', 'Outlook'], 12))).toMatch(/sparse \(3 node\(s\) for 12 pages\)/);
    expect(poorTreeReason(doc('layout', ['Title', 'Highlights', 'Outlook', 'Statements'], 12))).toBeNull();
    expect(poorTreeReason(doc('toc', ['Only one'], 3))).toBeNull(); // short documents are not sparse
    expect(poorTreeReason(doc('outline', ['Pages'], 50))).toBeNull();
  });

  it('corpus.tree: model without a model is a config error naming corpus.tree; a load without one is a data error', async () => {
    const base = { name: 't', dataset: { format: 'jsonl', path: 'q.jsonl' }, corpus: { format: 'pdf', path: 'pdfs', tree: 'model' }, strategies: ['node-list'] };
    expect(() => validateConfig(base)).toThrow(/corpus\.tree: "model" builds trees with the configured model, and model\.provider is "offline"/);
    expect(() => validateConfig({ ...base, model: modelSection() })).not.toThrow();
    const { file } = setup();
    await expect(ingestPdfs([{ file, docId: 'release' }], { tree: 'model', cacheDir: null, quiet: true })).rejects.toMatchObject({ field: 'corpus.tree' });
  });

  it('the estimate says model trees are not estimated, only where a model may build them', () => {
    const base = { name: 't', dataset: { format: 'jsonl', path: 'q.jsonl' }, corpus: { format: 'pdf', path: 'pdfs' }, strategies: ['node-list'] };
    expect(ingestionNote(validateConfig({ ...base, model: modelSection() }).config)).toMatchObject({ trees: 'auto', note: expect.stringMatching(/^trees the model builds at ingestion \(corpus.tree: auto, for documents whose offline tree is poor\) are not estimated/) });
    expect(ingestionNote(validateConfig(base).config)).toBeNull();
    expect(ingestionNote(validateConfig({ ...base, corpus: { ...base.corpus, tree: 'layout' }, model: modelSection() }).config)).toBeNull();
  });

  it('a run reports the model\'s tree calls as ingestion cost in its manifest, apart from per-question cost', async () => {
    scriptModel();
    const { dir } = setup();
    fs.writeFileSync(path.join(dir, 'q.jsonl'), JSON.stringify({ id: 'q1', question: 'What is the business outlook?', answers: ['growth'], docIds: ['release'] }) + '\n');
    const full = {
      name: 'model-trees',
      dataset: { format: 'jsonl', path: path.join(dir, 'q.jsonl') },
      corpus: { format: 'pdf', path: path.join(dir, 'pdfs'), cacheDir: path.join(dir, 'ingest') },
      model: { ...modelSection(), priceAs: 'gpt-4o-mini' },
      strategies: ['node-list'],
      reports: [],
    };
    const { config, strategies } = validateConfig(full);
    const loaded: LoadedConfig = { path: path.join(dir, 'c.yaml'), baseDir: dir, raw: JSON.stringify(full), config, strategies };
    const data = await loadBenchmarkData(loaded.config, loaded.baseDir, { quiet: true });
    expect(data.corpus.docs[0].treeSource).toBe('model');
    const calls = chatRequests().length;
    expect(calls).toBe(4);
    // The questions run on the offline reasoner: the server sees only the tree's calls.
    const out = await runBenchmark({ loaded, data, outDir: path.join(dir, 'runs'), runId: 'a', provider: new OfflineReasoner() });
    const trees = out.manifest.ingestion!.trees!;
    expect(trees).toMatchObject({ documents: 1, built: 1, calls: 4, cached: 0, inputTokens: 4000, outputTokens: 400 });
    expect(trees.costUsd).toBeGreaterThan(0);
    expect(out.manifest.ingestion!.pdf).not.toHaveProperty('treeModel');
    expect(out.manifest.corpus.trees![0]).toMatchObject({ source: 'model' });
    expect(out.records[0].callLog.every((c) => !String(c.task).startsWith('tree-'))).toBe(true);
    expect(chatRequests().length).toBe(calls);
    // The reports say it, apart from $/q.
    for (const format of ['md', 'table'] as const) {
      expect(render(format, { summary: out.summary, meta: reportMeta(out.manifest) })).toMatch(/ingestion\W+1 of 1 tree\(s\) built by the model, 4 calls \(0 cached\), 4,400 tokens, \$0\.\d+ \(once per run, not in \$\/q\)/);
    }
    // The next load of the config: the tree from the ingestion cache, 0 calls, counted as cached.
    const again = await loadBenchmarkData(loaded.config, loaded.baseDir, { quiet: true });
    expect(chatRequests().length).toBe(calls);
    expect(again.ingest?.treeModel).toMatchObject({ calls: 4, cached: 4, costUsd: 0 });
  });
});
