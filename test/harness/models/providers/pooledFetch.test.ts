// pooledFetch, the fetch the openai SDK is given: what a request carries and what comes back
// must be what the built-in fetch would send and return (checked side by side against the same
// server), connections are reused, and what it does not handle goes to the built-in fetch.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pooledFetch as makeFetch } from '../../../../harness/models/providers/pooledFetch.ts';

const pooledFetch = makeFetch();

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  socket: number;
}

// A byte-order mark, text, a byte that is not UTF-8 and a character cut short at the end.
const RAW = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a": "é€"} '), Buffer.from([0xff, 0xe2, 0x82])]);

let server: Server;
let base = '';
const seen: Seen[] = [];
let sockets = 0;

beforeAll(async () => {
  server = createServer({ keepAlive: true }, (req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      const socketId = (req.socket as unknown as { id: number }).id;
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(parts).toString('utf8'), socket: socketId });
      if (req.url === '/empty') return void res.writeHead(204).end();
      if (req.url === '/moved') return void res.writeHead(301, { location: `${base}/elsewhere` }).end();
      if (req.url === '/raw') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(RAW);
      if (req.url === '/slow') return void setTimeout(() => res.writeHead(200).end('late'), 5_000).unref();
      const reply = JSON.stringify({ echo: Buffer.concat(parts).toString('utf8'), text: 'é€𝄞 中' });
      res.writeHead(req.url === '/teapot' ? 418 : 200, { 'content-type': 'application/json', 'x-request-id': 'req-1', 'set-cookie': ['a=1', 'b=2'] });
      res.end(reply);
    });
  });
  server.on('connection', (s) => ((s as unknown as { id: number }).id = ++sockets));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (path: string, body: string, extra: RequestInit = {}): [string, RequestInit] => [
  `${base}${path}`,
  { method: 'post', headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer k-123', 'x-custom': 'v' }), body, ...extra },
];

describe('pooledFetch', () => {
  it('sends and returns what the built-in fetch does', async () => {
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'é€𝄞 中 "quoted"' }] });
    for (const path of ['/v1/chat/completions', '/teapot']) {
      seen.length = 0;
      const ours = await pooledFetch(...post(path, body));
      const theirs = await fetch(...post(path, body));
      const [a, b] = seen;
      expect({ method: a!.method, url: a!.url, body: a!.body }).toEqual({ method: b!.method, url: b!.url, body: b!.body });
      expect(a!.method).toBe('POST'); // lower-case method names are sent upper-case, as fetch does
      for (const h of ['content-type', 'authorization', 'x-custom', 'content-length']) expect(a!.headers[h]).toBe(b!.headers[h]);
      expect(ours.status).toBe(theirs.status);
      expect(ours.ok).toBe(theirs.ok);
      expect(ours.headers.get('x-request-id')).toBe('req-1');
      expect(ours.headers.get('content-type')).toBe(theirs.headers.get('content-type'));
      expect(ours.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
      expect(await ours.json()).toEqual(await theirs.json());
    }
  });

  it('reads a body as a Response does: text, JSON, once only; the stream and the rest on demand', async () => {
    const both = async () => [await pooledFetch(`${base}/raw`), await fetch(`${base}/raw`)] as const;
    let [ours, theirs] = await both();
    expect(await ours.text()).toBe(await theirs.text()); // BOM dropped, bad bytes replaced
    expect(ours.bodyUsed).toBe(true);
    const again = await Promise.allSettled([ours.text(), theirs.text()]);
    expect(again.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((again[0] as PromiseRejectedResult).reason)).toMatch(/already been read/);
    await expect(ours.arrayBuffer()).rejects.toThrow(/already been read/);
    await expect(theirs.arrayBuffer()).rejects.toThrow(TypeError);

    [ours, theirs] = await both();
    expect(new Uint8Array(await ours.arrayBuffer())).toEqual(new Uint8Array(await theirs.arrayBuffer()));
    [ours, theirs] = await both();
    const copy = ours.clone();
    expect(await copy.text()).toBe(await theirs.clone().text());
    expect(await new Response(ours.body).text()).toBe(await new Response(theirs.body).text());

    // Malformed JSON rejects with the SyntaxError the retry classifier looks for.
    [ours, theirs] = await both();
    const parsed = await Promise.allSettled([ours.json(), theirs.json()]);
    expect(parsed.map((r) => r.status === 'rejected' && r.reason instanceof SyntaxError)).toEqual([true, true]);
    expect(ours.url).toBe(theirs.url);
  });

  it('reuses its connections (keep-alive) and opens about as many as the requests in flight', async () => {
    // (The pool may hold connections from the tests before: count the ones opened here.)
    let before = sockets;
    for (let i = 0; i < 20; i++) await (await pooledFetch(...post('/one-by-one', `{"i":${i}}`))).text();
    expect(sockets - before).toBeLessThanOrEqual(1);
    // 40 requests, 8 in flight at a time: about 8 new connections (one per request would be 40).
    // A request made as its predecessor's reply is read may find that connection not yet free.
    seen.length = 0;
    before = sockets;
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; i < 5; i++) await (await pooledFetch(...post('/eight-at-a-time', `{"w":${w},"i":${i}}`))).text();
      }),
    );
    expect(seen).toHaveLength(40);
    expect(sockets - before).toBeLessThanOrEqual(12);
  });

  it('gives a body-less status no body, and does not follow a redirect', async () => {
    const empty = await pooledFetch(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    seen.length = 0;
    const moved = await pooledFetch(...post('/moved', '{}'));
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`${base}/elsewhere`);
    expect(seen.map((s) => s.url)).toEqual(['/moved']);
  });

  it('stops a request when its signal aborts', async () => {
    const controller = new AbortController();
    const pending = pooledFetch(`${base}/slow`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const t0 = performance.now();
    await expect(pending).rejects.toThrow(/abort/i);
    expect(performance.now() - t0).toBeLessThan(2_000);
  });

  it('fails a refused connection with the socket error code', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(pooledFetch(`http://127.0.0.1:${port}/v1/models`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('leaves a Request object or a streamed body to the built-in fetch', async () => {
    seen.length = 0;
    const viaRequest = await pooledFetch(new Request(`${base}/as-request`, { method: 'POST', body: '{"r":1}' }));
    expect((await viaRequest.json()).echo).toBe('{"r":1}');
    const stream = new Blob(['{"s":', '2}']).stream();
    const viaStream = await pooledFetch(`${base}/as-stream`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect((await viaStream.json()).echo).toBe('{"s":2}');
    expect(seen.map((s) => s.url)).toEqual(['/as-request', '/as-stream']);
  });
});
