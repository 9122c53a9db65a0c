// Secrets never reach records, caches, reports or logs (DESIGN.md, "Conventions"). Every module
// that writes text a user or a file will see (errors, call logs, manifests) runs it through
// redactSecrets first. It removes:
//   - the values of OPENAI_API_KEY and of every key registered with registerSecret (a provider
//     registers the key it actually uses, which may come from a custom `apiKeyEnv`),
//   - anything shaped like an OpenAI-style key (`sk-...`, `sk-proj-...`) or a model gateway
//     question key (`tbq_...`),
//   - bearer tokens and Authorization / api-key header values, in header, JSON or query form,
//   - passwords in URLs (`https://user:pass@host`).

export const REDACTED = '[REDACTED]';

/** Secrets shorter than this are not registered: replacing every "abc" in a text helps nobody. */
const MIN_SECRET_LENGTH = 8;

const registered = new Set<string>();

/** Remembers a secret value (e.g. the API key a provider was built with) so it is redacted everywhere. */
export function registerSecret(value: string | undefined | null): void {
  if (typeof value === 'string' && value.trim().length >= MIN_SECRET_LENGTH) registered.add(value.trim());
}

/** Env vars whose values are always redacted, whether or not a provider registered them. */
const SECRET_ENV_VARS = ['OPENAI_API_KEY', 'AZURE_OPENAI_API_KEY', 'OPENROUTER_API_KEY', 'TOGETHER_API_KEY'];

type Replacer = string | ((match: string, ...groups: string[]) => string);

// Each pattern with a literal that every match of it contains (null: not worth checking): a text
// without the literal is not scanned. The URL pattern, which may start at any letter, cost half of
// redacting a record line; most lines hold no `://`.
const PATTERNS: Array<[RegExp, Replacer, string | null]> = [
  // Authorization: Bearer xyz / "authorization": "Bearer xyz" / Authorization=xyz
  // (A value that is already [REDACTED] is left alone, so redacting twice changes nothing.)
  [/(\bauthorization\b["']?\s*[:=]\s*["']?)(?!(?:bearer\s+|basic\s+)?\[REDACTED\])(?:bearer\s+|basic\s+)?[^\s"',;}\]]+/gi, (_m, p1) => `${p1}${REDACTED}`, null],
  // api-key / x-api-key / api_key / apikey as a quoted field ("api_key": "…"), an assignment or
  // query parameter (api_key=…), or a header (x-api-key: …). A header value must look like a key
  // (8+ characters with a digit): "model.apiKey: API keys must never be written in a config" is
  // a message about the field, not a key, and stays readable.
  [/(\b(?:x-)?api[-_]?key\b["']?\s*:\s*["'])(?!\[REDACTED\])[^"'\n]+/gi, (_m, p1) => `${p1}${REDACTED}`, null],
  [/(\b(?:x-)?api[-_]?key\b["']?\s*=\s*["']?)(?!\[REDACTED\])[^\s"',;&}\]]+/gi, (_m, p1) => `${p1}${REDACTED}`, null],
  [/(\b(?:x-)?api[-_]?key\b\s*:\s*)(?!\[REDACTED\])(?=[^\s"',;&}\]]*\d)[^\s"',;&}\]]{8,}/gi, (_m, p1) => `${p1}${REDACTED}`, null],
  // Bearer tokens anywhere else
  [/\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, `Bearer ${REDACTED}`, null],
  // OpenAI-style keys: sk-..., sk-proj-..., sk-svcacct-... — but not a run id of a config named
  // "sk" (sk-20261203-064043Z, sk-20261203-064043Z-2), which would hide the run folder's name.
  [/\bsk-(?!\d{8}-\d{6}Z(?:-\d+)?(?![A-Za-z0-9_-]))[A-Za-z0-9_-]{8,}/g, REDACTED, null],
  // The model gateway's per-question keys (harness/plugins/gateway.ts)
  [/\btbq_[0-9a-f]{48}\b/g, REDACTED, 'tbq_'],
  // user:password@ in URLs
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/:@]+:[^\s/@]+@/gi, (_m, p1) => `${p1}${REDACTED}@`, '://'],
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Returns `text` with every known secret and every key-shaped string replaced by [REDACTED]. */
export function redactSecrets(text: string): string {
  if (!text) return text;
  let out = text;
  const literal = new Set(registered);
  for (const name of SECRET_ENV_VARS) {
    const v = process.env[name]?.trim();
    if (v && v.length >= MIN_SECRET_LENGTH) literal.add(v);
  }
  // Longest first, so a key that contains another registered key is removed whole.
  for (const secret of [...literal].sort((a, b) => b.length - a.length)) {
    if (out.includes(secret)) out = out.replace(new RegExp(escapeRegExp(secret), 'g'), REDACTED);
  }
  for (const [re, replacement, literal] of PATTERNS) {
    if (literal !== null && !out.includes(literal)) continue;
    out = typeof replacement === 'string' ? out.replace(re, replacement) : out.replace(re, replacement);
  }
  return out;
}

/**
 * Deep-redacts every string inside a JSON-like value (records, manifests, call logs). Returns a
 * copy; non-plain objects (Float32Array, Date) are passed through untouched.
 */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactDeep(v);
    return out as T;
  }
  return value;
}
