// `agent` — the model explores the corpus with tools until it has enough, then answers.
//
// The algorithm:
// 1. The model gets the question (a JSON payload, task `agent`) and four tools:
//    list_documents, get_document_structure(doc_id, node_id?), get_section_content(doc_id,
//    node_id) and search_sections(query, doc_id?) (strategies/agent/tools.ts).
// 2. Each turn is one chat call. The model either calls tools or gives its final answer
//    `{answer, choice, citations}`. Every call it makes runs, and its result envelope goes back
//    into the conversation; a failing tool (unknown tool, bad arguments, unknown id) is an
//    `Error executing <tool>: <reason>` result the model reads, never a crash.
// 3. Tools are offered natively (chat-completions `tools`) or through the text protocol (tool
//    requests as JSON in the reply, results as `[Tool Result: name]` user messages; see
//    strategies/agent/protocol.ts), by `toolMode`. `auto` tries native and, when the server
//    refuses tools, continues in text and records the fallback in the trace.
// 4. Limits: at most `maxToolCalls` tool calls, and the run's budgets. One model call is kept
//    in reserve: when the tool calls or the calls budget run out, or a tool hits a budget (nodes,
//    evidence tokens), the model is asked once for its final answer from what it has read.
// 5. Evidence is what the model read with get_section_content: the sections it cites first
//    (in citation order), then the rest in reading order.
//
// Every tool call is a `tool` trace step with the tool, its arguments, a preview of the result
// and the model's stated reason (its `reason` argument, or the text beside a native call).
import { z } from 'zod';
import type { ChatMessage, ChatResult, EvidenceItem, QuestionInput, ToolCall } from '../harness/types.ts';
import type { Strategy, StrategyContext } from './types.ts';
import { isBudgetExhausted } from '../harness/run/budget.ts';
import { isToolsUnsupported } from '../harness/models/tools.ts';
import { answerFromEvidence } from './shared/answer.ts';
import { nodeKey, rankEvidence, Trace } from './shared/evidence.ts';
import { parseJsonObject } from '../harness/protocol/jsonReply.ts';
import { indexDoc } from './shared/tree.ts';
import {
  AGENT_TEMPLATE_VARIABLES,
  buildAgentMessages,
  finalAnswerRequest,
  nativeToText,
  parseTextReply,
  renderAgentTemplate,
  readFinalAnswer,
  textToolResult,
  type AgentPayload,
  type FinalAnswer,
  type ToolMode,
} from './agent/protocol.ts';
import { executeTool, refusedCall, toolSpecs, type ToolLimits, type ToolOutcome } from './agent/tools.ts';

const params = z
  .object({
    /** native: chat-completions tools; text: the JSON text protocol; auto: native, text when the server refuses tools. */
    toolMode: z.enum(['native', 'text', 'auto']).default('auto'),
    /** Tool calls per question; then the model is asked for its answer. */
    maxToolCalls: z.number().int().min(1).max(100).default(8),
    maxStructureTokens: z.number().int().min(100).default(3000),
    maxSectionTokens: z.number().int().min(50).default(1500),
    searchTopK: z.number().int().min(1).max(200).default(20),
    maxSearchResults: z.number().int().min(1).max(50).default(5),
    summaryChars: z.number().int().min(20).default(200),
    /** Max output tokens of one turn. */
    maxTurnTokens: z.number().int().min(16).default(1024),
    /** Context of the answer call used when the conversation itself no longer fits a budget. */
    maxContextTokens: z.number().int().min(100).default(6000),
  })
  .strict();

export type AgentParams = z.infer<typeof params>;

const PREVIEW_CHARS = 160;
const preview = (s: string) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length <= PREVIEW_CHARS ? one : `${one.slice(0, PREVIEW_CHARS - 1)}…`;
};

/** One question's exploration: the conversation, what was read, and the counters. */
class Exploration {
  readonly trace = new Trace();
  readonly read: EvidenceItem[] = [];
  private readonly readKeys = new Set<string>();
  toolCalls = 0;
  parseFailures = 0;
  mode: ToolMode;
  messages: ChatMessage[];
  readonly tools = toolSpecs();
  readonly limits: ToolLimits;
  /** The config's agent template, filled in; undefined for the built-in guidance. */
  readonly guidance: string | undefined;

  constructor(
    readonly question: QuestionInput,
    readonly ctx: StrategyContext,
    readonly p: AgentParams,
  ) {
    this.limits = { maxStructureTokens: p.maxStructureTokens, maxSectionTokens: p.maxSectionTokens, searchTopK: p.searchTopK, maxSearchResults: p.maxSearchResults, summaryChars: p.summaryChars };
    this.mode = p.toolMode === 'text' ? 'text' : 'native';
    if (p.toolMode === 'auto' && ctx.toolsSupported?.() === false) {
      this.mode = 'text';
      this.trace.add({ action: 'fallback', source: 'rule', reason: 'toolMode auto: the server refused native tools earlier in this run; using the text protocol' });
    }
    const template = ctx.prompts?.agent;
    this.guidance = template === undefined ? undefined : renderAgentTemplate(template, this.payload());
    this.messages = buildAgentMessages(this.mode, this.payload(), this.tools, this.guidance);
  }

