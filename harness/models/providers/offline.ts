// The embedded offline reasoner (DESIGN.md, "Models"): a deterministic, no-network chat provider.
// It answers the same chat messages a real model gets by reading back the task payload that every
// strategy prompt carries (harness/protocol/tasks.ts) and deciding with lexical relevance: BM25 over
// titles and summaries for outline tasks, over text for passages, titles weighted double.
// It reads nothing but the messages: no corpus, no gold data, no global state. Its answers do not
// depend on the simulated latency, on call order, or on payload fields it does not know.
import { extractiveSummary } from '../../text/extractive.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatMessage, ChatOptions, ChatProvider, ChatResult } from '../../types.ts';
import { extractPayload, type PromptPayload, type TaskAnswers } from '../../protocol/tasks.ts';
import { bm25Scores } from '../../text/bm25.ts';
import { hasNumber, isStopword, stem, tokenize as tokenizeText, words } from '../../text/tokenize.ts';
import { mulberry32 } from '../../run/random.ts';
import { playAgent, type AgentReply } from './offline-agent.ts';

export const NOT_FOUND = 'Not found in the provided context.';
export const CANNOT_PARSE = 'I cannot parse this request: the last user message carries no treebench task payload I know.';

// Tuning constants, in one place so that behaviour is easy to predict and to test.
const TITLE_WEIGHT = 2; // title tokens are repeated this many times in a candidate
const DOC_KEEP = 0.25; // select-documents: drop docs scoring below this fraction of the best
const NODE_KEEP = 0.3; // select-nodes: same for nodes
const CHILD_KEEP = 0.3; // choose-children: same for combined child scores
const VALUE_PRIOR = 0.3; // choose-children: weight of value_score against normalised BM25
const SUFFICIENT_COVERAGE = 0.6; // sufficiency: share of question terms the evidence must cover
const PASSAGE_WELL = 0.4; // sufficiency: share one passage must cover on its own
const MAX_SUGGESTIONS = 3; // sufficiency: suggested branches
const VALUE_FLOOR = 0.05; // estimate-values: nothing is ever certainly irrelevant
const TITLE_BONUS = 0.3; // answer: weight of the passage title's match for its sentences
const NUMBER_BONUS = 1.5; // answer: factor for sentences with a number when a number is asked for
const MAX_ANSWER_CHARS = 400; // answer: longer sentences are cut to their densest window
const ANSWER_WINDOW_WORDS = 60;

// ---------------------------------------------------------------------------------------------
// Token memo
//
// Every call of a run re-sends the same passages and outline titles (a tree search asks about the
// same nodes at each step; every question of a document sees its summaries), and tokenising them
// (split, stopwords, Porter stem) was the reasoner's largest cost. The memo is keyed by the text
// alone, so a reply still depends on the messages only; it is bounded by the characters it holds
// and cleared wholesale when full, which keeps it simple and its memory predictable.
// The memo's token strings are interned: a corpus has a few thousand distinct terms but its
// passages hundreds of thousands of tokens, each a string of its own as the tokenizer cuts it
// (the ×1 corpus of `npm run bench:scale`: 2.7 MB of token arrays, 1.0 MB interned).
const TOKEN_MEMO_MAX_CHARS = 4_000_000;
const tokenMemo = new Map<string, readonly string[]>();
const terms = new Map<string, string>();
let tokenMemoChars = 0;

