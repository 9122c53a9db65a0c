import { describe, it, expect, vi } from 'vitest';
import { buildPrompt, type OutlineNode, type PromptPayload, type StrategyPayload, type StrategyTask, type TaskAnswers } from '../../../../strategies/prompts.ts';
import type { ChatMessage } from '../../../../harness/types.ts';
import {
  CANNOT_PARSE,
  NOT_FOUND,
  OfflineReasoner,
  delaySequence,
  mulberry32,
  respond,
  splitSentences,
} from '../../../../harness/models/providers/offline.ts';

/** Asks the reasoner through the real prompt builder and parses its JSON answer. */
function ask<T extends StrategyTask>(payload: Extract<StrategyPayload, { task: T }>): TaskAnswers[T] {
  return JSON.parse(respond(buildPrompt(payload))) as TaskAnswers[T];
}

const outline: OutlineNode[] = [
  {
    node_id: '0001',
    title: 'Overview',
    summary: 'What the product is and who it is for.',
    nodes: [{ node_id: '0002', title: 'Safety notices', summary: 'Warnings about heat and water.' }],
  },
  {
    node_id: '0003',
    title: 'Battery',
    summary: 'Charging and battery care.',
    nodes: [
      { node_id: '0004', title: 'Charging the battery', summary: 'How to charge with the supplied cable.' },
      { node_id: '0005', title: 'Battery warranty', summary: 'Warranty period and what it covers.' },
    ],
  },
  { node_id: '0006', title: 'Warranty', summary: 'General warranty terms for the device.' },
];

describe('OfflineReasoner basics', () => {
  it('is labelled offline with a default id, and reports no usage', async () => {
    const r = new OfflineReasoner();
    expect(r.offline).toBe(true);
    expect(r.id).toBe('offline-reasoner');
    expect(new OfflineReasoner({ id: 'offline-x' }).id).toBe('offline-x');
    const res = await r.chat(buildPrompt({ task: 'reward', question: 'battery', passage: { doc_id: 'd', node_id: 'n', title: 't', text: 'battery' } }), {});
    expect(res.model).toBe('offline-reasoner');
    expect(res.usage).toBeUndefined();
    expect(JSON.parse(res.text)).toMatchObject({ reward: 1 });
  });

  it('answers a prompt it has no task for with the sentences most relevant to its question', () => {
    expect(respond([])).toBe(CANNOT_PARSE);
    const prompt: ChatMessage[] = [
      { role: 'system', content: 'You answer questions about a phone manual. Be brief.' },
      {
        role: 'user',
        content: 'Context:\nThe battery charges in about two hours with the supplied adapter. The screen is 6.1 inches. Wireless charging needs a Qi pad.\n\nQuestion: How long does the battery take to charge?',
      },
    ];
    const text = respond(prompt);
    expect(text).toContain('The battery charges in about two hours');
    expect(text).not.toContain('6.1 inches');
    expect(text).not.toContain('How long does'); // the question is not its own answer
    expect(respond(prompt)).toBe(text); // deterministic
    expect(JSON.parse(respond(prompt, undefined, true))).toEqual({ answer: text });
    // Nothing in the prompt matches: not found, never an invented answer.
    expect(respond([{ role: 'user', content: 'Context: The sky is blue.\nQuestion: Who won the 1998 World Cup?' }])).toBe(NOT_FOUND);
    expect(respond([{ role: 'user', content: 'Hello there' }])).toBe(NOT_FOUND);
  });

  it('gives the generic reply to a payload naming a task it does not know', () => {
    const unknown = buildPrompt({ task: 'reward', question: 'How is the battery charged?', passage: { doc_id: 'd', node_id: 'n', title: 't', text: 'The battery is charged over USB-C.' } });
    unknown[1].content = unknown[1].content.replace('"task": "reward"', '"task": "dance"');
    const text = respond(unknown);
    expect(text).not.toBe(CANNOT_PARSE);
    expect(() => JSON.parse(text)).toThrow(); // plain text, as asked (no json option)
  });

  it('answers the earlier payload when a retry message carries none', () => {
    const payload: PromptPayload = { task: 'select-nodes', question: 'battery warranty', doc_id: 'd', doc_title: 'Manual', outline, max_nodes: 1 };
    const first = respond(buildPrompt(payload));
    const retry: ChatMessage[] = [
      ...buildPrompt(payload),
      { role: 'assistant', content: 'Sure! The battery section.' },
      { role: 'user', content: 'Your answer was not valid JSON. Reply with JSON only.' },
    ];
    expect(respond(retry)).toBe(first);
  });

  it('gives the same output for the same input', () => {
    const payload: PromptPayload = { task: 'select-nodes', question: 'How long is the battery warranty?', doc_id: 'd', doc_title: 'Manual', outline, max_nodes: 3 };
    const a = respond(buildPrompt(payload));
    const b = respond(buildPrompt(payload));
    expect(a).toBe(b);
  });

  it('answers the same after other questions over the same texts (its token memo holds no answer state)', async () => {
    const passage = { doc_id: 'd', node_id: 'n', title: 'Battery warranty', text: 'The battery warranty lasts eight years. It does not cover water damage. Charging takes two hours.' };
    const questions = ['How long does the battery warranty last?', 'Does the warranty cover water damage?', 'How long does charging take?'];
    const prompts = questions.map((question) => buildPrompt({ task: 'answer', question, context: [passage] }));
    const nodes = buildPrompt({ task: 'select-nodes', question: questions[0], doc_id: 'd', doc_title: 'Manual', outline, max_nodes: 3 });
    // Warm this module's memo with every text, in another order, then ask each question again.
    for (const p of [nodes, ...prompts].reverse()) respond(p);
    const warm = [nodes, ...prompts].map((p) => respond(p));
    vi.resetModules();
    const fresh = await import('../../../../harness/models/providers/offline.ts');
    expect(fresh.respond).not.toBe(respond);
    expect([nodes, ...prompts].map((p) => fresh.respond(p))).toEqual(warm);
  });
});

