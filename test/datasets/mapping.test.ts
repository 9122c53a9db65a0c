import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataError, displayPath } from '../../datasets/errors.ts';
import { getPath, loadQuestions, parseQuestionMapping, questionMappingSchema } from '../../datasets/mapping.ts';
import { FIXTURES, SHARED, thrown, tmpFiles } from './helpers.ts';

const jsonl = (...rows: unknown[]) => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';

function file(name: string, content: string): string {
  return path.join(tmpFiles({ [name]: content }), name);
}

describe('loadQuestions: JSONL', () => {
  it('reads treebench Question JSON without a mapping', () => {
    const qs = loadQuestions(path.join(FIXTURES, 'sample-mini/questions.jsonl'));
    expect(qs.map((q) => q.id)).toEqual(['q1', 'q2', 'q3']);
    expect(qs[0]).toEqual({
      id: 'q1',
      question: 'How many vacation days do full-time employees get?',
      answers: ['25', '25 days'],
      evidence: [{ docId: 'handbook', nodeIds: ['h1.1'] }],
      tags: ['lookup'],
    });
    expect(qs[1].docIds).toEqual(['report']);
    expect(qs[1].evidence).toEqual([{ docId: 'report', nodeIds: ['r1'], pages: [1] }]);
    expect(qs[2]).toMatchObject({ answers: [], choices: ['After one day', 'After three days', 'Never'], label: 1 });
  });

  it('keeps the first of repeated values, in order, in every list field, however long the list', () => {
    const many = Array.from({ length: 20 }, (_, i) => `t${i % 7}`);
    const f = file(
      'rep.jsonl',
      jsonl(
        {
          id: 'r1',
          question: 'q?',
          answers: ['b', 'a', 'b', ' a ', 'c'],
          docIds: ['d2', 'd1', 'd2'],
          tags: many,
          evidence: [
            { docId: 'd1', nodeIds: ['n2', 'n1', 'n2'], pages: [3, 1, 3] },
            { docId: 'd2', nodeIds: ['m1'] },
            { docId: 'd1', nodeIds: ['n1', 'n3'], pages: [1, 4] },
          ],
        },
        { id: 'r2', question: 'q?', answers: ['x'], evidence: [{ docId: 'd1', nodeIds: ['n1', 'n1'] }], tags: ['only'] },
      ),
    );
    const [a, b] = loadQuestions(f);
    expect(a).toEqual({
      id: 'r1',
      question: 'q?',
      answers: ['b', 'a', 'c'],
      docIds: ['d2', 'd1'],
      evidence: [
        { docId: 'd1', nodeIds: ['n2', 'n1', 'n3'], pages: [3, 1, 4] },
        { docId: 'd2', nodeIds: ['m1'] },
      ],
      tags: ['t0', 't1', 't2', 't3', 't4', 't5', 't6'],
    });
    // Key order as written (docId, nodeIds, pages): records and reports print it.
    expect(Object.keys(a!.evidence![0]!)).toEqual(['docId', 'nodeIds', 'pages']);
    expect(b).toEqual({ id: 'r2', question: 'q?', answers: ['x'], evidence: [{ docId: 'd1', nodeIds: ['n1'] }], tags: ['only'] });
    // Answers named in ignoreAnswers are left out, whatever their case, from every alternative field.
    const g = file('ign.jsonl', jsonl({ id: 1, question: 'q?', A: ['None', 'x', 'x'], B: 'y' }));
    expect(loadQuestions(g, { question: 'question', answers: ['A', 'B'], ignoreAnswers: ['none'] })[0]!.answers).toEqual(['x', 'y']);
  });

  it('maps nested fields with dotted paths and converts 0-based pages to 1-based', () => {
    const f = file(
      'fb.jsonl',
      jsonl(
        { fid: 'fb-1', q: { text: ' What was revenue? ' }, answer: '$10', doc_name: '3M_2018_10K', evidence: [{ doc_name: '3M_2018_10K', page: 0 }, { doc_name: '3M_2018_10K', page: 59 }], kind: 'metrics' },
        { fid: 'fb-2', q: { text: 'Margin?' }, answer: '24.5%', doc_name: 'AMD_2022_10K', evidence: [{ doc_name: 'AMD_2022_10K', page: 3 }], kind: 'novel' },
      ),
    );
    const qs = loadQuestions(f, { id: 'fid', question: 'q.text', answers: 'answer', docIds: 'doc_name', pages: 'evidence.0.page', pageBase: 0, tags: 'kind' });
    expect(qs[0]).toEqual({ id: 'fb-1', question: 'What was revenue?', answers: ['$10'], docIds: ['3M_2018_10K'], evidence: [{ docId: '3M_2018_10K', pages: [1] }], tags: ['metrics'] });
    expect(qs[1].evidence).toEqual([{ docId: 'AMD_2022_10K', pages: [4] }]);
    // evidenceItems reads the whole evidence array; items of one document merge.
    const all = loadQuestions(f, { id: 'fid', question: 'q.text', answers: 'answer', evidenceItems: { path: 'evidence', docId: 'doc_name', pages: 'page' }, pageBase: 0 });
    expect(all[0].evidence).toEqual([{ docId: '3M_2018_10K', pages: [1, 60] }]);
    expect(all[0].docIds).toBeUndefined(); // gold never becomes strategy-visible docIds
  });

  it('pageBase 1 keeps pages; page 0 under pageBase 1 is an error', () => {
    const f = file('p.jsonl', jsonl({ q: 'a', a: 'b', d: 'doc', p: [1, '3'] }, { q: 'c', a: 'd', d: 'doc', p: '2, 0' }));
    const m = { question: 'q', answers: 'a', evidenceDocId: 'd', pages: 'p' };
    const err = thrown(() => loadQuestions(f, m));
    expect(err.message).toBe(`${displayPath(f)}:2: field "p": expected a page number or list of page numbers (1-based), got "0" (mapped to pages)`);
    const ok = loadQuestions(file('p2.jsonl', jsonl({ q: 'a', a: 'b', d: 'doc', p: [1, '3'] })), m);
    expect(ok[0].evidence).toEqual([{ docId: 'doc', pages: [1, 3] }]);
  });

  it('splits answers by answersSeparator and resolves letter or index labels', () => {
    const f = file(
      'mc.jsonl',
      jsonl(
        { question: 'Pick', answers: 'x|y | z', choices: ['a', 'b', 'c', 'd'], label: 'C' },
        { question: 'Pick2', choices: ['a', 'b'], label: 0 },
        { question: 'Pick3', choices: 'p;q;r', label: '(b)' },
      ),
    );
    const qs = loadQuestions(f, { question: 'question', answers: 'answers', answersSeparator: '|', choices: 'choices', label: 'label', listSeparator: ';' });
    expect(qs[0]).toMatchObject({ id: '1', answers: ['x', 'y', 'z'], label: 2 });
    expect(qs[1]).toMatchObject({ id: '2', answers: [], label: 0 });
    expect(qs[2]).toMatchObject({ id: '3', choices: ['p', 'q', 'r'], label: 1 });
    const bad = file('bad.jsonl', jsonl({ question: 'Pick', choices: ['a', 'b'], label: 'D' }));
    expect(thrown(() => loadQuestions(bad, { question: 'question', choices: 'choices', label: 'label' })).message).toContain('field "label": label "D" is outside the 2 choices');
  });

  it('names file:line for a malformed JSON line', () => {
    const f = file('broken.jsonl', jsonl({ question: 'ok', answers: ['a'] }, '', '{"question": "oops", answers: 1}'));
    const err = thrown(() => loadQuestions(f, { question: 'question', answers: 'answers' }));
    expect(err).toBeInstanceOf(DataError);
    expect(err.file).toBe(f);
    expect(err.line).toBe(3);
    expect(err.message.startsWith(`${displayPath(f)}:3: invalid JSON:`)).toBe(true);
  });

  it('names file:line:field for a field of the wrong type or a missing required field', () => {
    const f = file('types.jsonl', jsonl({ question: 'ok', answers: 'a' }, { question: 'bad', answers: { value: 1 } }));
    const err = thrown(() => loadQuestions(f, { question: 'question', answers: 'answers' }));
    expect(err).toBeInstanceOf(DataError);
    expect([err.file, err.line, err.field]).toEqual([f, 2, 'answers']);
    expect(err.message).toBe(`${displayPath(f)}:2: field "answers": expected a string or array of strings, got {"value":1}`);

    const g = file('missing.jsonl', jsonl({ question: 'ok', answer: 'a' }, { prompt: 'no question', answer: 'b' }));
    const e2 = thrown(() => loadQuestions(g, { answers: 'answer' }));
    expect([e2.line, e2.field]).toEqual([2, 'question']);
    expect(e2.message).toBe(`${displayPath(g)}:2: field "question": missing required field`);

    const h = file('noanswer.jsonl', jsonl({ Q: 'x' }));
    expect(thrown(() => loadQuestions(h, { question: 'Q', answers: 'A' })).message).toBe(`${displayPath(h)}:1: field "A": missing required field (mapped to answers)`);
  });

  it('rejects duplicate question ids, naming both lines', () => {
    const f = file('dup.jsonl', jsonl({ id: 7, question: 'a', answers: 'x' }, { id: '7', question: 'b', answers: 'y' }));
    const err = thrown(() => loadQuestions(f));
    expect(err.message).toContain(':2: field "id": duplicate question id "7" (first at line 1)');
  });

  it('requires a document for record-level gold nodes', () => {
    const f = file('n.jsonl', jsonl({ question: 'a', answers: 'x', nodes: ['0001'] }));
    expect(thrown(() => loadQuestions(f, { question: 'question', answers: 'answers', nodeIds: 'nodes' })).message).toContain('gold nodes/pages need a document');
    const qs = loadQuestions(f, { question: 'question', answers: 'answers', nodeIds: 'nodes', defaultDocId: 'manual' });
    expect(qs[0].evidence).toEqual([{ docId: 'manual', nodeIds: ['0001'] }]);
  });
});