function tokenize(text: string): readonly string[] {
  const hit = tokenMemo.get(text);
  if (hit) return hit;
  const tokens = tokenizeText(text);
  for (let i = 0; i < tokens.length; i++) {
    const t = terms.get(tokens[i]);
    if (t === undefined) terms.set(tokens[i], tokens[i]);
    else tokens[i] = t;
  }
  Object.freeze(tokens);
  if (tokenMemoChars + text.length > TOKEN_MEMO_MAX_CHARS) {
    tokenMemo.clear();
    terms.clear();
    tokenMemoChars = 0;
  }
  tokenMemo.set(text, tokens);
  tokenMemoChars += text.length;
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// Latency simulation

export interface LatencyOptions {
  meanMs: number;
  /** Uniform jitter: each delay is meanMs ± jitterMs (never below 0). Default 0. */
  jitterMs?: number;
  /** Seed of the delay sequence (default 0). */
  seed?: number;
}

export interface OfflineReasonerOptions {
  /** Model id in manifests and the price table (default "offline-reasoner"). */
  id?: string;
  latency?: LatencyOptions;
}

export { mulberry32 };

/** The sequence of simulated delays (ms) for a latency setting: same seed, same sequence. */
export function delaySequence(latency: LatencyOptions): () => number {
  const { meanMs } = latency;
  const jitterMs = latency.jitterMs ?? 0;
  if (!Number.isFinite(meanMs) || meanMs < 0) throw new Error(`offline reasoner: "latency.meanMs" must be a number >= 0, got ${meanMs}`);
  if (!Number.isFinite(jitterMs) || jitterMs < 0) throw new Error(`offline reasoner: "latency.jitterMs" must be a number >= 0, got ${jitterMs}`);
  const rand = mulberry32(latency.seed ?? 0);
  return () => Math.max(0, meanMs + (rand() * 2 - 1) * jitterMs);
}

// ---------------------------------------------------------------------------------------------
// Provider

export class OfflineReasoner implements ChatProvider {
  readonly id: string;
  readonly offline = true;
  /** It plays the agent with native tool calls too (harness/models/providers/offline-agent.ts). */
  readonly supportsTools = true;
  private readonly nextDelay: (() => number) | null;

  constructor(opts: OfflineReasonerOptions = {}) {
    this.id = opts.id ?? 'offline-reasoner';
    this.nextDelay = opts.latency ? delaySequence(opts.latency) : null;
  }

  async chat(messages: ChatMessage[], opts: ChatOptions & { attempt?: number; signal?: AbortSignal } = {}): Promise<ChatResult> {
    // The answer is computed before (and independently of) the simulated wait.
    const { text, toolCalls } = respondChat(messages, opts);
    const delay = this.nextDelay ? this.nextDelay() : 0;
    if (delay > 0) await sleep(delay, undefined, { signal: opts.signal });
    else opts.signal?.throwIfAborted();
    return { text, model: this.id, ...(toolCalls?.length ? { toolCalls } : {}) };
  }
}

/**
 * The reasoner's reply to a chat request, tool calls included: an agent conversation (with the
 * tools offered natively or in its text protocol) is played by offline-agent.ts, anything else
 * answered by `respond`. Pure; the loopback test server calls it with what came over HTTP.
 */
export function respondChat(messages: ChatMessage[], opts: Pick<ChatOptions, 'maxTokens' | 'tools' | 'toolChoice' | 'json'> = {}): AgentReply {
  return playAgent(messages, opts.tools, opts.toolChoice, solveTask) ?? { text: respond(messages, opts.maxTokens, opts.json) };
}

/** One task payload's answer object, or null for a payload it cannot answer. */
function solveTask(payload: PromptPayload): object | null {
  try {
    return dispatch(payload);
  } catch {
    return null;
  }
}

/**
 * The reasoner's reply to a conversation, as text: the JSON answer of the payload's task. When the
 * last user message has no payload (e.g. a retry that only says "reply with JSON"), the latest
 * earlier user message that has one is answered, as a model reading the whole conversation would.
 * A prompt with no treebench payload at all, or one naming a task it does not know (a plugin's own
 * prompt, through the model gateway), gets the generic reply: the prompt's sentences most
 * relevant to its question (genericReply). A known task whose payload has the wrong shape gets a
 * plain-text refusal, like a confused model. Pure.
 */
export function respond(messages: ChatMessage[], maxTokens?: number, json?: boolean): string {
  let payload: PromptPayload | null = null;
  for (let end = messages.length; end > 0 && !payload; end--) {
    if (messages[end - 1].role !== 'user') continue;
    payload = extractPayload(messages.slice(0, end));
  }
  if (!payload || !KNOWN_TASKS.has(payload.task)) return messages.length ? genericReply(messages, maxTokens, json) : CANNOT_PARSE;
  let answer: object | null;
  try {
    answer = dispatch(payload);
  } catch {
    answer = null; // a payload of the wrong shape: answer like a confused model, in plain text
  }
  if (!answer) return CANNOT_PARSE;
  return fitToTokens(answer, maxTokens);
}

const KNOWN_TASKS = new Set<string>(['select-documents', 'select-nodes', 'choose-children', 'sufficiency', 'estimate-values', 'reward', 'answer', 'summarize']);
const GENERIC_SENTENCES = 3;

/**
 * The reply to a prompt the reasoner has no task for: its question is the last line of the user
 * messages that asks one ("Question: ..." or a line ending in "?"; else the last user line), and
 * the answer is the up to three sentences of the whole conversation that match it best by BM25
 * (the question's own line left out), in the order they appear — "Not found in the provided
 * context." when nothing matches. With `json` the reply is {"answer": "..."}. Deterministic: the
 * same messages always get the same reply.
 */
export function genericReply(messages: ChatMessage[], maxTokens?: number, json?: boolean): string {
  const userLines = messages.filter((m) => m.role === 'user').flatMap((m) => m.content.split(/\r?\n/)).map((l) => l.trim()).filter(Boolean);
  const asked = [...userLines].reverse().find((l) => /^(question|q)\s*[:：]/i.test(l) || /\?\s*$/.test(l)) ?? userLines[userLines.length - 1] ?? '';
  const question = asked.replace(/^(question|q)\s*[:：]\s*/i, '');
  const q = questionTerms(question);
  const sents: string[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') continue;
    for (const sent of splitSentences(m.content)) if (!asked.includes(sent) && !sent.includes(asked)) sents.push(sent);
  }
  const scores = q.length ? bm25Scores(q, sents.map((x) => tokenize(x))) : [];
  const best = ranked(scores).filter((i) => scores[i] > 0).slice(0, GENERIC_SENTENCES).sort((a, b) => a - b);
  const qSet = new Set(q);
  const wantNumber = ASKS_NUMBER.test(question);
  let answer = best.length ? best.map((i) => clip(sents[i], qSet, wantNumber)).join(' ') : NOT_FOUND;
  if (maxTokens && maxTokens > 0 && answer.length > maxTokens * 4) answer = answer.slice(0, maxTokens * 4);
  return json ? JSON.stringify({ answer }) : answer;
}

function dispatch(p: PromptPayload): object | null {
  switch (p.task) {
    case 'select-documents':
      return selectDocuments(p);
    case 'select-nodes':
      return selectNodes(p);
    case 'choose-children':
      return chooseChildren(p);
    case 'sufficiency':
      return sufficiency(p);
    case 'estimate-values':
      return estimateValues(p);
    case 'reward':
      return reward(p);
    case 'answer':
      return answer(p);
    case 'summarize':
      // The offline reasoner summarises extractively: the text's most central sentences.
      return { summary: extractiveSummary(p.text, { maxTokens: p.max_tokens }) };
    default:
      return null;
  }
}

/** Keeps the JSON within roughly maxTokens (4 characters a token): `thinking` is cut first, then `answer`. */
function fitToTokens(answer: object, maxTokens?: number): string {
  let text = JSON.stringify(answer);
  if (!maxTokens || maxTokens <= 0) return text;
  const limit = maxTokens * 4;
  const obj = answer as Record<string, unknown>;
  for (const field of ['thinking', 'answer']) {
    if (text.length <= limit) break;
    const value = obj[field];
    if (typeof value !== 'string') continue;
    obj[field] = value.slice(0, Math.max(0, value.length - (text.length - limit)));
    text = JSON.stringify(obj);
  }
  return text;
}

// ---------------------------------------------------------------------------------------------
// Payload reading: the payload comes from JSON a strategy wrote, so every field is checked.

const str = (x: unknown): string => (typeof x === 'string' ? x : '');
const list = <T>(x: unknown): T[] => (Array.isArray(x) ? (x as T[]) : []);
const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const posInt = (x: unknown, dflt: number): number => (typeof x === 'number' && Number.isFinite(x) && x >= 1 ? Math.floor(x) : dflt);
const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const clamp01 = (x: number): number => Math.max(0, Math.min(1, x));
const max = (xs: number[]): number => xs.reduce((m, x) => (x > m ? x : m), 0);

/**
 * Interrogative phrases are not topics: "how long is the warranty" is about the warranty, and
 * "long" must neither count as uncovered nor match "long-term debt".
 */
const ASK_PHRASE = /\bhow (?:long|many|much|often|far|old|big|large|high|soon|early|late)\b/gi;
/** Words of instructions embedded in questions ("answer using the details shown in ..."), not topics. */
const META_WORDS = new Set(
  'answer answers assume based describe details explain following fy give information mentioned primarily provided question questions relying response shown tell using'.split(' '),
);

/** The question's content terms (duplicates kept) with their surface words. */
function questionWords(question: string): Array<{ term: string; word: string }> {
  return words(question.replace(ASK_PHRASE, ' '))
    .filter((w) => !isStopword(w) && !META_WORDS.has(w))
    .map((w) => ({ term: stem(w), word: w }));
}
const questionTerms = (question: string): string[] => questionWords(question).map((t) => t.term);
/** Distinct question terms, first surface word of each. */
function distinctQuestionTerms(question: string): Array<{ term: string; word: string }> {
  const seen = new Set<string>();
  const out: Array<{ term: string; word: string }> = [];
  for (const t of questionWords(question)) {
    if (seen.has(t.term)) continue;
    seen.add(t.term);
    out.push(t);
  }
  return out;
}

/** Candidate tokens: title repeated TITLE_WEIGHT times, then the rest. */
function fields(title: string, rest = ''): string[] {
  const t = tokenize(title);
  const out: string[] = [];
  for (let i = 0; i < TITLE_WEIGHT; i++) out.push(...t);
  out.push(...tokenize(rest));
  return out;
}

/** Indices by score, best first; ties keep input order. Scores are rounded so ties are exact. */
function ranked(scores: number[], tieBreak?: (a: number, b: number) => number): number[] {
  const r = scores.map((s) => Math.round(s * 1e9) / 1e9);
  return scores.map((_, i) => i).sort((a, b) => r[b] - r[a] || (tieBreak ? tieBreak(a, b) : 0) || a - b);
}

/** Distinct query terms found in `tokens`, for the `thinking` text. */
function shared(query: string[], tokens: readonly string[]): string[] {
  const have = new Set(tokens);
  return [...new Set(query)].filter((t) => have.has(t));
}

const quote = (s: string) => JSON.stringify(s.length > 60 ? s.slice(0, 57) + '...' : s);

// ---------------------------------------------------------------------------------------------
// Tasks

type Payload<T extends PromptPayload['task']> = Extract<PromptPayload, { task: T }>;

function selectDocuments(p: Payload<'select-documents'>): TaskAnswers['select-documents'] {
  const q = questionTerms(str(p.question));
  const docs = list<unknown>(p.documents)
    .filter(isObj)
    .filter((d) => typeof d.doc_id === 'string')
    .map((d) => ({ id: d.doc_id as string, title: str(d.title), tokens: fields(str(d.title), str(d.description)) }));
  const scores = bm25Scores(q, docs.map((d) => d.tokens));
  const best = max(scores);
  if (best <= 0) return { thinking: 'No document title or description shares a term with the question.', doc_ids: [] };
  const ids = ranked(scores)
    .filter((i) => scores[i] >= DOC_KEEP * best)
    .slice(0, posInt(p.max_docs, 1));
  const top = docs[ids[0]];
  return {
    thinking: `Best match ${quote(top.title)} shares ${shared(q, top.tokens).join(', ')} with the question.`,
    doc_ids: ids.map((i) => docs[i].id),
  };
}

interface FlatNode {
  id: string;
  title: string;
  /** Own title (weighted) and summary. */
  own: string[];
  /** `own` plus the ancestors' titles, once each: a "Q1" under "Revenue" reads as "Revenue Q1". */
  tokens: string[];
  depth: number;
}

function flatten(nodes: unknown, depth: number, ancestors: string[], out: FlatNode[], seen: Set<string>): void {
  for (const n of list<unknown>(nodes)) {
    if (!isObj(n)) continue;
    const title = str(n.title);
    if (typeof n.node_id === 'string' && !seen.has(n.node_id)) {
      seen.add(n.node_id);
      const own = fields(title, str(n.summary));
      out.push({ id: n.node_id, title, own, tokens: [...own, ...tokenize(ancestors.join(' '))], depth });
    }
    flatten(n.nodes, depth + 1, [...ancestors, title], out, seen);
  }
}

function selectNodes(p: Payload<'select-nodes'>): TaskAnswers['select-nodes'] {
  const q = questionTerms(str(p.question));
  const flat: FlatNode[] = [];
  flatten(p.outline, 0, [], flat, new Set());
  const scores = bm25Scores(q, flat.map((n) => n.tokens));
  // The ancestors' titles only refine nodes that match on their own (e.g. "Q1" under "Revenue"
  // beats "Q1" under "Expenses"); they never make an unrelated child relevant.
  flat.forEach((n, i) => {
    if (shared(q, n.own).length === 0) scores[i] = 0;
  });
  const best = max(scores);
  if (best <= 0) return { thinking: 'No node title or summary shares a term with the question.', node_list: [] };
  // On a tie, the deeper (more specific) node first.
  const ids = ranked(scores, (a, b) => flat[b].depth - flat[a].depth)
    .filter((i) => scores[i] >= NODE_KEEP * best)
    .slice(0, posInt(p.max_nodes, 1));
  const top = flat[ids[0]];
  return {
    thinking: `Node ${top.id} ${quote(top.title)} matches ${shared(q, top.tokens).join(', ')}.`,
    node_list: ids.map((i) => flat[i].id),
  };
}

interface Child {
  id: string;
  title: string;
  tokens: string[];
  value?: number;
}

function readChildren(x: unknown): Child[] {
  return list<unknown>(x)
    .filter(isObj)
    .filter((c) => typeof c.node_id === 'string')
    .map((c) => ({
      id: c.node_id as string,
      title: str(c.title),
      tokens: fields(str(c.title), str(c.summary)),
      value: typeof c.value_score === 'number' && Number.isFinite(c.value_score) ? clamp01(c.value_score) : undefined,
    }));
}

/**
 * Question terms that can tell siblings apart: terms of the document title and of the parent
 * title are shared by every child ("Northwind Loom" in a Northwind Loom handbook), so they are
 * dropped — unless nothing would be left.
 */
function discriminatingTerms(q: string[], context: string[]): string[] {
  const shared = new Set(context.flatMap((c) => tokenize(c)));
  const kept = q.filter((t) => !shared.has(t));
  return kept.length > 0 ? kept : q;
}

function chooseChildren(p: Payload<'choose-children'>): TaskAnswers['choose-children'] {
  const aspects = list<unknown>(p.missing_aspects).map(str).join(' ');
  const full = [...questionTerms(str(p.question)), ...tokenize(aspects)];
  const children = readChildren(p.children);
  const parentTitle = isObj(p.parent) ? str(p.parent.title) : null;
  const q = discriminatingTerms(full, [str(p.doc_title), parentTitle ?? '']);
  // "__self__" (when allowed): the answer is taken to be in the current section itself when
  //  - the question asks about the section as a whole (all its terms are in the parent or
  //    document title) and the parent title outscores every child, or
  //  - the question matches the parent title and has terms of its own, but no child matches them.
  if (p.allow_self === true && parentTitle !== null && children.length > 0) {
    const own = q !== full;
    const childLex = bm25Scores(q, children.map((c) => c.tokens));
    const s = bm25Scores(full, [fields(parentTitle), ...children.map((c) => c.tokens)]);
    const wholeSection = !own && s[0] > 0 && s.slice(1).every((x) => s[0] > x);
    if (wholeSection || (own && s[0] > 0 && max(childLex) <= 0)) {
      return { thinking: `The current section ${quote(parentTitle)} matches the question better than any child.`, choices: ['__self__'] };
    }
  }
  if (children.length === 0) return { thinking: 'There are no children to choose from.', choices: ['NONE'] };

  const lex = bm25Scores(q, children.map((c) => c.tokens));
  const maxLex = max(lex);
  const hasPrior = children.some((c) => (c.value ?? 0) > 0);
  const combined = children.map((c, i) => {
    const l = maxLex > 0 ? lex[i] / maxLex : 0;
    return hasPrior ? (1 - VALUE_PRIOR) * l + VALUE_PRIOR * (c.value ?? 0) : l;
  });
  const best = max(combined);
  if (best <= 1e-9) return { thinking: 'No child shares a term with the question and none has a value score.', choices: ['NONE'] };
  const ids = ranked(combined)
    .filter((i) => combined[i] > 0 && combined[i] >= CHILD_KEEP * best)
    .slice(0, posInt(p.max_picks, 1));
  const top = children[ids[0]];
  const terms = shared(q, top.tokens);
  return {
    thinking:
      terms.length > 0
        ? `Child ${top.id} ${quote(top.title)} matches ${terms.join(', ')}.`
        : `No child matches the question's terms; following the value scores, ${top.id} first.`,
    choices: ids.map((i) => children[i].id),
  };
}

function sufficiency(p: Payload<'sufficiency'>): TaskAnswers['sufficiency'] {
  const qTerms = distinctQuestionTerms(str(p.question));
  const passages = list<unknown>(p.evidence)
    .filter(isObj)
    .map((e) => new Set(tokenize(`${str(e.title)} ${str(e.text)}`)));
  const covered = (set: Set<string>) => qTerms.filter((t) => set.has(t.term)).length;
  const all = new Set<string>();
  for (const s of passages) for (const t of s) all.add(t);
  const total = Math.max(1, qTerms.length);
  const coverage = qTerms.length === 0 ? (passages.length > 0 ? 1 : 0) : covered(all) / total;
  const bestPassage = qTerms.length === 0 ? coverage : max(passages.map((s) => covered(s) / total));
  const sufficient = passages.length > 0 && coverage >= SUFFICIENT_COVERAGE && bestPassage >= PASSAGE_WELL;
  const missing = qTerms.filter((t) => !all.has(t.term));

  let suggestedBranches: string[] = [];
  if (!sufficient) {
    const unexplored = list<unknown>(p.unexplored)
      .filter(isObj)
      .filter((u) => typeof u.node_id === 'string');
    const query = (missing.length > 0 ? missing : qTerms).map((t) => t.term);
    const scores = bm25Scores(query, unexplored.map((u) => tokenize(str(u.title))));
    suggestedBranches = [
      ...new Set(
        ranked(scores)
          .filter((i) => scores[i] > 0)
          .map((i) => unexplored[i].node_id as string),
      ),
    ].slice(0, MAX_SUGGESTIONS);
  }
  // Missing aspects are reported as the question's own words (not stems), for prompts and people.
  return { sufficient, missingAspects: missing.map((t) => t.word), suggestedBranches };
}

function estimateValues(p: Payload<'estimate-values'>): TaskAnswers['estimate-values'] {
  const q = discriminatingTerms(questionTerms(str(p.question)), [str(p.doc_title), isObj(p.parent) ? str(p.parent.title) : '']);
  const children = readChildren(p.children);
  const scores = bm25Scores(q, children.map((c) => c.tokens));
  const best = max(scores);
  const values: Record<string, number> = {};
  children.forEach((c, i) => {
    values[c.id] = round3(VALUE_FLOOR + (1 - VALUE_FLOOR) * (best > 0 ? scores[i] / best : 0));
  });
  return {
    thinking: best > 0 ? 'Values are keyword matches of each child against the question, relative to the best.' : 'No child shares a term with the question.',
    values,
  };
}

function reward(p: Payload<'reward'>): TaskAnswers['reward'] {
  const qTerms = distinctQuestionTerms(str(p.question));
  const passage: Record<string, unknown> = isObj(p.passage) ? p.passage : {};
  const have = new Set(tokenize(`${str(passage.title)} ${str(passage.text)}`));
  const hits = qTerms.filter((t) => have.has(t.term));
  const value = qTerms.length === 0 ? 0 : round3(hits.length / qTerms.length);
  return {
    reward: value,
    reason: `The passage covers ${hits.length} of ${qTerms.length} question terms${hits.length ? ': ' + hits.map((t) => t.word).join(', ') : ''}.`,
  };
}

// ---------------------------------------------------------------------------------------------
// Answering

const YES_NO_START = /^\s*(?:is|are|was|were|can|could|does|do|did|will|would|should|has|have|had)\b/i;
const ASKS_NUMBER =
  /\b(?:how (?:many|much|long|old|far|often|large|big|high)|what (?:percentage|percent|proportion|share|fraction|amount|number|year|date)|which year|when)\b/i;
const NEGATION = /\b(?:no|not|never|none|nor|neither|cannot|without)\b|n['’]t\b/i;

/**
 * Sentences of a passage. Lines are first joined into segments: a line with no letters (a table
 * cell such as "(1,577)" or "$") joins the line before it, so PDF tables extracted one cell per line
 * become one row per segment; a line starting in lowercase continues wrapped prose; any other line
 * (and anything after a blank line) starts a new segment. Segments are then split at sentence ends.
 */
export function splitSentences(text: string): string[] {
  const segments: string[] = [];
  let current = '';
  let blank = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') {
      blank = true;
      continue;
    }
    const noLetters = !/\p{L}/u.test(line);
    if (current !== '' && (noLetters || (!blank && /^\p{Ll}/u.test(line)))) current += ' ' + line;
    else {
      if (current !== '') segments.push(current);
      current = line;
    }
    blank = false;
  }
  if (current !== '') segments.push(current);
  return segments
    .flatMap((seg) => seg.split(/(?<=[.!?])\s+(?=["'(\[]?[\p{Lu}\p{N}$])/u))
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/** A long sentence (e.g. a flattened table) is cut to the window of words densest in hits. */
function clip(sentence: string, q: Set<string>, wantNumber: boolean): string {
  if (sentence.length <= MAX_ANSWER_CHARS) return sentence;
  const ws = sentence.split(' ');
  const hit = ws.map((w) => (tokenize(w).some((t) => q.has(t)) || (wantNumber && hasNumber(w)) ? 1 : 0));
  const n = Math.min(ANSWER_WINDOW_WORDS, ws.length);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += hit[i];
  let bestSum = sum;
  let bestStart = 0;
  for (let i = n; i < ws.length; i++) {
    sum += hit[i] - hit[i - n];
    if (sum > bestSum) {
      bestSum = sum;
      bestStart = i - n + 1;
    }
  }
  // Centre the window on its hits, so the answer is not cut right after the matching words.
  let first = bestStart;
  while (first < bestStart + n - 1 && !hit[first]) first++;
  let last = bestStart + n - 1;
  while (last > first && !hit[last]) last--;
  bestStart = Math.max(0, Math.min(ws.length - n, Math.floor((first + last) / 2) - Math.floor(n / 2)));
  let out = ws.slice(bestStart, bestStart + n).join(' ');
  if (out.length > MAX_ANSWER_CHARS) out = out.slice(0, MAX_ANSWER_CHARS);
  return `${bestStart > 0 ? '...' : ''}${out}${bestStart + n < ws.length ? '...' : ''}`;
}

const ASKS_LOCATION = /^\s*(which|what|in which|under which)\s+(section|part|chapter|heading|clause)\b|\bwhere in the (document|manual|handbook|report|agreement|guide)\b/i;

function answer(p: Payload<'answer'>): TaskAnswers['answer'] {
  const question = str(p.question);
  const q = questionTerms(question);
  const qSet = new Set(q);
  const passages = list<unknown>(p.context)
    .filter(isObj)
    .map((c) => ({ title: str(c.title), text: str(c.text) }));
  const sents: Array<{ text: string; passage: number; tokens: readonly string[] }> = [];
  passages.forEach((c, pi) => {
    for (const s of splitSentences(c.text)) sents.push({ text: s, passage: pi, tokens: tokenize(s) });
  });
  const choices = Array.isArray(p.choices) ? p.choices.map(str) : null;
  if (sents.length === 0) return { answer: NOT_FOUND, choice: null };

  if (choices && choices.length > 0) return answerChoice(choices, q, sents);

  // Sentence score: its own BM25 match (normalised) plus a bonus from its passage's title, times a
  // bonus for sentences with a number when the question asks for one.
  const wantNumber = ASKS_NUMBER.test(question);
  const own = bm25Scores(q, sents.map((s) => s.tokens));
  const titles = bm25Scores(q, passages.map((c) => tokenize(c.title)));
  const maxOwn = max(own);
  const maxTitle = max(titles);
  const scores = sents.map((s, i) => {
    const base = (maxOwn > 0 ? own[i] / maxOwn : 0) + TITLE_BONUS * (maxTitle > 0 ? titles[s.passage] / maxTitle : 0);
    return wantNumber && hasNumber(s.text) ? base * NUMBER_BONUS : base;
  });
  const order = ranked(scores);
  if (scores[order[0]] <= 0) return { answer: NOT_FOUND, choice: null };
  const best = sents[order[0]].text;
  if (YES_NO_START.test(question)) return { answer: NEGATION.test(best) ? 'no' : 'yes', choice: null };
  // "Which section ...?": the answer is a place, the title of the passage that matched best.
  if (ASKS_LOCATION.test(question)) return { answer: passages[sents[order[0]].passage].title, choice: null };
  return { answer: clip(best, qSet, wantNumber), choice: null };
}

/**
 * Multiple choice: each choice scores the share of its terms found anywhere in the context, plus
 * half its best co-occurrence with the question in one sentence (share of choice terms × share of
 * question terms). Highest wins, ties go to the lower index; no overlap at all → not found.
 */
function answerChoice(choices: string[], q: string[], sents: Array<{ tokens: readonly string[] }>): TaskAnswers['answer'] {
  const qSet = new Set(q);
  const sentSets = sents.map((s) => new Set(s.tokens));
  const context = new Set<string>();
  for (const s of sentSets) for (const t of s) context.add(t);
  const scores = choices.map((c) => {
    const terms = [...new Set(tokenize(c))];
    if (terms.length === 0) return 0;
    const cov = terms.filter((t) => context.has(t)).length / terms.length;
    let co = 0;
    for (const s of sentSets) {
      const cs = terms.filter((t) => s.has(t)).length / terms.length;
      const qs = qSet.size > 0 ? [...qSet].filter((t) => s.has(t)).length / qSet.size : 0;
      co = Math.max(co, cs * qs);
    }
    return cov + 0.5 * co;
  });
  const order = ranked(scores);
  if (scores[order[0]] <= 0) return { answer: NOT_FOUND, choice: null };
  return { answer: choices[order[0]], choice: order[0] };
}
