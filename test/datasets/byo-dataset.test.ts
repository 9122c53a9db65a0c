// Bringing a dataset by configuration alone (issue 10): small fixtures written here reproduce the
// shapes of MMLongBench-Doc (a JSON array with stringified lists and a page-0 row), upstream
// FinanceBench (data/*.jsonl + pdfs/), the full AWS docs (non-guide files, escapes, a yes/no
// column) and a flat-passage manual (dict of sections, duplicate titles, title-path gold).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataError, displayPath } from '../../datasets/errors.ts';
import { parseListString } from '../../datasets/listString.ts';
import { loadQuestionSet, loadQuestions } from '../../datasets/mapping.ts';
import { matchesFilter, recordFilterSchema } from '../../datasets/recordFilter.ts';
import { loadBenchmarkData } from '../../datasets/registry.ts';
import { loadFinanceBench } from '../../datasets/financebench.ts';
import { parseMarkdown } from '../../datasets/markdown.ts';
import { walkNodes } from '../../datasets/tree-utils.ts';
import { exactMatch } from '../../harness/scoring/answer.ts';
import { loadConfig } from '../../harness/config/runConfig.ts';
import { selectQuestions } from '../../harness/run/runner.ts';
import { makePdf } from './pdf-writer.ts';
import { rejected, thrown, tmpFiles } from './helpers.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const jsonl = (...rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const pdf = (...pages: string[]) => makePdf(pages.map((p) => [p])).toString('latin1');

afterEach(() => vi.restoreAllMocks());

describe('stringified lists', () => {
  it('reads JSON and Python list literals, and leaves anything else a string', () => {
    expect(parseListString('[3, 5]')).toEqual([3, 5]);
    expect(parseListString(" ['Pure-text (Plain-text)', \"Table\" ] ")).toEqual(['Pure-text (Plain-text)', 'Table']);
    expect(parseListString("['it\\'s', None, True, -1.5,]")).toEqual(["it's", null, true, -1.5]);
    expect(parseListString('[]')).toEqual([]);
    expect(parseListString('[2')).toBeUndefined();
    expect(parseListString('[see page 3]')).toBeUndefined();
    expect(parseListString("['a'] and ['b']")).toBeUndefined();
    expect(parseListString('3, 5')).toBeUndefined();
  });
});

describe('dataset.filter', () => {
  const rec = { src: "['Pure-text (Plain-text)']", answer: 'Not answerable', n: 3, tags: ['a', 'b'], empty: '' };
  const get = (f: string) => (rec as Record<string, unknown>)[f];
  const check = (f: unknown) => matchesFilter(recordFilterSchema.parse(f), get);

  it('equals, in, contains, exists, not, all, any', () => {
    expect(check({ field: 'src', equals: ['Pure-text (Plain-text)'] })).toBe(true);
    expect(check({ field: 'src', equals: ['Pure-text (Plain-text)', 'Table'] })).toBe(false);
    expect(check({ field: 'src', equals: 'Pure-text (Plain-text)' })).toBe(false); // a list is not its item
    expect(check({ field: 'n', equals: '3' })).toBe(true);
    expect(check({ field: 'n', in: [1, 2] })).toBe(false);
    expect(check({ field: 'tags', in: ['b', 'z'] })).toBe(true);
    expect(check({ field: 'src', contains: 'Pure-text (Plain-text)' })).toBe(true);
    expect(check({ field: 'answer', contains: 'answer' })).toBe(true);
    expect(check({ field: 'empty', exists: false })).toBe(true);
    expect(check({ field: 'missing', exists: true })).toBe(false);
    expect(check({ not: { field: 'answer', equals: 'Not answerable' } })).toBe(false);
    expect(check([{ field: 'n', equals: 3 }, { any: [{ field: 'tags', contains: 'z' }, { field: 'tags', contains: 'a' }] }])).toBe(true);
    expect(check({ all: [{ field: 'n', equals: 3 }, { field: 'tags', contains: 'z' }] })).toBe(false);
  });

  it('rejects a malformed condition in the config with its field path', async () => {
    const e = await rejected(loadBenchmarkData({ dataset: { format: 'csv', path: 'x.csv', filter: { field: 'a', equal: 1 } } } as never, '/'));
    expect(e).toBeInstanceOf(DataError);
    expect(e.field).toBe('dataset.filter');
    expect(e.message).toContain('got "equal" beside "field"');
    const nested = recordFilterSchema.safeParse({ all: [{ field: 'a', equals: 1 }, { any: [{ fild: 'b', equals: 2 }] }] });
    expect(nested.error?.issues[0].path).toEqual(['all', 1, 'any', 0, 'field']);
    expect(nested.error?.issues[0].message).toContain('"field" (a field name or dotted path) is missing');
  });
});

