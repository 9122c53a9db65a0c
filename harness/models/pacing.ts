// Pacing a provider's requests under the server's rate limits, instead of hammering them and
// living on 429s. OpenAI (and vLLM/LiteLLM proxies that copy it) say where a client stands in
// every reply: `x-ratelimit-limit-requests` / `-remaining-requests` / `-reset-requests` (time
// until the bucket is full again, e.g. "1s", "6m0s", "20ms"), the same for tokens, and
// `retry-after` on a 429.
//
// The pacer is a token bucket mirroring the server's. Each reply sets the bucket from the server's
// figures — remaining, minus the requests still in flight (they may not be counted yet: erring
// low costs a little speed, erring high costs 429s) — and its refill rate from how long the server
// says it needs to refill what is used ((limit − remaining) / reset). A request takes a token or
// waits for the next one. Tokens per minute are paced the same way, a request costing the mean
// tokens of the requests seen so far. A 429 empties the bucket and holds every request until the
// server's retry-after. Before the first reply with figures nothing is held: a server that sends
// no headers is not paced (retries and retry-after still apply, harness/models/providers/openai-client.ts).

export interface PacingStats {
  /** Requests the pacer let through. */
  requests: number;
  /** Replies with status 429 (refused for rate). */
  refused: number;
  /** Time requests spent held by the pacer, summed over requests (ms). */
  waitedMs: number;
  /** Requests that were held at all. */
  held: number;
  /** Whether the server sent rate-limit headers (false: nothing was paced). */
  paced: boolean;
}

/** "6m0s", "1.5s", "20ms", "2h" → ms (OpenAI's reset format), or a bare number of seconds. */
export function parseResetMs(raw: string | null | undefined): number | undefined {
  if (!raw) return undefined;
  const s = raw.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * 1000;
  let total = 0;
  let matched = false;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    matched = true;
    const n = Number(m[1]);
    total += m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n * 3_600_000;
  }
  return matched ? total : undefined;
}

interface Bucket {
  tokens: number;
  /** Refill per ms. */
  rate: number;
  capacity: number;
  at: number;
}

/** Headers as the SDK and fetch give them. */
export interface HeaderSource {
  get(name: string): string | null;
}

export class Pacer {
  readonly stats: PacingStats = { requests: 0, refused: 0, waitedMs: 0, held: 0, paced: false };
  private requests: Bucket | null = null;
  private tokens: Bucket | null = null;
  private inFlight = 0;
  private holdUntil = 0;
  private tokensSeen = 0;
  private repliesWithUsage = 0;
  /** Requests wait in order: each takes its token after the one before it. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Waits until a request may go; returns the ms it waited. Call `done` with its reply after. */
  async acquire(signal?: AbortSignal): Promise<number> {
    const start = this.now();
    const turn = this.queue.then(() => this.waitForToken(signal));
    // A failed wait (aborted) must not block the requests behind it.
    this.queue = turn.catch(() => {});
    await turn;
    this.inFlight++;
    this.stats.requests++;
    const waited = this.now() - start;
    if (waited > 1) {
      this.stats.waitedMs += waited;
      this.stats.held++;
    }
    return waited;
  }

  private async waitForToken(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const now = this.now();
      let wait = this.holdUntil - now;
      for (const [bucket, cost] of [[this.requests, 1], [this.tokens, this.meanTokens()]] as const) {
        if (!bucket || cost <= 0) continue;
        refill(bucket, now);
        if (bucket.tokens < Math.min(cost, bucket.capacity)) wait = Math.max(wait, bucket.rate > 0 ? (Math.min(cost, bucket.capacity) - bucket.tokens) / bucket.rate : 1000);
      }
      if (wait <= 0) {
        if (this.requests) this.requests.tokens -= 1;
        if (this.tokens) this.tokens.tokens -= this.meanTokens();
        return;
      }
      await sleep(Math.min(Math.ceil(wait), 60_000), signal);
    }
  }

  private meanTokens(): number {
    return this.repliesWithUsage ? this.tokensSeen / this.repliesWithUsage : 0;
  }

  /**
   * A reply came back (or failed): its status and headers update the buckets. `tokensUsed` is
   * the reply's usage (input + output), when it had one.
   */
  done(status: number | undefined, headers: HeaderSource | undefined, opts: { retryAfterMs?: number; tokensUsed?: number } = {}): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    const now = this.now();
    if (opts.tokensUsed && opts.tokensUsed > 0) {
      this.tokensSeen += opts.tokensUsed;
      this.repliesWithUsage++;
    }
    if (status === 429) {
      this.stats.refused++;
      // Held only as long as the server says: a bare 429 is left to the request's own backoff
      // (holding everything on a guess would stall a run against a flaky proxy).
      const hold = opts.retryAfterMs ?? parseResetMs(headers?.get('x-ratelimit-reset-requests'));
      if (hold !== undefined) this.holdUntil = Math.max(this.holdUntil, now + hold);
      if (this.requests) {
        this.requests.tokens = Math.min(this.requests.tokens, 0);
        this.requests.at = now;
      }
    }
    if (!headers) return;
    this.requests = this.fromHeaders(headers, 'requests', this.requests, now);
    this.tokens = this.fromHeaders(headers, 'tokens', this.tokens, now);
  }

  private fromHeaders(h: HeaderSource, kind: 'requests' | 'tokens', bucket: Bucket | null, now: number): Bucket | null {
    const limit = Number(h.get(`x-ratelimit-limit-${kind}`));
    const remaining = Number(h.get(`x-ratelimit-remaining-${kind}`));
    if (!Number.isFinite(remaining) || h.get(`x-ratelimit-remaining-${kind}`) === null) return bucket;
    this.stats.paced = true;
    const capacity = Number.isFinite(limit) && limit > 0 ? limit : Math.max(remaining, bucket?.capacity ?? 0);
    const reset = parseResetMs(h.get(`x-ratelimit-reset-${kind}`));
    // The server refills (capacity − remaining) in `reset`; without one, assume a per-minute limit.
    const rate = reset && reset > 0 && capacity > remaining ? (capacity - remaining) / reset : (bucket?.rate ?? capacity / 60_000);
    // Requests in flight may not be counted in `remaining` yet: count them as spent.
    const inFlight = kind === 'requests' ? this.inFlight : this.inFlight * this.meanTokens();
    const tokens = remaining - inFlight;
    if (bucket) refill(bucket, now);
    // Take the lower of what the server says and what the pacer already thought was left: a reply
    // that left the server before others arrived says more is left than is.
    return { tokens: bucket ? Math.min(bucket.tokens, tokens) : tokens, rate, capacity, at: now };
  }
}

function refill(b: Bucket, now: number): void {
  if (now > b.at) {
    b.tokens = Math.min(b.capacity, b.tokens + (now - b.at) * b.rate);
    b.at = now;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
