// Where a model client connects, and with which key: one resolution for every component that
// talks to a model server — the chat provider, the `openai:` embedder, the LLM judge (the run's
// `scoring.judge` and `rejudge --judge`), model-written node summaries (they use the run's chat
// provider), and anything else that builds a client (a model gateway for out-of-process
// strategies reuses inheritEndpoint and resolveEndpoint).
//
// The rule, in order:
//   1. a component's own `baseURL` (e.g. `scoring.judge.baseURL`, `--judge-base-url`);
//   2. else the run's `model.baseURL`: a judge or embedder configured without a server of its
//      own talks to the server the user configured for the run, never to a public default;
//   3. else OPENAI_BASE_URL;
//   4. else https://api.openai.com/v1, the documented default when nothing at all names a server.
// The key: the value of the env var the component names (`apiKeyEnv`); a component that names
// none (the default OPENAI_API_KEY) while inheriting the run's server uses the run's variable, so
// the key that server expects goes with it. No key and a non-OpenAI host: a placeholder (local
// servers need none, the SDK wants one). The key is registered for redaction wherever it appears.
import { redactSecrets, registerSecret } from './secrets.ts';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_API_KEY_ENV = 'OPENAI_API_KEY';
/** Sent to local servers that need no key: the SDK refuses to run without one. */
export const LOCAL_PLACEHOLDER_KEY = 'no-key-needed';

export interface EndpointSettings {
  /** Default: see the rule above. Local servers: e.g. http://localhost:11434/v1. */
  baseURL?: string;
  /** Default: the value of the env var named by apiKeyEnv. Never written to configs or records. */
  apiKey?: string;
  /** Env var holding the key (default OPENAI_API_KEY). */
  apiKeyEnv?: string;
}

export interface ResolvedEndpoint {
  baseURL: string;
  apiKey: string;
  /** True when talking to api.openai.com (a key is then mandatory). */
  isOpenAI: boolean;
  keySource: 'options' | 'env' | 'placeholder';
}

export class ProviderConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderConfigError';
  }
}

/**
 * A component's endpoint settings with the run's filled in (steps 1-2 of the rule): without a
 * base URL of its own it takes the run model's, and the run's key variable unless it names its
 * own. Everything else in `own` is kept as it is.
 */
export function inheritEndpoint<T extends EndpointSettings>(own: T, run: EndpointSettings | undefined): T {
  if (!run || own.baseURL) return own;
  const namesOwnKey = own.apiKeyEnv !== undefined && own.apiKeyEnv !== DEFAULT_API_KEY_ENV;
  const out: T = { ...own };
  if (run.baseURL) out.baseURL = run.baseURL;
  if (!namesOwnKey && run.apiKeyEnv) out.apiKeyEnv = run.apiKeyEnv;
  return out;
}

function isOpenAIHost(baseURL: string): boolean {
  let url: URL | undefined;
  try {
    url = new URL(baseURL);
  } catch {
    url = undefined;
  }
  // `localhost:8000` parses as a URL with scheme "localhost:"; only http(s) make sense here.
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ProviderConfigError(`baseURL "${redactSecrets(baseURL)}" is not a valid http(s) URL (expected e.g. http://localhost:8000/v1)`);
  }
  return url.hostname === 'api.openai.com';
}

/** Steps 3-4 of the rule and the key, for settings that inheritEndpoint already filled in. */
export function resolveEndpoint(opts: EndpointSettings, env: NodeJS.ProcessEnv = process.env): ResolvedEndpoint {
  const baseURL = (opts.baseURL || env.OPENAI_BASE_URL || OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const isOpenAI = isOpenAIHost(baseURL);
  const keyEnv = opts.apiKeyEnv || DEFAULT_API_KEY_ENV;
  let apiKey = opts.apiKey;
  let keySource: ResolvedEndpoint['keySource'] = 'options';
  if (!apiKey) {
    apiKey = env[keyEnv]?.trim() || undefined;
    keySource = 'env';
  }
  if (!apiKey) {
    if (isOpenAI) {
      throw new ProviderConfigError(
        `${keyEnv} is not set: export ${keyEnv}=<your key> to call ${baseURL}, or point model.baseURL ` +
          `(or OPENAI_BASE_URL) at a local OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio), ` +
          `or use provider: offline.`,
      );
    }
    apiKey = LOCAL_PLACEHOLDER_KEY;
    keySource = 'placeholder';
  }
  registerSecret(apiKey);
  return { baseURL, apiKey, isOpenAI, keySource };
}