/** MMLongBench-Doc's shape: a JSON array, stringified evidence_pages and evidence_sources, a page-0 row. */
function mmlongbench(): { dir: string; file: string } {
  const rows = [
    { doc_id: 'report.pdf', question: 'Revenue in 2020?', answer: '12', evidence_pages: '[2]', evidence_sources: "['Pure-text (Plain-text)']", answer_format: 'Int' },
    { doc_id: 'report.pdf', question: 'Which chart?', answer: 'Fig 1', evidence_pages: '[1, 2]', evidence_sources: "['Chart']", answer_format: 'Str' },
    { doc_id: 'guide.pdf', question: 'Who wrote it?', answer: 'Not answerable', evidence_pages: '[]', evidence_sources: '[]', answer_format: 'None' },
    { doc_id: 'guide.pdf', question: 'Page zero?', answer: 'x', evidence_pages: '[0]', evidence_sources: "['Pure-text (Plain-text)']", answer_format: 'Str' },
    { doc_id: 'guide.pdf', question: 'Steps?', answer: "['Open', 'Close']", evidence_pages: '[1]', evidence_sources: "['Pure-text (Plain-text)']", answer_format: 'List' },
    { doc_id: 'absent.pdf', question: 'Missing doc?', answer: 'y', evidence_pages: '[1]', evidence_sources: "['Pure-text (Plain-text)']", answer_format: 'Str' },
  ];
  const dir = tmpFiles({
    'data/samples.json': JSON.stringify(rows, null, 2),
    'documents/report.pdf': pdf('Intro page', 'Revenue was 12 in 2020'),
    'documents/guide.pdf': pdf('Open, then Close'),
    // Never referenced by a question: if the loader extracted it, the load would fail.
    'documents/unused.pdf': 'not a pdf at all',
  });
  return { dir, file: path.join(dir, 'data/samples.json') };
}

const MMLB_MAPPING = {
  question: 'question',
  answers: 'answer',
  docIds: 'doc_id',
  docIdStripExtension: true,
  pages: 'evidence_pages',
  tags: 'answer_format',
};

describe('questions from a JSON array (MMLongBench-Doc shape)', () => {
  it('reads the array, parses stringified pages, ids are ordinals; a page-0 row stops the load by default', () => {
    const { file } = mmlongbench();
    const e = thrown(() => loadQuestions(file, MMLB_MAPPING));
    expect(e.message).toBe(`${displayPath(file)}: field "3.evidence_pages": expected a page number or list of page numbers (1-based), got 0 (mapped to pages)`);
  });

  it('onInvalid: skip counts the bad row, names file and field, and keeps the rest', () => {
    const { file } = mmlongbench();
    const set = loadQuestionSet(file, MMLB_MAPPING, { onInvalid: 'skip' });
    expect(set.read).toBe(6);
    expect(set.skipped.map((e) => e.field)).toEqual(['3.evidence_pages']);
    expect(set.questions.map((q) => q.id)).toEqual(['1', '2', '3', '5', '6']);
    expect(set.questions[0]).toMatchObject({ docIds: ['report'], evidence: [{ docId: 'report', pages: [2] }] });
    expect(set.questions[1].evidence).toEqual([{ docId: 'report', pages: [1, 2] }]);
    // A list-shaped answer stays one answer: a list answer needs all items, alternatives need one.
    expect(set.questions[3].answers).toEqual(["['Open', 'Close']"]);
  });

  it('a load where every record is invalid fails, even under skip', () => {
    const f = path.join(tmpFiles({ 'q.json': JSON.stringify([{ question: 'a' }, { question: 'b' }]) }), 'q.json');
    const e = thrown(() => loadQuestionSet(f, { question: 'question', answers: 'answer' }, { onInvalid: 'skip' }));
    expect(e).toBeInstanceOf(DataError);
    expect(e.message).toContain('every one of the 2 records is invalid');
  });

  it('finds the records at a dotted path, or in a dict keyed by id', () => {
    const dir = tmpFiles({
      'nested.json': JSON.stringify({ meta: {}, data: { items: [{ q: 'A?', a: '1' }, { q: 'B?', a: '2' }] } }),
      'dict.json': JSON.stringify({ k7: { q: 'A?', a: '1' }, k9: { q: 'B?', a: '2' } }),
      'scalar.json': JSON.stringify({ data: 3 }),
    });
    const m = { question: 'q', answers: 'a' };
    expect(loadQuestions(path.join(dir, 'nested.json'), { ...m, records: 'data.items' }).map((q) => [q.id, q.question])).toEqual([
      ['1', 'A?'],
      ['2', 'B?'],
    ]);
    expect(loadQuestions(path.join(dir, 'dict.json'), m).map((q) => q.id)).toEqual(['k7', 'k9']);
    const e = thrown(() => loadQuestions(path.join(dir, 'scalar.json'), { ...m, records: 'data' }));
    expect([e.field, e.message]).toEqual(['mapping.records', expect.stringContaining('points at 3')]);
  });

  it('ids count records, not lines: blank JSONL lines and multi-line CSV fields do not skip ids', () => {
    const dir = tmpFiles({ 'q.jsonl': '\n' + jsonl({ q: 'a', a: 'x' }) + '\n\n' + jsonl({ q: 'b', a: 'y' }), 'q.csv': 'q,a\n"multi\nline",x\nsecond,y\n' });
    expect(loadQuestions(path.join(dir, 'q.jsonl'), { question: 'q', answers: 'a' }).map((q) => q.id)).toEqual(['1', '2']);
    expect(loadQuestions(path.join(dir, 'q.csv'), { question: 'q', answers: 'a' }).map((q) => q.id)).toEqual(['1', '2']);
  });

  it('end to end: filter + skip + missingDocs + a pdf corpus of only the referenced files', async () => {
    const { dir } = mmlongbench();
    const cfg = {
      dataset: {
        format: 'json',
        path: 'data/samples.json',
        mapping: MMLB_MAPPING,
        onInvalid: 'skip' as const,
        filter: { all: [{ field: 'evidence_sources', equals: ['Pure-text (Plain-text)'] }, { not: { field: 'answer', equals: 'Not answerable' } }] },
      },
      corpus: { format: 'pdf', path: 'documents', only: 'referenced' as const },
    };
    const data = await loadBenchmarkData(cfg, dir);
    expect(data.questions.map((q) => q.id)).toEqual(['1', '5']);
    expect(data.corpus.docs.map((d) => d.docId)).toEqual(['guide', 'report']);
    expect(data.files.map((f) => path.basename(f))).toEqual(['samples.json', 'guide.pdf', 'report.pdf']);
    expect(data.notes).toContain('samples.json: 6 records read, 2 left out by dataset.filter, 1 invalid skipped, 3 questions');
    expect(data.warnings).toContain(
      `skipped 1 of 6 invalid records (onInvalid: skip): ${displayPath(path.join(dir, 'data/samples.json'))}: field "3.evidence_pages": expected a page number or list of page numbers (1-based), got 0 (mapped to pages)`,
    );
    expect(data.warnings).toContain('1 document(s) named by questions are not in the corpus: absent (1 question); dropped 1 of 3 questions (missingDocs: skip)');

    // --limit 1: only the document of the first question is extracted.
    const one = await loadBenchmarkData(cfg, dir, { select: (qs) => selectQuestions(qs, 1) });
    expect(one.corpus.docs.map((d) => d.docId)).toEqual(['report']);
    expect(one.questions).toHaveLength(2); // the runner slices the same list the same way
    // --shard 2/2 takes the second question: only its document.
    const shard = await loadBenchmarkData(cfg, dir, { select: (qs) => selectQuestions(qs, undefined, { index: 2, count: 2 }) });
    expect(shard.corpus.docs.map((d) => d.docId)).toEqual(['guide']);

    // missingDocs: fail names the document; keep keeps the question and warns.
    const failed = await rejected(loadBenchmarkData({ ...cfg, dataset: { ...cfg.dataset, missingDocs: 'fail' as const } }, dir));
    expect([failed.field, failed.message]).toEqual(['dataset.missingDocs', expect.stringContaining('absent (1 question)')]);
    const kept = await loadBenchmarkData({ ...cfg, dataset: { ...cfg.dataset, missingDocs: 'keep' as const }, corpus: { ...cfg.corpus, only: 'all' as const, exclude: 'unused.pdf' } }, dir);
    expect(kept.questions.map((q) => q.id)).toEqual(['1', '5', '6']);
    expect(kept.warnings).toContain('1 of 3 questions name docIds missing from the corpus: absent');

    // Without `only: referenced` every PDF in the folder is read: the broken one is skipped, named
    // and counted; corpus.strict makes it an error naming the file.
    const all = await loadBenchmarkData({ ...cfg, corpus: { format: 'pdf', path: 'documents' } }, dir);
    expect(all.ingest?.skipped?.map((s) => s.file)).toEqual([path.join(dir, 'documents/unused.pdf')]);
    expect(all.corpus.docs.map((d) => d.docId)).not.toContain('unused');
    expect(all.warnings.some((w) => w.startsWith(`${path.join(dir, 'documents/unused.pdf')}: skipped, `))).toBe(true);
    const strict = await rejected(loadBenchmarkData({ ...cfg, corpus: { format: 'pdf', path: 'documents', strict: true } }, dir));
    expect(strict.field).toBe('corpus.strict');
    expect(strict.message).toContain('unused.pdf');
  });

  it('only: referenced needs questions that name their documents (gold never picks the corpus)', async () => {
    const dir = tmpFiles({ 'q.csv': 'q,a,doc\nWhat?,x,a\n', 'docs/a.md': '# A\ntext', 'docs/b.md': '# B\ntext' });
    const e = await rejected(
      loadBenchmarkData({ dataset: { format: 'csv', path: 'q.csv', mapping: { question: 'q', answers: 'a', evidenceDocId: 'doc' } }, corpus: { format: 'markdown', path: 'docs', only: 'referenced' } }, dir),
    );
    expect(e.field).toBe('corpus.only');
    expect(e.message).toContain('1 of 1 questions name none');
  });
});

