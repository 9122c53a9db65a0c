// A loopback server speaking the OpenAI chat-completions and embeddings protocols, for tests.
// Replies are scripted: queue them per endpoint (consumed in order), or set a handler for the
// rest. Every request is recorded (path, headers, parsed JSON body) so tests can assert what the
// provider sent. Reusable by any suite that needs "a real model" without a network.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface ScriptedReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait before answering (for timeout/abort tests). */
  delayMs?: number;
}

export type Reply = ScriptedReply | ((req: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>);

/** A chat completion body, the way OpenAI shapes it. */
export function chatCompletion(
  text: string,
  usage: { prompt: number; completion: number; cached?: number } | null = { prompt: 11, completion: 7 },
  opts: { model?: string; finishReason?: string; toolCalls?: Array<{ id: string; name: string; arguments: string }> } = {},
): ScriptedReply {
  const message: Record<string, unknown> = { role: 'assistant', content: text };
  if (opts.toolCalls?.length) {
    message.content = text || null;
    message.tool_calls = opts.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  }
  const body: Record<string, unknown> = {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: opts.model ?? 'scripted-model',
    choices: [{ index: 0, message, finish_reason: opts.finishReason ?? (opts.toolCalls?.length ? 'tool_calls' : 'stop') }],
  };
  if (usage) {
    body.usage = {
      prompt_tokens: usage.prompt,
      completion_tokens: usage.completion,
      total_tokens: usage.prompt + usage.completion,
      ...(usage.cached ? { prompt_tokens_details: { cached_tokens: usage.cached } } : {}),
    };
  }
  return { status: 200, body };
}

/** An OpenAI-style error body. */
export function apiError(status: number, message: string, extra: { code?: string; param?: string; headers?: Record<string, string> } = {}): ScriptedReply {
  return {
    status,
    headers: extra.headers,
    body: { error: { message, type: 'invalid_request_error', param: extra.param ?? null, code: extra.code ?? null } },
  };
}

/**
 * Default embeddings: input i of a request gets the unnormalised vector [len+1, i+1, 3, 0, ...]
 * of `dim` numbers; usage counts one token per input character (deliberately not a tokenizer).
 */
export function defaultEmbeddings(dim = 8): (req: RecordedRequest) => ScriptedReply {
  return (req) => {
    const input: string[] = Array.isArray(req.body.input) ? req.body.input : [req.body.input];
    const data = input.map((s, i) => {
      const v = new Array(dim).fill(0);
      v[0] = s.length + 1;
      v[1] = i + 1;
      v[2] = 3;
      return { object: 'embedding', index: i, embedding: v };
    });
    const chars = input.reduce((n, s) => n + s.length, 0);
    return { status: 200, body: { object: 'list', model: req.body.model, data, usage: { prompt_tokens: chars, total_tokens: chars } } };
  };
}

export class FakeOpenAIServer {
  readonly requests: RecordedRequest[] = [];
  readonly chatReplies: Reply[] = [];
  readonly embeddingReplies: Reply[] = [];
  /** Used when the chat queue is empty. */
  onChat: Reply = chatCompletion('{"answer": "default"}');
  onEmbeddings: Reply = defaultEmbeddings();
  private server!: Server;
  baseURL = '';

  static async start(port = 0): Promise<FakeOpenAIServer> {
    const s = new FakeOpenAIServer();
    await s.listen(port);
    return s;
  }

  /** Listens on a loopback port (default: a free one) and sets `baseURL`. */
  async listen(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = raw ? JSON.parse(raw) : null;
        } catch {
          body = raw;
        }
        const rec: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
        this.requests.push(rec);
        void this.answer(rec, res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Forgets the requests and the queued replies, and puts the default replies back. */
  reset(): void {
    this.requests.length = 0;
    this.chatReplies.length = 0;
    this.embeddingReplies.length = 0;
    this.onChat = chatCompletion('{"answer": "default"}');
    this.onEmbeddings = defaultEmbeddings();
  }

  /** Requests to one endpoint, e.g. '/v1/chat/completions'. */
  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  private async answer(rec: RecordedRequest, res: ServerResponse): Promise<void> {
    let reply: Reply;
    if (rec.method === 'POST' && rec.path === '/v1/chat/completions') reply = this.chatReplies.shift() ?? this.onChat;
    else if (rec.method === 'POST' && rec.path === '/v1/embeddings') reply = this.embeddingReplies.shift() ?? this.onEmbeddings;
    else reply = apiError(404, `no route ${rec.method} ${rec.path}`);
    const r = typeof reply === 'function' ? await reply(rec) : reply;
    if (r.delayMs) await new Promise((resolve) => setTimeout(resolve, r.delayMs));
    if (res.destroyed) return;
    res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
    res.end(r.body === undefined ? '' : JSON.stringify(r.body));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * One fake server for the test file that calls this (at its top level): listening before its
 * first test, closed after its last, and reset (no requests, no queued replies, default replies)
 * before each test. `baseURL` is set once the tests run.
 */
export function useFakeOpenAIServer(): FakeOpenAIServer {
  const server = new FakeOpenAIServer();
  beforeAll(() => server.listen());
  afterAll(() => server.close());
  beforeEach(() => server.reset());
  return server;
}