describe('select-documents', () => {
  const documents = [
    { doc_id: 'tesla', title: 'Tesla 2023 annual report', description: 'Automotive and energy revenue, deliveries.' },
    { doc_id: 'apple', title: 'Apple 10-K 2023', description: 'iPhone, Mac and services revenue.' },
    { doc_id: 'manual', title: 'Headphones user manual', description: 'Pairing, charging, warranty.' },
  ];

  it('ranks by title and description, drops weak matches', () => {
    const a = ask({ task: 'select-documents', question: 'What was Apple services revenue in 2023?', documents, max_docs: 3 });
    expect(a.doc_ids[0]).toBe('apple');
    expect(a.doc_ids).not.toContain('manual');
    expect(typeof a.thinking).toBe('string');
  });

  it('respects max_docs and returns nothing when nothing matches', () => {
    expect(ask({ task: 'select-documents', question: 'revenue 2023', documents, max_docs: 1 }).doc_ids).toHaveLength(1);
    expect(ask({ task: 'select-documents', question: 'Who painted the Mona Lisa?', documents, max_docs: 2 }).doc_ids).toEqual([]);
  });
});

describe('select-nodes', () => {
  it('returns the node whose title matches, most specific first', () => {
    const a = ask({ task: 'select-nodes', question: 'How long is the battery warranty?', doc_id: 'd', doc_title: 'Manual', outline, max_nodes: 2 });
    expect(a.node_list[0]).toBe('0005');
    expect(a.node_list).toHaveLength(2);
  });

  it('prefers the deeper node on a tie', () => {
    // "Of the" has no content terms, so both "Refunds" nodes have the same candidate text.
    const tie: OutlineNode[] = [
      { node_id: 'top', title: 'Refunds' },
      { node_id: 'x', title: 'Of the', nodes: [{ node_id: 'deep', title: 'Refunds' }] },
    ];
    const a = ask({ task: 'select-nodes', question: 'refunds', doc_id: 'd', doc_title: 'D', outline: tie, max_nodes: 3 });
    expect(a.node_list).toEqual(['deep', 'top']);
  });

  it('ranks a child that repeats its parent title above the parent', () => {
    const o: OutlineNode[] = [{ node_id: 'p', title: 'Refunds', nodes: [{ node_id: 'c', title: 'Refunds' }] }];
    const a = ask({ task: 'select-nodes', question: 'refunds', doc_id: 'd', doc_title: 'D', outline: o, max_nodes: 2 });
    expect(a.node_list).toEqual(['c', 'p']);
  });

  it('uses ancestors titles to break ties between same-named sections', () => {
    const o: OutlineNode[] = [
      { node_id: 'exp', title: 'Expenses', nodes: [{ node_id: 'exp-q1', title: 'Q1' }] },
      { node_id: 'rev', title: 'Revenue', nodes: [{ node_id: 'rev-q1', title: 'Q1' }] },
    ];
    const a = ask({ task: 'select-nodes', question: 'Revenue in Q1', doc_id: 'd', doc_title: 'D', outline: o, max_nodes: 4 });
    expect(a.node_list[0]).toBe('rev-q1');
    expect(a.node_list.indexOf('rev-q1')).toBeLessThan(a.node_list.indexOf('exp-q1'));
    // "Expenses" itself matches nothing, so it is not listed.
    expect(a.node_list).not.toContain('exp');
  });

  it('returns an empty list when nothing matches', () => {
    const a = ask({ task: 'select-nodes', question: 'Who painted the Mona Lisa?', doc_id: 'd', doc_title: 'Manual', outline, max_nodes: 3 });
    expect(a.node_list).toEqual([]);
  });
});