describe('answers from several fields (AWS docs yes/no column)', () => {
  const csv = [
    'Question,Answer_True,Yes_No_True,Document_True',
    'Can I use my own key?,"Yes, use a KMS key you own",Yes,g/A.md',
    'What TLS version?,TLS 1.2,None,g/A.md',
    'Is it free?,None,none,g/A.md',
  ].join('\n');

  it('takes every field as an alternative, ignores configured values, and fails when nothing is left', () => {
    const f = path.join(tmpFiles({ 'qa.csv': csv }), 'qa.csv');
    const m = { question: 'Question', answers: ['Answer_True', 'Yes_No_True'], ignoreAnswers: ['None'], evidenceDocId: 'Document_True' };
    const set = loadQuestionSet(f, m, { onInvalid: 'skip' });
    expect(set.questions.map((q) => q.answers)).toEqual([['Yes, use a KMS key you own', 'Yes'], ['TLS 1.2']]);
    expect(set.skipped[0].message).toBe(`${displayPath(f)}:4: field "Answer_True": no answer in Answer_True, Yes_No_True (after ignoreAnswers) (mapped to answers)`);
    expect(exactMatch('Yes', set.questions[0].answers)).toBe(1);
    // Without the ignore rule "None" would be a gold answer.
    expect(loadQuestions(f, { ...m, ignoreAnswers: [] })[1].answers).toEqual(['TLS 1.2', 'None']);
  });

  it('configs/aws-docs.yaml scores yes/no questions against Yes_No_True', () => {
    const loaded = loadConfig(path.join(REPO, 'configs/aws-docs.yaml'));
    const ds = loaded.config.dataset;
    const data = { questions: loadQuestions(path.resolve(loaded.baseDir, ds.path!), ds.mapping) };
    const rows = fs.readFileSync(path.join(REPO, '../shared/datasets/aws-docs/QA_true.subset.csv'), 'utf8');
    const yesNo = (rows.match(/,(Yes|No),[^,\n]+\.md\s*$/gm) ?? []).length;
    const withYesNo = data.questions.filter((q) => q.answers.some((a) => a === 'Yes' || a === 'No'));
    expect(withYesNo.length).toBe(yesNo);
    expect(yesNo).toBeGreaterThan(0);
    for (const q of withYesNo) expect(exactMatch(q.answers.find((a) => a === 'Yes' || a === 'No')!, q.answers)).toBe(1);
    expect(data.questions.some((q) => q.answers.includes('None'))).toBe(false);
  });
});

