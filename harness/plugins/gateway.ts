// The run's model gateway: an OpenAI-compatible endpoint on 127.0.0.1 through which
// out-of-process strategies (and in-process ones that bring their own OpenAI client) reach the
// run's model. Every request carries a per-question key (`tbq_…`, in `Authorization: Bearer`),
// handed out in the request's `model.apiKey` while that question is answered and revoked after;
// the key picks the question's metered context, so each call goes through the same door as a
// built-in's `ctx.chat` / `ctx.embed`: metering (calls, tokens from usage or the tokenizer,
// dollars, latency), the question's budget, retries, the response cache and the configured
// provider — the offline reasoner in an offline run.
//
//   POST /v1/chat/completions   messages (tool calls included), tools, tool_choice, max_tokens |
//                               max_completion_tokens, temperature, response_format, stream
//   POST /v1/embeddings         input: a string or a list of strings; encoding_format float | base64
//   GET  /v1/models             the run's chat model and embedder
// and two treebench extensions, so an out-of-process strategy can do what a built-in does:
//   POST /v1/treebench/value-search   { query, topK, docIds? } → { hits: [{ docId, nodeId, chunkId, score, text }] }
//                                     (the run's chunk index, as ctx.valueSearch; the query's embedding is metered)
//   POST /v1/treebench/count-tokens   { input: string | string[] } → { counts: [n, ...] } (the run's tokenizer; free)
//
// A call refused by the budget answers 429 with `x-should-retry: false` (the OpenAI SDKs then do
// not retry) and an error whose `code` names the budget (`budget_calls`, ...); the record names it
// too. The model asked for in a request is ignored: calls go to the run's model. An optional
// `x-treebench-task` header names the call's task in the record's call log. Keys exist only in
// memory and in the requests: no file of the run holds one (they are redacted like API keys).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isBudgetExhausted } from '../run/budget.ts';
import type { MeteredContext } from '../run/context.ts';
import { classifyFailure } from '../run/breaker.ts';
import { ProviderError } from '../models/providers/openai-client.ts';
import { isToolsUnsupported } from '../models/tools.ts';
import { redactSecrets } from '../models/secrets.ts';
import type { ChatMessage, ChatOptions, ToolCall, ToolSpec } from '../types.ts';

/** One question's use of the gateway. */
export interface GatewaySession {
  readonly key: string;
  readonly ctx: MeteredContext;
  /** The first failure of the environment (auth, connection) a call met: the runner's breaker must see it. */
  environmentFailure?: unknown;
}

const MAX_BODY = 64 * 1024 * 1024;
const POST_PATHS = new Set(['/v1/chat/completions', '/v1/embeddings', '/v1/treebench/value-search', '/v1/treebench/count-tokens']);

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'invalid_request_error',
    readonly code: string | null = null,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

export class ModelGateway {
  private readonly sessions = new Map<string, GatewaySession>();
  private server: Server | null = null;
  private port = 0;
  private served = 0;

  /** Requests received so far (tests count retries with it). */
  get requestsServed(): number {
    return this.served;
  }

  constructor(
    /** Model ids /v1/models lists and replies name. */
    private readonly models: { chat: string; embedding: string },
  ) {}