describe('choose-children', () => {
  const children = [
    { node_id: 'a', title: 'Charging the battery', summary: 'Cable and charging time.', has_children: false },
    { node_id: 'b', title: 'Safety notices', summary: 'Heat and water warnings.', has_children: false },
    { node_id: 'c', title: 'Cleaning', summary: 'Wipe with a dry cloth.', has_children: false },
  ];

  it('picks the matching child', () => {
    const a = ask({ task: 'choose-children', question: 'How long does charging take?', doc_id: 'd', doc_title: 'Doc', parent: null, children, max_picks: 2, allow_self: false });
    expect(a.choices).toEqual(['a']);
  });

  it('returns NONE when no child matches and there are no value scores', () => {
    const a = ask({ task: 'choose-children', question: 'What is the refund policy?', doc_id: 'd', doc_title: 'Doc', parent: { node_id: 'p', title: 'Care' }, children, max_picks: 2, allow_self: true });
    expect(a.choices).toEqual(['NONE']);
  });

  it('follows value scores as a weak prior when nothing matches lexically', () => {
    const scored = children.map((c, i) => ({ ...c, value_score: [0.1, 0.8, 0][i] }));
    const a = ask({ task: 'choose-children', question: 'What is the refund policy?', doc_id: 'd', doc_title: 'Doc', parent: null, children: scored, max_picks: 1, allow_self: false });
    expect(a.choices).toEqual(['b']);
  });

  it('lets lexical relevance outweigh the value prior', () => {
    const scored = children.map((c, i) => ({ ...c, value_score: [0, 0.9, 0][i] }));
    const a = ask({ task: 'choose-children', question: 'charging the battery', doc_id: 'd', doc_title: 'Doc', parent: null, children: scored, max_picks: 1, allow_self: false });
    expect(a.choices).toEqual(['a']);
  });

  it('returns __self__ when allowed and the parent title matches better than every child', () => {
    const kids = [
      { node_id: 'p1', title: 'Product revenue', summary: 'Revenue from hardware sales by region and channel.', has_children: false },
      { node_id: 'p2', title: 'Service revenue', summary: 'Revenue from subscriptions and support contracts.', has_children: false },
    ];
    const base = { task: 'choose-children' as const, question: 'What was total revenue?', doc_id: 'd', doc_title: 'Report', parent: { node_id: 'rev', title: 'Total revenue' }, children: kids, max_picks: 2 };
    expect(ask({ ...base, allow_self: true }).choices).toEqual(['__self__']);
    // Not allowed: descend instead.
    expect([...ask({ ...base, allow_self: false }).choices].sort()).toEqual(['p1', 'p2']);
    // A child that matches the question better wins over the parent.
    expect(ask({ ...base, question: 'What was service revenue from subscriptions?', allow_self: true }).choices[0]).toBe('p2');
  });

  it('ignores question terms that every child shares through the document or parent title', () => {
    const kids = [
      { node_id: 'leave', title: 'Leaving Northwind Loom', summary: 'Resigning and the last salary payment.', has_children: false },
      { node_id: 'pay', title: 'Pay and benefits', summary: 'When salaries are paid, expenses and pension.', has_children: false },
    ];
    const payload = { task: 'choose-children' as const, question: 'When do Northwind Loom staff get paid?', doc_id: 'hb', parent: null, children: kids, max_picks: 1, allow_self: false };
    // Without the document title, the company name decides; with it, "paid" does.
    expect(ask({ ...payload, doc_title: 'Handbook' }).choices).toEqual(['leave']);
    expect(ask({ ...payload, doc_title: 'Northwind Loom Employee Handbook' }).choices).toEqual(['pay']);
  });

  it('answers a "which section" question with the title of the best passage', () => {
    const a = ask({
      task: 'answer',
      question: 'Which section of the manual explains what to do about a strange smell?',
      context: [
        { doc_id: 'm', node_id: 'a', title: 'Filter replacement', text: 'Replace the filter every 6 months.' },
        { doc_id: 'm', node_id: 'b', title: 'Unusual noise or smell', text: 'If you notice a strange smell, switch the unit off.' },
      ],
    });
    expect(a.answer).toBe('Unusual noise or smell');
  });

  it('adds missing_aspects to the query', () => {
    const base = { task: 'choose-children' as const, question: 'Tell me about the device', doc_id: 'd', doc_title: 'Manual', parent: null, children, max_picks: 1, allow_self: false };
    expect(ask(base).choices).toEqual(['NONE']);
    expect(ask({ ...base, missing_aspects: ['cleaning'] }).choices).toEqual(['c']);
  });

  it('respects max_picks', () => {
    const a = ask({ task: 'choose-children', question: 'battery safety cleaning', doc_id: 'd', doc_title: 'Doc', parent: null, children, max_picks: 2, allow_self: false });
    expect(a.choices).toHaveLength(2);
  });
});