describe('corpus include/exclude', () => {
  it('keeps guide pages and leaves out README, CONTRIBUTING and sample apps', async () => {
    const dir = tmpFiles({
      'q.csv': 'q,a,doc\nWhat?,x,guide/A.md\n',
      'docs/README.md': '# Repo',
      'docs/guide/CONTRIBUTING.md': '# How to contribute',
      'docs/guide/doc_source/A.md': '# A\ntext',
      'docs/guide/doc_source/B.md': '# B\ntext',
      'docs/guide/sample-apps/app/README.md': '# App',
    });
    const base = { dataset: { format: 'csv', path: 'q.csv', mapping: { question: 'q', answers: 'a', evidenceDocId: 'doc', docIdStripExtension: true } } };
    const inc = await loadBenchmarkData({ ...base, corpus: { format: 'markdown', path: 'docs', include: '*/doc_source/**' } }, dir);
    expect(inc.corpus.docs.map((d) => d.docId)).toEqual(['guide/A', 'guide/B']);
    const exc = await loadBenchmarkData({ ...base, corpus: { format: 'markdown', path: 'docs', exclude: ['**/README.md', '**/CONTRIBUTING.md', '*/sample-apps/**'] } }, dir);
    expect(exc.corpus.docs.map((d) => d.docId)).toEqual(['guide/A', 'guide/B']);
    const none = await rejected(loadBenchmarkData({ ...base, corpus: { format: 'markdown', path: 'docs', include: 'nothing/**' } }, dir));
    expect([none.field, none.message]).toEqual(['corpus.include', expect.stringContaining('5 found, none left by corpus.include/exclude')]);
  });
});

describe('Markdown through CommonMark', () => {
  it('reads setext headings, resolves escapes in titles and text, keeps code literal', () => {
    const md = ['Guide', '=====', '', 'Use TLS 1\\.2 or later \\(required\\) &amp; more.', '', 'Setup', '-----', '`a\\.b` stays', '', '```', 'x\\.y', '```'].join('\n');
    const doc = parseMarkdown(md, { docId: 'd' });
    expect(doc.title).toBe('Guide');
    expect([...walkNodes(doc.nodes)].map((v) => [v.depth, v.node.title, v.node.line])).toEqual([
      [1, 'Guide', 1],
      [2, 'Setup', 6],
    ]);
    expect(doc.nodes[0].text).toBe('Use TLS 1.2 or later (required) & more.');
    expect(doc.nodes[0].children[0].text).toBe('`a\\.b` stays\n\n```\nx\\.y\n```');
  });

  it('a fence closes where CommonMark says: indented in a list item, or with a longer fence', () => {
    const warnings: string[] = [];
    const md = ['# A', '- item', '', '    ```', '    # in code', '    ```', '', '## B', '````', '```', '````', '## C'].join('\n');
    const doc = parseMarkdown(md, { docId: 'd', warnings });
    expect([...walkNodes(doc.nodes)].map((v) => v.node.title)).toEqual(['A', 'B', 'C']);
    expect(warnings).toEqual([]);
  });
});

