import { getEventListeners } from 'node:events';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  OpenAIChatProvider,
  ProviderConfigError,
  ProviderError,
  isReasoningModel,
  maxTokensFieldFor,
} from '../../../../harness/models/providers/openai.ts';
import { countChatTokens, countTokens } from '../../../../harness/models/tokenizer.ts';
import { FakeOpenAIServer, apiError, chatCompletion, useFakeOpenAIServer } from '../../../helpers/fake-openai-server.ts';
import type { ChatMessage } from '../../../../harness/types.ts';

// Built at run time so the fake key does not look like a committed secret.
const KEY = `sk-${'test-abcdefghijklmnopqrstuvwxyz0123456789'}`;
const CHAT = '/v1/chat/completions';
const messages: ChatMessage[] = [
  { role: 'system', content: 'You answer questions about documents. Reply with JSON.' },
  { role: 'user', content: 'Which section covers billing? Reply as {"answer": string}.' },
];

const server = useFakeOpenAIServer();
const savedEnv = { ...process.env };

beforeEach(() => {
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
});
afterEach(() => {
  process.env = { ...savedEnv };
});

const provider = (extra: Partial<ConstructorParameters<typeof OpenAIChatProvider>[0]> = {}) =>
  new OpenAIChatProvider({ model: 'gpt-4.1-mini', baseURL: server.baseURL, apiKey: KEY, retryBaseMs: 1, ...extra });

describe('OpenAIChatProvider request', () => {
  it('sends model, messages, temperature, response_format, max_tokens and the key as a Bearer header', async () => {
    server.chatReplies.push(chatCompletion('{"answer": "Billing"}', { prompt: 1234, completion: 56 }, { model: 'gpt-4.1-mini-2025-04-14' }));
    const res = await provider().chat(messages, { json: true, maxTokens: 300, task: 'answer' });

    const [req] = server.requestsTo(CHAT);
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body.model).toBe('gpt-4.1-mini');
    expect(req.body.messages).toEqual(messages);
    expect(req.body.temperature).toBe(0);
    expect(req.body.response_format).toEqual({ type: 'json_object' });
    expect(req.body.max_tokens).toBe(300);
    expect(req.body).not.toHaveProperty('max_completion_tokens');
    expect(req.body).not.toHaveProperty('task');

    expect(res.text).toBe('{"answer": "Billing"}');
    expect(res.model).toBe('gpt-4.1-mini-2025-04-14');
    expect(res.retries).toBe(0);
    expect(res.finishReason).toBe('stop');
  });

  it('takes token counts from the response usage, not from the tokenizer', async () => {
    server.chatReplies.push(chatCompletion('Billing', { prompt: 4321, completion: 99, cached: 4000 }));
    const res = await provider().chat(messages, {});
    // What the tokenizer would have said is very different: usage must win.
    expect(countChatTokens(messages, 'gpt-4.1-mini')).toBeLessThan(100);
    expect(countTokens('Billing')).toBeLessThan(5);
    expect(res.usage).toEqual({ inputTokens: 4321, outputTokens: 99, cachedInputTokens: 4000 });
  });

  it('returns no usage when the server reports none (the meter then counts)', async () => {
    server.chatReplies.push(chatCompletion('ok', null));
    const res = await provider().chat(messages, {});
    expect(res.text).toBe('ok');
    expect(res.usage).toBeUndefined();
  });

  it('omits response_format when the call does not ask for JSON, or json is switched off', async () => {
    await provider().chat(messages, {});
    await provider({ json: false }).chat(messages, { json: true });
    const reqs = server.requestsTo(CHAT);
    expect(reqs).toHaveLength(2);
    for (const r of reqs) expect(r.body).not.toHaveProperty('response_format');
  });

  it('lets the call temperature override the default, and extraBody add fields', async () => {
    await provider({ temperature: 0.3, extraBody: { top_k: 1, seed: 7 } }).chat(messages, { temperature: 0.9 });
    await provider({ temperature: 0.3 }).chat(messages, {});
    const [a, b] = server.requestsTo(CHAT);
    expect(a.body.temperature).toBe(0.9);
    expect(a.body.top_k).toBe(1);
    expect(a.body.seed).toBe(7);
    expect(b.body.temperature).toBe(0.3);
  });

  it('uses max_completion_tokens and no temperature for reasoning models', async () => {
    await provider({ model: 'gpt-5-mini' }).chat(messages, { maxTokens: 500 });
    await provider({ model: 'o4-mini' }).chat(messages, { maxTokens: 500 });
    for (const r of server.requestsTo(CHAT)) {
      expect(r.body.max_completion_tokens).toBe(500);
      expect(r.body).not.toHaveProperty('max_tokens');
      expect(r.body).not.toHaveProperty('temperature');
    }
    expect(isReasoningModel('gpt-5-chat-latest')).toBe(false);
    expect(maxTokensFieldFor('gpt-4o')).toBe('max_tokens');
    expect(maxTokensFieldFor('openai:o3')).toBe('max_completion_tokens');
  });

  it('lets options force the max tokens field', async () => {
    await provider({ maxTokensField: 'max_completion_tokens' }).chat(messages, { maxTokens: 42 });
    expect(server.requestsTo(CHAT)[0].body.max_completion_tokens).toBe(42);
  });
});