  /** Starts listening on 127.0.0.1 (a free port unless one is given). */
  async start(port = 0): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  get baseURL(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  get address(): AddressInfo | null {
    return (this.server?.address() as AddressInfo | null) ?? null;
  }

  /** A new key for one question's context; valid until `close(key)`. */
  open(ctx: MeteredContext): GatewaySession {
    const key = `tbq_${randomBytes(24).toString('hex')}`;
    const session: GatewaySession = { key, ctx };
    this.sessions.set(key, session);
    return session;
  }

  close(key: string): void {
    this.sessions.delete(key);
  }

  async stop(): Promise<void> {
    this.sessions.clear();
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.served++;
    try {
      const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
      if (req.method === 'GET' && path === '/v1/models') {
        this.session(req); // a key is needed here too
        return send(res, 200, { object: 'list', data: [this.models.chat, this.models.embedding].map((id) => ({ id, object: 'model', created: 0, owned_by: 'treebench' })) });
      }
      if (req.method !== 'POST') throw new HttpError(req.method === 'GET' ? 404 : 405, `${req.method} ${path}: the gateway serves POST /v1/chat/completions, POST /v1/embeddings and GET /v1/models`);
      if (!POST_PATHS.has(path)) throw new HttpError(404, `POST ${path}: the gateway serves ${[...POST_PATHS].join(', ')}`);
      const session = this.session(req);
      const body = await readJson(req);
      if (path === '/v1/embeddings') return await this.embeddings(session, body, res);
      if (path === '/v1/treebench/value-search') return await this.valueSearch(session, body, res);
      if (path === '/v1/treebench/count-tokens') return this.countTokens(session, body, res);
      return await this.chat(session, body, req, res);
    } catch (err) {
      if (err instanceof HttpError) return send(res, err.status, { error: { message: err.message, type: err.type, code: err.code, param: err.param } }, err.status === 429 ? { 'x-should-retry': 'false' } : {});
      return send(res, 500, { error: { message: redactSecrets(`gateway: ${(err as Error).message ?? String(err)}`), type: 'server_error', code: null, param: null } });
    }
  }

  private session(req: IncomingMessage): GatewaySession {
    const auth = req.headers.authorization ?? '';
    const key = /^Bearer\s+(\S+)$/i.exec(auth)?.[1] ?? (typeof req.headers['api-key'] === 'string' ? req.headers['api-key'] : '');
    const session = key ? this.sessions.get(key) : undefined;
    if (!session) {
      throw new HttpError(401, key ? 'unknown or expired treebench question key: a key is valid only while its question is being answered' : 'missing key: send the request\'s model.apiKey as "Authorization: Bearer <key>"', 'invalid_request_error', 'invalid_api_key');
    }
    return session;
  }

  private async chat(session: GatewaySession, body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const messages = chatMessages(body.messages);
    const opts: ChatOptions = { task: taskName(req) };
    const maxTokens = body.max_completion_tokens ?? body.max_tokens;
    if (maxTokens !== undefined && maxTokens !== null) {
      if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) throw new HttpError(400, 'max_tokens: expected a positive integer', 'invalid_request_error', null, 'max_tokens');
      opts.maxTokens = maxTokens;
    }
    if (typeof body.temperature === 'number') opts.temperature = body.temperature;
    const format = (body.response_format as { type?: unknown } | undefined)?.type;
    if (format === 'json_object' || format === 'json_schema') opts.json = true;
    if (body.n !== undefined && body.n !== null && body.n !== 1) throw new HttpError(400, 'n: the gateway returns one choice', 'invalid_request_error', null, 'n');
    const tools = toolSpecs(body.tools);
    if (tools) {
      opts.tools = tools;
      const choice = body.tool_choice;
      // A named function is asked for as `required`: the providers behind the door know no more.
      opts.toolChoice = choice === 'none' || choice === 'required' || choice === 'auto' ? choice : choice && typeof choice === 'object' ? 'required' : 'auto';
    }
    const result = await this.call(session, () => session.ctx.chat(messages, opts));
    const log = session.ctx.calls[session.ctx.calls.length - 1];
    const usage = { prompt_tokens: log?.inputTokens ?? 0, completion_tokens: log?.outputTokens ?? 0, total_tokens: (log?.inputTokens ?? 0) + (log?.outputTokens ?? 0) };
    const toolCalls = result.toolCalls?.length ? result.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) : undefined;
    const id = `chatcmpl-tb${this.served}`;
    const created = Math.floor(Date.now() / 1000);
    const message = { role: 'assistant', content: toolCalls && !result.text ? null : result.text, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
    const finish = toolCalls ? 'tool_calls' : 'stop';
    if (body.stream === true) {
      // The whole reply as one chunk: streaming clients (LangChain, LlamaIndex) work unchanged.
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta: object, finish_reason: string | null, extra: object = {}) => res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: result.model, choices: [{ index: 0, delta, finish_reason }], ...extra })}\n\n`);
      chunk({ role: 'assistant', ...(message.content !== null ? { content: message.content } : {}), ...(toolCalls ? { tool_calls: toolCalls.map((c, index) => ({ index, ...c })) } : {}) }, null);
      chunk({}, finish, (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage ? { usage } : {});
      res.end('data: [DONE]\n\n');
      return;
    }
    send(res, 200, { id, object: 'chat.completion', created, model: result.model, choices: [{ index: 0, message, finish_reason: finish, logprobs: null }], usage });
  }

  private async embeddings(session: GatewaySession, body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const input = body.input;
    const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((t) => typeof t === 'string') ? (input as string[]) : null;
    if (!texts || texts.length === 0) throw new HttpError(400, 'input: expected a string or a non-empty list of strings (token arrays are not supported)', 'invalid_request_error', null, 'input');
    const base64 = body.encoding_format === 'base64';
    const vectors = await this.call(session, () => session.ctx.embed(texts));
    const log = session.ctx.calls[session.ctx.calls.length - 1];
    send(res, 200, {
      object: 'list',
      model: this.models.embedding,
      data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: base64 ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') : Array.from(v) })),
      usage: { prompt_tokens: log?.inputTokens ?? 0, total_tokens: log?.inputTokens ?? 0 },
    });
  }

  private async valueSearch(session: GatewaySession, body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    if (typeof body.query !== 'string' || !body.query.trim()) throw new HttpError(400, 'query: expected a non-empty string', 'invalid_request_error', null, 'query');
    const topK = body.topK ?? 10;
    if (typeof topK !== 'number' || !Number.isInteger(topK) || topK < 1 || topK > 10_000) throw new HttpError(400, 'topK: expected an integer from 1 to 10000', 'invalid_request_error', null, 'topK');
    const docIds = body.docIds;
    if (docIds !== undefined && !(Array.isArray(docIds) && docIds.every((d) => typeof d === 'string'))) throw new HttpError(400, 'docIds: expected a list of document ids', 'invalid_request_error', null, 'docIds');
    const query = body.query;
    const hits = await this.call(session, () => session.ctx.valueSearch(query, { topK, ...(docIds ? { docIds: docIds as string[] } : {}) }));
    send(res, 200, { hits: hits.map((h) => ({ docId: h.docId, nodeId: h.nodeId, chunkId: h.chunkId, score: h.score, text: h.text })) });
  }

  private countTokens(session: GatewaySession, body: Record<string, unknown>, res: ServerResponse): void {
    const input = body.input;
    const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((t) => typeof t === 'string') ? (input as string[]) : null;
    if (!texts) throw new HttpError(400, 'input: expected a string or a list of strings', 'invalid_request_error', null, 'input');
    send(res, 200, { counts: texts.map((t) => session.ctx.countTokens(t)) });
  }

  /** Runs one metered call, turning the door's refusals and failures into HTTP errors. */
  private async call<T>(session: GatewaySession, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isBudgetExhausted(err)) throw new HttpError(429, `treebench budget exhausted for this question: ${err.message}`, 'budget_exhausted', `budget_${err.budget}`);
      if (isToolsUnsupported(err)) throw new HttpError(400, `the model server does not do native tool calling: ${err.message}`, 'invalid_request_error', 'tools_unsupported', 'tools');
      if (classifyFailure(err) !== 'other') session.environmentFailure ??= err;
      const status = err instanceof ProviderError ? err.status : undefined;
      throw new HttpError(status && status >= 400 && status < 600 ? status : 502, redactSecrets(`model call failed: ${(err as Error).message ?? String(err)}`), 'api_error');
    }
  }
}

function taskName(req: IncomingMessage): string {
  const h = req.headers['x-treebench-task'];
  const name = typeof h === 'string' ? h.trim().slice(0, 80) : '';
  return name || 'gateway';
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new HttpError(413, `request body over ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'the request body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'the request body is a JSON object');
  return body as Record<string, unknown>;
}