describe('passages corpus and title-path gold (flat manual shape)', () => {
  const sections = {
    s1: { id: 's1', title: 'Picture', text: ['Adjust the picture.'] },
    s2: { id: 's2', title: 'Brightness', text: ['Picture brightness', 'goes from 0 to 50.'] },
    s3: { id: 's3', title: 'Sound', text: ['Sound settings.'] },
    s4: { id: 's4', title: 'Brightness', text: ['Sound has no brightness; this is the LED brightness.'] },
    s5: { id: 's5', title: 'Expert Settings', text: [] },
  };

  it('loads a dict of passages as a flat document, duplicate titles kept apart by id', async () => {
    const dir = tmpFiles({ 'manual.json': JSON.stringify(sections) });
    const data = await loadBenchmarkData(
      {
        dataset: { format: 'csv', path: 'x.csv' },
        corpus: { format: 'passages', path: 'manual.json' },
      } as never,
      dir,
    ).catch((e) => e);
    expect(data).toBeInstanceOf(DataError); // x.csv does not exist: the dataset is checked first
    fs.writeFileSync(
      path.join(dir, 'qa.csv'),
      ['question_id,question,section_path,answer', '1,Range?,Picture>Brightness,0 to 50', '2,LED?,Settings>Brightness,LED', '3,Sound?,Menu>Sound,settings', '4,Gone?,Network>Wi-Fi,none'].join('\n'),
    );
    const cfg = {
      dataset: { format: 'csv', path: 'qa.csv', mapping: { id: 'question_id', question: 'question', answers: 'answer', nodeTitlePath: 'section_path', defaultDocId: 'manual' } },
      corpus: { format: 'passages', path: 'manual.json' },
    };
    const flat = await loadBenchmarkData(cfg, dir);
    const doc = flat.corpus.docs[0];
    expect(doc.docId).toBe('manual');
    expect(doc.nodes.map((n) => [n.id, n.title])).toEqual([
      ['s1', 'Picture'],
      ['s2', 'Brightness'],
      ['s3', 'Sound'],
      ['s4', 'Brightness'],
      ['s5', 'Expert Settings'],
    ]);
    expect(doc.nodes[1].text).toBe('Picture brightness\ngoes from 0 to 50.');
    expect(doc.nodes[4].text).toBeUndefined();
    // Flat: no path matches whole; the last title decides. Two "Brightness" nodes -> ambiguous, both kept.
    const gold = Object.fromEntries(flat.questions.map((q) => [q.id, q.evidence?.[0]?.nodeIds ?? []]));
    expect(gold).toEqual({ '1': ['s2', 's4'], '2': ['s2', 's4'], '3': ['s3'], '4': [] });
    expect(flat.warnings[0]).toMatch(/^gold title paths: 0 of 4 matched exactly, 1 by their last titles .*, 2 ambiguous \(all candidates kept as gold\) .*, 1 not at all .*Network > Wi-Fi/);
  });

  it('builds a tree from a path of ids or a parent field; exact title paths then win', async () => {
    const withPath = Object.fromEntries(
      Object.entries(sections).map(([k, v]) => [k, { ...v, hierarchy: { s1: 's1', s2: 's1>s2', s3: 's3', s4: 's3>s4', s5: 's3>s4>s5' }[k] }]),
    );
    const dir = tmpFiles({
      'manual.json': JSON.stringify({ sections: withPath }),
      'parents.jsonl': jsonl({ pid: 'a', name: 'Top', body: 'x', up: null, pg: 0 }, { pid: 'b', name: 'Child', body: 'y', up: 'a', pg: 1 }, { pid: 'c', name: 'Orphan', body: 'z', up: 'nope' }),
      'qa.csv': ['question,section_path,answer', 'Range?,Picture>Brightness,0 to 50', 'LED?,Sound > brightness,LED', 'Deep?,Sound>Brightness>Expert Settings,x'].join('\n'),
    });
    const data = await loadBenchmarkData(
      {
        dataset: { format: 'csv', path: 'qa.csv', mapping: { question: 'question', answers: 'answer', nodeTitlePath: 'section_path', defaultDocId: 'manual' } },
        corpus: { format: 'passages', path: 'manual.json', mapping: { records: 'sections', path: 'hierarchy' } },
      },
      dir,
    );
    const doc = data.corpus.docs[0];
    expect([...walkNodes(doc.nodes)].map((v) => `${v.depth}:${v.node.id}`)).toEqual(['1:s1', '2:s2', '1:s3', '2:s4', '3:s5']);
    expect(data.questions.map((q) => q.evidence![0].nodeIds)).toEqual([['s2'], ['s4'], ['s5']]);
    expect(data.warnings).toEqual([]);

    const warnings: string[] = [];
    const { loadPassagesFile } = await import('../../datasets/passages.ts');
    const [tree] = loadPassagesFile(path.join(dir, 'parents.jsonl'), { id: 'pid', title: 'name', text: 'body', parent: 'up', page: 'pg', pageBase: 0, pathSeparator: '>' }, warnings);
    expect([...walkNodes(tree.nodes)].map((v) => `${v.depth}:${v.node.id}:${v.node.pages?.[0] ?? '-'}`)).toEqual(['1:a:1', '2:b:2', '1:c:-']);
    expect(warnings[0]).toContain('1 passage(s) of parents name a parent that does not exist; placed at the top (e.g. c -> nope)');
  });

  it('groups passages under title paths that are not ids, and rejects parent cycles and duplicate ids', async () => {
    const { loadPassagesFile } = await import('../../datasets/passages.ts');
    const m = { id: 'id', title: 'title', text: 'text', path: 'path', pathSeparator: '/', pageBase: 1 as const };
    const dir = tmpFiles({
      'kb.json': JSON.stringify([
        { id: 'p1', title: 'Wi-Fi', text: 'a', path: 'Settings/Network' },
        { id: 'p2', title: 'Bluetooth', text: 'b', path: 'Settings/Network/Bluetooth' },
        { id: 'p3', title: 'Font', text: 'c', path: ['Settings', 'Display'] },
      ]),
      'cycle.json': JSON.stringify([
        { id: 'a', title: 'A', up: 'b' },
        { id: 'b', title: 'B', up: 'a' },
      ]),
      'dup.json': JSON.stringify([
        { id: 'a', title: 'A' },
        { id: 'a', title: 'A again' },
      ]),
    });
    const [doc] = loadPassagesFile(path.join(dir, 'kb.json'), m);
    expect([...walkNodes(doc.nodes)].map((v) => `${v.depth}:${v.node.id}:${v.node.title}`)).toEqual([
      '1:group-1:Settings',
      '2:group-2:Network',
      '3:p1:Wi-Fi',
      '3:p2:Bluetooth',
      '2:group-3:Display',
      '3:p3:Font',
    ]);
    const cyc = thrown(() => loadPassagesFile(path.join(dir, 'cycle.json'), { ...m, path: undefined, parent: 'up' }));
    expect(cyc.message).toContain('parent links form a cycle among passages a, b');
    const dup = thrown(() => loadPassagesFile(path.join(dir, 'dup.json'), m));
    expect([dup.field, dup.message]).toEqual(['1.id', expect.stringContaining('duplicate passage id "a" (first at 0)')]);
  });
});