  payload(): AgentPayload {
    const q = this.question;
    const known = new Set(this.ctx.corpus.docs.map((d) => d.docId));
    const docIds = (q.docIds ?? []).filter((id) => known.has(id));
    return { task: 'agent', question: q.question, ...(q.choices ? { choices: q.choices } : {}), ...(docIds.length ? { doc_ids: docIds } : {}), max_tool_calls: this.p.maxToolCalls };
  }

  /** Switches to the text protocol, keeping what happened so far. */
  fallBack(why: string): void {
    this.mode = 'text';
    this.messages = nativeToText(this.messages, this.tools, this.p.maxToolCalls, this.guidance);
    this.trace.add({ action: 'fallback', source: 'rule', reason: `toolMode auto: ${why}; continuing with the text protocol` });
  }

  async turn(opts: { final?: boolean } = {}): Promise<ChatResult> {
    const native = this.mode === 'native';
    return this.ctx.chat(this.messages, {
      task: opts.final ? 'agent.answer' : 'agent',
      maxTokens: this.p.maxTurnTokens,
      ...(native ? { tools: this.tools, toolChoice: opts.final ? 'none' : 'auto' } : { json: true }),
    });
  }

  /** Runs one tool call and records it; BudgetExhaustedError escapes. */
  async run(call: { name: string; arguments: string; reason?: string }): Promise<ToolOutcome> {
    this.toolCalls++;
    const out = await executeTool(call.name, call.arguments, this.ctx, this.limits);
    const opened = out.opened;
    if (opened && !this.readKeys.has(nodeKey(opened.docId, opened.nodeId))) {
      this.readKeys.add(nodeKey(opened.docId, opened.nodeId));
      this.read.push(opened);
    }
    this.record(call.name, out, call.reason);
    return out;
  }

  record(tool: string, out: ToolOutcome, stated?: string): void {
    const depth = out.docId && out.nodeId ? indexDoc(this.ctx.doc(out.docId)).byId.get(out.nodeId)?.depth : undefined;
    this.trace.add({
      action: 'tool',
      source: 'llm',
      tool,
      ...(out.args ? { args: withoutReason(out.args) } : {}),
      result: preview(out.content),
      ...(out.docId ? { docId: out.docId } : {}),
      ...(out.nodeId ? { nodeId: out.nodeId } : {}),
      ...(out.opened?.pages ? { pages: out.opened.pages } : {}),
      ...(depth !== undefined ? { depth } : {}),
      ...((out.reason ?? stated) ? { reason: out.reason ?? stated } : {}),
    });
  }

  /** Evidence: cited sections that were read (citation order), then the rest (reading order). */
  evidence(citations: FinalAnswer['citations']): EvidenceItem[] {
    const byKey = new Map(this.read.map((e) => [nodeKey(e.docId, e.nodeId), e]));
    const cited = citations.map((c) => byKey.get(nodeKey(c.doc_id, c.node_id))).filter((e): e is EvidenceItem => Boolean(e));
    return rankEvidence([...cited, ...this.read]);
  }
}

const withoutReason = ({ reason: _r, ...rest }: Record<string, unknown>) => rest;

/** The calls budget always keeps one call for the final answer. */
const canTakeTurn = (ctx: StrategyContext): boolean => ctx.budget.remaining('calls') >= 2;

