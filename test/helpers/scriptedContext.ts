// A StrategyContext for unit tests: a scripted model (a function of the prompt payload), value
// search from a fixed table of chunk hits, a real BudgetTracker, and word-count tokens.
import { BudgetTracker } from '../../harness/run/budget.ts';
import { seededRandom } from '../../harness/run/context.ts';
import type { Budget, ChatMessage, ChatOptions, ChatResult, Corpus, DocTree, TreeNode } from '../../harness/types.ts';
import { extractPayload, type PromptPayload } from '../../strategies/prompts.ts';
import { indexDoc } from '../../strategies/shared/tree.ts';
import type { ChunkHit, StrategyContext, ValueSearchOptions } from '../../strategies/types.ts';

/** Returns the reply text (or an object, sent as JSON) for a prompt. */
export type Script = (payload: PromptPayload | null, messages: ChatMessage[], callIndex: number) => string | object;

export interface ScriptedContext extends StrategyContext {
  /** Every chat call made, with its parsed payload. */
  readonly chats: Array<{ payload: PromptPayload | null; messages: ChatMessage[]; opts: ChatOptions; reply: string }>;
  readonly searches: Array<{ query: string; opts: ValueSearchOptions }>;
}

export interface ScriptedContextOptions {
  corpus: Corpus;
  script: Script;
  hits?: ChunkHit[];
  budget?: Budget;
  seed?: number;
  /**
   * Cut each reply to the output tokens the call may use (its maxTokens and what is left of the
   * `tokens` budget), as a real provider does. Off by default: replies are booked as scripted.
   */
  honourMaxTokens?: boolean;
  /** Clock for the time budget (default performance.now); a fake clock keeps time tests exact. */
  now?: () => number;
}

export function scriptedContext(opts: ScriptedContextOptions): ScriptedContext {
  const budget = new BudgetTracker(opts.budget ?? {}, opts.now);
  const docs = new Map<string, DocTree>(opts.corpus.docs.map((d) => [d.docId, d]));
  const chats: ScriptedContext['chats'] = [];
  const searches: ScriptedContext['searches'] = [];
  const countTokens = (text: string) => (text.match(/\S+/g) ?? []).length;
  const seed = opts.seed ?? 1;
  return {
    corpus: opts.corpus,
    budget,
    chats,
    searches,
    seed,
    random: seededRandom(seed),
    countTokens,
    doc(docId) {
      const d = docs.get(docId);
      if (!d) throw new Error(`unknown document "${docId}"`);
      return d;
    },
    node(docId, nodeId): TreeNode {
      const info = indexDoc(this.doc(docId)).byId.get(nodeId);
      if (!info) throw new Error(`unknown node "${nodeId}" in "${docId}"`);
      return info.node;
    },
    async chat(messages: ChatMessage[], chatOpts: ChatOptions = {}): Promise<ChatResult> {
      const input = messages.reduce((n, m) => n + countTokens(m.content), 0);
      budget.beforeCall({ tokens: input + 1, dollars: 0 });
      const payload = extractPayload(messages);
      const out = opts.script(payload, messages, chats.length);
      let reply = typeof out === 'string' ? out : JSON.stringify(out);
      if (opts.honourMaxTokens) {
        const allowed = budget.maxOutputTokens(input, chatOpts.maxTokens ?? 1024);
        const words = reply.match(/\S+\s*/g) ?? [];
        if (words.length > allowed) reply = words.slice(0, allowed).join('').trimEnd();
      }
      chats.push({ payload, messages, opts: chatOpts, reply });
      budget.afterCall({ tokens: input + countTokens(reply), dollars: 0 });
      return { text: reply, model: 'scripted' };
    },
    async embed(texts: string[]) {
      return texts.map(() => new Float32Array(4));
    },
    async valueSearch(query: string, searchOpts: ValueSearchOptions) {
      searches.push({ query, opts: searchOpts });
      const allowed = searchOpts.docIds ? new Set(searchOpts.docIds) : null;
      return (opts.hits ?? [])
        .filter((h) => !allowed || allowed.has(h.docId))
        .sort((a, b) => b.score - a.score)
        .slice(0, searchOpts.topK);
    },
  };
}

/** Builds a tree quickly: `node('a', 'Title', [children], { text })`. */
export function node(id: string, title: string, children: TreeNode[] = [], extra: Partial<TreeNode> = {}): TreeNode {
  return { id, title, summary: extra.summary ?? `About ${title.toLowerCase()}.`, text: extra.text ?? `${title} text.`, children, ...extra };
}

export function corpusOf(...docs: DocTree[]): Corpus {
  return { name: 'test', docs };
}