describe('financebench: upstream layout', () => {
  /** data/financebench_open_source.jsonl + data/financebench_document_information.jsonl + pdfs/ beside data/. */
  function upstream(): string {
    const q = (id: string, doc: string, page: number) => ({
      financebench_id: id,
      company: doc.split('_')[0],
      doc_name: doc,
      question_type: 'metrics-generated',
      question_reasoning: 'Information extraction',
      question: `What does ${doc} report?`,
      answer: '42',
      evidence: [{ evidence_text: 'Revenue 42', doc_name: doc, evidence_page_num: page, evidence_text_full_page: '' }],
    });
    const info = (doc: string) => ({ doc_name: doc, company: doc.split('_')[0], gics_sector: 'Tech', doc_type: '10k', doc_period: 2022, doc_link: 'https://example.com' });
    return tmpFiles({
      'data/financebench_open_source.jsonl': jsonl(q('fb1', 'ACME_2022_10K', 1), q('fb2', 'BOLT_2022_10K', 0), q('fb3', 'ACME_2022_10K', 0)),
      // A duplicate record no question uses (as upstream's FOOTLOCKER line 170), with different content.
      'data/financebench_document_information.jsonl': jsonl(info('ACME_2022_10K'), info('BOLT_2022_10K'), info('SHOE_2023_annualreport'), { ...info('SHOE_2023_annualreport'), doc_period: 2024 }),
      'pdfs/ACME_2022_10K.pdf': pdf('Cover', 'Revenue 42'),
      'pdfs/BOLT_2022_10K.pdf': pdf('Revenue 42'),
      'pdfs/SHOE_2023_annualreport.pdf': 'broken: never read, no question names it',
    });
  }

  it('loads the repository folder, or data/, or the question file with pdfs given; a duplicate unused record is a warning', async () => {
    const dir = upstream();
    const byRepo = await loadBenchmarkData({ dataset: { format: 'financebench', path: dir } }, '/');
    expect(byRepo.questions.map((q) => q.id)).toEqual(['fb1', 'fb2', 'fb3']);
    expect(byRepo.corpus.docs.map((d) => [d.docId, d.title])).toEqual([
      ['ACME_2022_10K', 'ACME 10-K 2022'],
      ['BOLT_2022_10K', 'BOLT 10-K 2022'],
    ]);
    const infoFile = path.join(dir, 'data/financebench_document_information.jsonl');
    expect(byRepo.warnings).toEqual([`${infoFile}:4: duplicate doc_name "SHOE_2023_annualreport" (first at line 3); no question uses it, kept the first`]);
    const byData = await loadBenchmarkData({ dataset: { format: 'financebench', path: 'data' } }, dir);
    expect(byData.corpus.docs).toHaveLength(2);
    const byFile = await loadBenchmarkData({ dataset: { format: 'financebench', path: 'data/financebench_open_source.jsonl', pdfs: 'pdfs' } }, dir);
    expect(byFile.questions).toHaveLength(3);
  });

  it('a duplicate record that a question uses, with different content, is an error', async () => {
    const dir = upstream();
    const info = path.join(dir, 'data/financebench_document_information.jsonl');
    fs.appendFileSync(info, jsonl({ doc_name: 'ACME_2022_10K', company: 'Other' }));
    const e = await rejected(loadFinanceBench(dir));
    expect([e.file, e.line, e.field]).toEqual([info, 5, 'doc_name']);
    expect(e.message).toContain('a question uses it');
  });

  it('--limit extracts only the filings of the questions that run, with progress on stderr', async () => {
    const dir = upstream();
    fs.writeFileSync(path.join(dir, 'pdfs/BOLT_2022_10K.pdf'), 'broken: must not be read under --limit 1');
    const writes: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (writes.push(String(s)), true));
    const prevQuiet = process.env.TREEBENCH_QUIET;
    delete process.env.TREEBENCH_QUIET;
    try {
      const data = await loadBenchmarkData({ dataset: { format: 'financebench', path: dir } }, '/', { select: (qs) => selectQuestions(qs, 1), ingestCache: false });
      expect(data.corpus.docs.map((d) => d.docId)).toEqual(['ACME_2022_10K']);
      expect(data.corpus.docs[0].pages).toHaveLength(2);
    } finally {
      if (prevQuiet !== undefined) process.env.TREEBENCH_QUIET = prevQuiet;
    }
    expect(writes.join('')).toMatch(/financebench: extracting filings: 1\/1 PDFs, 2 pages, [\d.]+ pages\/s, [\d.]+ s, 1 extracted, 0 from the ingestion cache\n/);
  });

  it('a selection does not change the run identity: shards hash the same, other files do not', async () => {
    const dir = upstream();
    const shard = (i: number) => loadBenchmarkData({ dataset: { format: 'financebench', path: dir } }, '/', { select: (qs) => selectQuestions(qs, undefined, { index: i, count: 2 }) });
    const [s1, s2] = [await shard(1), await shard(2)];
    expect(s1.corpus.docs.map((d) => d.docId)).toEqual(['ACME_2022_10K']);
    expect(s2.corpus.docs.map((d) => d.docId)).toEqual(['BOLT_2022_10K']);
    expect(s1.identity).toEqual(s2.identity);
    expect(s1.identity?.basis).toBe('source files');
    fs.writeFileSync(path.join(dir, 'pdfs/BOLT_2022_10K.pdf'), pdf('Revenue 43'));
    expect((await shard(1)).identity?.corpusHash).not.toBe(s1.identity?.corpusHash);
    // Without a selection the hashes are the runner's own (of the built trees).
    expect((await loadBenchmarkData({ dataset: { format: 'financebench', path: dir } }, '/')).identity).toBeUndefined();
  });

  it('configs/financebench.yaml, pointed at a folder in the upstream layout, loads it', async () => {
    const loaded = loadConfig(path.join(REPO, 'configs/financebench.yaml'));
    const data = await loadBenchmarkData({ ...loaded.config, dataset: { ...loaded.config.dataset, path: upstream() } }, loaded.baseDir);
    expect(data.questions).toHaveLength(3);
    expect(data.corpus.docs).toHaveLength(2);
  });

  it('configs/financebench.yaml still loads the shared subset folder layout', async () => {
    const loaded = loadConfig(path.join(REPO, 'configs/financebench.yaml'));
    const data = await loadBenchmarkData(loaded.config, loaded.baseDir, { select: (qs) => selectQuestions(qs, 1) });
    expect(data.questions.length).toBeGreaterThan(30);
    expect(data.corpus.docs).toHaveLength(1);
  });
});

