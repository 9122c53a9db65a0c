// An HTTP strategy service (`url: http://127.0.0.1:8080/retrieve`): one POST per question with the
// protocol request as its JSON body; the reply body is the protocol response. A service that
// cannot be reached (refused, DNS, reset) is a failure of the environment, like a model server
// that is down: the question is not recorded, the run's circuit breaker counts it and `--resume`
// runs it later. A reply with an HTTP error status, or one that is not JSON, is that question's
// error record. Requests go only to the configured URL.
import { ProviderError } from '../models/providers/openai-client.ts';
import { redactSecrets } from '../models/secrets.ts';
import { ProtocolError } from './protocol.ts';
import { abortReason } from './worker.ts';

export interface ServiceOptions {
  url: string;
  headers?: Record<string, string>;
  label: string;
}

/** Largest reply body read (bytes). */
const MAX_REPLY = 64 * 1024 * 1024;

export class StrategyService {
  constructor(private readonly opts: ServiceOptions) {}

  async request(request: object, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    const timeout = AbortSignal.timeout(timeoutMs);
    let res: Response;
    try {
      res = await fetch(this.opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...this.opts.headers },
        body: JSON.stringify(request),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        redirect: 'error',
      });
    } catch (err) {
      if (timeout.aborted) throw new Error(`no reply within ${timeoutMs} ms (timeoutMs)`);
      if (signal?.aborted) throw abortReason(signal);
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new ProviderError(`${this.opts.label}: ${this.opts.url} unreachable: ${cause?.code ?? cause?.message ?? (err as Error).message}`, { code: 'connection', retries: 0, retryable: true });
    }
    const text = await readCapped(res);
    if (!res.ok) throw new Error(redactSecrets(`the service answered HTTP ${res.status}${text.trim() ? `: ${text.trim().slice(0, 300)}` : ''}`));
    try {
      return JSON.parse(text);
    } catch {
      throw new ProtocolError(`the reply body is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
    }
  }
}

async function readCapped(res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_REPLY) throw new ProtocolError(`a reply of ${declared} bytes (at most ${MAX_REPLY})`);
  const buf = Buffer.from(await res.arrayBuffer());
  if (buf.length > MAX_REPLY) throw new ProtocolError(`a reply of ${buf.length} bytes (at most ${MAX_REPLY})`);
  return buf.toString('utf8');
}
