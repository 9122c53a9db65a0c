// What a plugin's response turns into (harness/plugins/protocol.ts) when it is not quite right:
// the message names the field and says what was expected, and a dropped evidence item says which
// node or document it named, so the author can find the bug in their own id mapping.
import { describe, expect, it } from 'vitest';
import { resultFromResponse } from '../../../harness/plugins/protocol.ts';
import type { Corpus } from '../../../harness/types.ts';

const corpus: Corpus = {
  name: 'tiny',
  docs: [{ docId: 'handbook', title: 'Handbook', nodes: [{ id: 'hb-1', title: 'Pay', text: 'Paid on the 25th.', children: [] }] }],
};

const errorOf = (reply: unknown) => {
  try {
    resultFromResponse(reply, corpus, {});
  } catch (err) {
    return `${(err as { field?: string }).field ?? ''} | ${(err as Error).message}`;
  }
  return '';
};

describe('plugin responses', () => {
  it('say that `answer` is missing rather than "got undefined"', () => {
    expect(errorOf({ evidence: [] })).toMatch(/answer \| .*missing: a response needs `answer`, a string/);
    expect(errorOf({ answer: 42 })).toMatch(/answer \| .*expected a string, got number/);
  });

  it('name the node or document of an evidence item the corpus does not have', () => {
    const r = resultFromResponse({ answer: 'the 25th', evidence: [{ docId: 'handbook', nodeId: 'hb-9' }, { docId: 'handbook', nodeId: 'hb-1' }, { docId: 'faq', nodeId: 'q1' }, { docId: 'faq' }] }, corpus, {});
    expect(r.evidence.map((e) => e.nodeId)).toEqual(['hb-1']);
    expect(r.parseFailures).toBe(3);
    expect(r.trace.map((t) => t.reason)).toEqual([
      'evidence[0] names no node of the corpus (handbook/hb-9): dropped',
      'evidence[2] names no node of the corpus (faq/q1; no document "faq"): dropped',
      'evidence[3] names no document of the corpus (faq; no document "faq"): dropped',
    ]);
  });
});