describe('docs/datasets.md "Bring your own dataset": every worked config loads data of its shape', () => {
  const guide = fs.readFileSync(path.join(REPO, 'docs/datasets.md'), 'utf8');
  const start = guide.indexOf('## Bring your own dataset');
  const end = guide.indexOf('\n## ', start + 5);
  const section = guide.slice(start, end < 0 ? undefined : end);
  const blocks = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);

  it('has the four worked configs', () => {
    expect(blocks).toHaveLength(4);
  });

  const load = async (i: number, files: Record<string, string>, select?: (qs: never[]) => never[]) => {
    const { parse } = await import('yaml');
    const dir = tmpFiles(files);
    return loadBenchmarkData(parse(blocks[i]), dir, select ? { select: select as never } : {});
  };

  it('MMLongBench-Doc: JSON array, stringified pages, a page-0 row, a filter, only referenced PDFs', async () => {
    const rows = [
      { doc_id: 'a.pdf', doc_type: 'Report', question: 'Q1?', answer: '1', evidence_pages: '[2]', evidence_sources: "['Pure-text (Plain-text)']", answer_format: 'Int' },
      { doc_id: 'a.pdf', doc_type: 'Report', question: 'Q2?', answer: 'x', evidence_pages: '[1]', evidence_sources: "['Chart']", answer_format: 'Str' },
      { doc_id: 'b.pdf', doc_type: 'Guide', question: 'Q3?', answer: 'Not answerable', evidence_pages: '[]', evidence_sources: '[]', answer_format: 'None' },
      { doc_id: 'b.pdf', doc_type: 'Guide', question: 'Q4?', answer: 'y', evidence_pages: '[0]', evidence_sources: "['Pure-text (Plain-text)']", answer_format: 'Str' },
      { doc_id: 'b.pdf', doc_type: 'Guide', question: 'Q5?', answer: 'z', evidence_pages: '[1]', evidence_sources: "['Pure-text (Plain-text)']", answer_format: 'Str' },
      { doc_id: 'gone.pdf', doc_type: 'Guide', question: 'Q6?', answer: 'w', evidence_pages: '[1]', evidence_sources: "['Pure-text (Plain-text)']", answer_format: 'Str' },
    ];
    const files = {
      'mmlongbench/samples.json': JSON.stringify(rows),
      'mmlongbench/documents/a.pdf': pdf('one', 'two'),
      'mmlongbench/documents/b.pdf': pdf('only'),
      'mmlongbench/documents/unused.pdf': 'never extracted',
    };
    const data = await load(0, files);
    expect(data.questions.map((q) => q.id)).toEqual(['1', '5']);
    expect(data.questions[0].evidence).toEqual([{ docId: 'a', pages: [2] }]);
    expect(data.corpus.docs.map((d) => d.docId)).toEqual(['a', 'b']);
    const limited = await load(0, files, (qs) => qs.slice(0, 1));
    expect(limited.corpus.docs.map((d) => d.docId)).toEqual(['a']);
  });

  it('FinanceBench upstream layout', async () => {
    const q = { financebench_id: 'f1', doc_name: 'X_2022_10K', question: 'Q?', answer: '1', evidence: [{ doc_name: 'X_2022_10K', evidence_page_num: 0 }] };
    const data = await load(1, {
      'financebench/data/financebench_open_source.jsonl': jsonl(q),
      'financebench/data/financebench_document_information.jsonl': jsonl({ doc_name: 'X_2022_10K', company: 'X' }, { doc_name: 'FOOTLOCKER_2023_annualreport' }, { doc_name: 'FOOTLOCKER_2023_annualreport', company: 'Foot Locker' }),
      'financebench/pdfs/X_2022_10K.pdf': pdf('Revenue 1'),
    });
    expect(data.questions[0].evidence).toEqual([{ docId: 'X_2022_10K', pages: [1] }]);
    expect(data.warnings).toEqual([expect.stringContaining('duplicate doc_name "FOOTLOCKER_2023_annualreport" (first at line 2); no question uses it')]);
  });

  it('AWS docs: guide pages only, escapes resolved, yes/no column, ordinal ids', async () => {
    const data = await load(2, {
      'aws-documentation/QA_true.csv': 'Question,Answer_True,Yes_No_True,Document_True\n"Which TLS?","TLS 1.2\nor later",None,g/A.md\nIs it on?,"Yes, it is",Yes,g/A.md\n',
      'aws-documentation/documents/README.md': '# Repo readme',
      'aws-documentation/documents/g/CONTRIBUTING.md': '# Contributing',
      'aws-documentation/documents/g/doc_source/A.md': 'Title\n=====\n\nUse TLS 1\\.2\\.\n',
    });
    expect(data.corpus.docs.map((d) => d.docId)).toEqual(['g/A']);
    expect(data.corpus.docs[0].nodes[0]).toMatchObject({ title: 'Title', text: 'Use TLS 1.2.' });
    expect(data.questions.map((q) => [q.id, q.answers])).toEqual([
      ['1', ['TLS 1.2\nor later']],
      ['2', ['Yes, it is', 'Yes']],
    ]);
  });

  it('E-Manual TV: flat passages, duplicate titles apart, title-path gold', async () => {
    const data = await load(3, {
      'emanual-tv/tv_manual_corpus.json': JSON.stringify({
        a: { id: 'a', title: 'Expert Settings', text: ['picture'] },
        b: { id: 'b', title: 'Expert Settings', text: ['sound'] },
        c: { id: 'c', title: 'Brightness', text: ['0-50'] },
      }),
      'emanual-tv/tv_questions.csv': 'question_id,question,section_path,answer\n1,Bright?,Settings>Picture>Brightness,0-50\n2,Expert?,Settings>Expert Settings,x\n3,Nope?,Settings>Network,y\n',
    });
    expect(data.corpus.docs[0].nodes.map((n) => n.id)).toEqual(['a', 'b', 'c']);
    expect(data.questions.map((q) => q.evidence?.[0]?.nodeIds ?? [])).toEqual([['c'], ['a', 'b'], []]);
    expect(data.warnings[0]).toMatch(/1 by their last titles.*1 ambiguous.*1 not at all/);
  });
});

