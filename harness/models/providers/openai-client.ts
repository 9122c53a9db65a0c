// What the OpenAI chat provider and embedder share: the endpoint (base URL and key, resolved by
// harness/models/endpoint.ts), building the SDK client, a counted retry loop, and turning SDK
// errors into ProviderErrors with no secrets in them.
//
// Retries are ours, not the SDK's (the client is built with maxRetries: 0): the SDK does not say
// how many attempts a request took, and every call log records its retries.
import { inspect } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import type OpenAI from 'openai';
import { redactSecrets } from '../secrets.ts';
import { pooledFetch } from './pooledFetch.ts';
import { loadOpenAI } from './httpModules.ts';
import { ProviderConfigError, type EndpointSettings, type ResolvedEndpoint } from '../endpoint.ts';

// Base URL and key resolution is shared by every model client: harness/models/endpoint.ts.
export { DEFAULT_API_KEY_ENV, LOCAL_PLACEHOLDER_KEY, OPENAI_DEFAULT_BASE_URL, ProviderConfigError } from '../endpoint.ts';


// The SDK is loaded on first use, synchronously (httpModules.ts): it takes tens of milliseconds
// that `treebench --help`, reports and offline runs do not need. Every value use below goes
// through sdk(), so clients and the error classes checked come from one copy.
let loadedSdk: typeof OpenAI | undefined;
function sdk(): typeof OpenAI {
  if (loadedSdk) return loadedSdk;
  try {
    loadedSdk = loadOpenAI();
  } catch (err) {
    // An optional peer dependency of the library (the offline quickstart needs none; the
    // command's bundle carries its own copy).
    if ((err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') throw new ProviderConfigError('the openai provider and embedder need the "openai" package: npm install openai@6');
    throw err;
  }
  return loadedSdk;
}

export interface OpenAIConnectionOptions extends EndpointSettings {
  /** Retries after the first attempt, for timeouts, connection errors, 408/409/429/5xx. Default 2. */
  maxRetries?: number;
  /** Per-attempt timeout. Default 120 000 ms. */
  timeoutMs?: number;
  /** First backoff delay; doubles per retry, ±25 % jitter. Default 500 ms. */
  retryBaseMs?: number;
  /** Longest wait between attempts, also caps a server's Retry-After. Default 30 000 ms. */
  retryMaxMs?: number;
}

/** A failed model call. The message is redacted; no SDK error (which may echo headers) is attached. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly info: {
      status?: number;
      code?: string;
      /** Extra attempts made before giving up. */
      retries: number;
      retryable: boolean;
      aborted?: boolean;
    },
  ) {
    super(redactSecrets(message));
    this.name = 'ProviderError';
  }
  get status(): number | undefined {
    return this.info.status;
  }
  get retries(): number {
    return this.info.retries;
  }
}

/** The SDK's logger, with secrets scrubbed from everything it prints. */
const redactingLogger = {
  error: (...args: unknown[]) => console.error(redactSecrets(format(args))),
  warn: (...args: unknown[]) => console.warn(redactSecrets(format(args))),
  info: (...args: unknown[]) => console.info(redactSecrets(format(args))),
  debug: (...args: unknown[]) => console.debug(redactSecrets(format(args))),
};
const format = (args: unknown[]) => args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 4 }))).join(' ');

export function createClient(conn: ResolvedEndpoint, opts: OpenAIConnectionOptions): OpenAI {
  const OpenAISdk = sdk();
  return new OpenAISdk({
    apiKey: conn.apiKey,
    baseURL: conn.baseURL,
    maxRetries: 0,
    timeout: opts.timeoutMs ?? 120_000,
    logger: redactingLogger,
    fetch: pooledFetch(),
  });
}

// ---------------------------------------------------------------------------------------------
// Retries

interface Classified {
  retryable: boolean;
  status?: number;
  code?: string;
  aborted?: boolean;
  /** Server-requested wait (Retry-After / retry-after-ms), in ms. */
  retryAfterMs?: number;
  message: string;
}

export function classifyError(err: unknown): Classified {
  if (err instanceof sdk().APIUserAbortError) return { retryable: false, aborted: true, message: 'request aborted' };
  if (err instanceof sdk().APIConnectionTimeoutError) return { retryable: true, code: 'timeout', message: 'request timed out' };
  if (err instanceof sdk().APIConnectionError) {
    const cause = (err as { cause?: { message?: string; code?: string; cause?: { code?: string } } }).cause;
    const detail = cause?.cause?.code ?? cause?.code ?? cause?.message;
    return { retryable: true, code: 'connection', message: `connection error${detail ? ` (${detail})` : ''}` };
  }
  if (err instanceof sdk().APIError) {
    const status = err.status;
    const headers = err.headers;
    const code = err.code ?? undefined;
    const should = headers?.get('x-should-retry');
    let retryable = status !== undefined && (status === 408 || status === 409 || status === 429 || status >= 500);
    if (code === 'insufficient_quota') retryable = false; // an empty account does not refill by waiting
    if (should === 'true') retryable = true;
    if (should === 'false') retryable = false;
    return { retryable, status, code, retryAfterMs: retryAfter(headers), message: err.message };
  }
  if (err instanceof Error && err.name === 'AbortError') return { retryable: false, aborted: true, message: 'request aborted' };
  // A 200 whose body is cut short or is not JSON (a proxy's HTML page, a dropped connection the
  // server closed cleanly): the same request succeeds later.
  if (err instanceof SyntaxError) return { retryable: true, code: 'malformed-body', message: `malformed response body (${err.message.slice(0, 120)})` };
  if (err instanceof IncompleteResponseError) return { retryable: true, code: 'incomplete-response', message: err.message };
  // The connection died while the body was streaming in (undici: TypeError "terminated", with
  // the socket error as its cause).
  const socketCode = socketErrorCode(err);
  if (socketCode) return { retryable: true, code: 'connection', message: `connection lost mid-response (${socketCode})` };
  return { retryable: false, message: err instanceof Error ? err.message : String(err) };
}