describe('OpenAIChatProvider retries', () => {
  it('retries a 500 and counts the attempt', async () => {
    server.chatReplies.push(apiError(500, 'upstream exploded'), chatCompletion('recovered', { prompt: 5, completion: 1 }));
    const res = await provider().chat(messages, {});
    expect(res.text).toBe('recovered');
    expect(res.retries).toBe(1);
    expect(server.requestsTo(CHAT)).toHaveLength(2);
  });

  it('retries 429 honouring retry-after-ms, and connection timeouts', async () => {
    server.chatReplies.push(
      apiError(429, 'slow down', { headers: { 'retry-after-ms': '5' } }),
      { ...chatCompletion('late'), delayMs: 1500 },
      chatCompletion('third time'),
    );
    const res = await provider({ timeoutMs: 300 }).chat(messages, {});
    expect(res.text).toBe('third time');
    expect(res.retries).toBe(2);
    expect(server.requestsTo(CHAT)).toHaveLength(3);
  });

  it('gives up after maxRetries with a ProviderError that says how many attempts it made', async () => {
    server.chatReplies.push(apiError(503, 'busy'), apiError(503, 'busy'), apiError(503, 'busy'), chatCompletion('never'));
    const err = await provider({ maxRetries: 2 })
      .chat(messages, {})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    const pe = err as ProviderError;
    expect(pe.status).toBe(503);
    expect(pe.retries).toBe(2);
    expect(pe.message).toContain('after 3 attempts');
    expect(pe.message).toContain('gpt-4.1-mini');
    expect(server.requestsTo(CHAT)).toHaveLength(3);
  });

  it('does not retry a plain 400, nor a 429 for an exhausted quota', async () => {
    server.chatReplies.push(apiError(400, 'messages is malformed'));
    await expect(provider().chat(messages, {})).rejects.toMatchObject({ info: { status: 400, retries: 0, retryable: false } });
    server.chatReplies.push(apiError(429, 'You exceeded your current quota', { code: 'insufficient_quota' }));
    await expect(provider().chat(messages, {})).rejects.toMatchObject({ info: { status: 429, retries: 0 } });
    expect(server.requestsTo(CHAT)).toHaveLength(2);
  });

  it('reports a refused connection with a hint, after retrying', async () => {
    const dead = await FakeOpenAIServer.start();
    const url = dead.baseURL;
    await dead.close();
    const p = new OpenAIChatProvider({ model: 'm', baseURL: url, maxRetries: 1, retryBaseMs: 1 });
    const err = (await p.chat(messages, {}).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.retries).toBe(1);
    expect(err.message).toMatch(/connection error/);
    expect(err.message).toMatch(/is the server running/);
  });

  it('stops when the caller aborts, with the caller’s reason', async () => {
    server.chatReplies.push({ ...chatCompletion('too late'), delayMs: 3000 });
    const ac = new AbortController();
    const reason = new Error('time budget spent');
    setTimeout(() => ac.abort(reason), 50);
    await expect(provider().chat(messages, { signal: ac.signal })).rejects.toBe(reason);
  });

  it('leaves no listener on the caller’s signal once a call is done (a run shares one signal)', async () => {
    const ac = new AbortController();
    const p = provider();
    for (let i = 0; i < 5; i++) await p.chat(messages, { signal: ac.signal });
    server.chatReplies.push(apiError(400, 'bad request'));
    await expect(p.chat(messages, { signal: ac.signal })).rejects.toThrow();
    expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
  });
});