describe('settings a format does not read', () => {
  it('are errors naming the field, not silently ignored', async () => {
    const e1 = await rejected(loadBenchmarkData({ dataset: { format: 'csv', path: 'q.csv', pdfs: 'pdfs' } }, tmpFiles({ 'q.csv': 'question,answers\nq,a\n' })));
    expect([e1.field, e1.message]).toEqual(['dataset.pdfs', expect.stringContaining('the csv format does not use dataset.pdfs')]);
    const e2 = await rejected(loadBenchmarkData({ dataset: { format: 'emanual-s10', path: '.', filter: { field: 'a', exists: true } } }, '/'));
    expect(e2.field).toBe('dataset.filter');
    const e3 = await rejected(loadBenchmarkData({ dataset: { format: 'financebench', path: '.', mapping: { question: 'q' } } }, '/'));
    expect(e3.field).toBe('dataset.mapping');
    const dir = tmpFiles({ 'q.csv': 'question,answers\nq,a\n', 'docs/a.md': '# A' });
    const e4 = await rejected(loadBenchmarkData({ dataset: { format: 'csv', path: 'q.csv', mapping: { question: 'question', answers: 'answers' } }, corpus: { format: 'markdown', path: 'docs', mapping: { id: 'x' } } }, dir));
    expect([e4.field, e4.message]).toEqual(['corpus.mapping', expect.stringContaining('the markdown corpus does not use corpus.mapping')]);
  });

  it('native corpus folders take include/exclude too', async () => {
    const doc = (id: string) => JSON.stringify({ docId: id, title: id, nodes: [{ id: 'n', title: 'N', children: [] }] });
    const dir = tmpFiles({ 'q.jsonl': jsonl({ id: 'q', question: 'q?', answers: ['a'] }), 'c/a.json': doc('a'), 'c/drafts/b.json': doc('b') });
    const data = await loadBenchmarkData({ dataset: { format: 'jsonl', path: 'q.jsonl' }, corpus: { format: 'native', path: 'c', exclude: 'drafts/**' } }, dir);
    expect(data.corpus.docs.map((d) => d.docId)).toEqual(['a']);
  });
});

describe('a dataset with nothing left to run', () => {
  it('names dataset.filter when it matched no record, before any document is read', async () => {
    const { dir } = mmlongbench();
    const cfg = {
      dataset: { format: 'json', path: 'data/samples.json', mapping: MMLB_MAPPING, onInvalid: 'skip' as const, filter: { field: 'evidence_sources', equals: ['No such source'] } },
      corpus: { format: 'pdf', path: 'documents', only: 'referenced' as const },
    };
    const e = await rejected(loadBenchmarkData(cfg, dir));
    expect(e.field).toBe('dataset.filter');
    expect(e.message).toMatch(/field "dataset\.filter": the filter matched no record \(samples\.json: 6 records read, 6 left out by dataset\.filter/);
    expect(e.message).not.toMatch(/corpus has no documents/);
  });

  it('says every question names a missing document, not that the corpus is empty', async () => {
    const dir = tmpFiles({ 'q.csv': 'q,a,doc\nWhat?,x,nowhere\n', 'docs/a.md': '# A\ntext' });
    const e = await rejected(
      loadBenchmarkData({ dataset: { format: 'csv', path: 'q.csv', mapping: { question: 'q', answers: 'a', docIds: 'doc' } }, corpus: { format: 'markdown', path: 'docs', only: 'referenced' } } as never, dir),
    );
    expect(e.field).toBe('dataset.path');
    expect(e.message).toMatch(/all 1 name documents missing from the corpus \(.*nowhere/);
  });
});