export const agentStrategy: Strategy<AgentParams> = {
  name: 'agent',
  description: 'The model explores with tools (list documents, read a structure, read a section, search sections) until it has enough, then answers (tool turns + 1 answer call; at most maxToolCalls + 1).',
  prompts: [
    {
      name: 'agent',
      description: "the exploration guidance of the system prompt (how to use the tools, what to answer); the tool limit, the tool-call format and the answer's JSON shape follow it unchanged",
      variables: AGENT_TEMPLATE_VARIABLES,
    },
  ],
  params,
  async run(question, ctx, p) {
    const x = new Exploration(question, ctx, p);
    let final: FinalAnswer | null = null;
    let rawAnswer: string | null = null;
    let stopReason = 'answered';
    let invalidInARow = 0;

    explore: for (;;) {
      if (x.toolCalls >= p.maxToolCalls) {
        stopReason = 'max-tool-calls';
        break;
      }
      if (!canTakeTurn(ctx)) {
        ctx.budget.exhausted ??= 'calls';
        stopReason = 'budget:calls';
        break;
      }
      if (x.mode === 'native' && p.toolMode === 'auto' && ctx.toolsSupported?.() === false) x.fallBack('the server refused native tools (seen on another question)');
      let reply: ChatResult;
      try {
        reply = await x.turn();
      } catch (err) {
        if (isToolsUnsupported(err) && p.toolMode === 'auto' && x.mode === 'native') {
          x.fallBack(`the server refused native tools (${preview((err as Error).message)})`);
          continue;
        }
        if (isBudgetExhausted(err)) {
          stopReason = `budget:${err.budget}`;
          break;
        }
        throw err;
      }

      if (x.mode === 'native' && reply.toolCalls?.length) {
        invalidInARow = 0;
        x.messages.push({ role: 'assistant', content: reply.text, toolCalls: reply.toolCalls });
        const stated = reply.text.trim() || undefined;
        // Every call of the turn gets a result (the protocol requires it), also those not run.
        const pending: ToolCall[] = [...reply.toolCalls];
        while (pending.length) {
          const call = pending.shift()!;
          let out: ToolOutcome;
          if (x.toolCalls >= p.maxToolCalls) {
            out = refusedCall(call.name, `not run: the limit of ${p.maxToolCalls} tool calls is reached`);
            x.record(call.name, out, stated);
          } else {
            try {
              out = await x.run({ name: call.name, arguments: call.arguments, reason: stated });
            } catch (err) {
              if (!isBudgetExhausted(err)) throw err;
              stopReason = `budget:${err.budget}`;
              out = refusedCall(call.name, `not run: ${err.message}`);
              x.record(call.name, out, stated);
              x.messages.push({ role: 'tool', toolCallId: call.id, content: out.content });
              for (const rest of pending) x.messages.push({ role: 'tool', toolCallId: rest.id, content: refusedCall(rest.name, `not run: ${err.message}`).content });
              break explore;
            }
          }
          x.messages.push({ role: 'tool', toolCallId: call.id, content: out.content });
        }
        continue;
      }

      // No native tool call: a final answer, or a tool request written as text (some models
      // served with tools still write the text protocol; it is honoured in either mode).
      const r = parseTextReply(reply.text);
      if (r.kind === 'invalid' && x.mode === 'native') {
        // Prose instead of JSON: a real model that ignores the format still answered.
        x.parseFailures++;
        rawAnswer = reply.text.trim();
        break;
      }
      if (r.kind === 'tool') {
        invalidInARow = 0;
        x.messages.push({ role: 'assistant', content: reply.text });
        let out: ToolOutcome;
        try {
          out = await x.run({ name: r.name, arguments: r.arguments, reason: r.reason });
        } catch (err) {
          if (!isBudgetExhausted(err)) throw err;
          stopReason = `budget:${err.budget}`;
          out = refusedCall(r.name, `not run: ${err.message}`);
          x.record(r.name, out, r.reason);
          x.messages.push(textToolResult(r.name, out.content));
          break;
        }
        x.messages.push(textToolResult(r.name, out.content));
        continue;
      }
      if (r.kind === 'answer') {
        final = r.answer;
        break;
      }
      // Neither a request nor an answer: say why once; a second miss in a row is taken as the answer.
      x.parseFailures++;
      if (++invalidInARow >= 2) {
        rawAnswer = reply.text.trim();
        break;
      }
      x.messages.push({ role: 'assistant', content: reply.text });
      x.messages.push({ role: 'user', content: `Your reply could not be used: ${r.error}. Reply with JSON only: a tool request or the final answer.` });
    }

    if (!final && rawAnswer === null) {
      // Tool calls or a budget ran out: ask once for the answer from what was read.
      const why = stopReason === 'max-tool-calls' ? `You have used all ${p.maxToolCalls} tool calls` : `The ${stopReason.replace('budget:', '')} budget is spent`;
      x.messages.push(finalAnswerRequest(why));
      try {
        const reply = await x.turn({ final: true });
        const parsed = parseJsonObject(reply.text);
        final = parsed.ok ? readFinalAnswer(parsed.value) : null;
        if (!final) {
          x.parseFailures++;
          rawAnswer = reply.text.trim();
        }
      } catch (err) {
        if (!isBudgetExhausted(err)) throw err;
        // The conversation no longer fits: a compact answer call over what was read.
        const out = await answerFromEvidence(question, x.evidence([]), ctx, x.trace, { maxContextTokens: p.maxContextTokens });
        x.parseFailures += out.parseFailures;
        const evidence = x.evidence([]);
        return { answer: out.answer, ...(out.choice !== undefined ? { choice: out.choice } : {}), evidence, trace: x.trace.steps, parseFailures: x.parseFailures, stopReason };
      }
    }

    const answer = final ? final.answer : (rawAnswer ?? '');
    const evidence = x.evidence(final?.citations ?? []);
    const cited = final?.citations.length ? ` (cites ${final.citations.map((c) => `${c.doc_id}/${c.node_id}`).join(', ')})` : '';
    x.trace.add({ action: 'answer', source: 'llm', reason: final ? `${preview(answer)}${cited}` : `unparsed reply used as text: ${preview(answer)}` });
    const choice = final?.choice ?? undefined;
    return { answer, ...(choice !== undefined && choice !== null ? { choice } : {}), evidence, trace: x.trace.steps, parseFailures: x.parseFailures, stopReason };
  },
};