describe('loadQuestions: CSV', () => {
  const csv = [
    '\ufeffQuestion,Answer,Doc,Pages,Kind',
    'What is A?,Alpha,guide/A.md,3,lookup',
    '"A question that',
    'spans, two lines?","Two|answers",guide/B.md,"0,4",lookup',
    '',
    'What is C?,Gamma,guide/C.md,,numeric',
  ].join('\r\n');

  it('handles a BOM, CRLF, quoted multi-line fields, separators and pageBase 0', () => {
    const f = file('qa.csv', csv);
    const qs = loadQuestions(f, { question: 'Question', answers: 'Answer', answersSeparator: '|', evidenceDocId: 'Doc', docIdStripExtension: true, pages: 'Pages', pageBase: 0, tags: 'Kind', tagFormat: 'field=value' });
    // Default ids are the records' ordinals, not the lines they start on (a quoted field spans lines).
    expect(qs.map((q) => q.id)).toEqual(['1', '2', '3']);
    expect(qs[0]).toEqual({ id: '1', question: 'What is A?', answers: ['Alpha'], evidence: [{ docId: 'guide/A', pages: [4] }], tags: ['Kind=lookup'] });
    expect(qs[1].question).toBe('A question that\nspans, two lines?');
    expect(qs[1].answers).toEqual(['Two', 'answers']);
    expect(qs[1].evidence).toEqual([{ docId: 'guide/B', pages: [1, 5] }]);
    expect(qs[2].evidence).toEqual([{ docId: 'guide/C' }]);
  });

  it('reports errors at the line a record starts on', () => {
    const f = file('qa.csv', csv.replace('What is C?', ''));
    const err = thrown(() => loadQuestions(f, { question: 'Question', answers: 'Answer' }));
    expect([err.line, err.field]).toEqual([6, 'Question']);
    expect(err.message).toBe(`${displayPath(f)}:6: field "Question": missing required field (mapped to question)`);
  });

  it('names a mapped column the header does not have', () => {
    const f = file('qa.csv', csv);
    const err = thrown(() => loadQuestions(f, { question: 'Questoin', answers: 'Answer' }));
    expect([err.line, err.field]).toEqual([1, 'Questoin']);
    expect(err.message).toContain('mapping.question names column "Questoin"');
  });

  it('turns malformed CSV into a DataError with a line', () => {
    const f = file('bad.csv', 'a,b\n1,2\n3,"x"y\n');
    const err = thrown(() => loadQuestions(f, { question: 'a', answers: 'b' }));
    expect(err).toBeInstanceOf(DataError);
    expect(err.line).toBe(3);
    expect(err.message).toContain('invalid CSV');
  });

  it('maps the aws-docs QA file (Yes_No_True as tags)', () => {
    const qs = loadQuestions(path.join(SHARED, 'aws-docs/QA_true.subset.csv'), {
      question: 'Question',
      answers: 'Answer_True',
      evidenceDocId: 'Document_True',
      docIdStripExtension: true,
      tags: 'Yes_No_True',
    });
    expect(qs).toHaveLength(30);
    expect(qs[0].evidence).toEqual([{ docId: 'amazon-forecast-developer-guide/data-protection' }]);
    expect(qs[0].question).toBe('Can I use my own keys in AWS KMS to encrypt data in Amazon Forecast?');
    expect(new Set(qs.flatMap((q) => q.tags ?? []))).toEqual(new Set(['Yes', 'No', 'None']));
  });
});

describe('question mapping schema', () => {
  it('fills defaults and rejects unknown keys with the field name', () => {
    const m = questionMappingSchema.parse({ answers: 'a' });
    expect(m).toMatchObject({ question: 'question', pageBase: 1, tagFormat: 'value', docIdStripExtension: false });
    expect(thrown(() => parseQuestionMapping({ question: 'q', answer: 'a' }, 'dataset.mapping')).message).toMatch(/^field "dataset\.mapping": .*answer/);
    expect(thrown(() => parseQuestionMapping({ pageBase: 2 })).message).toMatch(/^field "mapping\.pageBase"/);
  });

  it('getPath prefers an exact key (CSV headers with dots) over a dotted path', () => {
    expect(getPath({ 'a.b': 1, a: { b: 2 } }, 'a.b')).toBe(1);
    expect(getPath({ a: { b: [{ c: 3 }] } }, 'a.b.0.c')).toBe(3);
    expect(getPath({ a: [1] }, 'a.x')).toBeUndefined();
  });
});