/** OpenAI chat messages → treebench's: text parts joined, tool calls and tool results kept. */
export function chatMessages(raw: unknown): ChatMessage[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new HttpError(400, 'messages: expected a non-empty list', 'invalid_request_error', null, 'messages');
  return raw.map((m, i) => {
    const at = `messages[${i}]`;
    if (typeof m !== 'object' || m === null) throw new HttpError(400, `${at}: expected an object`, 'invalid_request_error', null, 'messages');
    const msg = m as Record<string, unknown>;
    const role = msg.role === 'developer' ? 'system' : msg.role;
    if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') throw new HttpError(400, `${at}.role: expected system, developer, user, assistant or tool`, 'invalid_request_error', null, 'messages');
    const out: ChatMessage = { role, content: contentText(msg.content, at) };
    if (role === 'assistant' && Array.isArray(msg.tool_calls)) out.toolCalls = msg.tool_calls.map((c, j) => toolCall(c, `${at}.tool_calls[${j}]`));
    if (role === 'tool') {
      if (typeof msg.tool_call_id !== 'string') throw new HttpError(400, `${at}.tool_call_id: expected a string`, 'invalid_request_error', null, 'messages');
      out.toolCallId = msg.tool_call_id;
    }
    return out;
  });
}

function contentText(content: unknown, at: string): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part, j) => {
        const p = part as { type?: unknown; text?: unknown };
        if (p && p.type === 'text' && typeof p.text === 'string') return p.text;
        throw new HttpError(400, `${at}.content[${j}]: only text parts are supported`, 'invalid_request_error', null, 'messages');
      })
      .join('\n');
  }
  throw new HttpError(400, `${at}.content: expected a string or a list of text parts`, 'invalid_request_error', null, 'messages');
}

function toolCall(raw: unknown, at: string): ToolCall {
  const c = raw as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
  if (!c || typeof c.id !== 'string' || typeof c.function?.name !== 'string') throw new HttpError(400, `${at}: expected { id, type: "function", function: { name, arguments } }`, 'invalid_request_error', null, 'messages');
  return { id: c.id, name: c.function.name, arguments: typeof c.function.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function.arguments ?? {}) };
}

function toolSpecs(raw: unknown): ToolSpec[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw new HttpError(400, 'tools: expected a list', 'invalid_request_error', null, 'tools');
  if (raw.length === 0) return undefined;
  return raw.map((t, i) => {
    const f = (t as { type?: unknown; function?: { name?: unknown; description?: unknown; parameters?: unknown } })?.function;
    if ((t as { type?: unknown })?.type !== 'function' || !f || typeof f.name !== 'string') throw new HttpError(400, `tools[${i}]: expected { type: "function", function: { name, description, parameters } }`, 'invalid_request_error', null, 'tools');
    return { name: f.name, description: typeof f.description === 'string' ? f.description : '', parameters: (f.parameters && typeof f.parameters === 'object' ? f.parameters : { type: 'object', properties: {} }) as Record<string, unknown> };
  });
}