describe('sufficiency', () => {
  const passage = (node_id: string, title: string, text: string) => ({ doc_id: 'd', node_id, title, text });
  const unexplored = [
    { doc_id: 'd', node_id: 'n7', title: 'Warranty period' },
    { doc_id: 'd', node_id: 'n8', title: 'Cleaning' },
  ];

  it('is sufficient when the evidence covers the question', () => {
    const a = ask({
      task: 'sufficiency',
      question: 'How long is the battery warranty period?',
      evidence: [passage('n5', 'Battery warranty', 'The battery warranty period is eight years.')],
      unexplored,
    });
    expect(a).toEqual({ sufficient: true, missingAspects: [], suggestedBranches: [] });
  });

  it('is insufficient with partial evidence, naming what is missing and where to look', () => {
    const a = ask({
      task: 'sufficiency',
      question: 'How long is the battery warranty period?',
      evidence: [passage('n4', 'Charging', 'Charge the battery for two hours.')],
      unexplored,
    });
    expect(a.sufficient).toBe(false);
    expect(a.missingAspects).toEqual(['warranty', 'period']);
    expect(a.suggestedBranches).toEqual(['n7']);
  });

  it('is insufficient without evidence', () => {
    const a = ask({ task: 'sufficiency', question: 'battery warranty', evidence: [] });
    expect(a.sufficient).toBe(false);
    expect(a.missingAspects).toEqual(['battery', 'warranty']);
    expect(a.suggestedBranches).toEqual([]);
  });

  it('requires one passage to score well on its own', () => {
    // Five question terms spread one per passage: coverage 100 %, but no passage covers 40 %.
    const a = ask({
      task: 'sufficiency',
      question: 'alpha bravo charlie delta echo',
      evidence: ['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((w, i) => passage(`n${i}`, 'x', w)),
    });
    expect(a.sufficient).toBe(false);
    expect(a.missingAspects).toEqual([]);
  });
});

describe('estimate-values', () => {
  it('gives normalised lexical scores in [0, 1] with a floor', () => {
    const children = [
      { node_id: 'a', title: 'Battery warranty', has_children: false },
      { node_id: 'b', title: 'Battery care', has_children: true },
      { node_id: 'c', title: 'Cleaning', has_children: false },
    ];
    const a = ask({ task: 'estimate-values', question: 'battery warranty', doc_id: 'd', doc_title: 'Doc', parent: null, children });
    expect(Object.keys(a.values)).toEqual(['a', 'b', 'c']);
    expect(a.values.a).toBe(1);
    expect(a.values.b).toBeGreaterThan(0.05);
    expect(a.values.b).toBeLessThan(1);
    expect(a.values.c).toBe(0.05);
  });
});

describe('reward', () => {
  const p = (text: string) => ({ doc_id: 'd', node_id: 'n', title: 'Section', text });
  it('is the share of question terms the passage covers', () => {
    expect(ask({ task: 'reward', question: 'battery warranty period', passage: p('The battery warranty period is 8 years.') }).reward).toBe(1);
    expect(ask({ task: 'reward', question: 'battery warranty period', passage: p('Charge the battery.') }).reward).toBeCloseTo(1 / 3, 3);
    expect(ask({ task: 'reward', question: 'battery warranty period', passage: p('Wipe with a cloth.') }).reward).toBe(0);
  });
});

describe('answer', () => {
  const ctx = (text: string, title = 'Section') => ({ doc_id: 'd', node_id: 'n', title, text });

  it('picks the sentence with the number for a how-many question', () => {
    const a = ask({
      task: 'answer',
      question: 'How many employees did the company have at year end?',
      context: [
        ctx(
          'The company values its employees and invests in training. At year end the company had 1,250 employees worldwide. Employees receive stock options.',
          'Human capital',
        ),
      ],
    });
    expect(a.answer).toBe('At year end the company had 1,250 employees worldwide.');
    expect(a.choice).toBeNull();
  });

  it('answers yes/no questions, with negation meaning no', () => {
    const context = [ctx('The warranty does not cover water damage. The warranty covers battery defects for eight years.')];
    expect(ask({ task: 'answer', question: 'Does the warranty cover water damage?', context }).answer).toBe('no');
    expect(ask({ task: 'answer', question: 'Does the warranty cover battery defects?', context }).answer).toBe('yes');
  });

  it('picks the choice with the highest overlap with the context', () => {
    const a = ask({
      task: 'answer',
      question: 'Which component has an eight year warranty?',
      choices: ['The screen', 'The battery', 'The charger'],
      context: [ctx('The battery is covered for eight years. The charger is covered for one year.')],
    });
    expect(a.choice).toBe(1);
    expect(a.answer).toBe('The battery');
  });

  it('says not found for empty context or no overlap', () => {
    expect(ask({ task: 'answer', question: 'How many employees?', context: [] }).answer).toBe(NOT_FOUND);
    expect(ask({ task: 'answer', question: 'Who painted the Mona Lisa?', context: [ctx('Charge the battery for two hours.', 'Charging')] }).answer).toBe(NOT_FOUND);
  });

  it('clips very long sentences to a window around the question terms', () => {
    const filler = Array.from({ length: 200 }, (_, i) => `item${i}`).join(' ');
    const a = ask({ task: 'answer', question: 'What is the warranty period?', context: [ctx(`${filler} the warranty period is eight years ${filler}`)] });
    expect(a.answer.length).toBeLessThanOrEqual(410);
    expect(a.answer).toContain('warranty period is eight years');
  });
});

describe('splitSentences', () => {
  it('splits at sentence ends but not inside numbers, and at table rows', () => {
    expect(splitSentences('Revenue was 1.5 billion. Costs rose.\n| a | b |\n| c | d |')).toEqual([
      'Revenue was 1.5 billion.',
      'Costs rose.',
      '| a | b |',
      '| c | d |',
    ]);
  });
});

describe('splitSentences on extracted PDF text', () => {
  it('joins table cells to their row label and wrapped prose lines', () => {
    const page = 'Cash Flows\n \nPurchases of property, plant and equipment (PP&E)\n \n \n(1,577) \n \n(1,373)\nProceeds from sale\n \n262\nThe company\nspent more this year. It grew.';
    expect(splitSentences(page)).toEqual([
      'Cash Flows',
      'Purchases of property, plant and equipment (PP&E) (1,577) (1,373)',
      'Proceeds from sale 262',
      'The company spent more this year.',
      'It grew.',
    ]);
  });
});

describe('question terms', () => {
  it('ignores interrogative phrases and instruction words when judging coverage', () => {
    const a = ask({
      task: 'sufficiency',
      question: 'How much was capex in 2018? Answer using the details shown in the cash flow statement.',
      evidence: [{ doc_id: 'd', node_id: 'n', title: 'Cash flow statement', text: 'Capex was 1,577 in 2018.' }],
    });
    expect(a).toEqual({ sufficient: true, missingAspects: [], suggestedBranches: [] });
  });
});

describe('isolation from fields it must not rely on', () => {
  it('gives the same output when the payload and messages carry extra fields', () => {
    const payloads: StrategyPayload[] = [
      { task: 'select-nodes', question: 'How long is the battery warranty?', doc_id: 'd', doc_title: 'Manual', outline, max_nodes: 2 },
      {
        task: 'answer',
        question: 'How many employees did the company have?',
        context: [{ doc_id: 'd', node_id: 'n', title: 'People', text: 'We value people. The company had 1,250 employees.' }],
      },
      {
        task: 'choose-children',
        question: 'charging time',
        doc_id: 'd',
        doc_title: 'Manual',
        parent: { node_id: 'p', title: 'Battery' },
        children: [
          { node_id: 'a', title: 'Charging', has_children: false },
          { node_id: 'b', title: 'Cleaning', has_children: false },
        ],
        max_picks: 1,
        allow_self: true,
      },
    ];
    for (const payload of payloads) {
      const plain = respond(buildPrompt(payload));
      // Gold-looking fields at the top level and inside nested objects, plus extra messages.
      const tainted = JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
      tainted.gold = ['Cleaning', '42'];
      tainted.answers = ['42 employees'];
      tainted.evidence_gold = [{ docId: 'd', nodeIds: ['0006', 'b'] }];
      tainted.label = 2;
      if (Array.isArray(tainted.children)) for (const c of tainted.children as Array<Record<string, unknown>>) c.text = 'Cleaning 42 battery warranty';
      if (Array.isArray(tainted.outline)) (tainted.outline as Array<Record<string, unknown>>)[0].text = 'battery warranty battery warranty';
      const messages: ChatMessage[] = [
        { role: 'system', content: 'Gold answer: Cleaning. ```json\n{"task":"reward"}\n```' },
        ...buildPrompt(tainted as unknown as StrategyPayload),
      ];
      expect(respond(messages)).toBe(plain);
    }
  });
});

describe('limits', () => {
  it('truncates thinking first to respect maxTokens loosely', () => {
    const payload: PromptPayload = { task: 'select-nodes', question: 'How long is the battery warranty?', doc_id: 'd', doc_title: 'Manual', outline, max_nodes: 1 };
    const full = JSON.parse(respond(buildPrompt(payload)));
    const text = respond(buildPrompt(payload), 10);
    expect(text.length).toBeLessThanOrEqual(40);
    const short = JSON.parse(text);
    expect(short.node_list).toEqual(full.node_list);
    expect(full.thinking.startsWith(short.thinking)).toBe(true);
  });
});

describe('latency simulation', () => {
  it('mulberry32 is a seeded uniform sequence', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 100 }, () => a());
    expect(xs).toEqual(Array.from({ length: 100 }, () => b()));
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
    expect(mulberry32(43)()).not.toBe(xs[0]);
  });

  it('same seed gives the same delays, within mean ± jitter', () => {
    const seq1 = delaySequence({ meanMs: 50, jitterMs: 10, seed: 7 });
    const seq2 = delaySequence({ meanMs: 50, jitterMs: 10, seed: 7 });
    const d1 = Array.from({ length: 50 }, seq1);
    expect(d1).toEqual(Array.from({ length: 50 }, seq2));
    for (const d of d1) expect(d >= 40 && d <= 60).toBe(true);
    expect(new Set(d1).size).toBeGreaterThan(1);
    const other = Array.from({ length: 50 }, delaySequence({ meanMs: 50, jitterMs: 10, seed: 8 }));
    expect(other).not.toEqual(d1);
    expect(Array.from({ length: 3 }, delaySequence({ meanMs: 5 }))).toEqual([5, 5, 5]);
  });

  it('rejects bad latency settings, naming the field', () => {
    expect(() => new OfflineReasoner({ latency: { meanMs: -1 } })).toThrow(/latency\.meanMs/);
    expect(() => new OfflineReasoner({ latency: { meanMs: 1, jitterMs: Number.NaN } })).toThrow(/latency\.jitterMs/);
  });

  it('answers the same with or without latency', async () => {
    const messages = buildPrompt({ task: 'select-nodes', question: 'battery warranty', doc_id: 'd', doc_title: 'Manual', outline, max_nodes: 2 });
    const fast = await new OfflineReasoner().chat(messages, {});
    const slow = await new OfflineReasoner({ latency: { meanMs: 2, jitterMs: 1, seed: 3 } }).chat(messages, {});
    expect(slow.text).toBe(fast.text);
  });

  it('honours an AbortSignal', async () => {
    const messages = buildPrompt({ task: 'reward', question: 'q', passage: { doc_id: 'd', node_id: 'n', title: 't', text: 'x' } });
    const aborted = AbortSignal.abort();
    await expect(new OfflineReasoner({ latency: { meanMs: 60_000 } }).chat(messages, { signal: aborted })).rejects.toThrow();
    await expect(new OfflineReasoner().chat(messages, { signal: aborted })).rejects.toThrow();
    const ctrl = new AbortController();
    const pending = new OfflineReasoner({ latency: { meanMs: 60_000 } }).chat(messages, { signal: ctrl.signal });
    ctrl.abort();
    await expect(pending).rejects.toThrow();
  });
});
