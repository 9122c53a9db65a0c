// A lean loopback server speaking OpenAI's chat-completions and embeddings protocols, for the
// HTTP efficiency and second-run benchmarks (bench/http-efficiency.ts, bench/second-run.ts). Every reply waits a fixed latency and then returns the
// same small completion with usage, so the harness never needs to count output tokens. Unlike
// test/helpers/fake-openai-server.ts it records nothing, so its memory stays flat over any
// number of requests. Its content parses for every strategy's JSON prompts: no node chosen
// (`node_list: []`, so node-list falls back to value search) and an answer.
//
//   node bin/run-ts.mjs test/bench/loopback-openai-server.ts --latency 100   → prints {"port":N}
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const CONTENT = JSON.stringify({ thinking: 'loopback', node_list: [], answer: 'unknown', choice: 0, sufficient: true, score: 0.5 });
const BODY = JSON.stringify({
  id: 'chatcmpl-loopback',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'loopback',
  choices: [{ index: 0, message: { role: 'assistant', content: CONTENT }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
});

/** A deterministic 64-dimensional vector for a text (a seeded walk over its characters). */
function embedText(text: string): number[] {
  const v = new Array<number>(64).fill(0);
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    v[(h >>> 0) % 64] += 1;
  }
  v[0] += 0.5;
  return v;
}

export function startLoopbackServer(latencyMs: number, port = 0): Promise<Server> {
  let connections = 0;
  let embeddingRequests = 0;
  const server = createServer({ keepAlive: true, keepAliveTimeout: 60_000 }, (req, res) => {
    // GET /stats: connections accepted so far (does the client reuse its sockets?).
    if (req.method === 'GET' && req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ connections, embeddingRequests }));
      return;
    }
    if (req.url?.endsWith('/embeddings')) {
      embeddingRequests++;
      const parts: Buffer[] = [];
      req.on('data', (d: Buffer) => parts.push(d));
      req.on('end', () => {
        const input = (JSON.parse(Buffer.concat(parts).toString('utf8')) as { input: string[] }).input;
        const body = JSON.stringify({
          object: 'list',
          model: 'loopback-embed',
          data: input.map((text, index) => ({ object: 'embedding', index, embedding: embedText(text) })),
          usage: { prompt_tokens: input.length * 100, total_tokens: input.length * 100 },
        });
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
          res.end(body);
        }, latencyMs);
      });
      return;
    }
    // Drain the request body, answer after the latency.
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) });
        res.end(BODY);
      }, latencyMs);
    });
  });
  server.on('connection', () => connections++);
  server.keepAliveTimeout = 60_000;
  server.maxRequestsPerSocket = 0;
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const i = process.argv.indexOf('--latency');
  const latency = i > 0 ? Number(process.argv[i + 1]) : 100;
  const server = await startLoopbackServer(latency);
  process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n');
}
