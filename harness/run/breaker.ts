// The run's circuit breaker: when the environment, not the strategy, is failing, stop launching
// work instead of burning through every question. Two trips:
//   - an authentication error (401/403, a missing or revoked key): no later call can succeed;
//   - N consecutive connection failures (server down, DNS, refused), each after its retries.
// Failures of the environment (these two, and calls aborted by Ctrl-C) never become error
// records: the work is "not run" and a resume picks it up. Any success resets the count.
import { ProviderError } from '../models/providers/openai-client.ts';

export type FailureKind = 'auth' | 'connection' | 'aborted' | 'other';

/** What kind of failure ended a task (looks through `cause` chains). */
export function classifyFailure(err: unknown): FailureKind {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ProviderError) {
      if (e.info.aborted) return 'aborted';
      if (e.info.status === 401 || e.info.status === 403 || e.info.code === 'invalid_api_key') return 'auth';
      if (e.info.code === 'connection' || e.info.code === 'timeout') return 'connection';
      return 'other';
    }
    if (e instanceof Error && (e.name === 'AbortError' || (e as { code?: string }).code === 'ABORT_ERR')) return 'aborted';
  }
  return 'other';
}

/** True when a failure of this kind means the work was not really run (resumable). */
export const isEnvironmentFailure = (kind: FailureKind): boolean => kind !== 'other';

export class CircuitBreaker {
  private consecutive = 0;
  /** Why the breaker tripped, or null while it is closed. */
  reason: string | null = null;

  constructor(readonly maxConsecutiveConnectionFailures: number) {}

  get open(): boolean {
    return this.reason !== null;
  }

  /** Feeds one finished task: its failure kind (null = it succeeded or failed on its own). */
  record(kind: FailureKind | null, message = ''): void {
    if (kind === 'auth') {
      this.reason ??= `authentication failed: the server refused the API key (check the key in the env var named by model.apiKeyEnv, default OPENAI_API_KEY); every later call would fail too: ${message}`;
      return;
    }
    if (kind === 'connection') {
      this.consecutive++;
      if (this.consecutive >= this.maxConsecutiveConnectionFailures) {
        this.reason ??= `${this.consecutive} consecutive connection failures (run.maxConsecutiveFailures = ${this.maxConsecutiveConnectionFailures}): ${message}`;
      }
      return;
    }
    this.consecutive = 0;
  }
}
