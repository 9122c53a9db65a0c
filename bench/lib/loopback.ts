// The loopback OpenAI-compatible server (test/bench/loopback-openai-server.ts) as the benches use
// it: started in its own process, its port read from its first line, its /stats read over a fresh
// connection each time (no agent: a kept-alive socket would be closed by the server while a long
// piece runs, and the next read would fail).
import { spawn, type ChildProcess } from 'node:child_process';
import { get } from 'node:http';

export interface Loopback {
  port: number;
  process: ChildProcess;
  /** The server's counters (connections, embeddingRequests, …). */
  stats(): Promise<Record<string, number>>;
  stop(): void;
}

export async function startLoopback(latencyMs: number): Promise<Loopback> {
  const server = spawn(process.execPath, ['bin/run-ts.mjs', 'test/bench/loopback-openai-server.ts', '--latency', String(latencyMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port: number = await new Promise((resolve, reject) => {
    server.stdout!.once('data', (d: Buffer) => resolve((JSON.parse(d.toString()) as { port: number }).port));
    server.once('exit', (code) => reject(new Error(`loopback server exited (${code})`)));
  });
  const stats = () =>
    new Promise<Record<string, number>>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/stats', agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d)).on('end', () => resolve(JSON.parse(body) as Record<string, number>));
      }).on('error', reject);
    });
  return { port, process: server, stats, stop: () => server.kill() };
}
