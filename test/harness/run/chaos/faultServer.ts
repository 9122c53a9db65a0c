// A loopback OpenAI-compatible server that injects the faults real servers and networks produce,
// for resilience tests and `npm run chaos`. Answers come from the offline reasoner (the same text a
// run on `provider: offline` would get), so every strategy works through the real `openai`
// provider, HTTP client and retry loop.
//
// Each request draws (seeded) whether to fail and how. Transient faults — the server or network
// misbehaving; the same request would succeed later — are counted per kind in `injected`:
//   429       status 429 with Retry-After (seconds) and an OpenAI error body
//   500, 503  server errors
//   hang      headers never come: the client's timeout fires (or, with hangMs, the connection drops)
//   reset     200, half of the body, then the connection is destroyed mid-body
//   truncated 200, a body cut in half, ended cleanly (invalid JSON)
//   malformed 200 with a body that is not JSON at all
//   empty     200 with `choices: []`
// Not transient, counted in `content`: `enormous` — a valid 200 whose content is megabytes of
// non-JSON text. That is the model's answer, not a fault to retry: strategies treat it as a parse
// failure.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { respond } from '../../../../harness/models/providers/offline.ts';
import { mulberry32 } from '../../../../harness/run/random.ts';
import type { ChatMessage } from '../../../../harness/types.ts';

export const TRANSIENT_FAULTS = ['429', '500', '503', 'hang', 'reset', 'truncated', 'malformed', 'empty'] as const;
export type TransientFault = (typeof TRANSIENT_FAULTS)[number];

export interface FaultServerOptions {
  /** Share of chat requests that get a transient fault (0..1). */
  faultRate?: number;
  /** Which transient faults to draw from, with weights (default: all, equal). */
  faults?: Partial<Record<TransientFault, number>>;
  /** Share of (otherwise good) replies replaced by enormous non-JSON content. */
  enormousRate?: number;
  /** Size of an enormous reply in characters (default 5 MB). */
  enormousChars?: number;
  /** Retry-After seconds sent with 429. */
  retryAfterSeconds?: number;
  /**
   * How long a `hang` lasts before the server drops the connection. Default: forever — the
   * client's timeout must fire. `npm run chaos` uses a finite hang with a generous client timeout,
   * so a CPU-starved machine cannot add timeouts nobody injected.
   */
  hangMs?: number;
  /** Always answer with this status (e.g. 401) — for circuit-breaker tests. */
  alwaysStatus?: number;
  seed?: number;
  /** Listen on this port (default: any free one). */
  port?: number;
}

export class FaultServer {
  readonly injected: Record<TransientFault, number> = Object.fromEntries(TRANSIENT_FAULTS.map((f) => [f, 0])) as Record<TransientFault, number>;
  readonly content = { enormous: 0 };
  requests = 0;
  embeddingRequests = 0;
  baseURL = '';
  private server!: Server;
  private readonly sockets = new Set<Socket>();
  private readonly rand: () => number;
  private readonly weights: Array<[TransientFault, number]>;

  private constructor(readonly opts: FaultServerOptions) {
    this.rand = mulberry32(opts.seed ?? 1);
    this.weights = TRANSIENT_FAULTS.map((f) => [f, opts.faults ? opts.faults[f] ?? 0 : 1] as [TransientFault, number]).filter(([, w]) => w > 0);
  }

  static async start(opts: FaultServerOptions = {}): Promise<FaultServer> {
    const s = new FaultServer(opts);
    s.server = createServer((req, res) => s.handle(req, res));
    s.server.on('connection', (sock) => {
      s.sockets.add(sock);
      sock.on('close', () => s.sockets.delete(sock));
    });
    await new Promise<void>((resolve) => s.server.listen(opts.port ?? 0, '127.0.0.1', resolve));
    s.baseURL = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}/v1`;
    return s;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get totalInjected(): number {
    return Object.values(this.injected).reduce((a, b) => a + b, 0);
  }

  private draw(): TransientFault | null {
    if (this.rand() >= (this.opts.faultRate ?? 0)) return null;
    const total = this.weights.reduce((n, [, w]) => n + w, 0);
    let x = this.rand() * total;
    for (const [f, w] of this.weights) if ((x -= w) < 0) return f;
    return this.weights[this.weights.length - 1][0];
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: { model?: string; messages?: ChatMessage[]; max_tokens?: number; max_completion_tokens?: number; input?: string[] } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // answered below as a 400
      }
      if (this.opts.alwaysStatus) return sendJson(res, this.opts.alwaysStatus, { error: { message: `scripted status ${this.opts.alwaysStatus}`, type: 'error', code: null } });
      if (req.url === '/v1/embeddings') {
        this.embeddingRequests++;
        const input = Array.isArray(body.input) ? body.input : [String(body.input)];
        return sendJson(res, 200, { object: 'list', model: body.model, data: input.map((_, i) => ({ object: 'embedding', index: i, embedding: [1, i + 1, 3] })), usage: { prompt_tokens: input.length, total_tokens: input.length } });
      }
      if (req.url !== '/v1/chat/completions' || !Array.isArray(body.messages)) return sendJson(res, 400, { error: { message: 'bad request', type: 'invalid_request_error' } });
      this.requests++;
      const fault = this.draw();
      if (fault) this.injected[fault]++;
      const good = () => {
        let text = respond(body.messages!, body.max_completion_tokens ?? body.max_tokens);
        if (this.opts.enormousRate && this.rand() < this.opts.enormousRate) {
          this.content.enormous++;
          text = 'x'.repeat(this.opts.enormousChars ?? 5_000_000);
        }
        return completion(text, body.model ?? 'fault-model');
      };
      switch (fault) {
        case null:
          return sendJson(res, 200, good());
        case '429':
          return sendJson(res, 429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after': String(this.opts.retryAfterSeconds ?? 1) });
        case '500':
        case '503':
          return sendJson(res, Number(fault), { error: { message: `injected ${fault}`, type: 'server_error', code: null } });
        case 'hang':
          // Never answered: the client times out (the socket is closed at close()), or after
          // hangMs the connection is dropped.
          if (this.opts.hangMs !== undefined) setTimeout(() => res.socket?.destroy(), this.opts.hangMs).unref();
          return;
        case 'reset': {
          const text = JSON.stringify(good());
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
          res.write(text.slice(0, Math.floor(text.length / 2)), () => res.socket?.destroy());
          return;
        }
        case 'truncated': {
          const text = JSON.stringify(good());
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(text.slice(0, Math.floor(text.length / 2)));
        }
        case 'malformed':
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end('<html>502 Bad Gateway</html>');
        case 'empty':
          return sendJson(res, 200, { ...completion('', body.model ?? 'fault-model'), choices: [] });
      }
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function completion(text: string, model: string) {
  return {
    id: 'chatcmpl-fault',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}