/** A well-formed reply that carries no answer (e.g. 200 with empty `choices`): retried. */
export class IncompleteResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IncompleteResponseError';
  }
}

const SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CLOSED', 'ETIMEDOUT']);

function socketErrorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && SOCKET_CODES.has(code)) return code;
    if (depth === 0 && e instanceof TypeError && /^(terminated|fetch failed|other side closed)$/i.test(e.message)) {
      const inner = socketErrorCode((e as { cause?: unknown }).cause);
      return inner ?? e.message;
    }
  }
  return undefined;
}

function retryAfter(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  const s = Number.parseFloat(raw);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/**
 * Runs one request with a signal of its own that follows `parent`. The SDK adds an abort
 * listener to the signal it is given and never removes it (`{ once: true }` only goes once
 * fired): handed the run's long-lived signal, every call would leave a listener holding its
 * request's AbortController — memory that grows with the run, and each `addEventListener`
 * slower than the last, as it scans the listeners already there.
 */
export async function withRequestSignal<T>(parent: AbortSignal | undefined, fn: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (!parent) return fn(undefined);
  parent.throwIfAborted();
  const own = new AbortController();
  const follow = () => own.abort(parent.reason);
  parent.addEventListener('abort', follow, { once: true });
  try {
    return await fn(own.signal);
  } finally {
    parent.removeEventListener('abort', follow);
  }
}

export interface RetryOptions {
  maxRetries: number;
  baseMs: number;
  maxMs: number;
  signal?: AbortSignal;
  /** Prefix for error messages, e.g. `openai chat "gpt-4o" at http://...`. */
  what: string;
  /**
   * Called on a non-retryable error before giving up: return true after changing the request
   * (e.g. dropping response_format) to try again once more. Does not use up maxRetries.
   */
  adapt?: (err: Classified) => boolean;
}

/**
 * Runs `fn` until it succeeds, a non-retryable error occurs, or maxRetries retries are spent.
 * Each attempt gets a signal of its own that follows `opts.signal` (withRequestSignal), to hand
 * to the SDK. Returns the value and the number of extra attempts (retries and adaptations) made.
 */
export async function withRetries<T>(fn: (signal: AbortSignal | undefined) => Promise<T>, opts: RetryOptions): Promise<{ value: T; retries: number }> {
  let retries = 0;
  let transient = 0;
  for (;;) {
    opts.signal?.throwIfAborted();
    try {
      return { value: await withRequestSignal(opts.signal, fn), retries };
    } catch (err) {
      const c = classifyError(err);
      if (c.aborted || opts.signal?.aborted) {
        const reason: unknown = opts.signal?.reason;
        if (reason instanceof Error) throw reason;
        throw new ProviderError(`${opts.what}: request aborted`, { retries, retryable: false, aborted: true });
      }
      if (!c.retryable && opts.adapt?.(c)) {
        retries++;
        continue;
      }
      if (!c.retryable || transient >= opts.maxRetries) {
        const after = retries > 0 ? ` (after ${retries + 1} attempts)` : '';
        throw new ProviderError(`${opts.what}: ${c.message}${hint(c)}${after}`, {
          status: c.status,
          code: c.code,
          retries,
          retryable: c.retryable,
        });
      }
      const backoff = Math.min(opts.baseMs * 2 ** transient, opts.maxMs) * (1 - Math.random() * 0.25);
      const wait = c.retryAfterMs !== undefined ? Math.min(c.retryAfterMs, opts.maxMs) : backoff;
      transient++;
      retries++;
      try {
        await sleep(wait, undefined, { signal: opts.signal });
      } catch {
        const reason: unknown = opts.signal?.reason;
        if (reason instanceof Error) throw reason;
        throw new ProviderError(`${opts.what}: request aborted`, { retries, retryable: false, aborted: true });
      }
    }
  }
}

function hint(c: Classified): string {
  if (c.status === 401) return ' (check the API key in the env var named by model.apiKeyEnv, default OPENAI_API_KEY)';
  if (c.status === 404) return ' (check the model name, and that baseURL ends with the API root, usually /v1)';
  if (c.code === 'connection') return ' (is the server running and reachable at baseURL?)';
  if (c.status !== undefined && c.status >= 300 && c.status < 400) return ' (the server redirects: set baseURL to the address it redirects to, e.g. https://…)';
  return '';
}
