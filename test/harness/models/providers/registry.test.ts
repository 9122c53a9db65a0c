import { afterEach, describe, expect, it } from 'vitest';
import {
  ModelConfigError,
  createEmbedder,
  createProvider,
  knownProviders,
  modelConfigSchema,
  parseModelConfig,
  pricingModel,
  registerProvider,
} from '../../../../harness/models/providers/registry.ts';
import { OfflineReasoner } from '../../../../harness/models/providers/offline.ts';
import { OpenAIChatProvider } from '../../../../harness/models/providers/openai.ts';
import { HashEmbedder } from '../../../../harness/models/embedders/hash.ts';
import { OpenAIEmbedder } from '../../../../harness/models/embedders/openai.ts';
import { chatCompletion, useFakeOpenAIServer } from '../../../helpers/fake-openai-server.ts';

const server = useFakeOpenAIServer();
const savedEnv = { ...process.env };
afterEach(() => {
  process.env = { ...savedEnv };
});

describe('modelConfigSchema', () => {
  it('fills the defaults: offline provider, OPENAI_API_KEY, temperature 0, json on', () => {
    expect(modelConfigSchema.parse({})).toEqual({ provider: 'offline', apiKeyEnv: 'OPENAI_API_KEY', temperature: 0, json: true });
    const cfg = parseModelConfig({ provider: 'openai', model: 'gpt-4.1-mini', priceAs: 'gpt-4.1-mini', maxRetries: 4, timeoutMs: 30000 });
    expect(cfg).toMatchObject({ provider: 'openai', model: 'gpt-4.1-mini', maxRetries: 4, timeoutMs: 30000, temperature: 0, json: true });
  });

  it('lists the known providers for an unknown one', () => {
    expect(() => parseModelConfig({ provider: 'anthropic' })).toThrow(ModelConfigError);
    expect(() => parseModelConfig({ provider: 'anthropic' })).toThrow('model.provider: unknown provider "anthropic"; known providers: offline, openai');
  });

  it('refuses API keys in the config without repeating them', () => {
    const key = `sk-${'live-0123456789abcdefghij'}`;
    for (const raw of [{ provider: 'openai', model: 'm', apiKey: key }, { provider: 'openai', model: 'm', api_key: key }, { provider: 'openai', model: 'm', apiKeyEnv: key }]) {
      let msg = '';
      try {
        parseModelConfig(raw);
      } catch (e) {
        msg = (e as Error).message;
      }
      expect(msg).toMatch(/model\.(apiKey|api_key|apiKeyEnv): /);
      expect(msg).toMatch(/never be written in a config|NAME of an environment variable/);
      expect(msg).not.toContain(key);
    }
  });

  it('names bad fields: missing model for openai, typos, ranges, latency on a real model', () => {
    expect(() => parseModelConfig({ provider: 'openai' })).toThrow(/model\.model: model is required with provider "openai"/);
    expect(() => parseModelConfig({ provider: 'openai', model: 'm', temprature: 1 })).toThrow(/temprature/);
    expect(() => parseModelConfig({ temperature: 5 })).toThrow(/model\.temperature/);
    expect(() => parseModelConfig({ baseURL: 'localhost:8000' })).toThrow(/model\.baseURL: baseURL must be an http\(s\) URL/);
    expect(() => parseModelConfig({ provider: 'openai', model: 'm', latency: { meanMs: 10 } })).toThrow(/model\.latency: .*offline/);
    expect(() => parseModelConfig({ latency: { meanMs: -1 } }, 'configs/x.yaml model')).toThrow(/configs\/x\.yaml model\.latency\.meanMs/);
  });
});

describe('createProvider', () => {
  it('builds the offline reasoner by default, with its latency settings', () => {
    const p = createProvider({});
    expect(p).toBeInstanceOf(OfflineReasoner);
    expect(p.offline).toBe(true);
    expect(p.id).toBe('offline-reasoner');
    expect(createProvider({ provider: 'offline', latency: { meanMs: 1, seed: 3 } })).toBeInstanceOf(OfflineReasoner);
  });

  it('builds an OpenAI provider that talks to the configured server with the configured settings', async () => {
    process.env.TREEBENCH_REGISTRY_KEY = 'registry-test-key-0001';
    const p = createProvider({ provider: 'openai', model: 'qwen2.5-7b', baseURL: server.baseURL, apiKeyEnv: 'TREEBENCH_REGISTRY_KEY', json: false });
    expect(p).toBeInstanceOf(OpenAIChatProvider);
    expect(p.offline).toBe(false);
    expect(p.id).toBe('qwen2.5-7b');
    server.chatReplies.push(chatCompletion('{"answer":"ok"}', { prompt: 9, completion: 2 }));
    const res = await p.chat([{ role: 'user', content: 'hi, reply in JSON' }], { json: true });
    expect(res.text).toBe('{"answer":"ok"}');
    const req = server.requests.at(-1)!;
    expect(req.headers.authorization).toBe('Bearer registry-test-key-0001');
    expect(req.body.model).toBe('qwen2.5-7b');
    expect(req.body.temperature).toBe(0);
    expect(req.body).not.toHaveProperty('response_format'); // json: false in the config
  });

  it('surfaces the missing-key error for OpenAI itself', () => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    expect(() => createProvider({ provider: 'openai', model: 'gpt-4o' })).toThrow(/OPENAI_API_KEY is not set/);
  });

  it('accepts registered providers in front of the built-ins', async () => {
    registerProvider({
      name: 'echo',
      test: (id) => id === 'echo' || id.startsWith('echo:'),
      create: (id) => ({ id, offline: true, chat: async (m) => ({ text: m.at(-1)!.content, model: id }) }),
    });
    expect(knownProviders()).toContain('echo');
    const p = createProvider({ provider: 'echo', model: 'x' });
    expect(p.id).toBe('echo:x');
    expect((await p.chat([{ role: 'user', content: 'ping' }], {})).text).toBe('ping');
  });

  it('prices as priceAs when given, else as the provider id', () => {
    const p = createProvider({});
    expect(pricingModel(parseModelConfig({ priceAs: 'gpt-4.1-mini' }), p)).toBe('gpt-4.1-mini');
    expect(pricingModel(parseModelConfig({}), p)).toBe('offline-reasoner');
  });
});

describe('createEmbedder', () => {
  it('builds hash and openai:<model> embedders', () => {
    const h = createEmbedder('hash', { dim: 64 });
    expect(h).toBeInstanceOf(HashEmbedder);
    expect(h.dim).toBe(64);
    expect(createEmbedder()).toBeInstanceOf(HashEmbedder);
    const o = createEmbedder('openai:text-embedding-3-small', { baseURL: server.baseURL });
    expect(o).toBeInstanceOf(OpenAIEmbedder);
    expect(o.id).toBe('openai:text-embedding-3-small');
    expect(o.dim).toBe(1536);
  });

  it('lists the known embedders for an unknown one', () => {
    expect(() => createEmbedder('glove')).toThrow('unknown embedder "glove"; known embedders: hash, openai:<model>');
    expect(() => createEmbedder('openai:')).toThrow(/unknown embedder/);
  });
});