describe('OpenAIChatProvider adapts to servers', () => {
  it('drops response_format after a 400 that names it, retries once, and remembers', async () => {
    server.chatReplies.push(
      apiError(400, "Invalid parameter: 'response_format' of type 'json_object' is not supported with this model.", { param: 'response_format' }),
      chatCompletion('{"answer": "x"}'),
      chatCompletion('{"answer": "y"}'),
    );
    const p = provider();
    const first = await p.chat(messages, { json: true });
    expect(first.text).toBe('{"answer": "x"}');
    expect(first.retries).toBe(1);
    expect(first.adaptations?.[0]).toMatch(/response_format dropped/);
    const second = await p.chat(messages, { json: true });
    expect(second.retries).toBe(0);
    const reqs = server.requestsTo(CHAT);
    expect(reqs).toHaveLength(3);
    expect(reqs[0].body.response_format).toEqual({ type: 'json_object' });
    expect(reqs[1].body).not.toHaveProperty('response_format');
    expect(reqs[2].body).not.toHaveProperty('response_format');
  });

  it('drops an unsupported temperature and switches to max_completion_tokens when asked', async () => {
    server.chatReplies.push(
      apiError(400, "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported."),
      apiError(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."),
      chatCompletion('fine'),
    );
    const res = await provider({ model: 'some-new-model' }).chat(messages, { maxTokens: 64 });
    expect(res.text).toBe('fine');
    expect(res.retries).toBe(2);
    const reqs = server.requestsTo(CHAT);
    expect(reqs[0].body).toMatchObject({ temperature: 0, max_tokens: 64 });
    expect(reqs[1].body).not.toHaveProperty('temperature');
    expect(reqs[2].body).toMatchObject({ max_completion_tokens: 64 });
    expect(reqs[2].body).not.toHaveProperty('max_tokens');
  });
});

describe('OpenAIChatProvider configuration and secrets', () => {
  it('never puts the API key in a thrown error, even when the server echoes the header', async () => {
    server.chatReplies.push((req) =>
      apiError(401, `Incorrect API key provided. You sent Authorization: ${req.headers.authorization} (key ${KEY}).`, { code: 'invalid_api_key' }),
    );
    const err = await provider()
      .chat(messages, {})
      .catch((e: unknown) => e);
    expect(server.requestsTo(CHAT)[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(err).toBeInstanceOf(ProviderError);
    const e = err as ProviderError;
    expect(e.status).toBe(401);
    expect(e.message).toMatch(/Incorrect API key/);
    for (const text of [e.message, String(e), e.stack ?? '', inspect(e, { depth: 10 }), JSON.stringify(e), JSON.stringify(e.info)]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('abcdefghijklmnop');
    }
  });

  it('reads the base URL and key from OPENAI_BASE_URL / OPENAI_API_KEY', async () => {
    process.env.OPENAI_BASE_URL = server.baseURL;
    process.env.OPENAI_API_KEY = KEY;
    const p = new OpenAIChatProvider({ model: 'local-llama' });
    expect(p.baseURL).toBe(server.baseURL);
    server.chatReplies.push(chatCompletion('from env'));
    expect((await p.chat(messages, {})).text).toBe('from env');
    expect(server.requestsTo(CHAT)[0].headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('sends a placeholder key to a local server when no key is set', async () => {
    const p = new OpenAIChatProvider({ model: 'local-llama', baseURL: server.baseURL });
    await p.chat(messages, {});
    expect(server.requestsTo(CHAT)[0].headers.authorization).toBe('Bearer no-key-needed');
  });

  it('fails fast with a clear config error when OpenAI itself is the target and no key is set', () => {
    expect(() => new OpenAIChatProvider({ model: 'gpt-4o' })).toThrow(ProviderConfigError);
    expect(() => new OpenAIChatProvider({ model: 'gpt-4o' })).toThrow(/OPENAI_API_KEY is not set/);
    expect(() => new OpenAIChatProvider({ model: 'gpt-4o', baseURL: 'https://api.openai.com/v1', apiKeyEnv: 'MY_KEY' })).toThrow(
      /MY_KEY is not set/,
    );
  });

  it('reads the key from a custom apiKeyEnv', async () => {
    process.env.TREEBENCH_TEST_KEY = 'custom-key-value-123456';
    await new OpenAIChatProvider({ model: 'm', baseURL: server.baseURL, apiKeyEnv: 'TREEBENCH_TEST_KEY' }).chat(messages, {});
    expect(server.requestsTo(CHAT)[0].headers.authorization).toBe('Bearer custom-key-value-123456');
  });

  it('rejects an invalid baseURL by name', () => {
    expect(() => new OpenAIChatProvider({ model: 'm', baseURL: 'localhost:8000' })).toThrow(/baseURL "localhost:8000" is not a valid http\(s\) URL/);
  });

  it('hints at /v1 on a 404', async () => {
    const p = new OpenAIChatProvider({ model: 'm', baseURL: server.baseURL.replace(/\/v1$/, ''), apiKey: KEY });
    await expect(p.chat(messages, {})).rejects.toThrow(/404.*\/v1/);
  });

  it('reports a redirect as a base URL to fix, without following it or retrying', async () => {
    server.chatReplies.push({ status: 308, headers: { location: 'https://elsewhere.invalid/v1/chat/completions' }, body: '' });
    const err = (await provider().chat(messages, {}).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toMatch(/308.*the server redirects: set baseURL/);
    expect(err.retries).toBe(0);
    expect(server.requestsTo(CHAT)).toHaveLength(1);
  });
});
