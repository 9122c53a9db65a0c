// The HTTP client under the openai SDK: the `fetch` it is given (its `fetch` option) sends each
// request with undici's request API over one keep-alive connection pool per process, instead of
// Node's built-in fetch, and hands the SDK the whole reply, already read, in a BufferedResponse
// (below): what the SDK reads of a Response, without a web stream around the bytes.
//
// Why: at high concurrency a run is bound by the CPU of its one event loop, and the built-in
// fetch (WHATWG Request/Response objects, web streams, abort-signal plumbing) was the largest
// single cost of a call. The SDK with p-limit against a loopback server, 4,000 calls at
// concurrency 64 with a 3 KB prompt: 1.18–1.28 ms of CPU and 175–182 MB RSS with the built-in
// fetch, 0.76–0.82 ms and 128–130 MB with this one (treebench's runner: docs/performance.md).
//
// What stays the same: the SDK builds every request (URL, headers, body) and reads every reply
// (status, headers, JSON, errors), and its signal aborts the request (its timeout and the run's
// interrupt). Connections are reused (keep-alive), with as many as the calls in flight need.
// What differs: the reply's body is read before the SDK gets it (chat and embedding replies are
// small JSON documents; the SDK's timeout now covers the body too), and redirects are not
// followed — an API answering a POST with a redirect is a base URL to fix (the error says so).
// Requests this client does not handle (a Request object, a streamed or form body) go to the
// built-in fetch.
import type { Agent, Dispatcher } from 'undici';
import { loadUndici, type UndiciParts } from './httpModules.ts';

/** One connection pool per process, shared by every client (chat and embeddings alike). */
let undici: { pool: Agent; request: UndiciParts['request']; Headers: UndiciParts['Headers'] } | null = null;

/**
 * A `fetch` for the openai SDK's `fetch` option (see the top of this file). undici is loaded
 * here, when a client is made, like the SDK itself (httpModules.ts): commands that call no model
 * do not load it, and a run does not load it while its first calls wait.
 */
export function pooledFetch(): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  if (!undici) {
    const { Agent: AgentClass, request, Headers } = loadUndici();
    // No timeouts of undici's own: the SDK's (model.timeoutMs, default 120 s) is the one the user set.
    undici = { pool: new AgentClass({ headersTimeout: 0, bodyTimeout: 0 }), request, Headers };
  }
  const { pool, request, Headers } = undici;
  return async (input, init = {}) => {
    const body = init.body;
    // (A Request is anything but a string or a URL: the global Request class is not touched, as
    // touching it loads Node's fetch, ~25 ms; see bin/vendor-globals.mjs.)
    if ((typeof input !== 'string' && !(input instanceof URL)) || (body != null && typeof body !== 'string' && !(body instanceof Uint8Array))) return fetch(input, init);
    const url = input instanceof URL ? input : new URL(input);
    const res = await request.call(pool, {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: (init.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod,
      headers: plainHeaders(init.headers),
      body: body ?? undefined,
      signal: init.signal ?? undefined,
    });
    const bytes = new Uint8Array(await res.body.arrayBuffer());
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else if (value !== undefined) headers.append(name, value);
    }
    return new BufferedResponse(bytes, res.statusCode, res.statusText ?? '', headers, String(input)) as unknown as Response;
  };
}

/** Statuses whose responses have no body by definition (a Response refuses one). */
const NO_BODY = new Set([204, 205, 304]);
/** UTF-8, dropping a leading byte-order mark and replacing bad bytes, as Response.text() does. */
const utf8 = new TextDecoder();

/**
 * A reply whose body is already in memory, with what the SDK reads of a Response: `ok`,
 * `status`, `headers`, `url`, `json()` and `text()`. A standard Response made around bytes in
 * hand still wraps them in a web stream (controller, reader, transfer plumbing) that `json()`
 * then reads back, a cost paid on every call. Without it, vector at concurrency 64 against the
 * loopback server (8 interleaved rounds of 2,000 calls): 1.83 ms of CPU per call instead of
 * 2.12, efficiency 0.830 instead of 0.778. The rest of Response (`body` as a stream,
 * `arrayBuffer`, `blob`, `clone`, ...) comes from a standard Response built on first use, so a
 * caller wanting the stream still gets one. Like a Response, the body can be read once.
 */
class BufferedResponse {
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = 'basic';
  #bytes: Uint8Array<ArrayBuffer> | null;
  #standard: Response | undefined;
  #used = false;

  constructor(
    bytes: Uint8Array<ArrayBuffer>,
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status <= 299;
    this.#bytes = NO_BODY.has(status) ? null : bytes;
  }

  get bodyUsed(): boolean {
    return this.#standard ? this.#standard.bodyUsed : this.#used;
  }
  /** The body as a stream; null when there is none, or once `text()` or `json()` has read it. */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#standard) return this.#standard.body;
    return this.#bytes && !this.#used ? this.standard().body : null;
  }

  async text(): Promise<string> {
    if (this.#standard) return this.#standard.text();
    return utf8.decode(this.take());
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.standard().arrayBuffer();
  }
  async blob(): Promise<Blob> {
    return this.standard().blob();
  }
  async formData(): Promise<FormData> {
    return this.standard().formData();
  }
  clone(): Response {
    return this.standard().clone();
  }

  /** The bytes, once: a second read fails as a Response's does. */
  private take(): Uint8Array<ArrayBuffer> {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#bytes ?? new Uint8Array(0);
  }
  /** A standard Response for what this one does not implement; from then on it holds the body. */
  private standard(): Response {
    if (!this.#standard) {
      if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
      this.#standard = new Response(this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers });
    }
    return this.#standard;
  }
}

/** Leading and trailing HTTP whitespace, which Headers strips from a value. */
const HTTP_WHITESPACE_ENDS = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * A request's headers for undici: names in lower case, a repeated name's values joined with ", "
 * as Headers joins them. (A Map: undici takes any iterable of pairs, and a name such as
 * `__proto__` stays a name.)
 */
function plainHeaders(headers: HeadersInit | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!headers) return out;
  // Any Headers (the SDK's class or another) and lists of pairs iterate as pairs; a record does not.
  const pairs = Symbol.iterator in headers ? (headers as Iterable<[string, string]>) : Object.entries(headers);
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    const trimmed = String(value).replace(HTTP_WHITESPACE_ENDS, '');
    const before = out.get(key);
    out.set(key, before === undefined ? trimmed : `${before}, ${trimmed}`);
  }
  return out;
}
